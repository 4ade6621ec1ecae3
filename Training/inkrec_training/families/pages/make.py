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

With `--language` (a language of a generated script: he, ar, ...) the lines are generated instead
(`families/pages/scripts.py`): each page's writer is one held-out writer of the writer model (ids
0–99,999, whose figures are reported; `--writers training` takes the tuning ids 100,000–199,999 instead,
never the training writers), lines of 2–5 words, pages of 3–6 lines by default, laid out right to left
for a right-to-left script:

    python3 -m inkrec_training pages data --language he --pages 200 --out Training/work/pages-he.jsonl
"""
from __future__ import annotations

import argparse
import os

from inkrec_training import data, pages
from inkrec_training.families.pages import scripts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="master seed (page i uses pages.page_seed(seed, i))")
    ap.add_argument("--pages", type=int, default=300, help="number of pages")
    ap.add_argument("--out", required=True, help="output JSON Lines file")
    ap.add_argument("--min-lines", type=int, default=None, help="default 2 (3 with --language)")
    ap.add_argument("--max-lines", type=int, default=None, help="default 8 (6 with --language)")
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
    add_language_arguments(ap)
    args = ap.parse_args(argv)
    default_line_counts(args)

    variants = tuple(v for v in args.variants.split(",") if v)
    unknown = [v for v in variants if v not in pages.VARIANTS + pages.EXTRA_VARIANTS]
    if unknown or not variants:
        ap.error(f"unknown variants {unknown}; choose from {', '.join(pages.VARIANTS + pages.EXTRA_VARIANTS)}")
    if not 1 <= args.min_lines <= args.max_lines:
        ap.error("need 1 <= --min-lines <= --max-lines")

    pool, direction = line_pool(args)
    made = pages.make_pages(pool, args.seed, args.pages, variants, args.min_lines, args.max_lines,
                            args.max_page_points, direction=direction)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    pages.write_jsonl(made, args.out)
    if args.svg_dir:
        os.makedirs(args.svg_dir, exist_ok=True)
        for p in made:
            with open(os.path.join(args.svg_dir, p["id"] + ".svg"), "w") as f:
                f.write(pages.to_svg(p))
    n_lines = sum(len(p["lines"]) for p in made)
    source = f"generated {args.language}, {direction}" if args.language else "UNIPEN"
    kind = {"held-out": "held-out", "training": "tuning"}[args.writers] if args.language else args.writers
    writers = len({p["writer"] for p in made})
    print(f"{len(made)} pages, {n_lines} lines, {writers} writers (of {len(pool)} {kind} writers, {source}) "
          f"-> {args.out} ({os.path.getsize(args.out) / 1024:.0f} KB)")


def add_language_arguments(ap: argparse.ArgumentParser) -> None:
    """`--language` and the sizes of a generated script's line pool (shared with `pages evaluate`)."""
    ap.add_argument("--language", default=None,
                    help="generate the lines of this language (a generated script: he, ar, ...; right to left "
                         "for Hebrew and Arabic) instead of UNIPEN's English lines")
    ap.add_argument("--pool-writers", type=int, default=50, help="with --language: how many writers")
    ap.add_argument("--lines-per-writer", type=int, default=10, help="with --language: lines of each writer")


def default_line_counts(args) -> None:
    """Pages of 2–8 lines for UNIPEN, 3–6 for a generated language, unless given."""
    if args.min_lines is None:
        args.min_lines = scripts.MIN_LINES if args.language else 2
    if args.max_lines is None:
        args.max_lines = scripts.MAX_LINES if args.language else 8


def line_pool(args) -> tuple[dict, str]:
    """(the line pool by writer, the writing direction) for `args` (`--language`, `--writers`, `--seed`)."""
    if not args.language:
        return pages.load_lines(args.data_dir, writers=args.writers), "ltr"
    try:
        direction = scripts.direction(args.language)
    except ValueError as e:
        raise SystemExit(str(e))
    pool = scripts.generated_pool(args.language, seed=args.seed, writers=args.pool_writers,
                                  lines_per_writer=args.lines_per_writer, writer_ids=scripts.WRITER_IDS[args.writers])
    return pool, direction


if __name__ == "__main__":
    main()
