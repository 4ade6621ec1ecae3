#!/usr/bin/env python3
"""Pictures of the accented-ink composer for Docs/composer.md (`inkrec_training/accents.py`, `languages.py`).

    python3 Training/make_composer_figures.py --out Docs/composer

Writes three SVGs, each a grid of composed inks with their labels (marks drawn in red):
`real-words.svg` (training writers' real words with marks on letters found by forced alignment),
`composed-words.svg` (real words of several languages from one writer's isolated characters) and
`hershey.svg` (running text of several languages in the single-stroke fonts).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from inkrec_training import accents, align, charset, data, languages, synthetic  # noqa: E402


def svg(rows, path, cols=2, cell_w=520, cell_h=120):
    h = ((len(rows) + cols - 1) // cols) * cell_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * cell_w}" height="{h}" '
           f'style="background:white" font-family="sans-serif">']
    for i, (label, strokes, n_orig) in enumerate(rows):
        allp = np.concatenate(strokes)
        mn, mx = allp.min(0), allp.max(0)
        sc = min((cell_h - 40) / max(mx[1] - mn[1], 1e-6), (cell_w - 30) / max(mx[0] - mn[0], 1e-6))
        ox, oy = (i % cols) * cell_w + 10, (i // cols) * cell_h + 28
        out.append(f'<text x="{ox}" y="{oy - 8}" font-size="16" fill="#444">{label}</text>')
        for k, s in enumerate(strokes):
            pts = " ".join(f"{ox + (p[0] - mn[0]) * sc:.1f},{oy + (p[1] - mn[1]) * sc:.1f}" for p in s)
            col = "black" if n_orig is None or k < n_orig or not hasattr(s, "_mark") else "#c00"
            out.append(f'<polyline points="{pts}" fill="none" stroke="{col}" stroke-width="2" '
                       f'stroke-linecap="round" stroke-linejoin="round"/>')
    out.append("</svg>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
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
    words = [w for w in data.load("words", limit=20000) if not data.is_validation_writer(w.writer)
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
    src = languages.LanguageSources([], [c for c in chars if not data.is_validation_writer(c.writer)], {}, langs, n_words=5000)
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
