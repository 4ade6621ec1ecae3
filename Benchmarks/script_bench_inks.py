#!/usr/bin/env python3
"""Generated inks for the speed figures of the script kit's models (issues 39, 40), e.g. Russian, Greek, Korean,
Hebrew, Arabic, Hindi and Bengali: words
of 8 letters and lines of 36 to 44 characters, like ``word8.jsonl`` and ``line40.jsonl`` are for the Latin ones
(Korean: eojeol of three syllables, 7–9 jamo, and lines of 36 to 44 characters, syllables and spaces).

    python3 Benchmarks/script_bench_inks.py --languages ru,el,ko   # Benchmarks/.build/inks/<lang>-word8.jsonl, -line40.jsonl

Written by the script kit (``writing.training.ScriptSources``): wordfreq words, the kit's letters, held-out
writers of the writer model from ids 300,000 on (neither trained on nor in the reported or tuning figures),
with time stamps. Deterministic (seed 1).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Training"))
from inkrec_training.writing import arabic, writer  # noqa: E402
from inkrec_training.writing.training import OWN_WRITERS, ScriptSources, write_hangul  # noqa: E402

WRITER_IDS = (300_000, 400_000)


def ink_json(i: str, label: str, strokes) -> str:
    return json.dumps({"id": i, "label": label, "strokes": [
        {"points": [{"x": round(float(p[0]), 1), "y": round(float(p[1]), 1), "t": round(float(p[2]) * 1000)} for p in s]}
        for s in strokes]}, ensure_ascii=False, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, ".build", "inks"))
    ap.add_argument("--words", type=int, default=32)
    ap.add_argument("--lines", type=int, default=11)
    ap.add_argument("--languages", default="ru,el", help="comma-separated languages of the kit")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for lang in args.languages.split(","):
        write_inks(lang, args.out, args.words, args.lines)


def write_lines(src, rng: random.Random, out: str, lang: str, n_lines: int, max_words: int) -> None:
    """``n_lines`` lines of 36 to 44 characters to ``<lang>-line40.jsonl``."""
    n = 0
    with open(os.path.join(out, f"{lang}-line40.jsonl"), "w", encoding="utf-8") as f:
        while n < n_lines:
            got = src.line(rng, max_words=max_words, keep_time=True)
            if got is not None and 36 <= len(got[1]) <= 44:
                f.write(ink_json(f"{lang}-line40-{n}", got[1], got[0]) + "\n")
                n += 1


def write_korean_inks(out: str, n_words: int, n_lines: int) -> None:
    src = ScriptSources(["ko"], heldout=True, writer_ids=WRITER_IDS, labels="syllables")
    rng = random.Random(1)
    n = 0
    with open(os.path.join(out, "ko-word8.jsonl"), "w", encoding="utf-8") as f:
        while n < n_words:
            w = src._text(rng, "ko")[1]
            if len(w) == 3:
                strokes = write_hangul(w, src._style(rng), rng)
                f.write(ink_json(f"ko-word8-{n}", w, strokes) + "\n")
                n += 1
    write_lines(src, rng, out, "ko", n_lines, max_words=16)
    print(f"{out}/ko-word8.jsonl: {n_words} eojeol of three syllables; ko-line40.jsonl: {n_lines} lines")


def write_inks(lang: str, out: str, n_words: int, n_lines: int) -> None:
    if lang == "ko":
        return write_korean_inks(out, n_words, n_lines)
    src = ScriptSources([lang], heldout=True, writer_ids=WRITER_IDS)
    rng = random.Random(1)
    words = [w for w in src.vocab[lang][0][:20000] if len(w) == 8]
    if src.script == "Arab":  # joined pieces: the script's own writer; only words whose every form was traced
        words = [w for w in words if arabic.covers(w)]

    def written(w):
        if src.script in OWN_WRITERS:  # joined pieces or shaped syllables: None when a form was not traced
            return src._write(w, src._style(rng), rng)
        return writer.write_word(src.letters(w, rng), src.rules, src._style(rng), rng)

    with open(os.path.join(out, f"{lang}-word8.jsonl"), "w", encoding="utf-8") as f:
        for k, w in enumerate(rng.sample(words, n_words)):
            strokes = written(w)
            while strokes is None:  # another word in its place
                w = rng.choice(words)
                strokes = written(w)
            f.write(ink_json(f"{lang}-word8-{k}", w, strokes) + "\n")
    write_lines(src, rng, out, lang, n_lines, max_words=7)
    print(f"{out}/{lang}-word8.jsonl: {n_words} words; {lang}-line40.jsonl: {n_lines} lines")


if __name__ == "__main__":
    main()
