#!/usr/bin/env python3
"""Pictures of the script kit for Docs/scripts.md (`inkrec_training/writing`, `accents.py`).

    python3 -m inkrec_training scripts data figures --out Docs/scripts

Writes nine SVGs, each a grid of inks with their labels:
`vietnamese.svg` (Vietnamese words built from one training writer's isolated UNIPEN characters, stacked
marks, tone marks late half the time), `homoglyphs.svg` (Russian, Ukrainian, Bulgarian, Macedonian,
Serbian and Greek words built from real UNIPEN letters of the same handwritten form) and
`greek-hershey.svg` (every Greek letter of the single-line Hershey font, the centre lines the Greek
generator starts from) and `greek-generated.svg` (Greek words written from those centre lines by held-out
writers of the writer model, `writing.writer.write_word`) and `hangul-generated.svg` (Korean phrases from
the drawn jamo and block layouts, `writing.hangul`, written by held-out writers through the CJK generator) and
`cyrillic-generated.svg` (Russian, Ukrainian, Bulgarian, Macedonian and Serbian words from the drawn
handwritten letters, `writing.cyrillic`, by held-out writers), `hebrew-letters.svg` (every drawn cursive
Hebrew letter form, `writing.hebrew`) and `hebrew-generated.svg` (Hebrew words written right to left from
them by held-out writers) and `arabic-generated.svg` (Arabic, Persian and Urdu words from the traced joining
forms, `writing.arabic`, right to left); `--only rtl` writes only the last three. `devanagari-generated.svg`
(Hindi, Marathi and Nepali words from the shaped and traced Noto Sans Devanagari glyphs, `writing.devanagari`,
each stroke coloured by its place in the writing order, blue first, red last: the headline comes late) is
written by every run, and alone by `--only deva`. `bengali-generated.svg` and `tamil-generated.svg` (frequent
Bengali and Tamil words from the shaped and traced Noto Sans Bengali / Tamil glyphs, `writing.bengali` /
`writing.tamil` through `writing.indic`, coloured by writing order as Devanagari's) are written by a run without
`--only` and alone by `--only indic`. `thai-generated.svg` (frequent Thai words of the Thai National Corpus list
from the shaped and traced Noto Looped Thai glyphs, `writing.thai` through `writing.indic`, coloured by writing
order: the leading vowel first, the marks above and below after their consonant, a tone mark after the vowel it
stands on) is written by a run without `--only` and alone by `--only thai`.
"""
from __future__ import annotations

import argparse
import os
import random

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import compose, data, languages, splits
from inkrec_training.families.latin.composer_figures import svg
from inkrec_training import cjk
from inkrec_training.writing import (arabic, bengali, cyrillic, devanagari, greek, hangul, hebrew, hershey, homoglyphs,
                                     tamil, text, thai, writer)


def training_writers(min_letters: int = 40) -> dict:
    chars = data.load("chars", limit=60000)
    by = compose.writer_characters([c for c in chars if not splits.is_validation_writer(c.writer)])
    return {w: d for w, d in sorted(by.items()) if len(d) >= min_letters}


def vietnamese(by_writer: dict, rng: random.Random, n: int = 12) -> list:
    ws, wt = languages.words_of("vi", 5000)
    writers = list(by_writer)
    rows = []
    while len(rows) < n:
        w = rng.choice(writers)
        word = rng.choices(ws, wt)[0]
        if word.isascii():
            continue
        xh = compose.x_height(by_writer[w])
        got = languages.compose_language_word(word, by_writer[w], rng, xh, tone_late=languages.TONE_LATE["vi"])
        if got is None:
            continue
        rows.append((f"vi: {word}", got, None))
    return rows


def real_letter_words(by_writer: dict, rng: random.Random, per_language: int = 2) -> list:
    rows = []
    writers = list(by_writer)
    for code in ("ru", "uk", "bg", "mk", "sr", "el"):
        words, freqs = text.words(code, 20000)
        ok = [(w, f) for w, f in zip(words, freqs) if len(w) >= 3 and homoglyphs.composable(w)]
        got_here = 0
        while got_here < per_language:
            word = rng.choices([w for w, _ in ok], [f ** 0.5 for _, f in ok])[0]
            w = rng.choice(writers)
            xh = compose.x_height(by_writer[w])
            strokes = homoglyphs.compose_word(word, homoglyphs.writer_letters(by_writer[w], xh), rng, xh)
            if strokes is None:
                continue
            rows.append((f"{code}: {word}", strokes, None))
            got_here += 1
    return rows


