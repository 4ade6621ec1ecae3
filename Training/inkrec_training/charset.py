"""The character sets of the recognizer's output layer.

Index 0 is the CTC blank; characters follow in the order below. The Swift engine reads the
same list from the model's `config.json`, never from this file.

Three sets exist:

- ``"western"`` (165 characters): printable ASCII, the Latin-1 letters and Œ œ Ÿ € ¡ ¿ « ». The
  en-US network up to 1.3.x was trained on it.
- ``"latin"`` (260 characters): ``"western"`` followed by the letters of every Latin-script language
  the shared Latin network reads (Central and Eastern European, Baltic, Turkish, Romanian, Icelandic;
  not Vietnamese) and the typographic punctuation of their running text („ “ ” ‚ ‘ ’ – — … · £ ° §).
  It starts with ``"western"`` in the same order, so a western network's head rows are the first
  rows of a latin one (``latin train --init-from`` grows the head).
- ``"vietnamese"`` (358 characters): ``"latin"`` followed by the 49 Vietnamese letters it lacks (ơ ư, the
  vowels with hook above or dot below, the stacked circumflex, breve and horn forms), each uppercase
  before its lowercase. The Vietnamese network is the Latin one with these head rows added, so it
  still reads Latin-script words.
- ``"cyrillic"`` (353 characters): ``"latin"`` followed by the 46 letters of the Cyrillic alphabets the kit
  writes (Russian, Ukrainian, Bulgarian, Macedonian, Serbian: ``writing.alphabets``), each uppercase before
  its lowercase, and №. The Cyrillic network starts from the Latin one with these head rows added and
  keeps reading Latin letters, digits and punctuation (mixed-script text: names, units, brands).
- ``"greek"`` (329 characters): ``"latin"`` followed by the 69 Greek letters of ``el`` (with tonos and
  dialytika, final ς; capitals with tonos), for a Greek network built the same way (not trained yet).

``for_language(code)`` names the set a wordfreq language's letters need.

``select(name)`` makes one of them the module's ``CHARACTERS`` / ``INDEX`` / ``NUM_CLASSES``; the
default is ``"western"``. Callers read the attributes at call time (``charset.INDEX``), never copy them
at import.
"""
from __future__ import annotations

_ASCII = [chr(c) for c in range(32, 127)]
_LATIN1 = [chr(c) for c in range(0xC0, 0x100) if chr(c) not in "\u00d7\u00f7"]
_EXTRA = list("\u0152\u0153\u0178\u20ac\u00a1\u00bf\u00ab\u00bb")

WESTERN: list[str] = _ASCII + _LATIN1 + _EXTRA

# Lowercase letters beyond Latin-1, each with its uppercase (ı's uppercase is I, İ's lowercase is i).
_LATIN_LOWER = "āăąćčďđēėęěğģīįķĺļľłńņňŋőŕřśşšťūůűųźżžșț"
_LATIN_EXTENDED = [c for pair in zip(_LATIN_LOWER.upper(), _LATIN_LOWER) for c in pair] + ["\u0131", "\u0130"]
_PUNCTUATION = list("\u201e\u201c\u201d\u201a\u2018\u2019\u2013\u2014\u2026\u00b7\u00a3\u00b0\u00a7")
LATIN: list[str] = WESTERN + _LATIN_EXTENDED + _PUNCTUATION

# Vietnamese letters beyond the latin set: a ă â e ê i o ô ơ u ư y with the five tones, ơ ư themselves.
_VIETNAMESE_LOWER = "ảạằắẳẵặầấẩẫậẻẽẹềếểễệỉĩịỏọồốổỗộơờớởỡợủũụưừứửữựỳỷỹỵ"
VIETNAMESE: list[str] = LATIN + [c for pair in zip(_VIETNAMESE_LOWER.upper(), _VIETNAMESE_LOWER) for c in pair]

# Cyrillic letters of ru uk bg mk sr (alphabetical by code point, as alphabets.ALPHABETS spells them).
_CYRILLIC_LOWER = "абвгдежзийклмнопрстуфхцчшщъыьэюяёђѓєѕіїјљњћќџґ"
CYRILLIC: list[str] = LATIN + [c for pair in zip(_CYRILLIC_LOWER.upper(), _CYRILLIC_LOWER) for c in pair] + ["\u2116"]
CYRILLIC_LANGUAGES = ("ru", "uk", "bg", "mk", "sr")

# Greek letters of el: the lowercase alphabet with ς and the tonos and dialytika letters, then the capitals.
_GREEK_LOWER = "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ"
GREEK: list[str] = LATIN + list(_GREEK_LOWER) + [c.upper() for c in _GREEK_LOWER
                                                 if len(c.upper()) == 1 and c.upper() != c and c != "ς"]

SETS = {"western": WESTERN, "latin": LATIN, "vietnamese": VIETNAMESE, "cyrillic": CYRILLIC, "greek": GREEK}


def for_language(code: str) -> str:
    """The name of the character set that writes wordfreq language ``code`` (``sr``: Serbian in Cyrillic;
    ``sh`` is its Latin spelling)."""
    if code == "vi":
        return "vietnamese"
    if code == "el":
        return "greek"
    return "cyrillic" if code in CYRILLIC_LANGUAGES else "latin"

BLANK = 0
CHARACTERS: list[str] = WESTERN
INDEX: dict[str, int] = {}
NUM_CLASSES = 0
NAME = "western"


def select(name: str) -> None:
    """Make ``SETS[name]`` the current character set."""
    global CHARACTERS, INDEX, NUM_CLASSES, NAME
    if name not in SETS:
        raise ValueError(f"unknown character set {name!r}: {sorted(SETS)}")
    NAME = name
    CHARACTERS = SETS[name]
    INDEX = {c: i + 1 for i, c in enumerate(CHARACTERS)}
    NUM_CLASSES = len(CHARACTERS) + 1


select("western")


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in text]


def decode(ids) -> str:
    return "".join(CHARACTERS[i - 1] for i in ids if i > 0)


def covers(text: str) -> bool:
    return all(c in INDEX for c in text)
