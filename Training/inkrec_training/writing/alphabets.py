"""Each language's letters, and which script they belong to.

``ALPHABETS[code]`` is the lowercase alphabet of a language the kit makes models for (its capitals are
``str.upper`` of each letter), ``SCRIPTS[code]`` its ISO 15924 script. ``script_of(c)`` names the script of
one character from its Unicode name, so a word list can drop words written in another script (Latin
brand names in Russian text, Cyrillic noise in Greek text).
"""
from __future__ import annotations

import unicodedata

from .. import charset

# The word letters of the Indic scripts and Thai: the character sets' letters (``charset.DEVANAGARI_LETTERS``
# and its kin, each described there), without the digits and dandas, which are not word letters.
_DEVANAGARI = "".join(charset.DEVANAGARI_LETTERS)
_BENGALI = "".join(charset.BENGALI_LETTERS)
_TAMIL = "".join(charset.TAMIL_LETTERS)
_THAI = "".join(charset.THAI_LETTERS)

ALPHABETS: dict[str, str] = {
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "uk": "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя",
    "bg": "абвгдежзийклмнопрстуфхцчшщъьюя",
    "mk": "абвгдѓежзѕијклљмнњопрстќуфхцчџш",
    "sr": "абвгдђежзијклљмнњопрстћуфхцчџш",
    "el": "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
    "he": "אבגדהוזחטיכךלמםנןסעפףצץקרשת",
    "ar": "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي",
    "fa": "آاأبپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیئء",
    "ur": "آابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیےئۓ",
    "vi": "aăâbcdđeêghiklmnoôơpqrstuưvxy" "àáãảạằắẳẵặầấẩẫậèéẻẽẹềếểễệìíỉĩịòóỏõọồốổỗộờớởỡợùúủũụừứửữựỳýỷỹỵ",
    # Devanagari: independent vowels, consonants क–ह, vowel signs, candrabindu anusvara visarga, nukta,
    # virama, avagraha (a word is written with these; digits and dandas are not word letters).
    # Hindi only: wordfreq has no Marathi or Nepali list (``mr`` answers with Hindi's, ``ne`` with English's),
    # so no text exists here to train or measure either on.
    "hi": _DEVANAGARI,
    "bn": _BENGALI,
    "ta": _TAMIL,
    "th": _THAI,
}
# Letters a language writes inside words besides its alphabet (Ukrainian's apostrophe: м'ясо, п’ять).
WORD_MARKS: dict[str, str] = {"uk": "'\u2019"}

SCRIPTS: dict[str, str] = {"ru": "Cyrl", "uk": "Cyrl", "bg": "Cyrl", "mk": "Cyrl", "sr": "Cyrl", "el": "Grek",
                           "ko": "Hang", "vi": "Latn", "he": "Hebr",
                           "ar": "Arab", "fa": "Arab", "ur": "Arab", "hi": "Deva",
                           "bn": "Beng", "ta": "Taml", "th": "Thai"}

_PREFIX = {"CYRILLIC": "Cyrl", "GREEK": "Grek", "HANGUL": "Hang", "LATIN": "Latn", "HEBREW": "Hebr", "ARABIC": "Arab",
           "DEVANAGARI": "Deva", "BENGALI": "Beng", "TAMIL": "Taml",
           "THAI": "Thai"}


def script_of(c: str) -> str | None:
    """The script of letter ``c`` (Arab, Beng, Cyrl, Deva, Grek, Hang, Hebr, Latn, Taml, Thai), or None for other
    characters."""
    name = unicodedata.name(c, "")
    return _PREFIX.get(name.split(" ")[0])


def is_hangul_syllable(c: str) -> bool:
    return 0xAC00 <= ord(c) <= 0xD7A3


def letters(code: str) -> str:
    """Lowercase and uppercase letters of ``code``'s alphabet (Korean: none listed; see ``is_hangul_syllable``)."""
    a = ALPHABETS.get(code, "")
    upper = "".join(c.upper() for c in a if len(c.upper()) == 1 and c.upper() != c)
    return "".join(dict.fromkeys(a + upper))


def writes(code: str, word: str) -> bool:
    """Whether ``word`` is written only in ``code``'s letters (and its in-word marks, not first or last)."""
    if not word:
        return False
    if code == "ko":
        return all(is_hangul_syllable(c) for c in word)
    allowed = set(letters(code))
    marks = WORD_MARKS.get(code, "")
    return all(c in allowed or (c in marks and 0 < i < len(word) - 1) for i, c in enumerate(word))