def greek_letters() -> list:
    rows = []
    for c in hershey.letters("greeks"):
        rows.append((c, hershey.glyph("greeks", c), None))
    return rows


def _written(rows: list, code: str, n: int, rng: random.Random, write) -> list:
    """``n`` more words of ``code`` (wordfreq, three letters or more) into ``rows``, each written by
    ``write(word, k)`` for held-out writer k (a write that gives None is drawn again)."""
    words, freqs = text.words(code, 5000)
    target = len(rows) + n
    while len(rows) < target:
        w = rng.choices(words, freqs)[0]
        if len(w) < 3:
            continue
        k = len(rows)
        ink = write(w, k)
        if ink is not None:
            rows.append((f"{code}: {w} (held-out writer {k})", ink, None))
    return rows


def generated_greek(rng: random.Random, n: int = 12) -> list:
    return _written([], "el", n, rng, lambda w, k: writer.write_word(greek.word(w), writer.RULES["Grek"],
                                                                     writer.heldout_writer(k), rng))


def generated_cyrillic(rng: random.Random, per_language: int = 3) -> list:
    rows = []
    for code in ("ru", "uk", "bg", "mk", "sr"):
        words, freqs = text.words(code, 5000)
        for _ in range(per_language):
            w = ""
            while len(w) < 4:
                w = rng.choices(words, freqs)[0]
            if rng.random() < 0.2:
                w = w[:1].upper() + w[1:]
            k = len(rows)
            ink = writer.write_word(cyrillic.word(w, rng), writer.RULES["Cyrl"], writer.heldout_writer(k), rng)
            rows.append((f"{code}: {w} (held-out writer {k})", ink, None))
    return rows


def generated_korean(rng: random.Random, n: int = 9) -> list:
    tokens, freqs = text.words("ko", 5000)
    rows = []
    while len(rows) < n:
        phrase = " ".join(text.korean_phrases(rng.choices(tokens, freqs, k=rng.randint(3, 6))))
        gen = cjk.Generator(hangul.glyphs(set(phrase)), {})
        k = len(rows)
        ink = gen.write(phrase, writer.heldout_writer(k), rng)
        if ink is not None:
            rows.append((f"ko: {phrase} (held-out writer {k})", ink, None))
    return rows


def hebrew_letters() -> list:
    """Every drawn Hebrew letter form (``writing.hebrew``), as drawn: the templates the writer model varies."""
    rows = []
    for c in hebrew.LETTERS:
        for v in range(len(hebrew.TEMPLATES[c])):
            strokes, _ = hebrew.letter(c, v)
            rows.append((c if v == 0 else f"{c} ({v + 1})", [s * 40.0 for s in strokes], None))
    return rows


def generated_hebrew(rng: random.Random, n: int = 12) -> list:
    """Hebrew words (wordfreq) written right to left from the drawn letters by held-out writers."""
    return _written([], "he", n, rng, lambda w, k: writer.write_word(hebrew.word(w, rng), writer.RULES["Hebr"],
                                                                     writer.heldout_writer(k), rng))


def generated_arabic(rng: random.Random, per_language: int = 4) -> list:
    """Arabic, Persian and Urdu words (wordfreq) written right to left from the traced joining forms
    (``writing.arabic``) by held-out writers, the dots after the body."""
    rows: list = []
    for code in ("ar", "fa", "ur"):
        _written(rows, code, per_language, rng,
                 lambda w, k: arabic.write_word(w, writer.RULES["Arab"], writer.heldout_writer(k), rng))
    return rows


def generated_devanagari(rng: random.Random, per_language: int = 4) -> list:
    """Hindi (wordfreq), Marathi and Nepali (``devanagari.MARATHI_WORDS`` / ``NEPALI_WORDS``: wordfreq has
    neither) words written from the shaped, traced glyphs (``writing.devanagari``) by held-out writers."""
    rows: list = []
    hindi = [w for w in text.words("hi", 3000)[0] if len(devanagari.syllables(w)) >= 3]
    for code, words in (("hi", hindi), ("mr", list(devanagari.MARATHI_WORDS)), ("ne", list(devanagari.NEPALI_WORDS))):
        words = [w for w in words if len(w) >= 3]
        target = len(rows) + per_language
        while len(rows) < target:
            w = words.pop(rng.randrange(len(words)))
            k = len(rows)
            ink = devanagari.write_word(w, writer.RULES["Deva"], writer.heldout_writer(k), rng)
            if ink is not None:
                rows.append((f"{code}: {w} (held-out writer {k})", ink))
    return rows


