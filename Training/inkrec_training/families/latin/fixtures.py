#!/usr/bin/env python3
"""Writes the golden fixtures that pin Python and Swift numerics together.

    python3 -m inkrec_training latin data fixtures

- Tests/DigitalInkTests/Fixtures/features-golden-<scheme>.json (one per feature scheme): inks (synthetic edge cases and real UNIPEN
  ink) with the features `inkrec_training.features` computes.
- Tests/DigitalInkTests/Fixtures/tiny-network/: a small randomly initialised network (fixed seed)
  as safetensors + config.json, with inputs and the log-probabilities PyTorch computes
  (`golden.json`), for the CTC head and for the classifier head.
- Tests/DigitalInkTests/Fixtures/ctc-likelihood.json: CTC log-likelihoods of label sequences under random
  log-probabilities as `torch.ctc_loss` computes them (null where no path exists), the view rescoring's score
  changes for a set of candidates (`inkrec_training.views`), and the features of a stretched ink.
- Tests/DigitalInkTests/Fixtures/ctc-gradient.json (not written here: `python3 -m
  inkrec_training.ctc_gradient_golden`): the CTC loss and its gradients, for `CTCGradient.swift`.
The shipped model's own golden file is written by latin export english; the CJK-shaped network's
(`Fixtures/cjk-network/`) by cjk data fixture, which needs the CJK glyph cache.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os

import numpy as np

from inkrec_training.paths import TRAINING as HERE
from inkrec_training.features import ink_features, SCHEMES  # noqa: E402
from inkrec_training import views

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


def ctc_fixture():
    """ctc-likelihood.json: what the engine's CTCLikelihood and ViewRescorer must reproduce."""
    import torch
    import torch.nn.functional as F

    rng = np.random.default_rng(11)

    def log_probs(t, c, scale):
        x = rng.normal(0, scale, size=(t, c))
        return torch.log_softmax(torch.tensor(x), -1).float().numpy()  # the engine's matrices are Float

    def torch_ll(lp, labels):
        t = lp.shape[0]
        loss = F.ctc_loss(torch.tensor(lp, dtype=torch.float64)[:, None, :],
                          torch.tensor(labels or [0], dtype=torch.long)[None, : len(labels)] if labels else
                          torch.zeros((1, 0), dtype=torch.long),
                          torch.tensor([t]), torch.tensor([len(labels)]), blank=0, reduction="none")
        v = -float(loss[0])
        return v if np.isfinite(v) else None

    outputs = []
    for name, t, c, scale in [("one frame", 1, 4, 1.0), ("small", 6, 5, 1.0), ("peaky", 30, 12, 4.0),
                              ("long", 120, 30, 3.0)]:
        lp = log_probs(t, c, scale)
        label_sets = [[], [1], [2, 2], [1, 2, 1], list(rng.integers(1, c, size=min(t, 8)).tolist()),
                      [3, 3, 3, 3] if c > 3 else [1, 1, 1, 1], list(rng.integers(1, c, size=t + 1).tolist())]
        if t >= 30:
            label_sets.append(list(rng.integers(1, c, size=t // 2).tolist()))
        outputs.append({"name": name, "logProbs": lp.astype(float).tolist(),
                        "cases": [{"labels": [int(x) for x in labels], "logLikelihood": torch_ll(lp, labels)}
                                  for labels in label_sets]})
    # Rescoring: an original output and two views of other lengths; candidates of which one is too long for
    # the shorter view and one (with the blank) for every output.
    original, short, wide = log_probs(20, 6, 2.0), log_probs(5, 6, 2.0), log_probs(24, 6, 2.0)
    candidates = [[1, 2, 3], [1, 2, 2, 3], [4], [5, 1, 5, 1, 5, 1], [1, 0, 2]]
    rescoring = {"original": original.astype(float).tolist(), "views": [short.astype(float).tolist(), wide.astype(float).tolist()],
                 "candidates": candidates, "weight": 0.75,
                 "adjustments": views.adjustments(candidates, original, [short, wide], 0.75).tolist()}
    # The stretch: x multiplied about 0, then the features as the engine computes them.
    ink = [[[x, 20 * np.sin(x / 9.0) + 3 * (x % 7)] for x in range(100, 260, 4)],
           [[170.0 + 2 * k, 45.0 - 5 * k] for k in range(8)]]
    stretch = [{"factor": f, "features": ink_features(views.stretched(ink, f), scheme="resampled-v2").astype(float).tolist()}
               for f in (0.88, 1.12)]
    with open(os.path.join(FIXTURES, "ctc-likelihood.json"), "w") as f:
        json.dump({"outputs": outputs, "rescoring": rescoring, "stretch": {"ink": ink_json(ink), "views": stretch}}, f)


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    os.makedirs(FIXTURES, exist_ok=True)
    ctc_fixture()
    for scheme in SCHEMES:  # features-golden-resampled-v1.json, features-golden-resampled-v2.json
        with open(os.path.join(FIXTURES, f"features-golden-{scheme}.json"), "w") as f:
            json.dump({"scheme": scheme, "cases": feature_cases(scheme)}, f)
    tiny_networks()
    print("fixtures written to", os.path.normpath(FIXTURES))


if __name__ == "__main__":
    main()
