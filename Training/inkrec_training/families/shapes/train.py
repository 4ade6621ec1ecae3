#!/usr/bin/env python3
"""Train, calibrate and export the shapes model (`zxx-Zsym-x-shapes`).

    python3 -m inkrec_training shapes train --minutes 9 --threads 1     # train (resumes runs/shapes/last.pt), then export
    python3 -m inkrec_training shapes export                 # calibrate + export the last checkpoint again

Data come from the generator in `inkrec_training/shapes.py`: a fixed pool of training inks and two
held-out sets drawn from the held-out parameter bands (`val`: temperature calibration, `test`: the
figures of the model card). The pools are cached in `<run>/data.pt` (same seed, same pools).

After training, a temperature T is fitted on `val` (negative log-likelihood) and folded into the
exported head (weight and bias divided by T), so the engine's log_softmax gives calibrated
probabilities directly. Exports `Models/zxx-Zsym-x-shapes/` (weights, config.json, model.json,
MODEL_CARD.md), the golden file `Tests/DigitalInkTests/Fixtures/shapes-golden.json`, and refreshes
`Models/manifest.json`.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time

import numpy as np
import torch
from safetensors.torch import load_file, save_file

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import shapes
from inkrec_training.features import FEATURE_DIM, SCHEME_V1, ink_features  # noqa: E402

FEATURE_SCHEME = SCHEME_V1  # the shapes model keeps the v1 line-height floor (a quarter of the width)
from inkrec_training.model import InkRecNet  # noqa: E402
from inkrec_training.trainer import Trainer, seed_all, warmup_cosine
from inkrec_training import export

from inkrec_training.paths import ROOT
from inkrec_training import cards
IDENTIFIER = "zxx-Zsym-x-shapes"
FIXTURES = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures")


def featurize(inks, steps):
    feats = [ink_features(ink.stroke_lists(), steps_per_line_height=steps, scheme=FEATURE_SCHEME) for ink in inks]
    targets = np.stack([ink.target for ink in inks]).astype(np.float32)
    amb = np.array([ink.ambiguous for ink in inks])
    labels = np.array([shapes.CLASS_INDEX[ink.label] for ink in inks])
    return {"features": feats, "targets": targets, "ambiguous": amb, "labels": labels}


def load_data(args):
    path = os.path.join(args.run, "data.pt")
    key = {"train": args.train_size, "val": args.val_size, "test": args.test_size, "seed": args.seed,
           "steps": args.steps_per_line_height, "classes": shapes.CLASSES, "ambiguous": args.ambiguous_share}
    if os.path.exists(path):
        d = torch.load(path, weights_only=False)
        if d.get("key") == key:
            return d
    t0 = time.time()
    d = {"key": key}
    for split, n in (("train", args.train_size), ("val", args.val_size), ("test", args.test_size)):
        inks = shapes.make_dataset(split, n, seed=args.seed, ambiguous_share=args.ambiguous_share)
        d[split] = featurize(inks, args.steps_per_line_height)
        if split == "test":
            d["test_inks"] = [(ink.label, ink.stroke_lists(), ink.ambiguous) for ink in inks[:60]]
        print(f"generated {n} {split} inks ({time.time() - t0:.0f}s)", flush=True)
    torch.save(d, path)
    return d


def collate(feats):
    lengths = torch.tensor([len(f) for f in feats], dtype=torch.long)
    x = torch.zeros(len(feats), int(lengths.max()), FEATURE_DIM)
    for i, f in enumerate(feats):
        x[i, : len(f)] = torch.from_numpy(f)
    return x, lengths


def logits_of(model, feats, batch=256):
    """Pre-softmax head outputs (log-probabilities up to a constant) for a list of feature arrays."""
    model.eval()
    out = []
    with torch.no_grad():
        order = np.argsort([len(f) for f in feats])
        res = [None] * len(feats)
        for i in range(0, len(order), batch):
            idx = order[i: i + batch]
            x, lengths = collate([feats[j] for j in idx])
            lp, _ = model(x, lengths)
            for k, j in enumerate(idx):
                res[j] = lp[k, 0]
        out = torch.stack(res)
    model.train()
    return out


def ece(probs: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    conf = probs.max(1)
    correct = probs.argmax(1) == labels
    edges = np.linspace(0, 1, bins + 1)
    e = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            e += m.mean() * abs(conf[m].mean() - correct[m].mean())
    return float(e)


def fit_temperature(logp: torch.Tensor, targets: torch.Tensor) -> float:
    """The T minimizing the cross-entropy of softmax(logp / T) against the targets (a 1-D search in log T)."""
    def nll(t):
        return float(-(targets * torch.log_softmax(logp / t, dim=-1)).sum(-1).mean())
    grid = np.exp(np.linspace(math.log(0.2), math.log(5.0), 161))
    best = min(grid, key=nll)
    lo, hi = best / 1.03, best * 1.03
    for _ in range(40):  # golden-section refinement
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if nll(a) < nll(b):
            hi = b
        else:
            lo = a
    return float((lo + hi) / 2)


def confusion(pred: np.ndarray, labels: np.ndarray) -> np.ndarray:
    n = len(shapes.CLASSES)
    m = np.zeros((n, n), dtype=int)
    for p, l in zip(pred, labels):
        m[l, p] += 1
    return m


def train(args, data):
    seed_all(args.seed)
    ckpt_path = os.path.join(args.run, "last.pt")
    model = InkRecNet(FEATURE_DIM, args.hidden, args.layers, len(shapes.CLASSES), args.reduce_after, head="classifier")
    model.init_forget_gate_bias()
    trainer = Trainer(model, args.lr)
    ck = trainer.resume(ckpt_path)
    state = trainer.state
    rng = np.random.default_rng(args.seed)
    if ck is not None:
        # Checkpoints of the first version of this script did not record their command; it was the default.
        state.setdefault("commands", [f"python3 -m inkrec_training shapes train --minutes {state['budget'] / 60:g} --threads 1 --seed {args.seed}"])
    trainer.set_budget(args.minutes * 60.0)
    if ck is not None:
        rng = np.random.default_rng([args.seed, state["step"]])
        torch.set_rng_state(ck["torch_rng"])
        print(f"resumed at step {state['step']}, {state['elapsed'] / 60:.1f} min trained", flush=True)
    if args.minutes <= 0:
        return model, state
    state.setdefault("commands", []).append("python3 -m inkrec_training shapes train " + " ".join(sys.argv[1:]))
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model: {model.config()} params={n_params}", flush=True)

    tr = data["train"]
    feats, targets = tr["features"], torch.from_numpy(tr["targets"])
    val = data["val"]
    hard_val = ~val["ambiguous"]
    losses = []

    def validate():
        lp = logits_of(model, [f for f, h in zip(val["features"], hard_val) if h])
        return float((lp.argmax(1).numpy() == val["labels"][hard_val]).mean())

    def checkpoint():
        acc = validate()
        state["history"].append({"step": state["step"], "minutes": state["elapsed"] / 60, "val_acc": acc,
                                 "loss": float(np.mean(losses[-100:]))})
        print(f"== step {state['step']} held-out val accuracy {acc:.4f}", flush=True)
        trainer.save(ckpt_path, weights=model.state_dict(), torch_rng=torch.get_rng_state())

    def epochs():
        """Batches of similar lengths: shuffle, cut into chunks of 32 batches, sort each chunk by length."""
        while True:
            perm = rng.permutation(len(feats))
            chunk = args.batch * 32
            batches = []
            for i in range(0, len(perm), chunk):
                c = sorted(perm[i: i + chunk], key=lambda j: len(feats[j]))
                batches += [c[k: k + args.batch] for k in range(0, len(c), args.batch)]
            rng.shuffle(batches)
            yield from batches

    schedule = lambda st: warmup_cosine(args.lr, st, warmup_steps=100, floor=0.03, min_span=0.0)  # noqa: E731
    for idx in trainer.run(epochs(), learning_rate=schedule, checkpoint=checkpoint,
                           checkpoint_minutes=args.checkpoint_minutes):
        x, lengths = collate([feats[j] for j in idx])
        lp, _ = model(x, lengths)
        loss = -(targets[idx] * lp[:, 0]).sum(-1).mean()
        trainer.step(loss)
        losses.append(loss.item())
        if state["step"] % 100 == 0:
            print(f"step {state['step']} {state['elapsed'] / 60:.1f}min loss {np.mean(losses[-100:]):.4f} "
                  f"lr {trainer.lr:.2e}", flush=True)
    return model, state

def model_card(args, m, n_params, weights_size, state) -> str:
    names = shapes.CLASSES
    header = "| true \\ predicted | " + " | ".join(names) + " | recall |\n|" + " --- |" * (len(names) + 2) + "\n"
    rows = ""
    conf = np.asarray(m["confusion"])
    for i, c in enumerate(names):
        rows += f"| **{c}** | " + " | ".join(str(v) if v else "·" for v in conf[i]) + f" | {conf[i, i] / max(conf[i].sum(), 1):.3f} |\n"
    hist = state.get("history", [])
    sweep_rows = "\n".join(f"| {r['aspect']:g} | {r['rho']:g} | {r['target_rect']:.2f} | {r['rect']:.3f} ({r['rect_min']:.3f}–{r['rect_max']:.3f}) | {r['ellipse']:.3f} |"
                           for r in m.get("rounding_sweep", []))
    commands = "\n".join(state.get("commands", [])) + "   # data, training (resuming), calibration, export"
    return f"""# Shapes model `{IDENTIFIER}`