def generated_indic(module, code: str, script: str, rng: random.Random, n: int = 9) -> list:
    """``n`` frequent words of ``code`` (wordfreq's 2,000 most frequent with three syllables or more) written from
    the shaped, traced glyphs of ``module`` (``writing.bengali`` / ``writing.tamil`` / ``writing.thai``) by held-out
    writers (Thai: the Thai National Corpus list, ``writing.thai.WORDS``)."""
    words = [w for w in text.words(code, 2000)[0] if len(module.syllables(w)) >= 3]
    rows: list = []
    while len(rows) < n:
        w = words.pop(rng.randrange(len(words)))
        k = len(rows)
        ink = module.write_word(w, writer.RULES[script], writer.heldout_writer(k), rng)
        if ink is not None:
            rows.append((f"{code}: {w} (held-out writer {k})", ink))
    return rows


def order_svg(rows: list, path: str, cols: int = 3, cell_w: int = 340, cell_h: int = 120) -> None:
    """A grid of (label, strokes), each stroke coloured by its place in its ink's writing order: blue first,
    red last."""
    from inkrec_training.figures import Grid, write_ink_grid

    def colour(cell, k, stroke):
        n = len(rows[cell][1])
        f = k / max(1, n - 1)
        return f"#{int(40 + 200 * f):02x}30{int(240 - 200 * f):02x}"
    write_ink_grid(path, rows, Grid(cols, cell_w, cell_h, margin_w=30, label_size=16, label_gap=8), colour)
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "..", "Docs", "scripts"))
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--only", choices=["rtl", "deva", "indic", "thai"],
                    help="write only the right-to-left scripts' pictures, only Devanagari's, only Bengali's and "
                         "Tamil's, or only Thai's (the others are left as they are)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.only in (None, "thai"):  # its own seed: adding it changed none of the other pictures
        order_svg(generated_indic(thai, "th", "Thai", random.Random(args.seed + 45)),
                  os.path.join(args.out, "thai-generated.svg"), cell_w=460)  # (its words run wide: no spaces)
        if args.only == "thai":
            return
    if args.only in (None, "indic"):  # their own seeds: adding them changed none of the other pictures
        order_svg(generated_indic(bengali, "bn", "Beng", random.Random(args.seed + 43)),
                  os.path.join(args.out, "bengali-generated.svg"))
        order_svg(generated_indic(tamil, "ta", "Taml", random.Random(args.seed + 44)),
                  os.path.join(args.out, "tamil-generated.svg"))
        if args.only == "indic":
            return
    order_svg(generated_devanagari(random.Random(args.seed + 42)), os.path.join(args.out, "devanagari-generated.svg"))
    if args.only == "deva":
        return
    # Hebrew's pictures draw from their own seed, so adding them changed none of the others.
    hrng = random.Random(args.seed + 40)
    svg(hebrew_letters(), os.path.join(args.out, "hebrew-letters.svg"), cols=12, cell_w=60, cell_h=90)
    svg(generated_hebrew(hrng), os.path.join(args.out, "hebrew-generated.svg"), cols=3, cell_w=340)
    svg(generated_arabic(random.Random(args.seed + 41)), os.path.join(args.out, "arabic-generated.svg"), cols=3,
        cell_w=340)
    if args.only:
        return
    by_writer = training_writers()
    rng = random.Random(args.seed)
    svg(vietnamese(by_writer, rng), os.path.join(args.out, "vietnamese.svg"))
    svg(real_letter_words(by_writer, rng), os.path.join(args.out, "homoglyphs.svg"), cols=3, cell_w=340)
    svg(greek_letters(), os.path.join(args.out, "greek-hershey.svg"), cols=12, cell_w=60, cell_h=90)
    svg(generated_greek(rng), os.path.join(args.out, "greek-generated.svg"), cols=3, cell_w=340)
    svg(generated_korean(rng), os.path.join(args.out, "hangul-generated.svg"), cols=3, cell_w=340)
    svg(generated_cyrillic(rng), os.path.join(args.out, "cyrillic-generated.svg"), cols=3, cell_w=340)


if __name__ == "__main__":
    main()
