"""What the per-language LM builder needs to know of each language it builds.

For every wordfreq language whose letters the ``"latin"`` character set holds (Vietnamese in the
``"vietnamese"`` set; Russian, Ukrainian, Bulgarian, Macedonian and Serbian in the ``"cyrillic"`` set and
Greek in the ``"greek"`` set, their words from ``writing.text``: Serbian Cyrillic transliterated from wordfreq's
``sh``, Greek with its final ς): its own letters (beyond
ASCII), the quotation marks of its running text, the elided words wordfreq splits off ("l'" in
French), how its letters are uppercased (Turkish dotted and dotless i), and whether numbers use a
decimal comma. ``alphabet(code)`` is the LM's alphabet: printable ASCII, the language's letters in both
cases, and the typographic punctuation of its running text, in its character set's order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from inkrec_training import charset

ASCII = [chr(c) for c in range(32, 127)]
# Typographic punctuation any language's running text may use: apostrophe, dashes, ellipsis, €.
COMMON_PUNCTUATION = "\u2019\u2013\u2014\u2026\u20ac"


@dataclass(frozen=True)
class Language:
    name: str
    letters: str                      # lowercase letters beyond ASCII (uppercase added)
    quotes: tuple[str, str]           # the running text's quotation marks (open, close)
    extra: str = ""                   # more characters (punctuation, signs)
    elided: tuple[str, ...] = ()      # words wordfreq splits off before an apostrophe ("l" of "l'homme")
    decimal_comma: bool = True        # 3,14 and 1.000 (False: 3.14 and 1,000)
    currency: str = "\u20ac"
    turkish_i: bool = False           # i -> İ and ı -> I when uppercasing
    capitalized_mid: float = 0.12     # share of Capitalized words inside a sentence
    notes: str = ""


_FR_ELIDED = ("l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "presqu")

LANGUAGES: dict[str, Language] = {
    "ca": Language("Catalan", "àçèéíïòóúü", ("\u00ab", "\u00bb"), extra="\u00b7", elided=("l", "d", "m", "n", "s", "t")),
    "cs": Language("Czech", "áčďéěíňóřšťúůýž", ("\u201e", "\u201c")),
    "da": Language("Danish", "æøåé", ("\u00bb", "\u00ab")),
    "de": Language("German", "äöüß", ("\u201e", "\u201c"), extra="\u201a\u2018", capitalized_mid=0.30,
                   notes="wordfreq's words are lowercased, so nouns cannot be told apart: 30% of words inside a "
                         "sentence are Capitalized"),
    "en": Language("English", "àâäçèéêëîïñôöûüœæ", ("\u201c", "\u201d"), extra="\u2018\u00a3", decimal_comma=False,
                   currency="$"),
    "es": Language("Spanish", "áéíñóúü", ("\u00ab", "\u00bb"), extra="\u00a1\u00bf\u201c\u201d"),
    "fi": Language("Finnish", "äöåšž", ("\u201d", "\u201d")),
    "fil": Language("Filipino", "ñ", ("\u201c", "\u201d"), decimal_comma=False, currency="\u20b1"),
    "fr": Language("French", "àâæçéèêëîïôœùûüÿ", ("\u00ab ", " \u00bb"), elided=_FR_ELIDED),
    "hu": Language("Hungarian", "áéíóöőúüű", ("\u201e", "\u201d")),
    "id": Language("Indonesian", "", ("\u201c", "\u201d"), currency="Rp"),
    "is": Language("Icelandic", "áðéíóúýþæö", ("\u201e", "\u201c")),
    "it": Language("Italian", "àèéìíîòóùú", ("\u00ab", "\u00bb"), elided=("l", "d", "c")),
    "lt": Language("Lithuanian", "ąčęėįšųūž", ("\u201e", "\u201c")),
    "lv": Language("Latvian", "āčēģīķļņšūž", ("\u201e", "\u201d")),
    "ms": Language("Malay", "", ("\u201c", "\u201d"), decimal_comma=False, currency="RM"),
    "nb": Language("Norwegian Bokmål", "æøåé", ("\u00ab", "\u00bb")),
    "nl": Language("Dutch", "áéèëïóöü", ("\u201c", "\u201d"), extra="\u2018"),
    "pl": Language("Polish", "ąćęłńóśźż", ("\u201e", "\u201d"), extra="\u00ab\u00bb"),
    "pt": Language("Portuguese", "áâãàçéêíóôõú", ("\u201c", "\u201d"), extra="\u00ab\u00bb"),
    "ro": Language("Romanian", "ăâîșț", ("\u201e", "\u201d"), extra="\u00ab\u00bb"),
    "sh": Language("Serbo-Croatian (Latin)", "čćđšž", ("\u201e", "\u201c")),
    "sk": Language("Slovak", "áäčďéíĺľňóôŕšťúýž", ("\u201e", "\u201c")),
    "sl": Language("Slovenian", "čšžćđ", ("\u201e", "\u201c")),
    "sv": Language("Swedish", "åäöé", ("\u201d", "\u201d")),
    "tr": Language("Turkish", "çğıöşüâîİ", ("\u201c", "\u201d"), turkish_i=True, currency="\u20ba"),
    "vi": Language("Vietnamese", "àáâãèéêìíòóôõùúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",
                   ("\u201c", "\u201d"), capitalized_mid=0.05,
                   notes="a wordfreq word is one syllable; the ₫ sign is not in the character set"),
    "ru": Language("Russian", "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", ("\u00ab", "\u00bb"), extra="\u201e\u201c\u2116",
                   currency="\u20bd", capitalized_mid=0.08),
    "uk": Language("Ukrainian", "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя", ("\u00ab", "\u00bb"), extra="\u201e\u201c\u2116",
                   currency="\u20b4", capitalized_mid=0.08),
    "bg": Language("Bulgarian", "абвгдежзийклмнопрстуфхцчшщъьюя", ("\u201e", "\u201c"), extra="\u00ab\u00bb\u2116",
                   currency="\u043b\u0432", capitalized_mid=0.08),
    "mk": Language("Macedonian", "абвгдѓежзѕијклљмнњопрстќуфхцчџш", ("\u201e", "\u201c"), extra="\u2116",
                   currency="\u0434\u0435\u043d", capitalized_mid=0.08),
    "sr": Language("Serbian (Cyrillic)", "абвгдђежзијклљмнњопрстћуфхцчџш", ("\u201e", "\u201c"), extra="\u00bb\u00ab",
                   currency="\u0434\u0438\u043d", capitalized_mid=0.08,
                   notes="words are wordfreq's sh (Serbo-Croatian, Latin) transliterated (writing/text.py): some "
                         "Croatian forms among them"),
    "el": Language("Greek", "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ", ("\u00ab", "\u00bb"), extra="\u201c\u201d",
                   capitalized_mid=0.08, notes="final ς restored (wordfreq folds it to σ: writing/text.py)"),
    "ko": Language("Korean", "".join(charset.HANGUL_JAMO_CHARS), ("\u201c", "\u201d"), capitalized_mid=0.0,
                   decimal_comma=False, currency="$",
                   notes="written in conjoining jamo (the hangul network's labels): each syllable its canonical "
                         "decomposition; words are wordfreq's morphemes and eojeol made of a stem and a particle "
                         "in its right form (writing/text.py); the ₩ sign is not in the character set"),
    "he": Language("Hebrew", "".join(charset.HEBREW_LETTERS), ("\u201d", "\u201d"), extra="\u05f3\u05f4\u05be",
                   capitalized_mid=0.0, currency="\u20aa",
                   notes="no capitals and no vowel points; words are wordfreq's, in logical (reading) order"),
    "ar": Language("Arabic", "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي", ("\u00ab", "\u00bb"), extra="\u060c\u061b\u061f",
                   capitalized_mid=0.0, decimal_comma=False, currency="$",
                   notes="no capitals and no harakat; words in logical order; the Arabic comma and question mark "
                         "besides the ASCII ones"),
    "fa": Language("Persian", "آاأبپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیئء", ("\u00ab", "\u00bb"), extra="\u060c\u061b\u061f",
                   capitalized_mid=0.0, decimal_comma=False, currency="$",
                   notes="words written with a zero-width non-joiner (می‌خواهم) are left out: the set has no ZWNJ"),
    "ur": Language("Urdu", "آابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیےئۓ", ("\u201c", "\u201d"),
                   extra="\u060c\u061b\u061f", capitalized_mid=0.0, decimal_comma=False, currency="$"),
    "hi": Language("Hindi", "".join(charset.DEVANAGARI_LETTERS), ("\u201c", "\u201d"), extra="\u0964\u0965",
                   capitalized_mid=0.0, decimal_comma=False, currency="$",
                   notes="no capitals; words are wordfreq's in NFC (nukta letters as consonant + nukta); the running "
                         "text ends sentences with the ASCII period, not the danda (।), which the set has; the ₹ sign "
                         "is not in the character set"),
    "bn": Language("Bengali", "".join(charset.BENGALI_LETTERS), ("\u201c", "\u201d"), extra="\u0964\u0965",
                   capitalized_mid=0.0, decimal_comma=False, currency="$",
                   notes="no capitals; words are wordfreq's in NFC (ড় ঢ় য় as consonant + nukta; words with a ZWJ or ZWNJ "
                         "are left out: the set has neither); sentences end with the ASCII period here though Bengali "
                         "text mostly ends them with the danda (।), which the set has; the ৳ sign is not in the set"),
    "ta": Language("Tamil", "".join(charset.TAMIL_LETTERS), ("\u201c", "\u201d"),
                   capitalized_mid=0.0, decimal_comma=False, currency="$",
                   notes="no capitals; words are wordfreq's in NFC (ொ ோ ௌ composed); Tamil text writes numbers in "
                         "ASCII digits (the Tamil digits are in the set but rare); the ₹ sign is not in the set"),
}
CYRILLIC = ("ru", "uk", "bg", "mk", "sr")
# Languages whose words come through the script kit's ``writing.text`` (made right for their script).
KIT = CYRILLIC + ("el", "ko", "he", "ar", "fa", "ur", "hi", "bn", "ta")

# Letters wordfreq spells in an older or other form, written the language's way (Romanian s and t
# with a cedilla are the comma-below letters).
NORMALIZE = {"ro": {"\u015f": "\u0219", "\u0163": "\u021b", "\u015e": "\u0218", "\u0162": "\u021a"}}


# wordfreq casefolds ß to ss. German (not Swiss) spelling gets it back where it is certain: after a
# diphthong or ie (heißen, außen, schließen), and in these frequent stems after a long vowel.
ESZETT_STEMS = ("gross", "gröss", "strasse", "fuss", "spass", "gruss", "grüss", "bloss", "süss", "stoss", "stöss",
                "mässig", "massnahme", "massstab", "gemäss", "mass", "grösse")


def restore_eszett(word: str) -> str:
    """``word`` (casefolded German) with ß for ss where standard German spelling certainly has it."""
    if "ss" not in word:
        return word
    out = re.sub(r"(ei|ai|au|äu|eu|ie)ss", r"\1ß", word)
    for stem in ESZETT_STEMS:
        if word.startswith(stem) and not (stem == "mass" and word.startswith(("masse", "massiv", "massen"))):
            out = stem.replace("ss", "ß") + out[len(stem):]
            break
    return out


def upper(code: str, text: str) -> str:
    if LANGUAGES[code].turkish_i:
        text = text.replace("i", "\u0130").replace("\u0131", "I")
    return text.upper()


def alphabet(code: str, no_eszett: bool = False) -> list[str]:
    """The LM alphabet of ``code``: ASCII, its letters in both cases, its punctuation and signs, in the
    latin character set's order (characters the set lacks are left out)."""
    lang = LANGUAGES[code]
    letters = set(lang.letters)
    if no_eszett:
        letters.discard("\u00df")
    wanted = set(ASCII) | letters | {upper(code, c) for c in letters if len(upper(code, c)) == 1}
    wanted |= set("".join(lang.quotes).strip()) | set(lang.extra) | set(COMMON_PUNCTUATION) | set(lang.currency)
    wanted.discard(" ")
    wanted.add(" ")
    return [c for c in charset.SETS[charset.for_language(code)] if c in wanted]