Classifies a whole ink as one shape, like ML Kit's `zxx-Zsym-x-shapes`, and scores every class.
Version {args.version}, licence CC0-1.0 (the model is trained on generated data only).

## Classes and scores

Classes, in the network's order: {", ".join(f"`{c}`" for c in names)}. `ellipse` includes circles;
`cross` is both × and +; `check` is a check mark (✓).

`DigitalInkRecognizer.recognize` returns one candidate per class, best first; `candidate.text` is the
class name and **`candidate.score` is a calibrated probability** in 0...1: the scores of all
classes sum to 1, and among held-out inks whose top score is about p, about p of them are right
(expected calibration error below). A top score near 1 is a confident answer; two close top scores
(for example `rectangle` and `ellipse` for a very rounded rectangle) mean the ink is ambiguous
between them. Scores are not comparable with text models' scores (log-probabilities).

## Data

Generated by `Training/inkrec_training/shapes.py` (no real shape ink with a licence that allows
shipping the result was available; the UNIPEN data of the text model has no shapes). Every ink is
drawn like a shape in a drawing app: one or several strokes (rectangles, triangles and diamonds in
1 to 4 strokes of consecutive edges, ellipses in one or two arcs, arrows in five styles: shaft + V,
shaft + two barbs, one stroke, head first, closed head; crosses in two strokes), random start point,
stroke order and direction, overshot or unclosed ends and corners, bowed edges, a smooth wobble,
point noise, rounded corners, aspect ratios (rectangles 0.3–3.3, ellipses 0.33–3, triangles and
diamonds narrower), rotation (any angle for ellipses, lines, arrows, crosses and 30% of triangles;
±12° for rectangles and diamonds, so that a diamond is not a turned square; ±25° stars, ±15°
check marks), shear, size (40–600 units), position and point density.

