#!/usr/bin/env python3
"""Writes the golden fixture of a CJK-shaped network: `Tests/DigitalInkTests/Fixtures/cjk-network/`.

    python3 -m inkrec_training cjk data fixture [--work Training/work/cjk]

A small random network (fixed seed: 2 bidirectional LSTM layers of 8 units, frames stacked in pairs
after layer 1) with the CJK models' output layer: the 11,201 characters of `cjk_charset.json` + blank;
8-bit weights (`quantize.quantize_state`, as `cjk export` stores the shipped network), features
`resampled-v2` at 6 steps per line height (`cjk_charset.STEPS_PER_LINE_HEIGHT`). One ink of 永 by a
held-out writer of the generator (`cjk.Generator`, `cjk.heldout_writer(0)`, `random.Random(1)`), its
coordinates rounded to 1/16 (exact in float32, so both sides read the same numbers).

Only this script needs the glyph cache (`<work>/glyphs.npz`, `python3 -m inkrec_training cjk data`); the
tests read the committed files:

- `weights.safetensors` (about 270 KB: the head is 11,202 × 16 8-bit weights and a scale and bias per class);
- `golden.json`: the network's configuration and feature settings, the ink, its features
  (`features.model_features`), and the reference log-probabilities of those features under the 8-bit
  network (`quantize.QuantizedNet`, which the engine must reproduce: within 2e-3, as the shipped
  8-bit model's golden file). The full T' × 11,202 matrix would be megabytes, so it keeps per frame
  the 10 most likely classes with their log-probabilities and the mean log-probability over all
  classes; for every frame the log-probabilities of a fixed sample of classes (the first 16, every
  32nd, the last 16; base64 of little-endian float32, `sampleLogProbs`, frames × classes); and one
  frame in full (`fullFrameLogProbs`, base64 float32).

Checked by `Training/tests/test_network_golden.py` (PyTorch and features.py reproduce the file) and
`Tests/DigitalInkTests/CJKNetworkGoldenTests.swift` (the engine does, with every 8-bit kernel).
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random

import numpy as np
import torch
from safetensors.torch import save_file

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import cjk, cjk_charset, cjk_glyphs, quantize
from inkrec_training.features import SCHEME_V2, model_features  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402

OUT = os.path.join(HERE, "..", "Tests", "DigitalInkTests", "Fixtures", "cjk-network")
TEXT = "永"
HIDDEN, LAYERS, REDUCE_AFTER = 8, 2, 1
TOP = 10


def sample_classes(n: int) -> list[int]:
    """The classes whose log-probabilities are kept for every frame: the first 16 (blank, ASCII), every
    32nd, and the last 16 (the end of the head's last panel in the packed kernels)."""
    return sorted(set(range(16)) | set(range(0, n, 32)) | set(range(n - 16, n)))


def f32_base64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode("ascii")


def f32_from_base64(s: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(s), dtype="<f4").reshape(shape)


def charset_sha256() -> str:
    return hashlib.sha256("\n".join(cjk_charset.CHARACTERS).encode("utf-8")).hexdigest()


def reference_log_probs(tensors: dict, network: dict, features: np.ndarray) -> np.ndarray:
    return quantize.QuantizedNet(tensors, network).log_probs(torch.from_numpy(features)).numpy()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", default=os.path.join(HERE, "work", "cjk"), help="holds glyphs.npz")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()

    torch.manual_seed(18)
    model = InkRecNet(4, HIDDEN, LAYERS, cjk_charset.NUM_CLASSES, REDUCE_AFTER, head="ctc")
    for name, p in model.named_parameters():
        # A wider head than the LSTMs, so that the classes' log-probabilities spread over several nats.
        a = 3.0 if name == "head.weight" else 1.0 if name == "head.bias" else 0.5
        torch.nn.init.uniform_(p, -a, a)
    tensors = quantize.quantize_state({k: v.detach().float() for k, v in model.state_dict().items()})
    network = {"weights": "weights.safetensors", **model.config(), "precision": "int8"}
    feature_settings = {"scheme": SCHEME_V2, "stepsPerLineHeight": cjk_charset.STEPS_PER_LINE_HEIGHT}

    cache = cjk_glyphs.load_cache(os.path.join(args.work, "glyphs.npz"))
    gen = cjk.Generator(cache["train"], cache["heldout_variants"])
    strokes = gen.write(TEXT, cjk.heldout_writer(0), random.Random(1))
    strokes = [[[round(float(x) * 16) / 16, round(float(y) * 16) / 16, int(round(float(t) * 1000))] for x, y, t in s]
               for s in strokes]
    ink = {"strokes": [{"points": [{"x": x, "y": y, "t": t} for x, y, t in s]} for s in strokes]}
    feats = model_features([[[x, y] for x, y, _ in s] for s in strokes], feature_settings)
    lp = reference_log_probs(tensors, network, feats)
    frames, classes = lp.shape
    assert classes == cjk_charset.NUM_CLASSES

    top = []
    for t in range(frames):
        order = np.argsort(-lp[t], kind="stable")[:TOP]
        top.append([[int(c), float(lp[t, c])] for c in order])
    sample = sample_classes(classes)
    full_frame = frames // 2
    golden = {
        "description": __doc__.split("\n\n")[0].strip() + " See python3 -m inkrec_training cjk data fixture for the layout.",
        "network": network,
        "featureSettings": feature_settings,
        "charsetSHA256": charset_sha256(),
        "text": TEXT,
        "ink": ink,
        "features": feats.astype(float).tolist(),
        "frames": frames,
        "top": top,
        "meanLogProb": [float(v) for v in lp.astype(np.float64).mean(axis=1)],
        "sampleClasses": sample,
        "sampleLogProbs": f32_base64(lp[:, sample]),
        "fullFrame": full_frame,
        "fullFrameLogProbs": f32_base64(lp[full_frame]),
    }
    os.makedirs(args.out, exist_ok=True)
    save_file(tensors, os.path.join(args.out, "weights.safetensors"), metadata={"format": "pt", "precision": "int8"})
    with open(os.path.join(args.out, "golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False)
    sizes = {n: os.path.getsize(os.path.join(args.out, n)) for n in ("weights.safetensors", "golden.json")}
    print(f"{os.path.normpath(args.out)}: {len(feats)} feature frames, {frames} output frames, {classes} classes; "
          f"log-probabilities {lp.min():.2f} … {lp.max():.2f}; files {sizes}")


if __name__ == "__main__":
    main()
