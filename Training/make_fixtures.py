#!/usr/bin/env python3
"""Writes the golden fixtures that pin Python and Swift numerics together.

    python3 Training/make_fixtures.py

- Tests/DigitalInkTests/Fixtures/features-golden-<scheme>.json (one per feature scheme): inks (synthetic edge cases and real UNIPEN
  ink) with the features `inkrec_training.features` computes.
- Tests/DigitalInkTests/Fixtures/tiny-network/: a small randomly initialised network (fixed seed)
  as safetensors + config.json, with inputs and the log-probabilities PyTorch computes
  (`golden.json`), for the CTC head and for the classifier head.
The shipped model's own golden file is written by export.py; the CJK-shaped network's
(`Fixtures/cjk-network/`) by make_cjk_fixture.py, which needs the CJK glyph cache.
"""
from __future__ import annotations

import gzip
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from inkrec_training.features import ink_features, SCHEMES  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "Tests", "DigitalInkTests", "Fixtures")


def ink_json(strokes, writing_area=None):
    d = {"strokes": [{"points": [{"x": p[0], "y": p[1]} if len(p) < 3 else {"x": p[0], "y": p[1], "t": int(p[2])} for p in s]}
                     for s in strokes]}
    if writing_area:
        d["writingArea"] = {"width": writing_area[0], "height": writing_area[1]}
    return d


def feature_cases(scheme):
    cases = []
    rng = np.random.default_rng(7)
    # Edge cases: one point, duplicates, a dot and a line, an empty stroke, a flat line, a writing area.
    cases.append(("single point", [[[5, 5]]], None))
    cases.append(("duplicates and a dot", [[[0, 0], [0, 0], [10, 0], [10, 0], [10, 20]], [[30, 5]]], None))
    cases.append(("empty stroke", [[], [[0, 0], [4, 3], [8, 0]], []], None))
    cases.append(("horizontal line", [[[0, 10], [100, 10]]], None))
    cases.append(("equals sign and a long flat line", [[[0, 10], [60, 10]], [[0, 20], [60, 21]], [[80, 15], [400, 16]]], None))
    cases.append(("writing area clamps", [[[0, 0], [3, 40], [6, 0], [9, 40]]], (400.0, 120.0)))
    # A synthetic scribble with fractional (float32-exact) coordinates.
    pts = np.round(np.cumsum(rng.normal(0, 4, size=(60, 2)), axis=0) * 4) / 4
    cases.append(("scribble", [pts[:30].tolist(), pts[30:].tolist()], None))
    # Real ink: the first few UNIPEN words and one text line.
    data = os.path.join(HERE, "..", "..", "shared", "data", "unipen")
    for name, count in (("words", 3), ("text", 2)):
        with gzip.open(os.path.join(data, f"{name}.jsonl.gz"), "rt") as f:
            for _ in range(count):
                d = json.loads(f.readline())
                cases.append((f"unipen {d['id']} '{d['label']}'", d["strokes"], None))
    out = []
    for name, strokes, area in cases:
        feats = ink_features(strokes, area[1] if area else None, scheme=scheme)
        out.append({"name": name, "ink": ink_json(strokes, area), "features": feats.astype(float).tolist()})
    return out


def tiny_networks():
    import torch
    from safetensors.torch import save_file
    from inkrec_training.model import InkRecNet

    torch.manual_seed(123)
    rng = np.random.default_rng(5)
    for name, head, reduce_after, classes in (("tiny-network", "ctc", 1, 7), ("tiny-classifier", "classifier", 0, 5)):
        model = InkRecNet(4, 8, 2, classes, reduce_after, head=head)
        for p in model.parameters():
            torch.nn.init.uniform_(p, -0.5, 0.5)
        d = os.path.join(FIXTURES, name)
        os.makedirs(d, exist_ok=True)
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, os.path.join(d, "weights.safetensors"))
        cfg = {"weights": "weights.safetensors", **model.config()}
        inputs = []
        for T in (1, 2, 5, 12):
            x = rng.normal(0, 1, size=(T, 4)).astype(np.float32)
            with torch.no_grad():
                lp, _ = model(torch.from_numpy(x)[None], torch.tensor([T]))
            inputs.append({"features": x.astype(float).tolist(), "logProbs": lp[0].numpy().astype(float).tolist()})
        with open(os.path.join(d, "golden.json"), "w") as f:
            json.dump({"network": cfg, "cases": inputs}, f)


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    for scheme in SCHEMES:  # features-golden-resampled-v1.json, features-golden-resampled-v2.json
        with open(os.path.join(FIXTURES, f"features-golden-{scheme}.json"), "w") as f:
            json.dump({"scheme": scheme, "cases": feature_cases(scheme)}, f)
    tiny_networks()
    print("fixtures written to", os.path.normpath(FIXTURES))


if __name__ == "__main__":
    main()