**Validation split by generator parameters.** Every continuous shape parameter is drawn through a
uniform u in [0, 1) mapped onto its range; training never uses u in the bands [0.20, 0.27) and
[0.65, 0.72), and every held-out ink draws *all* of its parameters inside those bands (aspect ratio,
rotation, rounding, closure, arrow head, arm lengths and angles, wobble, noise, shear), from random
streams of their own. `val` ({args.val_size} inks) fits the temperature; `test` ({args.test_size}
inks) gives the figures below. Training uses a fixed pool of {args.train_size} inks (seed {args.seed}).

**Ambiguous rectangles.** Rectangles with a corner radius ρ (relative to half the shorter side) up to
0.5 are labelled rectangle; {int(args.ambiguous_share * 100)}% of the rectangles (in the data pool of the last
training command under Reproduce) have ρ in 0.5–1 (a stadium, or a
circle when square) and a soft target p(ellipse) = smoothstep((ρ − 0.5) / 0.5), the rest going to
rectangle. They are left out of the accuracy figures.

## Network

Features `{FEATURE_SCHEME}` with `stepsPerLineHeight` {args.steps_per_line_height:g} (the "line height" of a shape is its
height, floored at a quarter of its width, so a horizontal line still gets about {4 * args.steps_per_line_height:g} steps;
held-out inks give {m['frames']['min']}–{m['frames']['max']} frames, median {m['frames']['median']:.0f}).
{args.layers} bidirectional LSTM layers of {args.hidden} units, frames stacked in pairs after layer {args.reduce_after},
mean over time, a linear head over {len(names)} classes, log-softmax: the engine's classifier head.
{n_params} parameters, `weights.safetensors` {weights_size} bytes (float32).
Trained for {state['elapsed'] / 60:.1f} minutes ({state['step']} steps of {args.batch} inks, AdamW, lr {args.lr:g}
with warm-up and cosine decay) on 1 CPU thread; soft-target cross-entropy.

