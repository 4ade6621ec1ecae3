#!/usr/bin/env python3
"""Writer adaptation (issue 41) measured through the engine: ``inkrec adapt`` and ``inkrec recognize --profile``.

    python3 -m inkrec_training latin evaluate adaptation                 # en-US, K = 10, 20, 50
    python3 -m inkrec_training latin evaluate adaptation --json /tmp/adapt.json

Protocol: every held-out UNIPEN writer (``splits.is_validation_writer``) with at least ``--min-words`` (60) English
words, in the data's order (their writing order). A profile learns from the writer's first K words (``inkrec adapt
--minimum-pairs 0``); the words after the first 50 are read with and without it, so every K is scored on the same
words. Reported: word accuracy and CER pooled over the words and per writer, and the cross-writer cost (each
writer's K = 50 profile applied to the next writer's words). Beside the profile, the other adaptation the
library has: the K words as a user dictionary (``--vocabulary``, boosted as hints are), alone (``dictK``) and
with the profile (``bothK``). Six writers (``tuning_writer``: a stable hash) chose the
learning settings (``LearningSettings`` in Swift, on a PyTorch prototype) and are left out of every figure.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time

from inkrec_training import data, engine, splits
from inkrec_training.engine import best_texts, recognize_file
from inkrec_training.metrics import edit_distance
from inkrec_training.paths import ROOT

KS = (10, 20, 50)
POOL = 50  # the first POOL words may be learned from; the rest are read


def tuning_writer(writer: str) -> bool:
    """The six writers the learning settings were chosen on (never reported)."""
    return splits.bucket(writer, "adapt41") % 5 == 0


def writers_words(min_words: int) -> dict:
    by = collections.OrderedDict()
    for it in data.load("words"):
        if splits.is_validation_writer(it.writer):
            by.setdefault(it.writer, []).append(it)
    return {w: items for w, items in by.items() if len(items) >= min_words and not tuning_writer(w)}


def score(items, hyps: dict) -> tuple[int, int, int]:
    ok = errs = chars = 0
    for it in items:
        h = hyps.get(it.id, "")
        ok += h == it.label
        errs += edit_distance(h, it.label)
        chars += len(it.label)
    return ok, errs, chars


def adapt(inkrec: str, model: str, items, path: str, out: str) -> float:
    """``inkrec adapt`` on ``items`` (their labels as the texts) into ``out``; its wall time in seconds."""
    with open(path, "w") as f:
        for it in items:
            f.write(json.dumps(engine.ink_object(it, text=it.label)) + "\n")
    t = time.time()
    subprocess.run([inkrec, "adapt", "--model-directory", model, "--pairs", path, "--output", out, "--minimum-pairs", "0"],
                   check=True, capture_output=True, text=True)
    return time.time() - t


def read(inkrec: str, model: str, items, path: str, profile: str | None, vocabulary: str | None = None) -> dict:
    engine.write_jsonl(items, path)
    extra = ["--no-segments"] + (["--profile", profile] if profile else []) + (["--vocabulary", vocabulary] if vocabulary else [])
    return best_texts(recognize_file(inkrec, model, path, extra)[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--min-words", type=int, default=60)
    ap.add_argument("--inkrec", default=None)
    ap.add_argument("--json")
    ap.add_argument("--picture", help="an SVG of words of the writer the K = 50 profile helped most: read wrong "
                                      "before and right after, and any it broke (Docs/personalization/writer.svg)")
    args = ap.parse_args()
    inkrec = args.inkrec or engine.binary()
    writers = writers_words(args.min_words)
    tmp = tempfile.mkdtemp(prefix="inkrec-adapt-")
    names = list(writers)
    print(f"{len(names)} writers, {sum(len(v) - POOL for v in writers.values())} words read", file=sys.stderr)
    rows, pooled, learn_s = {}, collections.defaultdict(lambda: [0, 0, 0, 0]), []
    profiles, changed = {}, {}
    for n, w in enumerate(names):
        items = writers[w]
        test = items[POOL:]
        before = read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), None)
        base = score(test, before)
        row = {"words": len(test), "base": base[0] / len(test), "base_cer": base[1] / base[2]}
        for K in KS:
            prof = os.path.join(tmp, f"writer{n}-k{K}.bin")
            secs = adapt(inkrec, args.model, items[:K], os.path.join(tmp, "p.jsonl"), prof)
            if K == 50:
                learn_s.append(secs)
                profiles[w] = prof
            after = read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), prof)
            got = score(test, after)
            if K == 50:
                changed[w] = [(it, before.get(it.id, ""), after.get(it.id, "")) for it in test
                              if (before.get(it.id) == it.label) != (after.get(it.id) == it.label)]
            row[f"k{K}"] = got[0] / len(test)
            row[f"k{K}_cer"] = got[1] / got[2]
            p = pooled[K]
            p[0] += got[0]; p[1] += got[1]; p[2] += got[2]; p[3] += len(test)
            # The other method: the words learned from as a user dictionary (the hints' vocabulary, boosted),
            # alone and with the profile.
            vocab = os.path.join(tmp, "vocabulary.txt")
            with open(vocab, "w") as f:
                f.write("\n".join(sorted({it.label for it in items[:K]})) + "\n")
            for name, use in (("dict", None), ("both", prof)):
                got = score(test, read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), use, vocab))
                row[f"{name}{K}"] = got[0] / len(test)
                p = pooled[f"{name}{K}"]
                p[0] += got[0]; p[1] += got[1]; p[2] += got[2]; p[3] += len(test)
        p = pooled["base"]
        p[0] += base[0]; p[1] += base[1]; p[2] += base[2]; p[3] += len(test)
        rows[w] = row
        print(f"{w}: {len(test)} words, {100 * row['base']:.1f}% → " +
              ", ".join(f"K={K} {100 * row[f'k{K}']:.1f}%" for K in KS), file=sys.stderr)
    cross = []
    for i, w in enumerate(names):
        other = names[(i + 1) % len(names)]
        test = writers[other][POOL:]
        got = score(test, read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), profiles[w]))
        cross.append({"profile_of": w, "applied_to": other, "change": got[0] / len(test) - rows[other]["base"]})
    summary = {k if isinstance(k, str) else f"k{k}": {"word_acc": v[0] / v[3], "wer": 1 - v[0] / v[3], "cer": v[1] / v[2], "words": v[3]}
               for k, v in pooled.items()}
    for K in KS:
        s = summary[f"k{K}"]
        s["wer_relative_change"] = (s["wer"] - summary["base"]["wer"]) / summary["base"]["wer"]
        s["worst_writer_change"] = min(r[f"k{K}"] - r["base"] for r in rows.values())
    out = {"model": os.path.relpath(args.model, ROOT), "writers": len(names), "pooled": summary, "per_writer": rows,
           "cross_writer": {"mean_change": sum(c["change"] for c in cross) / len(cross),
                            "worst_change": min(c["change"] for c in cross), "pairs": cross},
           "learn_seconds_k50": {"median": sorted(learn_s)[len(learn_s) // 2], "max": max(learn_s)}}
    print(json.dumps({k: out[k] for k in ("writers", "pooled", "learn_seconds_k50")}, indent=1))
    print(f"cross-writer: mean {100 * out['cross_writer']['mean_change']:+.2f} pts, worst "
          f"{100 * out['cross_writer']['worst_change']:+.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    if args.picture:
        picture(args.picture, changed)


def picture(path: str, changed: dict) -> None:
    """Words of the writer with the largest net gain at K = 50: up to 8 fixed (read wrong before, right after)
    and up to 4 broken, each labelled with both readings."""
    import html
    from inkrec_training.figures import Grid, write_ink_grid
    def net(w):
        fixed = sum(1 for it, b, a in changed[w] if a == it.label)
        return fixed - (len(changed[w]) - fixed)
    w = max(sorted(changed), key=net)
    fixed = [c for c in changed[w] if c[2] == c[0].label][:8]
    broken = [c for c in changed[w] if c[1] == c[0].label][:4]
    cells = [(html.escape(f"{b or '∅'} → {a or '∅'}"), it.strokes) for it, b, a in fixed + broken]
    write_ink_grid(path, cells, Grid(cols=4, cell_w=230, cell_h=120),
                   colour=lambda i, k, s: "#1a7f37" if i < len(fixed) else "#b42318")
    print(f"{path}: writer {w}, {len(fixed)} fixed (green), {len(broken)} broken (red)", file=sys.stderr)


if __name__ == "__main__":
    main()
