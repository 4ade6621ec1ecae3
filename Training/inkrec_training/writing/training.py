"""Generated ink of a script for training and for the held-out figures: words and short lines of its
languages written by the writer model, and words composed from real UNIPEN letters where the forms match.

``ScriptSources(langs)`` samples, for the languages ``langs`` of one script (Cyrillic; Greek, ready for its
network):

* ``word(rng)``: a word of one language (wordfreq, frequency^0.8), sometimes capitalized or in capitals,
  its letters drawn from the script's templates (``cyrillic.word``, ``greek.word``) and written by a writer
  (``writer.write_word`` with the script's ``RULES``);
* ``line(rng)``: two to four such words of one writer on one baseline, with word gaps, sometimes ending in
  a full stop or a comma (drawn as a short stroke);
* ``real_word(rng)``: a homoglyph word (``homoglyphs``) built from one UNIPEN writer's isolated letters.

With ``heldout=True`` every sample uses the held-out writers (``writer.heldout_writer``, ids drawn from
``writer_ids``: the reported figures take 0–99,999, decoder tuning 100,000–199,999), which training never
draws; real words come from the characters the caller passes (the validation writers' for figures).
``forms`` says which drawn forms of a letter written several ways are used: ``"all"`` (training of the
shipped network and its figures), ``"training"`` (all but ``cyrillic.HELDOUT_VARIANT``: a run that keeps
those forms unseen) or ``"heldout"`` (only those: how a network reads a form it never saw).
``write(text, rng)`` writes a given word. Strokes come back as ``(N, 2)``
arrays in tablet-like units (100 per x-height), as UNIPEN's are read by ``data.load``.

**Korean** (``ko``, script ``Hang``): a word is an eojeol (wordfreq morphemes with their particles and
endings attached, ``text.korean_phrases``), a line two to four of them, sometimes with a number or a Latin
word; the syllables come from ``hangul.syllable`` (drawn jamo in the six block layouts) and are written by
the CJK generator (``cjk.Generator``: em boxes, ``HANGUL_EM`` units per em) with the same writers. Labels are
conjoining jamo (``labels="jamo"``, ``charset.hangul_labels``) or precomposed syllables (``"syllables"``);
words with a syllable outside KS X 1001's 2,350 are left out, so both label forms read the same words.
Korean has no real-letter words.
"""
from __future__ import annotations

import random
from typing import Optional, Sequence

import numpy as np

from . import alphabets, arabic, bengali, cyrillic, devanagari, greek, hangul, hebrew, homoglyphs, tamil, text, thai, writer

# The letter drawings of each script that a word can be written from.
LETTERS = {"Cyrl": cyrillic.word, "Grek": greek.word, "Hebr": hebrew.word, "Arab": arabic.word,
           "Deva": devanagari.word, "Beng": bengali.word, "Taml": tamil.word,
           "Thai": thai.word, "Hang": None}
# Scripts written by their own writer, not letter by letter by ``writer.write_word``: Arabic joins pieces, the
# Indic scripts and Thai write shaped syllables (marks and the headline after the bodies). Each returns
# ``[x, y, t]`` strokes, or None when a form of the word was not traced.
OWN_WRITERS = {"Arab": arabic.write_word, "Deva": devanagari.write_word, "Beng": bengali.write_word,
               "Taml": tamil.write_word, "Thai": thai.write_word}
# Units per em of generated Hangul: a syllable is about as tall as a Latin capital over 1.6 x-heights.
HANGUL_EM = 160.0
# Latin words and numbers that appear inside Korean lines.
KOREAN_LATIN = ["OK", "TV", "PC", "USB", "AI", "CEO", "GPS", "PDF", "SNS", "KTX", "km", "kg", "cm", "A", "B", "Wi-Fi"]
# Latin words written inside right-to-left lines (each with a letter of full height and none below the baseline,
# so that the run's height can be matched to the script's letters).
EMBEDDED_LATIN = ["OK", "TV", "PC", "USB", "AI", "CEO", "PDF", "SMS", "DNA", "ATM", "CD", "HD", "BBC", "UN", "km",
                  "A", "B", "Wi-Fi", "Email", "Facebook", "Twitter", "BMW"]


def embedded_token(rng: random.Random) -> str:
    """What a writer of a right-to-left line writes left to right inside it: a number (70%: a small count, a
    year, a price or a time) or a Latin word."""
    if rng.random() < 0.3:
        return rng.choice(EMBEDDED_LATIN)
    r = rng.random()
    if r < 0.35:
        return str(rng.randint(0, 99))
    if r < 0.6:
        return str(rng.randint(1950, 2030))
    if r < 0.85:
        return str(rng.randint(100, 99999))
    return f"{rng.randint(1, 12)}:{rng.randint(0, 59):02d}" if rng.random() < 0.5 else f"{rng.randint(1, 99)}.{rng.randint(0, 99):02d}"