def vocabulary(code: str, n: int, no_eszett: bool = False, typographic_apostrophe: float = 0.3):
    """(words, frequencies) of the ``n`` most frequent wordfreq words of ``code`` written in its alphabet
    (words with other characters, digits, '.' or '_' left out; elided words get their apostrophe; a
    word with an apostrophe also appears with ’ for ``typographic_apostrophe`` of its frequency)."""
    lang = LANGUAGES[code]
    chars = set(alphabet(code, no_eszett))
    norm = NORMALIZE.get(code, {})
    merged: dict[str, float] = {}
    for w, f in _wordfreq_words(code, n):
        if f <= 0:
            continue
        w = "".join(norm.get(c, c) for c in w)
        if no_eszett:
            w = w.replace("\u00df", "ss")
        elif code == "de":
            w = restore_eszett(w)
        if w in lang.elided:
            w += "'"
        if any(c.isdigit() for c in w) or "." in w or "_" in w or not all(c in chars for c in w):
            continue
        if not all(c in chars for c in upper(code, w)) and not all(c in chars for c in w[:1].upper()):
            continue
        merged[w] = merged.get(w, 0.0) + f
    words, freqs = [], []
    for w, f in merged.items():
        if "'" in w and typographic_apostrophe > 0:
            words += [w, w.replace("'", "\u2019")]
            freqs += [f * (1 - typographic_apostrophe), f * typographic_apostrophe]
        else:
            words.append(w)
            freqs.append(f)
    return words, freqs


