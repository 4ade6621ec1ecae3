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
  dialytika, final ς; capitals with tonos), for the Greek network built the same way.
- ``"hangul"`` (327 characters): ``"latin"`` followed by the 67 conjoining jamo; a Korean label is written
  as its syllables' canonical decompositions (``hangul_labels``), which the engine composes back into
  syllables after decoding (the model's ``"textForm": "hangul-jamo"``).
- ``"hangul-syllables"`` (2,610 characters): ``"latin"`` followed by the 2,350 KS X 1001 syllables, for the
  syllable network the jamo network is compared with (``Docs/scripts.md``, "Korean").

- ``"devanagari"`` (341 characters): ``"latin"`` followed by the Devanagari of Hindi
  (vowels, consonants, vowel signs, signs, nukta, virama, avagraha, digits ०–९, । ॥), text in logical order.
- ``"bengali"`` (331 characters): ``"latin"`` followed by the Bengali of ``bn`` (vowels, consonants, khanda ta,
  vowel signs, signs, nukta, hasanta, digits ০–৯, । ॥), NFC text in logical order.
- ``"tamil"`` (319 characters): ``"latin"`` followed by the Tamil of ``ta`` (vowels, consonants with the Grantha
  letters, aytham, vowel signs, au length mark, pulli, digits ௦–௯), NFC text in logical order.

- ``"thai"`` (344 characters): ``"latin"`` followed by the Thai of ``th`` (consonants, leading and following
  vowels, sara am, vowel signs above and below, tone marks, thanthakhat, nikhahit, yamakkan, ๆ ฯ, digits ๐–๙, ฿),
  NFC text in logical order.

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

# Korean, two ways (issue 39 compares them): the 67 conjoining jamo (19 initial consonants U+1100–U+1112, 21
# vowels U+1161–U+1175, 27 final consonants U+11A8–U+11C2), a syllable being its jamo in writing order (its
# canonical decomposition, NFD) and composed again after decoding; or the 2,350 precomposed syllables of
# KS X 1001 (EUC-KR's Hangul rows B0–C8), one class each, as a CJK network reads Han characters.
HANGUL_JAMO_CHARS: list[str] = ([chr(c) for c in range(0x1100, 0x1113)] + [chr(c) for c in range(0x1161, 0x1176)]
                                + [chr(c) for c in range(0x11A8, 0x11C3)])
HANGUL: list[str] = LATIN + HANGUL_JAMO_CHARS
HANGUL_SYLLABLES: list[str] = LATIN + [bytes([hi, lo]).decode("euc_kr") for hi in range(0xB0, 0xC9)
                                       for lo in range(0xA1, 0xFF)]

# Hebrew (he): the 22 letters and 5 final forms (U+05D0–U+05EA), geresh and gershayim (abbreviations, ת״א),
# the maqaf (Hebrew hyphen) and the shekel sign; no vowel points (everyday handwriting has none).
HEBREW_LETTERS = [chr(c) for c in range(0x05D0, 0x05EB)]
HEBREW: list[str] = LATIN + HEBREW_LETTERS + ["\u05F3", "\u05F4", "\u05BE", "\u20AA"]

# Arabic script (ar, fa, ur on one network): the letters of the three alphabets (hamza carriers, Persian پ چ ژ
# گ ک ی, Urdu ٹ ڈ ڑ ں ہ ھ ے ۓ), Arabic-Indic and Persian digits, and the Arabic comma, semicolon and question
# mark. Labels are the letters in logical order, never presentation forms; no harakat.
ARABIC_LETTERS = list(dict.fromkeys("ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي" "پچژگکی" "ٹڈڑںہھےۓ"))
ARABIC: list[str] = LATIN + ARABIC_LETTERS + list("٠١٢٣٤٥٦٧٨٩" "۰۱۲۳۴۵۶۷۸۹" "،؛؟")

# Devanagari (hi): independent vowels (ऍ ऑ for English loans, ॲ Marathi), the consonants
# क–ह (U+0915–0939, with ऩ ऱ ळ ऴ), the vowel signs, candrabindu, anusvara, visarga, nukta, virama, avagraha,
# Devanagari digits and the dandas. Labels are Unicode text in logical order, NFC (a nukta letter is its
# consonant followed by the nukta, as NFC writes क़ ज़ फ़), never glyphs.
DEVANAGARI_LETTERS = (list("अआइईउऊऋएऐओऔऍऑॲ") + [chr(c) for c in range(0x0915, 0x093A)] + list("ािीुूृेैोौॅॉ")
                      + list("ँंः") + ["\u093C", "\u094D", "\u093D"])
DEVANAGARI: list[str] = LATIN + DEVANAGARI_LETTERS + list("०१२३४५६७८९" "।॥")

# Bengali (bn): independent vowels, the consonants ক–হ, khanda ta ৎ, the vowel signs, candrabindu, anusvara,
# visarga, nukta (ড় ঢ় য় are consonant + nukta in NFC), hasanta; Bengali digits and the dandas (U+0964/0965, shared
# with Devanagari). Tamil (ta): vowels, consonants (with the Grantha ஜ ஶ ஷ ஸ ஹ), aytham, the vowel signs (ொ ோ ௌ
# as NFC composes them), the au length mark, pulli, Tamil digits. Labels are Unicode text in logical order, NFC.
BENGALI_LETTERS = (list("অআইঈউঊঋএঐওঔ") + [chr(c) for c in range(0x0995, 0x09BA)
                                         if c not in (0x09A9, 0x09B1, 0x09B3, 0x09B4, 0x09B5)]
                   + ["\u09CE"] + list("ািীুূৃেৈোৌ") + list("ঁংঃ") + ["\u09BC", "\u09CD"])
BENGALI: list[str] = LATIN + BENGALI_LETTERS + list("০১২৩৪৫৬৭৮৯" "।॥")
TAMIL_LETTERS = (list("அஆஇஈஉஊஎஏஐஒஓஔ") + list("கஙசஜஞடணதநனபமயரறலளழவஶஷஸஹ") + ["\u0B83"]
                 + list("ாிீுூெேைொோௌ") + ["\u0BD7", "\u0BCD"])
TAMIL: list[str] = LATIN + TAMIL_LETTERS + list("௦௧௨௩௪௫௬௭௮௯")

# Thai (th): the consonants ก–ฮ (with ฤ ฦ), the leading vowels เ แ โ ใ ไ, ะ า ๅ, sara am ำ, the vowel signs above
# (ั ิ ี ึ ื ็) and below (ุ ู ฺ), the tone marks ่ ้ ๊ ๋, thanthakhat ์, nikhahit ํ, yamakkan ๎, mai yamok ๆ,
# paiyannoi ฯ, then the Thai digits ๐–๙ and the baht sign ฿. Labels are Unicode text in logical order (which for
# Thai is the visual order: a leading vowel before its consonant), NFC, a tone mark after the vowel it stands on.
THAI_LETTERS = ([chr(c) for c in range(0x0E01, 0x0E2F)] + list("เแโใไ") + list("ะาๅ") + ["\u0E33"]
                + list("\u0E31\u0E34\u0E35\u0E36\u0E37\u0E47") + list("\u0E38\u0E39\u0E3A")
                + list("\u0E48\u0E49\u0E4A\u0E4B") + list("\u0E4C\u0E4D\u0E4E") + ["\u0E46", "\u0E2F"])
THAI: list[str] = LATIN + THAI_LETTERS + list("๐๑๒๓๔๕๖๗๘๙") + ["\u0E3F"]

SETS = {"western": WESTERN, "latin": LATIN, "vietnamese": VIETNAMESE, "cyrillic": CYRILLIC, "greek": GREEK,
        "hangul": HANGUL, "hangul-syllables": HANGUL_SYLLABLES, "hebrew": HEBREW,
        "arabic": ARABIC, "devanagari": DEVANAGARI, "bengali": BENGALI, "tamil": TAMIL,
        "thai": THAI}


# The languages whose letters need a set of their own (the others: Cyrillic or Latin). Hindi alone writes
# Devanagari here: wordfreq has no mr or ne list, so no other Devanagari language has text to train on.
_OWN_SETS = {"vi": "vietnamese", "el": "greek", "ko": "hangul", "he": "hebrew", "ar": "arabic", "fa": "arabic",
             "ur": "arabic", "hi": "devanagari", "bn": "bengali", "ta": "tamil", "th": "thai"}


def for_language(code: str) -> str:
    """The name of the character set that writes wordfreq language ``code`` (``sr``: Serbian in Cyrillic;
    ``sh`` is its Latin spelling)."""
    return _OWN_SETS.get(code) or ("cyrillic" if code in CYRILLIC_LANGUAGES else "latin")


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


def hangul_labels(text: str) -> str:
    """``text`` with each precomposed Hangul syllable written as its conjoining jamo (NFD), other characters
    as they are: the labels of the ``"hangul"`` set."""
    import unicodedata
    return "".join(unicodedata.normalize("NFD", c) if 0xAC00 <= ord(c) <= 0xD7A3 else c for c in text)


def hangul_text(labels: str) -> str:
    """Jamo labels composed back into syllables (NFC of the jamo runs): ``hangul_labels``' inverse."""
    import unicodedata
    return unicodedata.normalize("NFC", labels)


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in text]


def decode(ids) -> str:
    return "".join(CHARACTERS[i - 1] for i in ids if i > 0)


def covers(text: str) -> bool:
    return all(c in INDEX for c in text)
