#!/usr/bin/env python3
"""Chooses the CJK models' decoder weights (lmWeight, insertionBonus) on tuning inks, through the engine.

    python3 -m inkrec_training cjk tune --models /tmp/cjkmodels --inks Training/work/cjk-tune \\
        --lm-weights 0,0.1,0.2,0.4 --insertion-bonuses 0,1,2,3 --json tune.json

For each pair and each language (``--languages``), a copy of ``<models>/<lang>/config.json`` with those weights
(in a folder beside the original, so that the shared network's relative path holds) is read by ``inkrec recognize --batch``
over ``<inks>/<lang>-chars.jsonl`` (single characters: top-1, top-10) and ``<inks>/<lang>-lines.jsonl`` (lines:
CER of the best candidate). The pair with the lowest mean over the languages of (1 - top-1 + lines CER) / 2 is
printed last. Tuning inks come from ``cjk data inks --writer-base 200000``: writers that neither training nor
the reported figures use.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile

from inkrec_training.engine import recognize_file
from inkrec_training.metrics import edit_distance  # noqa: E402
from inkrec_training import engine


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def recognize(inkrec: str, model_dir: str, inks: str, extra: list[str]) -> list[list[str]]:
    """Each ink's candidate texts, in order (an ink the engine could not read gets none)."""
    rows, _ = recognize_file(inkrec, model_dir, inks, ["--format", "json", *extra], max_results=10)
    return [[c["text"] for c in r.get("candidates", [])] for r in rows]


def score(inkrec: str, model_dir: str, inks_dir: str, lang: str, extra: list[str]) -> dict:
    chars = read_jsonl(os.path.join(inks_dir, f"{lang}-chars.jsonl"))
    got = recognize(inkrec, model_dir, os.path.join(inks_dir, f"{lang}-chars.jsonl"), extra)
    top1 = sum(bool(c) and c[0] == ink["label"] for ink, c in zip(chars, got)) / len(chars)
    top10 = sum(ink["label"] in c[:10] for ink, c in zip(chars, got)) / len(chars)
    lines = read_jsonl(os.path.join(inks_dir, f"{lang}-lines.jsonl"))
    got = recognize(inkrec, model_dir, os.path.join(inks_dir, f"{lang}-lines.jsonl"), extra)
    errs = sum(edit_distance(list(c[0] if c else ""), list(ink["label"])) for ink, c in zip(lines, got))
    cer = errs / sum(len(ink["label"]) for ink in lines)
    return {"top1": top1, "top10": top10, "lines_cer": cer}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", required=True, help="holds <lang>/config.json and the shared network beside them")
    ap.add_argument("--inks", required=True, help="holds <lang>-chars.jsonl and <lang>-lines.jsonl")
    ap.add_argument("--languages", default="zh-Hans,ja,zh-Hant")
    ap.add_argument("--lm-weights", default="0,0.1,0.2,0.3,0.5")
    ap.add_argument("--insertion-bonuses", default="0,1,2,3")
    ap.add_argument("--inkrec", default=engine.DEFAULT_BINARY)
    ap.add_argument("--json", help="write every pair's figures here")
    args = ap.parse_args()
    langs = args.languages.split(",")
    rows = []
    # Each copy sits beside <models>/<lang> (the engine reads a shared network only as ../<folder>/<file>).
    tmp = {lang: tempfile.mkdtemp(dir=args.models, prefix=f".tune-{lang}-") for lang in langs}
    try:
        for lmw in (float(v) for v in args.lm_weights.split(",")):
            for bonus in (float(v) for v in args.insertion_bonuses.split(",")):
                res = {}
                for lang in langs:
                    with open(os.path.join(args.models, lang, "config.json"), encoding="utf-8") as f:
                        cfg = json.load(f)
                    cfg["decoder"]["lmWeight"], cfg["decoder"]["insertionBonus"] = lmw, bonus
                    d = tmp[lang]
                    if not os.path.exists(os.path.join(d, "lm.bin")):
                        shutil.copyfile(os.path.join(args.models, lang, "lm.bin"), os.path.join(d, "lm.bin"))
                    with open(os.path.join(d, "config.json"), "w", encoding="utf-8") as f:
                        json.dump(cfg, f, ensure_ascii=False)
                    res[lang] = score(args.inkrec, d, args.inks, lang, [])
                objective = sum((1 - r["top1"] + r["lines_cer"]) / 2 for r in res.values()) / len(res)
                rows.append({"lmWeight": lmw, "insertionBonus": bonus, "objective": objective, **res})
                print(f"lmWeight {lmw:<4} insertionBonus {bonus:<4} objective {objective:.4f}  " + "  ".join(
                    f"{k}: top-1 {r['top1']:.3f} top-10 {r['top10']:.3f} lines CER {r['lines_cer']:.3f}"
                    for k, r in res.items()), flush=True)
    finally:
        for d in tmp.values():
            shutil.rmtree(d, ignore_errors=True)
    best = min(rows, key=lambda r: r["objective"])
    print(f"best: lmWeight {best['lmWeight']} insertionBonus {best['insertionBonus']} (objective {best['objective']:.4f})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