# Forms of 하다 and 되다 that make a verb of a noun (감사합니다, 사용하는, 시작됐다), and endings that follow a
# one-syllable verb stem (있다, 없고, 좋은, 했다): wordfreq's Korean list holds such pieces apart.
KOREAN_HA_FORMS = tuple("하다 합니다 한다 했다 해요 해서 하는 하고 하게 했습니다 하지 할 한 해야 하며 하면 했던 하기 "
                        "됩니다 된다 되는 되어 된 될 됐다".split())
KOREAN_VERB_ENDINGS = tuple("다 고 는 은 을 어 아 었다 았다 습니다 요 지만 는데 면 며 서 게 기 지 던 겠다 어요 아요 "
                            "으면 니까 도록 다고 다는 라고".split())


def korean_words(n: int, stems_with_particles: int = 4000, particle_share: float = 0.5,
                 attached_alone: float = 0.3) -> list[tuple[str, float]]:
    """Korean words in jamo: wordfreq's ``n`` most frequent morphemes, made into eojeol as Korean is spaced.
    Each of the ``stems_with_particles`` most frequent stems of two syllables or more gets every particle
    (``text.korean_attach``, in its right form) and every form of 하다/되다 attached, for
    ``particle_share`` of its frequency; a one-syllable stem (most verb stems) gets the verb endings. A
    particle or ending keeps ``attached_alone`` of its frequency as a word of its own. Everything decomposed
    into conjoining jamo (``charset.hangul_labels``)."""
    from inkrec_training.writing import text
    ws, fs = text.words("ko", n)
    freq = dict(zip(ws, fs))
    parts = [(w, f) for w, f in zip(ws, fs) if w in text.KOREAN_PARTICLES]
    ha = [(w, freq.get(w, 1e-7)) for w in KOREAN_HA_FORMS]
    endings = [(w, freq.get(w, 1e-7)) for w in KOREAN_VERB_ENDINGS]
    out: dict[str, float] = {}

    def add(w: str, f: float) -> None:
        out[w] = out.get(w, 0.0) + f

    def attach_all(stem: str, f: float, pieces: list, join) -> None:
        total = sum(fp for _, fp in pieces) or 1.0
        for p, fp in pieces:
            add(join(stem, p), f * fp / total)

    stems = 0
    for w, f in zip(ws, fs):
        if w in text.KOREAN_ATTACHED or w in KOREAN_HA_FORMS:
            add(w, f * attached_alone)
            continue
        stems += 1
        if stems > stems_with_particles:
            add(w, f)
            continue
        add(w, f * (1.0 - particle_share))
        if len(w) >= 2:
            attach_all(w, f * particle_share * 0.7, parts, text.korean_attach)
            attach_all(w, f * particle_share * 0.3, ha, str.__add__)
        else:
            attach_all(w, f * particle_share, endings, str.__add__)
    return [(charset.hangul_labels(w), f) for w, f in out.items()]


