#!/usr/bin/env python3
"""Korean: a network that outputs jamo against one that outputs syllables, on the same held-out ink.

    python3 -m inkrec_training scripts evaluate korean --jamo Training/runs/ko-jamo/last.pt \
        --syllables Training/runs/ko-syl/last.pt --words 600 --lines 150 --json Training/work/ko-compare.json

Both checkpoints (their moving-average weights) read the same inks greedily (no language model: what is
compared is the networks): eojeol and lines of two to four eojeol written by held-out writers of the writer
model (the reported ids, ``scripts evaluate models``' range), from the words both label forms can write
(KS X 1001's 2,350 syllables; ``writing.training``). The jamo network's output is composed into syllables
(NFC) before it is scored, so both are scored on the same text: word (or line) accuracy and the syllable
error rate (edit distance over characters, a syllable being one). Also: how many of the 11,172 syllables
each network can output at all, and its output layer's size.
"""
from __future__ import annotations

import argparse
import json
import random
import sys

import torch

from inkrec_training import charset, data
from inkrec_training.features import ink_features
from inkrec_training.metrics import edit_distance
from inkrec_training.model import InkRecNet
from inkrec_training.writing.training import ScriptSources, ksx1001

REPORTED = (0, 100_000)


def held_out_inks(words: int, lines: int, seed: int) -> list[tuple[str, list, str]]:
    """(kind, strokes, text in syllables) of held-out writers: ``words`` eojeol of two syllables or more, then
    ``lines`` lines."""
    src = ScriptSources(["ko"], heldout=True, writer_ids=REPORTED, labels="syllables")
    rng = random.Random(f"{seed}-korean-compare")
    out = []
    while sum(k == "word" for k, _, _ in out) < words:
        got = src.word(rng)
        if got is not None and len(got[1]) >= 2:
            out.append(("word", got[0], got[1]))
    while len(out) < words + lines:
        got = src.line(rng)
        if got is not None:
            out.append(("line", got[0], got[1]))
    return out


def load(path: str, name: str) -> tuple[InkRecNet, dict]:
    """The checkpoint's network with its moving-average weights, and the checkpoint."""
    ck = torch.load(path, weights_only=False, map_location="cpu")
    c = ck["config"]
    model = InkRecNet(c["inputDim"], c["hidden"], c["layers"], c["numClasses"], c["reduceAfter"], c.get("head", "ctc"))
    model.load_state_dict(ck.get("ema") or ck["model"])
    if c["numClasses"] != len(charset.SETS[name]) + 1:
        raise SystemExit(f"{path}: {c['numClasses']} classes, the {name} set has {len(charset.SETS[name])} + blank")
    model.eval()
    return model, ck


def read(model: InkRecNet, name: str, inks: list) -> list[str]:
    """Greedy readings of ``inks`` in syllables (the jamo network's output composed)."""
    chars = charset.SETS[name]
    out = []
    with torch.no_grad():
        for _, strokes, _ in inks:
            f = torch.from_numpy(ink_features(strokes)).unsqueeze(0)
            lp, n = model(f, torch.tensor([f.shape[1]]))
            best = lp[0, : int(n[0])].argmax(-1).tolist()
            ids, prev = [], 0
            for k in best:
                if k != prev and k != 0:
                    ids.append(k)
                prev = k
            text = "".join(chars[k - 1] for k in ids)
            out.append(charset.hangul_text(text) if name == "hangul" else text)
    return out


def scores(inks: list, hyps: list[str]) -> dict:
    r = {}
    for kind in ("word", "line"):
        pairs = [(t, h) for (k, _, t), h in zip(inks, hyps) if k == kind]
        errs = sum(edit_distance(h, t) for t, h in pairs)
        n = sum(len(t) for t, _ in pairs)
        r[kind] = {"count": len(pairs), "exact": sum(h == t for t, h in pairs) / max(len(pairs), 1),
                   "syllable_error_rate": errs / max(n, 1),
                   "wrong": [f"{t} → {h}" for t, h in pairs if h != t][:10]}
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jamo", required=True, help="checkpoint of the jamo network (charset hangul)")
    ap.add_argument("--syllables", required=True, help="checkpoint of the syllable network (charset hangul-syllables)")
    ap.add_argument("--words", type=int, default=600)
    ap.add_argument("--lines", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(1)
    inks = held_out_inks(args.words, args.lines, args.seed)
    results = {}
    for name, path in (("hangul", args.jamo), ("hangul-syllables", args.syllables)):
        model, ck = load(path, name)
        hyps = read(model, name, inks)
        hist = ck["state"].get("history", [])
        results[name] = {"checkpoint": path, "step": ck["state"].get("step"),
                         "minutes": hist[-1]["minutes"] if hist else None,
                         "classes": model.num_classes, "head_weights": sum(p.numel() for p in model.head.parameters()),
                         "syllables_it_can_write": 11172 if name == "hangul" else len(ksx1001()),
                         **scores(inks, hyps)}
        w, l = results[name]["word"], results[name]["line"]
        print(f"{name}: step {results[name]['step']}, words {100 * w['exact']:.1f}% exact, syllable errors "
              f"{100 * w['syllable_error_rate']:.1f}%; lines {100 * l['exact']:.1f}% exact, syllable errors "
              f"{100 * l['syllable_error_rate']:.1f}%", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"words": args.words, "lines": args.lines, "seed": args.seed, "results": results}, f, indent=1,
                      ensure_ascii=False)


if __name__ == "__main__":
    main()
