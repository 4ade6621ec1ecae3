#!/usr/bin/env python3
"""Pictures of the accented-ink composer for Docs/composer.md (`inkrec_training/accents.py`, `languages.py`).

    python3 -m inkrec_training latin data figures --out Docs/composer

Writes three SVGs, each a grid of composed inks with their labels (marks drawn in red):
`real-words.svg` (training writers' real words with marks on letters found by forced alignment),
`composed-words.svg` (real words of several languages from one writer's isolated characters) and
`hershey.svg` (running text of several languages in the single-stroke fonts).
"""
from __future__ import annotations

import argparse
import os
import random

import numpy as np

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import accents, align, charset, data, languages, synthetic
from inkrec_training import splits
from inkrec_training.figures import Grid, write_ink_grid


def svg(rows, path, cols=2, cell_w=520, cell_h=120):
    """A grid of (label, strokes, strokes of the original ink or None): the marks a composer added in red."""
    def colour(cell, k, stroke):
        n_orig = rows[cell][2]
        return "black" if n_orig is None or k < n_orig or not hasattr(stroke, "_mark") else "#c00"
    write_ink_grid(path, [(label, strokes) for label, strokes, _ in rows],
                   Grid(cols, cell_w, cell_h, margin_w=30, label_size=16, label_gap=8), colour)
    print("wrote", path)


def mark_strokes(original, composed):
    """The composed strokes, the added ones tagged as marks (drawn in red)."""
    ids = {id(s) for s in original}
    out = []
    for s in composed:
        a = np.asarray(s)
        if id(s) not in ids:
            a = a.view(MarkArray)
        out.append(a)
    return out


class MarkArray(np.ndarray):
    _mark = True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "..", "Docs", "composer"))
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    charset.select("latin")
    rng = random.Random(args.seed)
    words = [w for w in data.load("words", limit=20000) if not splits.is_validation_writer(w.writer)
             and w.label.isalpha() and 4 <= len(w.label) <= 9]
    rng.shuffle(words)
    words = words[:800]
    boxes = align.letter_boxes(align.load_reference_model(os.path.join(HERE, "..", "Models", "en-US")), words)
    langs = ["pl", "cs", "de", "fr", "tr", "ro", "hu", "lv", "is", "es"]
    tables = {l: accents.substitution_table(l, 20000) for l in langs}
    rows = []
    for it in words:
        if (it.id, it.label) not in boxes or len(rows) >= 12:
            continue
        lang = langs[len(rows) % len(langs)]
        target = accents.substitute(it.label, tables[lang], rng)
        if target == it.label:
            continue
        b, last = boxes[(it.id, it.label)]
        composed = accents.compose_marks(it.strokes, b, last, it.label, target, rng)
        rows.append((f"{lang}: {target}  (real word “{it.label}”)", mark_strokes(it.strokes, composed), len(it.strokes)))
    svg(rows, os.path.join(args.out, "real-words.svg"))

    chars = data.load("chars", limit=60000)
    src = languages.LanguageSources([], [c for c in chars if not splits.is_validation_writer(c.writer)], {}, langs, n_words=5000)
    rows = []
    for k in range(12):
        lang = langs[k % len(langs)]
        got = None
        while got is None or got[1].isascii():
            got = src.composed_word(rng, lang=lang)
        rows.append((f"{lang}: {got[1]}", got[0], None))
    svg(rows, os.path.join(args.out, "composed-words.svg"))

    rows = []
    for k in range(10):
        lang = langs[k % len(langs)]
        ws, wt = src.vocab[lang]
        got = None
        while got is None:
            text = languages.sample_language_text(lang, ws, wt, rng)
            if text.isascii():
                continue
            got = synthetic.hershey_ink(text, rng)
        rows.append((f"{lang}: {text}", got, None))
    svg(rows, os.path.join(args.out, "hershey.svg"))


if __name__ == "__main__":
    main()
