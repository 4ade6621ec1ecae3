#!/usr/bin/env python3
"""An exported model directory with 8-bit weights (post-training quantization, `inkrec_training/quantize.py`).

    python3 -m inkrec_training latin export quantize --model Models/en-US --out /tmp/en-US-int8
    python3 -m inkrec_training latin export quantize --model Models/en-US --out /tmp/en-US-int8 --golden \
        Tests/DigitalInkTests/Fixtures/model-golden-int8.json
    python3 -m inkrec_training latin export quantize --golden-of Models/en-US   # the golden files of an 8-bit model as shipped
    python3 -m inkrec_training latin export quantize --int8-golden-of Models/vi   # model-golden-int8-vi.json only

Copies every file of `--model` to `--out` (a different directory), writes `weights.safetensors` with I8
tensors and their `.scale`s, and sets `network.precision` to `"int8"` in `config.json`. `--golden` writes
the reference log-probabilities of the float golden file's inks (`model-golden.json`) under the 8-bit
model, computed by `quantize.QuantizedNet` (the engine must reproduce them; see NetworkGoldenTests), and a
kernel fixture with exact integer sums (`--kernel-golden`).

`--golden-of DIR` rewrites both golden files for an 8-bit model directory as it is (its config names the
weights, e.g. en-US on the shared Latin network, `../latn-bilstm96x3/weights.safetensors`): the same inks and
features; in `model-golden.json` the log-probabilities of the weights dequantized to float (what a float model
of these weights computes; the engine checks them only for float models), in `model-golden-int8.json` those of
`quantize.QuantizedNet` (the engine reproduces them within 2e-3).

`--int8-golden-of DIR` writes only `model-golden-int8-<identifier>.json`: the 8-bit reference of the same inks
under another 8-bit network (the Vietnamese one, say) that reads the same features; both test suites check
every `model-golden-int8*.json`.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil

import torch
from safetensors.torch import load_file, save_file

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import quantize

FIXTURES = os.path.join(HERE, "..", "Tests", "DigitalInkTests", "Fixtures")


def quantize_directory(model: str, out: str) -> dict:
    if os.path.abspath(model) == os.path.abspath(out):
        raise SystemExit("--out must differ from --model")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(model):
        if os.path.isfile(os.path.join(model, name)):
            shutil.copyfile(os.path.join(model, name), os.path.join(out, name))
    config = json.load(open(os.path.join(model, "config.json")))
    weights = config["network"]["weights"]
    floats = {k: v.float() for k, v in load_file(os.path.join(model, weights)).items()}
    tensors = quantize.quantize_state(floats)
    save_file(tensors, os.path.join(out, weights), metadata={"format": "pt", "precision": "int8"})
    config["network"]["precision"] = "int8"
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{out}: weights {os.path.getsize(os.path.join(out, weights))} bytes "
          f"(float: {os.path.getsize(os.path.join(model, weights))})")
    return {"config": config, "tensors": tensors}


def reference_tolerance(net, features) -> float:
    """How far another summation order may move ``net``'s log-probabilities of ``features``: an 8-bit activation
    near a rounding boundary rounds the other way when its float input changes in the last place, and the
    reference itself moves by as much when its features change by one part in a million. The largest such move
    over 20 seeded draws, times 1.5, and at least 0.1 (the bound the first fixtures were checked against)."""
    x = torch.tensor(features, dtype=torch.float32)
    g = torch.Generator().manual_seed(0)
    draws = [x * (1 + 1e-6 * torch.randn(x.shape, generator=g)) for _ in range(20)]
    lp = net.batch_log_probs(torch.stack([x] + draws))  # one pass: the ink and its 20 draws
    moved = float((lp[1:] - lp[0]).abs().amax())
    return round(max(0.1, 1.5 * moved), 4)


def write_golden(q: dict, path: str, model: str | None = None) -> None:
    src = json.load(open(os.path.join(FIXTURES, "model-golden.json")))
    if model is not None:
        src["model"] = model
    net = quantize.QuantizedNet(q["tensors"], q["config"]["network"])
    cases = []
    for c in src["cases"]:
        lp = net.log_probs(torch.tensor(c["features"], dtype=torch.float32))
        cases.append({"id": c["id"], "features": c["features"], "logProbs": lp.numpy().astype(float).tolist(),
                      "tolerance": reference_tolerance(net, c["features"])})
    with open(path, "w") as f:
        json.dump({"model": src["model"], "precision": "int8", "cases": cases}, f)
    print(f"wrote {path} ({len(cases)} inks)")


def checked_features(case: dict, config: dict) -> None:
    """Stops unless ``config``'s features of the golden ``case``'s ink are the case's features (within 1e-5)."""
    from inkrec_training.features import model_features
    strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in case["ink"]["strokes"]]
    feats = model_features(strokes, config["features"])
    if feats.shape != (len(case["features"]), 4) or abs(feats - torch.tensor(case["features"]).numpy()).max() > 1e-5:
        raise SystemExit(f"{case['id']}: the features differ from the golden file's (another feature scheme?)")


