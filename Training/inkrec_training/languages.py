"""The Latin-script languages of the shared network, their words, and the composed training ink.

``LANGUAGES``: the wordfreq codes the shared Latin network is built for. ``sh`` (Serbo-Croatian) is
served as hr, bs and sr-Latn. ``vi`` (Vietnamese) has a network of its own, whose character set adds
the 49 letters with stacked or Vietnamese-only marks (``charset.for_language``): its words are
composed the same way, with the tone marks late more often than the shape marks (``TONE_LATE``).

Three sources of accented ink (all composed; the model cards say which figures come from them):

* ``accent_word``: a real UNIPEN word of a training writer whose letters were located by forced
  alignment (``align.py``), with some letters turned into a language's accented letters at that
  language's rates (``accents.substitution_table``) and the marks drawn with the writer's pen. The
  text is not a word of the language; the ink around each mark is real.
* ``composed_word``: a real word of the language (wordfreq), built from one writer's isolated UNIPEN
  characters (``compose.compose_word``) with marks on its accented letters.
* ``hershey_text``: running text of the language drawn in single-stroke fonts with marks
  (``synthetic.hershey_ink``), which also draws ß æ œ ð þ ŋ and the typographic punctuation.
"""
from __future__ import annotations

import random
from typing import Optional

from . import accents, charset, compose

LANGUAGES = ("ca", "cs", "da", "de", "en", "es", "fi", "fil", "fr", "hu", "id", "is", "it", "lt", "lv", "ms",
             "nb", "nl", "pl", "pt", "ro", "sh", "sk", "sl", "sv", "tr")

QUOTES = {
    "de": ("„", "“"), "cs": ("„", "“"), "sk": ("„", "“"), "sl": ("„", "“"), "lt": ("„", "“"), "ro": ("„", "”"),
    "pl": ("„", "”"), "hu": ("„", "”"), "sh": ("„", "“"), "is": ("„", "“"), "da": ("»", "«"),
    "fr": ("« ", " »"), "ca": ("«", "»"), "es": ("«", "»"), "it": ("«", "»"), "pt": ("“", "”"),
    "nb": ("«", "»"), "en": ("“", "”"), "nl": ("‘", "’"), "fi": ("”", "”"), "sv": ("”", "”"),
    "tr": ("“", "”"), "lv": ("“", "”"), "id": ("“", "”"), "ms": ("“", "”"), "fil": ("“", "”"),
    "vi": ("“", "”"),
}
# The chance that a word's tone marks are all written after it, per language whose writers do so more
# than with the other marks (``accents.compose_marks``); the other marks stay at the default 0.4.
TONE_LATE = {"vi": 0.5}


def words_of(lang: str, n: int = 30000) -> tuple[list[str], list[float]]:
    """The ``n`` most frequent words of ``lang`` that its character set (``charset.for_language``) covers
    (no digits), weighted by frequency^0.8."""
    from . import wordlists
    latin = set(charset.SETS[charset.for_language(lang)])
    pairs = [(w, f) for w, f in wordlists.top_words(lang, n)
             if all(c in latin for c in w) and not any(c.isdigit() for c in w)]
    return [w for w, _ in pairs], [f ** 0.8 for _, f in pairs]


def sample_language_text(lang: str, words: list[str], weights: list[float], rng: random.Random, max_words: int = 4) -> str:
    n = rng.randint(1, max_words)
    ws = rng.choices(words, weights, k=n)
    r = rng.random()
    if r < 0.25:
        ws[0] = ws[0][:1].upper() + ws[0][1:]
    elif r < 0.28:
        ws = [w.upper() for w in ws]
    text = " ".join(ws)
    r = rng.random()
    if r < 0.15:
        text += rng.choice([".", ",", "!", "?", ":", ";", "…"])
    elif r < 0.2:
        q = QUOTES.get(lang, ("“", "”"))
        text = q[0] + text + q[1]
    elif r < 0.22 and n > 1:
        text = text.replace(" ", rng.choice([" – ", " — "]), 1)
    return text


class LanguageSources:
    """Samplers of composed accented ink for training (and, with held-out writers, for evaluation)."""

    def __init__(self, words, chars, boxes: dict, langs=LANGUAGES, n_words: int = 30000):
        self.langs = list(langs)
        self.tables = {l: accents.substitution_table(l) for l in self.langs}
        self.vocab = {l: words_of(l, n_words) for l in self.langs}
        self.aligned = [w for w in words if (w.id, w.label) in boxes]
        self.boxes = boxes
        self.by_writer = compose.writer_characters(chars)
        self.writers = [w for w, d in self.by_writer.items() if len(d) >= 40]
        self.xh = {w: compose.x_height(self.by_writer[w]) for w in self.writers}

    def accent_word(self, rng: random.Random) -> Optional[tuple[list, str]]:
        it = rng.choice(self.aligned)
        lang = rng.choice(self.langs)
        target = accents.substitute(it.label, self.tables[lang], rng)
        if target == it.label and rng.random() < 0.7:
            target = accents.substitute(it.label, self.tables[lang], rng)
        b, last = self.boxes[(it.id, it.label)]
        return accents.compose_marks(it.strokes, b, last, it.label, target, rng, tone_late=TONE_LATE.get(lang)), target

    def composed_word(self, rng: random.Random, lang: Optional[str] = None, writers=None) -> Optional[tuple[list, str]]:
        lang = lang or rng.choice(self.langs)
        writers = writers or self.writers
        w = rng.choice(writers)
        ws, wt = self.vocab[lang]
        for _ in range(20):
            word = rng.choices(ws, wt)[0]
            if rng.random() < 0.15:
                word = word[:1].upper() + word[1:]
            got = compose_language_word(word, self.by_writer[w], rng, self.xh[w], tone_late=TONE_LATE.get(lang))
            if got is not None:
                return got, word
        return None

    def hershey_text(self, rng: random.Random) -> Optional[tuple[list, str]]:
        from . import synthetic
        lang = rng.choice(self.langs)
        ws, wt = self.vocab[lang]
        for _ in range(10):
            text = sample_language_text(lang, ws, wt, rng)
            strokes = synthetic.hershey_ink(text, rng)
            if strokes is not None:
                return strokes, text
        return None


def compose_language_word(word: str, chars_by_label: dict, rng: random.Random, xh: float,
                          late: float = 0.4, tone_late: Optional[float] = None) -> Optional[list]:
    """``word`` from one writer's isolated characters with marks on its accented letters, or None when
    the writer lacks a base letter or the word has a letter that is not composed (ß æ œ …)."""
    base = []
    for c in word:
        if c in chars_by_label:
            base.append(c)
            continue
        d = accents.decompose(c)
        if d is None:
            return None
        base.append(d[0])
    base_word = "".join(base)
    got = compose.compose_word(base_word, chars_by_label, rng, delay=rng.random() < 0.3, xh=xh)
    if got is None:
        return None
    strokes, owners, _ = got
    boxes, last = compose.letter_boxes(strokes, owners, len(word))
    return accents.compose_marks(strokes, boxes, last, base_word, word, rng, late=late, xh=xh, tone_late=tone_late)
