"""Writes ``Tests/DigitalInkTests/Fixtures/ctc-gradient.json``: the CTC loss and its gradients as PyTorch computes
them, which ``Sources/DigitalInk/Decoding/CTCGradient.swift`` must reproduce (``CTCGradientTests``) and
``Training/tests/test_ctc_gradient_golden.py`` recomputes, so that the file cannot drift from PyTorch.

Two kinds of case, each with inputs drawn from a fixed seed and rounded to 6 decimals, the outputs computed from
the rounded values in float64:

- ``cases``: T × C unnormalized logits and a label sequence; ``loss`` is
  ``F.ctc_loss(log_softmax(logits)[:, None], labels, [T], [L], blank, reduction="sum", zero_infinity=False)`` and
  ``gradient`` (T × C) is d loss / d logits by autograd. A case with no path has ``loss`` and ``gradient`` null.
- ``outputLayer``: features (T × H), a linear layer's ``weight`` (C × H) and ``bias`` (C), logits
  ``features · weightᵀ + bias``; ``loss``, ``weightGradient`` (C × H), ``biasGradient`` (C) and, for reference,
  ``logitsGradient`` (T × C).

Run: ``python3 -m inkrec_training.ctc_gradient_golden`` (needs torch).
"""
from __future__ import annotations

import argparse
import json
import math
import os

import numpy as np

from inkrec_training.paths import FIXTURES

OUTPUT = os.path.join(FIXTURES, "ctc-gradient.json")
SEED = 41  # issue 41: writer adaptation

NOTE = ("Written by `python3 -m inkrec_training.ctc_gradient_golden` (Training/inkrec_training/ctc_gradient_golden.py) "
        f"with numpy's default_rng({SEED}). Inputs rounded to 6 decimals; loss = torch.nn.functional.ctc_loss("
        "log_softmax(logits), reduction='sum', zero_infinity=False) in float64 from the rounded inputs; gradients by "
        "autograd (d loss / d logits, d loss / d weight, d loss / d bias). null loss: no path emits the labels. "
        "Checked by Training/tests/test_ctc_gradient_golden.py and Tests/DigitalInkTests/CTCGradientTests.swift.")


def ctc_loss_sum(logits, labels, blank: int = 0):
    """The summed CTC loss of ``labels`` under T × C ``logits`` (a float64 tensor), log-softmax inside."""
    import torch
    import torch.nn.functional as F

    t = logits.shape[0]
    targets = torch.tensor([list(labels)], dtype=torch.long) if labels else torch.zeros((1, 0), dtype=torch.long)
    return F.ctc_loss(torch.log_softmax(logits, -1)[:, None, :], targets, torch.tensor([t]), torch.tensor([len(labels)]),
                      blank=blank, reduction="sum", zero_infinity=False)


def logits_case(name: str, logits: np.ndarray, labels, blank: int = 0) -> dict:
    import torch

    x = torch.tensor(logits, dtype=torch.float64, requires_grad=True)
    loss = ctc_loss_sum(x, labels, blank)
    case = {"name": name, "labels": [int(v) for v in labels], "blank": blank, "logits": logits.tolist()}
    if not math.isfinite(loss.item()):
        return {**case, "loss": None, "gradient": None}
    loss.backward()
    return {**case, "loss": loss.item(), "gradient": x.grad.numpy().tolist()}


def output_layer_case(name: str, features: np.ndarray, weight: np.ndarray, bias: np.ndarray, labels,
                      blank: int = 0) -> dict:
    import torch

    f = torch.tensor(features, dtype=torch.float64)
    w = torch.tensor(weight, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(bias, dtype=torch.float64, requires_grad=True)
    x = f @ w.T + b
    x.retain_grad()
    loss = ctc_loss_sum(x, labels, blank)
    assert math.isfinite(loss.item()), name
    loss.backward()
    return {"name": name, "labels": [int(v) for v in labels], "blank": blank, "features": features.tolist(),
            "weight": weight.tolist(), "bias": bias.tolist(), "loss": loss.item(),
            "weightGradient": w.grad.numpy().tolist(), "biasGradient": b.grad.numpy().tolist(),
            "logitsGradient": x.grad.numpy().tolist()}


def fixture() -> dict:
    rng = np.random.default_rng(SEED)

    def draw(*shape, scale=1.0):
        return np.round(rng.normal(0.0, scale, size=shape), 6)

    cases = [
        logits_case("repeated label", draw(7, 5), [1, 2, 2]),
        logits_case("three labels", draw(12, 6, scale=2.0), [3, 1, 4]),
        logits_case("empty label", draw(5, 4), []),
        logits_case("single frame", draw(1, 4), [2]),
        logits_case("exact fit (one path)", draw(4, 3), [1, 1, 2]),
        logits_case("blank last", draw(8, 5), [0, 3, 0], blank=4),
        logits_case("peaky, long", draw(40, 10, scale=5.0), [int(v) for v in rng.integers(1, 10, size=14)]),
        logits_case("too few frames", draw(2, 4), [1, 1]),
    ]
    layers = [
        output_layer_case("H=4 C=5", draw(6, 4), draw(5, 4, scale=0.8), draw(5, scale=0.5), [2, 1]),
        output_layer_case("H=8 C=7 blank 6", draw(11, 8), draw(7, 8, scale=0.6), draw(7, scale=0.5), [3, 3, 0, 5],
                          blank=6),
    ]
    return {"note": NOTE, "cases": cases, "outputLayer": layers}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    golden = fixture()
    with open(OUTPUT, "w") as f:
        json.dump(golden, f)
        f.write("\n")
    print(f"{len(golden['cases'])} logit cases and {len(golden['outputLayer'])} output-layer cases written to",
          os.path.normpath(OUTPUT))


if __name__ == "__main__":
    main()