def write_embedded(token: str, style: writer.Style, rng: random.Random, height: float) -> Optional[list[np.ndarray]]:
    """``token`` (ASCII) written left to right in the writer's Hershey hand (``cjk.Generator``, as the Latin
    words in a Korean line), as ``[x, y, t]`` strokes whose tall characters are ``height`` units high, standing
    on the baseline y = 0, left edge at x = 0; None when a character has no glyph."""
    from .. import cjk
    got = cjk.Generator({}, {}).write(token, style, rng)
    if got is None:
        return None
    p = np.concatenate(got)
    top, bottom, left = float(p[:, 1].min()), float(p[:, 1].max()), float(p[:, 0].min())
    k = height / max(bottom - top, 1e-6)
    return [np.column_stack([(q[:, 0] - left) * k, (q[:, 1] - bottom) * k, q[:, 2]]) for q in got]


def ksx1001() -> frozenset:
    """The 2,350 syllables of KS X 1001 (the ``"hangul-syllables"`` set's, after the Latin characters)."""
    from .. import charset
    return frozenset(charset.HANGUL_SYLLABLES[len(charset.LATIN):])


def capitalized(word: str, rng: random.Random) -> str:
    """``word`` as written: 15% with a capital first letter, 3% in capitals, else as it is."""
    r = rng.random()
    if r < 0.15:
        return word[:1].upper() + word[1:]
    if r < 0.18:
        return word.upper()
    return word


def _punctuation(mark: str, x: float, rng: random.Random, unit: float) -> Optional[np.ndarray]:
    """A full stop (a dot) or a comma (a short downward tick) at ``x`` on the baseline, in ``unit``s."""
    if mark == ".":
        p = np.array([[0.0, -0.03], [0.03, 0.0]])
    elif mark == ",":
        p = np.array([[0.04, -0.05], [0.03, 0.08], [-0.03, 0.22]])
    else:
        return None
    p = p + np.array([x / unit + rng.uniform(0.03, 0.12), rng.gauss(0.0, 0.03)])
    t = np.arange(len(p))[:, None] * 0.01
    return np.concatenate([p * unit, t], axis=1)


def write_hangul(s: str, style: writer.Style, rng: random.Random) -> Optional[list[np.ndarray]]:
    """Korean text (syllables, spaces, ASCII) written by the CJK generator, ``HANGUL_EM`` units per em: strokes
    of ``[x, y, t]``, or None when a character has no glyph."""
    from .. import cjk
    got = cjk.Generator(hangul.glyphs(set(s)), {}).write(s, style, rng)
    if got is None:
        return None
    return [q * np.array([HANGUL_EM / cjk.EM, HANGUL_EM / cjk.EM, 1.0]) for q in got]