def int8_golden_of(model_dir: str) -> str:
    """``model-golden-int8-<identifier>.json`` for the 8-bit model directory ``model_dir``: ``model-golden.json``'s
    inks (whose features it must compute the same way) under its network; returns the path."""
    config = json.load(open(os.path.join(model_dir, "config.json")))
    if config["network"].get("precision") != "int8":
        raise SystemExit(f"{model_dir}: not an 8-bit model")
    for c in json.load(open(os.path.join(FIXTURES, "model-golden.json")))["cases"]:
        checked_features(c, config)
    tensors = load_file(os.path.join(model_dir, config["network"]["weights"]))
    path = os.path.join(FIXTURES, f"model-golden-int8-{config['identifier']}.json")
    write_golden({"tensors": tensors, "config": config}, path, model=config["identifier"])
    return path


def golden_of(model_dir: str) -> None:
    """Both golden files for the 8-bit model directory ``model_dir`` (see the module docstring)."""
    from inkrec_training.model import load_exported
    config = json.load(open(os.path.join(model_dir, "config.json")))
    if config["network"].get("precision") != "int8":
        raise SystemExit(f"{model_dir}: not an 8-bit model (latin export english writes the golden file of a float one)")
    tensors = load_file(os.path.join(model_dir, config["network"]["weights"]))
    float_net, _ = load_exported(model_dir)
    float_net.eval()
    path = os.path.join(FIXTURES, "model-golden.json")
    src = json.load(open(path))
    for c in src["cases"]:
        checked_features(c, config)
        with torch.no_grad():
            lp, _ = float_net(torch.tensor(c["features"], dtype=torch.float32)[None], torch.tensor([len(c["features"])]))
        c["logProbs"] = lp[0].numpy().astype(float).tolist()
    src["model"] = config["identifier"]
    with open(path, "w") as f:
        json.dump(src, f)
    print(f"wrote {path} ({len(src['cases'])} inks, {config['network']['numClasses']} classes)")
    write_golden({"tensors": tensors, "config": config}, os.path.join(FIXTURES, "model-golden-int8.json"))


def write_kernel_golden(path: str, seed: int = 7) -> None:
    """Random int8 weights, float inputs and bias; the exact quantized rows, integer sums and outputs."""
    g = torch.Generator().manual_seed(seed)
    cases = []
    for m, k, n in ((5, 13, 37), (7, 100, 113)):
        w = torch.randn(n, k, generator=g) * 0.3
        q, s = quantize.quantize_rows(w)
        x = torch.randn(m, k, generator=g) * 2.0
        x[0, 0] = 0.0
        b = torch.randn(n, generator=g) * 0.1
        y, acc = quantize.qlinear(x, q, s, b)
        xq, sx = quantize.dynamic_rows(x)
        cases.append({"m": m, "k": k, "n": n, "weights": q.flatten().tolist(), "scale": s.tolist(), "bias": b.tolist(),
                      "x": x.flatten().tolist(), "xq": xq.flatten().tolist(), "xscale": sx.tolist(),
                      "sums": acc.flatten().tolist(), "y": y.flatten().tolist()})
    # The recurrent product: h in (-1, 1).
    H = 96
    w = torch.randn(4 * H, H, generator=g) * 0.2
    q, s = quantize.quantize_rows(w)
    h = torch.tanh(torch.randn(H, generator=g) * 2)
    g0 = torch.randn(4 * H, generator=g)
    hq = torch.round(h * 127).clamp(-127, 127).to(torch.int64)
    acc = hq @ q.to(torch.int64).T
    rs = s / 127
    gates = g0 + acc.to(torch.float32) * rs
    rec = {"hidden": H, "weights": q.flatten().tolist(), "scale": s.tolist(), "h": h.tolist(), "gates": g0.tolist(),
           "sums": acc.tolist(), "result": gates.tolist()}
    with open(path, "w") as f:
        json.dump({"seed": seed, "projections": cases, "recurrent": rec}, f)
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    ap.add_argument("--out")
    ap.add_argument("--golden", help="write the 8-bit reference log-probabilities of model-golden.json's inks here")
    ap.add_argument("--kernel-golden", help="write the exact-integer kernel fixture here")
    ap.add_argument("--golden-of", metavar="DIR", help="rewrite both golden files for this 8-bit model directory")
    ap.add_argument("--int8-golden-of", metavar="DIR",
                    help="write model-golden-int8-<identifier>.json for this 8-bit model directory (another network)")
    args = ap.parse_args()
    if args.int8_golden_of:
        int8_golden_of(args.int8_golden_of)
        return
    if args.golden_of:
        golden_of(args.golden_of)
        return
    if not (args.model and args.out):
        ap.error("--model and --out are required (or --golden-of DIR)")
    q = quantize_directory(args.model, args.out)
    if args.golden:
        write_golden(q, args.golden)
    if args.kernel_golden:
        write_kernel_golden(args.kernel_golden)


if __name__ == "__main__":
    main()