def _wordfreq_words(code: str, n: int) -> list[tuple[str, float]]:
    """wordfreq's ``n`` most frequent words of ``code`` with their frequencies (the kit's languages through
    ``writing.text.words``, which spells Serbian in Cyrillic and ends Greek words in ς; Korean in jamo,
    ``korean_words``)."""
    if code == "ko":
        return korean_words(n)
    if code in KIT:
        from inkrec_training.writing import text
        ws, fs = text.words(code, n)
        return list(zip(ws, fs))
    import wordfreq
    return [(w, wordfreq.word_frequency(w, code)) for w in wordfreq.top_n_list(code, n)]


def separators(code: str, base_seps, base_ends, own_quotes: float = 0.7):
    """The English separators and text endings (``RunningTextModel.SEPS`` / ``ENDS``) with the
    language's quotation marks for ``own_quotes`` of each quote (ASCII " for the rest), plus the
    typographic dash and ellipsis, and Spanish ¿ ¡."""
    lang = LANGUAGES[code]
    open_q, close_q = lang.quotes

    def localize(items):
        out = []
        for s, w in items:
            if '"' not in s:
                out.append((s, w))
                continue
            own = (" " + open_q) if s.startswith(' "') else s.replace('"', close_q)
            out += [(own, w * own_quotes), (s, w * (1 - own_quotes))]
        return out

    seps = localize(base_seps) + [(" \u2013 ", 0.002), ("\u2026 ", 0.0005)]
    ends = localize(base_ends) + [("\u2026", 0.002)]
    if code == "es":
        seps += [(" \u00bf", 0.003), (" \u00a1", 0.002)]
    return seps, ends