class ScriptSources:
    """Samplers of a script's generated words and lines, and of its real-letter words (module doc)."""

    def __init__(self, langs: Sequence[str], chars: Sequence = (), heldout: bool = False, n_words: int = 30000,
                 writer_ids: tuple[int, int] = (0, 100_000), forms: str = "all", labels: str = "jamo"):
        if forms not in ("all", "training", "heldout"):
            raise ValueError(f"forms: all, training or heldout, not {forms!r}")
        if labels not in ("jamo", "syllables"):
            raise ValueError(f"labels: jamo or syllables, not {labels!r}")
        self.labels = labels
        self.forms = forms
        self.langs = list(langs)
        scripts = {alphabets.SCRIPTS[l] for l in self.langs}
        if len(scripts) != 1 or next(iter(scripts)) not in LETTERS:
            raise ValueError(f"languages of one script the kit draws ({sorted(LETTERS)}): {self.langs}")
        self.script = next(iter(scripts))
        self.rules = writer.RULES[self.script]
        self.letters = LETTERS[self.script]
        self.heldout = heldout
        self.writer_ids = writer_ids
        self.vocab = {}
        syllables = ksx1001() if self.script == "Hang" else None
        for l in self.langs:
            ws, fs = text.words(l, n_words)
            if syllables is not None:
                kept = [(w, f) for w, f in zip(ws, fs) if all(c in syllables for c in w)]
                ws, fs = [w for w, _ in kept], [f for _, f in kept]
            self.vocab[l] = (ws, [f ** 0.8 for f in fs])
        if self.script == "Hang":
            ws, wt = self.vocab["ko"]
            att = [(w, f) for w, f in zip(ws, wt) if w in text.KOREAN_PARTICLES]
            stems = [(w, f) for w, f in zip(ws, wt) if w not in text.KOREAN_ATTACHED]
            self.korean = ([w for w, _ in stems], [f for _, f in stems], [w for w, _ in att], [f for _, f in att])
        self.real_vocab = {}
        for l, (ws, wt) in self.vocab.items():
            pairs = [(w, f) for w, f in zip(ws, wt) if len(w) >= 2 and homoglyphs.composable(w)]
            self.real_vocab[l] = ([w for w, _ in pairs], [f for _, f in pairs])
        self.embedded_share = 0.0  # share of right-to-left lines with a number or Latin word (``line``)
        self._tall = None
        self.by_writer, self.writers, self.xh = {}, [], {}
        if chars and any(ws for ws, _ in self.real_vocab.values()):  # a script with homoglyph words
            from .. import compose
            by_writer = compose.writer_characters(list(chars))
            for w, d in by_writer.items():
                if len(d) < 40:
                    continue
                xh = compose.x_height(d)
                got = homoglyphs.writer_letters(d, xh)
                if len(got) >= 10:
                    self.by_writer[w], self.xh[w] = got, xh
                    self.writers.append(w)

    def _style(self, rng: random.Random) -> writer.Style:
        if self.heldout:
            return writer.heldout_writer(rng.randrange(*self.writer_ids))
        return writer.train_writer(rng)

    def _text(self, rng: random.Random, lang: Optional[str]) -> tuple[str, str]:
        lang = lang or rng.choice(self.langs)
        ws, wt = self.vocab[lang]
        if self.script == "Hang":
            # an eojeol: a stem, and half the time a particle or ending attached in its right form
            stems, sw, parts, pw = self.korean
            w = rng.choices(stems, sw)[0]
            if rng.random() < 0.5:
                w = text.korean_attach(w, rng.choices(parts, pw)[0])
            return lang, w
        return lang, capitalized(rng.choices(ws, wt)[0], rng)

    def label(self, s: str) -> str:
        """What the network is trained to output for text ``s``: jamo for a Korean jamo network."""
        if self.script == "Hang" and self.labels == "jamo":
            from .. import charset
            return charset.hangul_labels(s)
        return s

    def _write(self, w: str, style: writer.Style, rng: random.Random) -> Optional[list[np.ndarray]]:
        if self.script == "Hang":
            return write_hangul(w, style, rng)
        if self.script in OWN_WRITERS:
            return OWN_WRITERS[self.script](w, self.rules, style, rng)
        letters = self.letters(w, rng, heldout=self.forms == "heldout", hold_out_forms=self.forms == "training")
        if letters is None:
            return None
        return writer.write_word(letters, self.rules, style, rng)

    def write(self, text: str, rng: random.Random) -> Optional[list]:
        """``text`` (one word) written by a writer of this source, or None when a letter is not drawn."""
        got = self._write(text, self._style(rng), rng)
        return None if got is None else [s[:, :2] for s in got]

    def _korean_line(self, rng: random.Random, lang: str, max_words: int, keep_time: bool,
                     style: Optional[writer.Style] = None) -> Optional[tuple[list, str]]:
        words = [self._text(rng, lang)[1] for _ in range(rng.randint(2, max_words))]
        if rng.random() < 0.15:  # a number or a Latin word among them
            extra = rng.choice(KOREAN_LATIN) if rng.random() < 0.5 else str(rng.choice(
                [rng.randint(0, 99), rng.randint(100, 9999), rng.randint(1990, 2030)]))
            words.insert(rng.randrange(len(words) + 1), extra)
        line = " ".join(words)
        if rng.random() < 0.12:
            line += rng.choice(".,?")
        got = write_hangul(line, self._style(rng) if style is None else style, rng)
        if got is None:
            return None
        return [s if keep_time else s[:, :2] for s in got], self.label(line)

    def tall_height(self) -> float:
        """How far the script's tall letters reach above the baseline, in the units of its words: the median over
        40 words of training writers of each word's 5th percentile height (alef and lamed in Arabic, lamed and
        the tall letters in Hebrew). Computed once, from its own seeded draws."""
        if self._tall is None:
            rng = random.Random(f"tall-{self.script}")
            tops = []
            for _ in range(40):
                got = self._write(self._text(rng, self.langs[0])[1], writer.train_writer(rng), rng)
                if got is not None:
                    tops.append(float(-np.percentile(np.concatenate(got)[:, 1], 5)))
            self._tall = float(np.median(tops)) if tops else 100.0
        return self._tall

    def word(self, rng: random.Random, lang: Optional[str] = None) -> Optional[tuple[list, str]]:
        """A generated word of ``lang`` (else of a language drawn at random) and its text."""
        for _ in range(10):
            _, w = self._text(rng, lang)
            got = self._write(w, self._style(rng), rng)
            if got is not None:
                return [s[:, :2] for s in got], self.label(w)
        return None

    def line(self, rng: random.Random, lang: Optional[str] = None, unit: float = 100.0, max_words: int = 4,
             keep_time: bool = False, style: Optional[writer.Style] = None,
             embedded: Optional[float] = None) -> Optional[tuple[list, str]]:
        """Two to ``max_words`` generated words of one language and one writer on a line, and its text
        (strokes ``(N, 2)``, or ``[x, y, t]`` with ``keep_time``). The writer is drawn from ``rng``
        (``_style``) unless ``style`` is given (several lines of one writer, e.g. a page: then ``rng`` draws
        one number fewer, and otherwise the same). A script written without spaces (``ScriptRules.word_space``
        False: Thai) joins the words into one phrase, ink and text. In a right-to-left script, a share of the
        lines (``embedded``, else ``embedded_share``; 0 draws nothing more from ``rng``, so such lines are the
        same as before it existed) holds one number or Latin word (``embedded_token``) among the words, written
        left to right where it stands, in the text in logical order."""
        lang = lang or rng.choice(self.langs)
        if self.script == "Hang":
            return self._korean_line(rng, lang, max_words, keep_time, style)
        style = self._style(rng) if style is None else style
        rtl = self.rules.writing == "rtl"  # words go right to left, the first rightmost
        words, strokes, x, t0 = [], [], 0.0, 0.0
        n_words = rng.randint(2, max_words)
        share = self.embedded_share if embedded is None else embedded
        token_at = None  # where a number or Latin word written left to right stands (right-to-left lines only)
        if rtl and share > 0 and rng.random() < share:
            token_at, token = rng.randrange(n_words + 1), embedded_token(rng)
        for k in range(n_words + (token_at is not None)):
            if k == token_at:  # digits as tall as 60-90% of the script's tall letters
                w, got = token, write_embedded(token, style, rng, self.tall_height() * rng.uniform(0.6, 0.9))
            else:
                _, w = self._text(rng, lang)
                if k > 0 and w[:1].isupper() and rng.random() < 0.7:
                    w = w.lower() if w.isupper() else w[:1].lower() + w[1:]
                got = self._write(w, style, rng)
            if got is None:
                continue
            allp = np.concatenate(got)
            dx = x - float(allp[:, 0].max() if rtl else allp[:, 0].min())
            dy = rng.gauss(0.0, 0.05) * unit
            for s in got:
                strokes.append(s + np.array([dx, dy, t0]))
            x = float(allp[:, 0].min() if rtl else allp[:, 0].max()) + dx
            t0 = float(strokes[-1][-1, 2]) + rng.uniform(0.2, 0.5)
            words.append(w)
            if self.rules.word_space:
                gap = rng.uniform(0.45, 1.1) * unit * (1.0 + style.spacing)
            else:  # a phrase: words joined as the letters inside a word (the same one draw, so other scripts' lines stay)
                gap = rng.uniform(*self.rules.letter_gap) * unit * (0.5 + style.spacing)
            x += -gap if rtl else gap
        if len(words) < 2:
            return None
        label = (" " if self.rules.word_space else "").join(words)
        r = rng.random()
        if r < 0.12:
            mark = rng.choice(".,")
            if rtl:  # after the last word: to its left, the mark drawn where it ends
                last_x = min(float(s[:, 0].min()) for s in strokes) - 0.35 * unit
            else:
                last_x = max(float(s[:, 0].max()) for s in strokes)
            p = _punctuation(mark, last_x, rng, unit)
            p[:, 2] += t0
            strokes.append(p)
            label += mark
        return [s if keep_time else s[:, :2] for s in strokes], label

    def real_word(self, rng: random.Random, lang: Optional[str] = None, writer_id=None) -> Optional[tuple[list, str]]:
        """A homoglyph word of ``lang`` composed from one UNIPEN writer's real letters, or None (no writers)."""
        if not self.writers:
            return None
        lang = lang or rng.choice(self.langs)
        ws, wt = self.real_vocab[lang]
        if not ws:
            return None
        w = writer_id if writer_id is not None else rng.choice(self.writers)
        for _ in range(20):
            word = rng.choices(ws, wt)[0]
            got = homoglyphs.compose_word(word, self.by_writer[w], rng, self.xh[w])
            if got is not None:
                return [np.asarray(s, dtype=np.float64)[:, :2] for s in got], word
        return None