## Held-out accuracy

On {m['test_hard']} held-out generated inks (all parameters in the held-out bands, ambiguous
rectangles excluded): **accuracy {m['accuracy'] * 100:.2f}%** (top-2: {m['top2'] * 100:.2f}%).
Held-out `val` accuracy during training: {", ".join(f"{h['val_acc'] * 100:.1f}% @ {h['step']}" for h in hist[-4:])}.

Confusion table (rows: true class, columns: predicted):

{header}{rows}
Ambiguous rectangles of the test set ({m['ambiguous']['count']} inks, ρ 0.5–1): mean |p(rectangle) − target| =
{m['ambiguous']['mean_abs_error_rect']:.3f}; rectangle and ellipse are the top two for {m['ambiguous']['both_top2'] * 100:.0f}% of them.
Clean rounded rectangles (one stroke, no jitter, 150 units high; each row 16 inks: 8 start points ×
2 directions) across the corner rounding ρ: the model's change from rectangle to ellipse is steeper
than the soft target's, comes earlier for squares than for wider rectangles, and inside the zone
the scores move with where the stroke starts (and with the hand's wobble): a very rounded
rectangle gets close scores, but not always in the target's proportion.

| aspect | ρ | target p(rectangle) | mean p(rectangle) (min–max) | mean p(ellipse) |
| --- | --- | --- | --- | --- |
{sweep_rows}

## Calibration

Temperature scaling on `val`: T = {m['temperature']:.3f} (folded into the exported head: weight and bias
divided by T). On `test` (15 equal-width confidence bins): expected calibration error
{m['ece_before']:.4f} before, **{m['ece_after']:.4f} after**; negative log-likelihood {m['nll_before']:.4f} before,
{m['nll_after']:.4f} after. Mean top score {m['mean_conf_after']:.3f} against accuracy {m['accuracy']:.3f}.

## Limitations

Generated data only: real users' shapes can be messier than the generator (scribbles, shapes with
text inside, partly erased strokes). An ink that is none of the classes still gets a class (the
scores sum to 1; there is no "other" class). A square turned by 45° is a diamond by design.

## Reproduce

