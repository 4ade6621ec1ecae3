#!/usr/bin/env python3
"""Generated CJK inks for the speed figures of the CJK models (issue 18): lines of exactly N characters.

    python3 Benchmarks/cjk_bench_inks.py --language zh-Hans --chars 10 --count 20
        # writes Benchmarks/.build/inks/cjk-zh-Hans-line10.jsonl

Like ``python3 -m inkrec_training cjk data inks`` (held-out generator writers, running text of the language's word list,
the same JSON Lines), but every line has exactly ``--chars`` characters: ``cjk.sample_line`` with
``min_chars = max_chars = --chars``. Writers from ``--writer-base`` (300,000 by default: neither
trained on nor in the evaluation or tuning sets). Needs ``Training/work/cjk/`` (glyph cache and word
lists, ``python3 -m inkrec_training cjk data``).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.join(os.path.dirname(HERE), "Training")
sys.path.insert(0, TRAINING)
from inkrec_training import cjk, cjk_glyphs  # noqa: E402
from inkrec_training.families.cjk.inks import WORK, ink_json  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--language", default="zh-Hans", choices=("ja", "zh-Hans", "zh-Hant"))
    ap.add_argument("--chars", type=int, default=10, help="characters per line")
    ap.add_argument("--count", type=int, default=20, help="lines")
    ap.add_argument("--out", help="default: Benchmarks/.build/inks/cjk-<language>-line<chars>.jsonl")
    ap.add_argument("--writer-base", type=int, default=300_000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--work", default=WORK)
    args = ap.parse_args()
    out = args.out or os.path.join(HERE, ".build", "inks", f"cjk-{args.language}-line{args.chars}.jsonl")
    cache = cjk_glyphs.load_cache(os.path.join(args.work, "glyphs.npz"))
    gen = cjk.Generator(cache["train"], cache["heldout_variants"])
    from inkrec_training.families.cjk import train as train_cjk  # the word lists
    words, cum = train_cjk.load_words(args.work)[args.language]
    rng = random.Random(f"{args.seed}-{args.language}-{args.chars}")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    n, w = 0, args.writer_base
    with open(out, "w", encoding="utf-8") as f:
        while n < args.count:
            text = cjk.sample_line(words, cum, args.language, rng, min_chars=args.chars, max_chars=args.chars)
            ink = gen.write(text, cjk.heldout_writer(w), rng) if len(text) == args.chars else None
            w += 1
            if ink is not None:
                f.write(ink_json(n, text, ink) + "\n")
                n += 1
    print(f"wrote {n} lines of {args.chars} characters to {out}")


if __name__ == "__main__":
    main()
