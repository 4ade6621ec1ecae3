#!/usr/bin/env python3
"""The accuracy half of the Latin size sweep, from what ``latin train sweep`` wrote (``$OUT`` of a
``gpu_once.sh sweep`` call): every size exported with the shipped language models and decoder weights,
then read by the engine on *tuning* writers only (the reported ones stay for the chosen model's card).

    python3 -m inkrec_training latin report --sweep /work/.device/…/files --out Training/work/sweep-report

For each ``<size>/ema16.pt``: ``latin export`` into ``OUT/<size>/`` (8 bits, as shipped), then

- English: the tuning slices of ``latin evaluate`` (600 held-out words, 150 lines) through the network with the
  en-US language model and decoder weights (``Models/en-US``), as en-US would read them with this network;
- the 26 languages: ``latin evaluate languages --set tuning`` (composed words of held-out writers);
- greedy figures from the sweep's ``history.json`` (its last validation).

``--candidate NAME=CHECKPOINT`` (repeatable, with or without ``--sweep``) adds any checkpoint that
``latin export`` reads — a run's ``last.pt`` (its moving average), an ``ema16.pt`` — as a row of its own,
so that runs of one size are compared the same way (``96x3-warp=Training/runs/latnwarp/last.pt``); the
shipped network is ``--candidate shipped=shipped``.

Prints a markdown table and writes it with everything else to ``OUT/report.json``. Speed does not depend on
the weights: ``Benchmarks/README.md`` ("Latin network sizes") has the forward times of each size.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys

from inkrec_training import engine
from inkrec_training.cli import run_tool
from inkrec_training.paths import TRAINING as HERE
from inkrec_training.paths import ROOT


def shipped_decoders(models: str, lm_dir: str) -> str:
    """Copies each shipped Latin language model to ``lm_dir/<code>.bin`` (export_latin's layout) and writes
    their decoder weights to ``lm_dir/decoders.json``; returns that file."""
    from inkrec_training.families.latin.export import LANGUAGE_MODELS
    os.makedirs(lm_dir, exist_ok=True)
    weights = {}
    for ident, (code, _, _) in LANGUAGE_MODELS.items():
        shutil.copyfile(os.path.join(models, ident, "lm.bin"), os.path.join(lm_dir, f"{code}.bin"))
        d = json.load(open(os.path.join(models, ident, "config.json")))["decoder"]
        weights[ident] = {"lmWeight": d["lmWeight"], "insertionBonus": d["insertionBonus"]}
    path = os.path.join(lm_dir, "decoders.json")
    with open(path, "w") as f:
        json.dump(weights, f, indent=1)
    return path


def english_model(models: str, latin_model: str, out: str) -> str:
    """A model folder reading English with the exported Latin network (``latin_model``'s config) and en-US's
    language model and decoder settings (without its confidence calibration, fitted for en-US's network)."""
    os.makedirs(out, exist_ok=True)
    en = json.load(open(os.path.join(models, "en-US", "config.json")))
    latin = json.load(open(os.path.join(latin_model, "config.json")))
    net = dict(latin["network"])
    src = os.path.normpath(os.path.join(latin_model, net["weights"]))
    shutil.copyfile(src, os.path.join(out, "weights.safetensors"))
    net["weights"] = "weights.safetensors"
    en["network"], en["labels"] = net, latin["labels"]
    en["decoder"].pop("confidence", None)
    shutil.copyfile(os.path.join(models, "en-US", "lm.bin"), os.path.join(out, "lm.bin"))
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(en, f, indent=1, ensure_ascii=False)
    return out


def english_tuning(model_dir: str) -> dict:
    """Word accuracy and CER on latin evaluate's tuning words, CER on its tuning lines (the engine, with the LM)."""
    from inkrec_training.families.latin import evaluate as E
    _, tune_words, _, tune_lines = E.held_out_sets()
    binary = engine.binary()
    out = {}
    for name, items in (("words", tune_words), ("lines", tune_lines)):
        path = os.path.join(model_dir, f"tune-{name}.jsonl")
        engine.write_jsonl(items, path)
        hyps, _ = E.engine(binary, model_dir, path, [])
        out[name] = E.scores([hyps.get(it.id, "") for it in items], [it.label for it in items])
    return out


def shipped_checkpoint(models: str, path: str) -> str:
    """The shipped Latin network (8-bit, dequantized) as a checkpoint ``latin export`` reads, at ``path``."""
    import torch
    from inkrec_training.families.latin import train
    from inkrec_training import charset
    from inkrec_training.features import FEATURE_DIM
    from inkrec_training.model import InkRecNet
    charset.select("latin")
    manifest = json.load(open(os.path.join(models, "manifest.json")))
    latin = next(m for m in manifest["models"] if m.get("network", "").startswith("latn-"))
    cfg = json.load(open(os.path.join(models, latin["identifier"], "config.json")))["network"]
    model = InkRecNet(FEATURE_DIM, cfg["hidden"], cfg["layers"], charset.NUM_CLASSES, cfg.get("reduceAfter", 1))
    weights = train.initial_weights(os.path.join(models, latin["network"], "weights.safetensors"), model)
    torch.save({"model": weights, "config": model.config(), "charset": "latin", "state": {"step": 0, "history": []}}, path)
    return path


def candidates(args) -> list[tuple[str, str, dict]]:
    """(name, checkpoint, {"params", "step", "greedy"}) for every row: the sweep's sizes in order, then the
    ``--candidate`` checkpoints in the order given."""
    rows = []
    if args.sweep:
        history = json.load(open(os.path.join(args.sweep, "history.json")))
        for size in sorted(history, key=lambda s: [int(x) for x in s.split("x")]):
            checkpoint = os.path.join(args.sweep, size, "ema16.pt")
            if not os.path.exists(checkpoint):
                print(f"{size}: no ema16.pt, left out", file=sys.stderr)
                continue
            last = history[size]["history"][-1]
            rows.append((size, checkpoint, {"params": history[size]["params"], "step": last["step"], "greedy": last}))
    import torch
    from inkrec_training.export import checkpoint_weights
    for spec in args.candidate or []:
        name, sep, path = spec.partition("=")
        if not sep or not name or "/" in name or name in {r[0] for r in rows}:
            raise SystemExit(f"--candidate {spec!r}: expected NAME=CHECKPOINT with a new name without '/'")
        if path == "shipped":
            os.makedirs(args.out, exist_ok=True)
            path = shipped_checkpoint(args.models, os.path.join(args.out, f"{name}.pt"))
        ck = torch.load(path, weights_only=False, map_location="cpu")
        weights = checkpoint_weights(ck)
        state = ck.get("state", {})
        history = state.get("history") or [{}]
        rows.append((name, path, {"params": sum(v.numel() for v in weights.values()),
                                  "step": state.get("step", 0), "greedy": history[-1]}))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sweep", help="the folder latin train sweep --out16 wrote")
    ap.add_argument("--candidate", action="append",
                    help="NAME=CHECKPOINT: one more row (a run's last.pt, an ema16.pt; 'shipped' for Models/)")
    ap.add_argument("--out", default=os.path.join(HERE, "work", "sweep-report"))
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"), help="the shipped models (LMs, decoder weights)")
    ap.add_argument("--words", type=int, default=200, help="composed tuning words per language")
    args = ap.parse_args()
    if not args.sweep and not args.candidate:
        ap.error("give --sweep, --candidate or both")
    entries = candidates(args)
    decoders = shipped_decoders(args.models, os.path.join(args.out, "lm"))
    report = {}
    for size, checkpoint, info in entries:
        folder = os.path.join(args.out, size)
        shutil.rmtree(folder, ignore_errors=True)
        run_tool("latin", "export", "models", "--checkpoint", checkpoint, "--lm-dir", os.path.join(args.out, "lm"),
                 "--decoder-weights", decoders, "--version", "0.0.0", "--models", folder,
                 check=True, stdout=subprocess.DEVNULL)
        languages_json = os.path.join(folder, "languages.json")
        run_tool("latin", "evaluate", "languages", "--models", folder, "--set", "tuning",
                 "--words", str(args.words), "--json", languages_json,
                 check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        langs = json.load(open(languages_json))["results"]
        english = english_tuning(english_model(args.models, os.path.join(folder, "de"), os.path.join(folder, "en-tuning")))
        n = len(langs)
        report[size] = {
            **info, "english": english,
            "languages": {"count": n, "word_acc": sum(r["word_acc"] for r in langs.values()) / n,
                          "cer": sum(r["cer"] for r in langs.values()) / n,
                          "accented_cer": sum(r["accented_cer"] * r["accented_letters"] for r in langs.values())
                          / max(sum(r["accented_letters"] for r in langs.values()), 1)},
        }
        print(f"{size}: done", file=sys.stderr, flush=True)
    rows = ["| network | parameters | steps | greedy held-out words (EMA) | English tuning words, LM | English tuning lines CER "
            "| languages: mean word accuracy | mean CER | CER, accented letters |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for size, r in report.items():
        g, e, lg = r["greedy"], r["english"], r["languages"]
        greedy = g.get("ema_word_acc", g.get("word_acc"))
        greedy = "–" if greedy is None else f"{100 * greedy:.1f}%"
        rows.append(f"| {size} | {r['params']:,} | {r['step']:,} | {greedy} | "
                    f"{100 * e['words']['word_acc']:.1f}% | {100 * e['lines']['cer']:.2f}% | {100 * lg['word_acc']:.1f}% "
                    f"({lg['count']}) | {100 * lg['cer']:.2f}% | {100 * lg['accented_cer']:.1f}% |")
    table = "\n".join(rows)
    print(table)
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"table": table, "sizes": report}, f, indent=1)


if __name__ == "__main__":
    main()