```sh
{commands}
python3 -m pytest -q Training/tests/test_shapes.py
swift test --filter Shapes
```
(Run from the repository root; `Training/runs/shapes/last.pt` resumes a previous run, so delete it
to start from scratch; each command adds its minutes to the checkpoint, with its own data pool. The
budget is wall-clock time, so the number of steps, and the figures, depend a little on the machine.
`--export-only` with the last command's data options calibrates and exports the checkpoint again. Generated on {datetime.date.today().isoformat()}.)
"""


def evaluate_and_export(args, model, state, data):
    model.eval()
    val, test = data["val"], data["test"]
    lp_val = logits_of(model, val["features"])
    T = fit_temperature(lp_val, torch.from_numpy(val["targets"]))
    lp_test = logits_of(model, test["features"])
    hard = ~test["ambiguous"]
    labels = test["labels"][hard]
    p_before = torch.softmax(lp_test[torch.from_numpy(hard)], -1).numpy()
    p_after = torch.softmax(lp_test[torch.from_numpy(hard)] / T, -1).numpy()
    pred = p_after.argmax(1)
    top2 = np.argsort(-p_after, 1)[:, :2]
    amb = test["ambiguous"]
    p_amb = torch.softmax(lp_test[torch.from_numpy(amb)] / T, -1).numpy()
    ri, ei = shapes.CLASS_INDEX["rectangle"], shapes.CLASS_INDEX["ellipse"]
    amb_top2 = np.argsort(-p_amb, 1)[:, :2] if len(p_amb) else np.zeros((0, 2), int)
    lens = [len(f) for f in test["features"]]
    m = {
        "temperature": T,
        "test_hard": int(hard.sum()),
        "accuracy": float((pred == labels).mean()),
        "top2": float(np.mean([l in t for l, t in zip(labels, top2)])),
        "confusion": confusion(pred, labels).tolist(),
        "ece_before": ece(p_before, labels), "ece_after": ece(p_after, labels),
        "nll_before": float(-np.log(p_before[np.arange(len(labels)), labels] + 1e-12).mean()),
        "nll_after": float(-np.log(p_after[np.arange(len(labels)), labels] + 1e-12).mean()),
        "mean_conf_after": float(p_after.max(1).mean()),
        "ambiguous": {"count": int(amb.sum()),
                      "mean_abs_error_rect": float(np.abs(p_amb[:, ri] - test["targets"][amb][:, ri]).mean()) if len(p_amb) else 0.0,
                      "both_top2": float(np.mean([set(t) == {ri, ei} for t in amb_top2])) if len(p_amb) else 0.0},
        "frames": {"min": int(min(lens)), "max": int(max(lens)), "median": float(np.median(lens))},
    }
    # Clean rounded rectangles (one stroke, no jitter) across the corner rounding: where the scores cross.
    # Each row: 16 inks (8 start points x 2 directions) of one aspect ratio and rounding.
    sweep = []
    for aspect in (1.0, 1.6):
        for rho in (0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0):
            loop = shapes._round_rect(aspect, 1.0, rho)[:-1] * 150.0
            inks = []
            for k in range(8):
                r = np.roll(loop, -(k * len(loop)) // 8, axis=0)
                r = np.concatenate([r, r[:1]])
                inks += [ink_features([r.tolist()], steps_per_line_height=args.steps_per_line_height, scheme=FEATURE_SCHEME),
                         ink_features([r[::-1].tolist()], steps_per_line_height=args.steps_per_line_height, scheme=FEATURE_SCHEME)]
            pr = torch.softmax(logits_of(model, inks) / T, -1).numpy()
            x = min(max((rho - 0.5) / 0.5, 0.0), 1.0)
            sweep.append({"aspect": aspect, "rho": rho, "target_rect": 1 - x * x * (3 - 2 * x),
                          "rect": float(pr[:, ri].mean()), "rect_min": float(pr[:, ri].min()),
                          "rect_max": float(pr[:, ri].max()), "ellipse": float(pr[:, ei].mean())})
    m["rounding_sweep"] = sweep
    print(json.dumps({k: v for k, v in m.items() if k != "confusion"}, indent=1), flush=True)
    print("confusion (rows true):\n" + "\n".join(f"{c:>10} {row}" for c, row in zip(shapes.CLASSES, m["confusion"])), flush=True)
    with open(os.path.join(args.run, "metrics.json"), "w") as f:
        json.dump(m, f, indent=1)
    if args.no_export:
        return m

    # Fold the temperature into the head: log_softmax((W x + b) / T) = log_softmax((W / T) x + b / T).
    sd = {k: v.detach().clone().contiguous().float() for k, v in model.state_dict().items()}
    sd["head.weight"] /= T
    sd["head.bias"] /= T
    out = args.out
    os.makedirs(out, exist_ok=True)
    wpath = os.path.join(out, "weights.safetensors")
    save_file(sd, wpath, metadata={"format": "pt", "identifier": IDENTIFIER})
    cfg = model.config()
    config = {"formatVersion": 1, "identifier": IDENTIFIER, "kind": "shapes",
              "features": {"scheme": FEATURE_SCHEME, "stepsPerLineHeight": args.steps_per_line_height},
              "network": {"weights": "weights.safetensors", **cfg}, "labels": shapes.CLASSES}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
        f.write("\n")
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump({"identifier": IDENTIFIER, "aliases": [], "version": args.version, "kind": "shapes",
                   "network": f"zsym-shapes-bilstm{cfg['hidden']}x{cfg['layers']}", "license": "CC0-1.0",
                   "description": "Shapes (rectangle, triangle, ellipse, arrow, line, diamond, star, check, cross) "
                                  "with calibrated scores; trained on generated ink"}, f, indent=1)
        f.write("\n")
    n_params = sum(p.numel() for p in model.parameters())
    cards.write_card(os.path.join(out, "MODEL_CARD.md"), model_card(args, m, n_params, os.path.getsize(wpath), state))

    # Golden file: held-out inks, their features and the exported network's log-probabilities.
    shipped = InkRecNet(FEATURE_DIM, cfg["hidden"], cfg["layers"], cfg["numClasses"], cfg["reduceAfter"], head="classifier")
    shipped.load_state_dict(load_file(wpath))
    shipped.eval()
    cases, seen = [], set()
    for label, strokes, ambiguous in data["test_inks"]:
        if ambiguous or label in seen or label not in ("rectangle", "ellipse", "arrow", "star", "check"):
            continue
        seen.add(label)
        strokes = [[[float(np.float32(round(p[0], 2))), float(np.float32(round(p[1], 2))), p[2]] for p in s] for s in strokes]
        feats = ink_features(strokes, steps_per_line_height=args.steps_per_line_height, scheme=FEATURE_SCHEME)
        with torch.no_grad():
            lp, _ = shipped(torch.from_numpy(feats)[None], torch.tensor([len(feats)]))
        cases.append({"label": label,
                      "ink": {"strokes": [{"points": [{"x": p[0], "y": p[1], "t": int(p[2])} for p in s]} for s in strokes]},
                      "features": feats.astype(float).tolist(), "logProbs": lp[0].numpy().astype(float).tolist()})
    with open(os.path.join(FIXTURES, "shapes-golden.json"), "w") as f:
        json.dump({"model": IDENTIFIER, "cases": cases}, f)
    export.write_manifest(os.path.dirname(os.path.abspath(out)))
    print(f"exported {IDENTIFIER} to {out}: weights {os.path.getsize(wpath)} bytes, T={T:.3f}, "
          f"golden cases {len(cases)}", flush=True)
    return m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default=os.path.join(HERE, "runs", "shapes"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Models", IDENTIFIER))
    ap.add_argument("--minutes", type=float, default=9.0, help="training time budget (wall clock)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--reduce-after", type=int, default=1)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps-per-line-height", type=float, default=8.0)
    ap.add_argument("--train-size", type=int, default=24000)
    ap.add_argument("--val-size", type=int, default=1800)
    ap.add_argument("--test-size", type=int, default=2700)
    ap.add_argument("--ambiguous-share", type=float, default=0.12)
    ap.add_argument("--checkpoint-minutes", type=float, default=2.0)
    ap.add_argument("--version", default="1.0.0")
    ap.add_argument("--export-only", action="store_true", help="no training: calibrate and export the checkpoint")
    ap.add_argument("--no-export", action="store_true", help="train and evaluate, write nothing outside the run")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    os.makedirs(args.run, exist_ok=True)
    if args.export_only:
        args.minutes = 0.0
        if not os.path.exists(os.path.join(args.run, "last.pt")):
            sys.exit(f"no checkpoint in {args.run}")
    data = load_data(args)
    model, state = train(args, data)
    evaluate_and_export(args, model, state, data)


if __name__ == "__main__":
    main()
