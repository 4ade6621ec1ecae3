#!/usr/bin/env python3
"""The beam's pruning of the script kit's models, tried on the tuning writers and written where it costs nothing.

    python3 -m inkrec_training scripts tune pruning --languages ar,fa,ur,he,hi,bn,ta,th            # compare
    python3 -m inkrec_training scripts tune pruning --languages ar,fa,ur,he,hi,bn,ta,th --write    # and store

Reads each model's tuning words (``scripts evaluate models --set tuning``: 200 generated words) and 100 generated
lines twice, with its ``config.json`` decoder as it is and with ``--beam-threshold`` and ``--symbols-per-frame``
(copies of the model folders in a temporary directory), and prints both. With ``--write``, a model whose tuning
figures the pruning leaves as good (``acceptable``: word accuracy not lower, neither CER higher by more than
``--tolerance`` points) gets the two settings in its ``config.json`` (the manifest is rewritten). The reported
writers are not read: their figures come after, from ``scripts evaluate models --card``. The speed it buys is
measured by the benchmark target (``Benchmarks/README.md``), not here.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from inkrec_training.paths import ROOT, TRAINING


def acceptable(before: dict, after: dict, tolerance: float) -> bool:
    """Whether ``after``'s tuning figures ({"generated": {word_acc, cer}, "lines": {cer}}) are as good as
    ``before``'s: no lower word accuracy, no CER (words or lines) higher by more than ``tolerance`` points."""
    g0, g1 = before["generated"], after["generated"]
    if g1["word_acc"] < g0["word_acc"] or 100 * (g1["cer"] - g0["cer"]) > tolerance:
        return False
    l0, l1 = before.get("lines"), after.get("lines")
    return not (l0 and l1 and 100 * (l1["cer"] - l0["cer"]) > tolerance)


def _evaluate(models: str, langs: list[str], out: str) -> dict:
    cmd = [sys.executable, "-m", "inkrec_training", "scripts", "evaluate", "models", "--models", models,
           "--languages", ",".join(langs), "--set", "tuning", "--lines", "100", "--json", out]
    subprocess.run(cmd, check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": TRAINING})
    with open(out, encoding="utf-8") as f:
        return json.load(f)["results"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--languages", required=True, help="wordfreq codes of script kit models")
    ap.add_argument("--beam-threshold", type=float, default=10.0)
    ap.add_argument("--symbols-per-frame", type=int, default=32)
    ap.add_argument("--tolerance", type=float, default=0.1, help="CER points a pruning may add (one line's character)")
    ap.add_argument("--write", action="store_true", help="store the settings where they are acceptable")
    args = ap.parse_args(argv)
    from inkrec_training.families.scripts.evaluate import model_dirs
    langs = args.languages.split(",")
    dirs = model_dirs(args.models, langs)
    change = {"beamThreshold": args.beam_threshold, "symbolsPerFrame": args.symbols_per_frame}
    with tempfile.TemporaryDirectory(prefix="inkrec-pruning-") as tmp:
        pruned = os.path.join(tmp, "models")
        for code, (ident, d) in dirs.items():
            with open(os.path.join(d, "config.json"), encoding="utf-8") as f:
                cfg = json.load(f)
            net = cfg["network"]["weights"].split("/")[1]
            if not os.path.exists(os.path.join(pruned, net)):
                shutil.copytree(os.path.join(args.models, net), os.path.join(pruned, net))
            shutil.copytree(d, os.path.join(pruned, ident))
            cfg["decoder"].update(change)
            with open(os.path.join(pruned, ident, "config.json"), "w", encoding="utf-8") as f:
                json.dump(cfg, f, ensure_ascii=False, indent=1)
        before = _evaluate(args.models, list(dirs), os.path.join(tmp, "before.json"))
        after = _evaluate(pruned, list(dirs), os.path.join(tmp, "after.json"))
    chosen = []
    for code, (ident, d) in dirs.items():
        b, a = before[code], after[code]
        ok = acceptable(b, a, args.tolerance)
        print(f"{ident}: words {100 * b['generated']['word_acc']:.1f}% → {100 * a['generated']['word_acc']:.1f}%, "
              f"CER {100 * b['generated']['cer']:.2f}% → {100 * a['generated']['cer']:.2f}%, lines CER "
              f"{100 * b['lines']['cer']:.2f}% → {100 * a['lines']['cer']:.2f}%: {'acceptable' if ok else 'NOT acceptable'}")
        if ok:
            chosen.append(d)
    if args.write and chosen:
        from inkrec_training.export import write_json, write_manifest
        for d in chosen:
            path = os.path.join(d, "config.json")
            with open(path, encoding="utf-8") as f:
                cfg = json.load(f)
            cfg["decoder"].update(change)
            write_json(path, cfg)
        write_manifest(args.models)
        print(f"wrote {change} into {len(chosen)} models' config.json")


if __name__ == "__main__":
    main()
