#!/usr/bin/env python3
"""Per-language decoder weights for the Latin models, chosen on the tuning writers only.

    python3 -m inkrec_training latin tune --models Models --out Training/work/decoders.json \
        --lm-weights 1.0,1.4,1.8,2.2 --insertion-bonuses 1.0,1.5,2.0
    python3 -m inkrec_training latin export ... --decoder-weights Training/work/decoders.json

Runs ``latin evaluate languages --set tuning`` (composed words of held-out writers that are never
reported) once per pair of weights, for every language at once, and keeps for each language the pair
with the highest word accuracy (then the lowest CER, then the pair nearest the shared default). The
reported figures come from the other writers (``--set reported``), so choosing here does not flatter them.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile

from inkrec_training.cli import run_tool
from inkrec_training.paths import ROOT


def choose(runs: list[tuple[float, float, dict]], default: tuple[float, float]) -> dict:
    """{language: {"lmWeight", "insertionBonus", "word_acc", "cer"}}: each language's best pair of
    ``runs`` ((lm weight, insertion bonus, evaluate_languages results) each)."""
    best: dict = {}
    for lw, ib, results in runs:
        for lang, r in results.items():
            key = (r["word_acc"], -r["cer"], -abs(lw - default[0]) - abs(ib - default[1]))
            if lang not in best or key > best[lang][0]:
                best[lang] = (key, {"lmWeight": lw, "insertionBonus": ib, "word_acc": r["word_acc"], "cer": r["cer"]})
    return {lang: v for lang, (_, v) in sorted(best.items())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--lm-weights", default="1.0,1.4,1.8,2.2")
    ap.add_argument("--insertion-bonuses", default="1.0,1.5,2.0")
    ap.add_argument("--default", default="1.4,1.5", help="the shared weights, preferred on ties")
    ap.add_argument("--words", type=int, default=200)
    ap.add_argument("--languages", default="")
    args = ap.parse_args(argv)
    default = tuple(float(x) for x in args.default.split(","))
    runs = []
    tmp = tempfile.mkdtemp(prefix="inkrec-decoders-")
    for lw, ib in itertools.product([float(x) for x in args.lm_weights.split(",")],
                                    [float(x) for x in args.insertion_bonuses.split(",")]):
        path = os.path.join(tmp, f"{lw}-{ib}.json")
        run_tool("latin", "evaluate", "languages", "--set", "tuning", "--models", args.models,
                 "--words", str(args.words), "--json", path, f"--decoder-args=--lm-weight {lw} --insertion-bonus {ib}",
                 *(["--languages", args.languages] if args.languages else []),
                 check=True, capture_output=True, text=True)
        with open(path, encoding="utf-8") as f:
            runs.append((lw, ib, json.load(f)["results"]))
        mean = sum(r["word_acc"] for r in runs[-1][2].values()) / max(len(runs[-1][2]), 1)
        print(f"lm weight {lw}, insertion bonus {ib}: mean word accuracy {100 * mean:.1f}%", file=sys.stderr)
    chosen = choose(runs, default)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(chosen, f, indent=1)
    for lang, c in chosen.items():
        print(f"{lang}: lm weight {c['lmWeight']}, insertion bonus {c['insertionBonus']} "
              f"(tuning words {100 * c['word_acc']:.1f}%, CER {100 * c['cer']:.1f}%)")


if __name__ == "__main__":
    main()
