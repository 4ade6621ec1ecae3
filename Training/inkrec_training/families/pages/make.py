#!/usr/bin/env python3
"""Generate handwritten pages from held-out writers' UNIPEN lines (see inkrec_training/pages.py).

    python3 -m inkrec_training pages data --seed 7 --pages 12 --max-lines 5 --max-page-points 2600 \
        --out Tests/DigitalInkTests/Fixtures/pages/pages-small.jsonl

Each output line is one page: project ink JSON (`id`, `strokes` of [x, y] points, read directly by
`inkrec recognize --page --batch`) plus `writer`, `variant`, `seed`, `lines` (the truth: each line's
text and its stroke indices, top to bottom) and `moved` (the strokes a variant moved).
Variants cycle plain, inserted-word, inserted-line, late-marks.

Data: UNIPEN train_r01_v07, International Unipen Foundation, CC BY 4.0; validation (held-out) writers,
or with `--writers training` the training writers (pages to tune the segmentation on, never reported).
"""
from __future__ import annotations

import argparse
import os

from inkrec_training import data, pages


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="master seed (page i uses pages.page_seed(seed, i))")
    ap.add_argument("--pages", type=int, default=300, help="number of pages")
    ap.add_argument("--out", required=True, help="output JSON Lines file")
    ap.add_argument("--min-lines", type=int, default=2)
    ap.add_argument("--max-lines", type=int, default=8)
    ap.add_argument("--max-page-points", type=int, default=None,
                    help="draw other lines until a page has at most this many points (small fixtures)")
    ap.add_argument("--variants", default=",".join(pages.VARIANTS),
                    help="comma-separated variants, cycled over the pages (also: wrapped, running text "
                         "broken across lines)")
    ap.add_argument("--svg-dir", default=None, help="also write one SVG picture per page here")
    ap.add_argument("--writers", choices=pages.WRITER_SETS, default="held-out",
                    help="whose lines: held-out writers (tests, reported figures) or training writers "
                         "(for tuning the segmentation)")
    ap.add_argument("--data-dir", default=data.DEFAULT_DATA)
    args = ap.parse_args(argv)

    variants = tuple(v for v in args.variants.split(",") if v)
    unknown = [v for v in variants if v not in pages.VARIANTS + pages.EXTRA_VARIANTS]
    if unknown or not variants:
        ap.error(f"unknown variants {unknown}; choose from {', '.join(pages.VARIANTS + pages.EXTRA_VARIANTS)}")
    if not 1 <= args.min_lines <= args.max_lines:
        ap.error("need 1 <= --min-lines <= --max-lines")

    pool = pages.load_lines(args.data_dir, writers=args.writers)
    made = pages.make_pages(pool, args.seed, args.pages, variants, args.min_lines, args.max_lines,
                            args.max_page_points)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    pages.write_jsonl(made, args.out)
    if args.svg_dir:
        os.makedirs(args.svg_dir, exist_ok=True)
        for p in made:
            with open(os.path.join(args.svg_dir, p["id"] + ".svg"), "w") as f:
                f.write(pages.to_svg(p))
    n_lines = sum(len(p["lines"]) for p in made)
    writers = len({p["writer"] for p in made})
    print(f"{len(made)} pages, {n_lines} lines, {writers} writers (of {len(pool)} {args.writers} writers) "
          f"-> {args.out} ({os.path.getsize(args.out) / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
