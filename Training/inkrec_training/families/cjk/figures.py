#!/usr/bin/env python3
"""Pictures of the CJK ink generator for Docs/cjk.md (``inkrec_training/cjk.py``).

    python3 -m inkrec_training cjk data figures --out Docs/cjk

Needs ``Training/work/cjk/`` (``cjk data``). Writes four SVGs:
``steps.svg`` (one character through the generator's steps), ``writers.svg`` (one character by twelve
training writers), ``lines.svg`` (lines of the three languages by held-out writers, as the evaluation
reads them) and ``variants.svg`` (KanjiVG alternative forms held out of training).
"""
from __future__ import annotations

import argparse
import dataclasses
import html
import os
import random


from inkrec_training.paths import TRAINING as HERE
from inkrec_training import cjk, cjk_glyphs
from inkrec_training.figures import Grid, write_ink_grid
from inkrec_training.families.cjk import train as train_cjk

COLOURS = ["#000", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b"]


def svg(cells, path, cols, cell_w, cell_h, colour_strokes=False):
    """A grid of (label, strokes); with ``colour_strokes`` each stroke of a cell in the next of ``COLOURS``."""
    colour = (lambda cell, k, stroke: COLOURS[k % len(COLOURS)]) if colour_strokes else (lambda cell, k, stroke: "black")
    write_ink_grid(path, [(html.escape(label), strokes) for label, strokes in cells], Grid(cols, cell_w, cell_h), colour)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(HERE), "Docs", "cjk"))
    ap.add_argument("--work", default=train_cjk.WORK)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cache = cjk_glyphs.load_cache(os.path.join(args.work, "glyphs.npz"))
    gen = cjk.Generator(cache["train"], cache["heldout_variants"])

    # 1. Steps, each adding one part of the writer model to the one before (one writer, one seed).
    c = "書"
    glyph = cache["train"][c][0]
    base = cjk.Style.for_writer(40)
    off = dict(slant=0.0, rotation=0.0, aspect=1.0, stroke_scale=0.0, stroke_angle=0.0, stroke_shift=0.0, elastic=0.0,
               join=0.0, swap=0.0, reverse=0.0, tremor=0.0)
    steps = [("centre lines (Make Me a Hanzi)", {}),
             ("+ stroke length, angle, position", dict(stroke_scale=0.1, stroke_angle=0.08, stroke_shift=0.02)),
             ("+ elastic warp", dict(elastic=0.04)),
             ("+ slant, rotation, aspect", dict(slant=0.15, rotation=0.05, aspect=0.9)),
             ("+ joins of fast writing", dict(join=0.6)),
             ("+ tremor", dict(tremor=0.004))]
    cells, acc = [], dict(off)
    for label, change in steps:
        acc.update(change)
        style = dataclasses.replace(base, **acc)
        cells.append((label, gen.write(c, style, random.Random(9), variants={c: [glyph]})))
    svg(cells, os.path.join(args.out, "steps.svg"), cols=3, cell_w=260, cell_h=250, colour_strokes=True)

    # 2. One character by twelve training writers.
    rng = random.Random(2)
    cells = []
    for _ in range(12):
        w = rng.randrange(cjk.TRAIN_WRITERS)
        cells.append((f"writer {w}", gen.write("語", cjk.Style.for_writer(w), rng)))
    svg(cells, os.path.join(args.out, "writers.svg"), cols=6, cell_w=150, cell_h=160)

    # 3. Lines of the three languages by held-out writers.
    words = train_cjk.load_words(args.work)
    cells = []
    rng = random.Random(3)
    for lang in ("zh-Hans", "zh-Hant", "ja"):
        for k in range(2):
            t = cjk.sample_line(*words[lang], lang, rng)
            cells.append((f"{lang}, held-out writer {k}: {t}", gen.write(t, cjk.heldout_writer(900 + 10 * k), rng)))
    svg(cells, os.path.join(args.out, "lines.svg"), cols=1, cell_w=900, cell_h=120)

    # 4. Held-out alternative forms next to the trained form.
    cells = []
    rng = random.Random(4)
    for c in [c for c in cache["heldout_variants"] if c in cache["train"]][:30:5]:
        cells.append((f"{c}: trained form", gen.write(c, cjk.heldout_writer(1), rng)))
        cells.append((f"{c}: held-out form", gen.write(c, cjk.heldout_writer(1), rng, variants=cache["heldout_variants"])))
    svg(cells, os.path.join(args.out, "variants.svg"), cols=4, cell_w=170, cell_h=170)
    print(f"wrote 4 pictures to {args.out}")


if __name__ == "__main__":
    main()
