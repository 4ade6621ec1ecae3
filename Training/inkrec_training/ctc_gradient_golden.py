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
- ``adapter``: a writer profile's low-rank head change (``Sources/DigitalInk/Adaptation/HeadAdapter.swift``):
  the head's input ``headInput`` (T × H), the network's log-probabilities ``logProbs`` (T × C), ``a`` (r × H),
  ``b`` (C × r), ``d`` (C); logits ``logProbs + headInput · aᵀ · bᵀ + d``; ``loss`` and ``aGradient``,
  ``bGradient``, ``dGradient`` by autograd.

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
        "autograd (d loss / d logits, d loss / d weight, d loss / d bias; adapter: d loss / d a, b, d). null loss: no path emits the labels. "
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


def adapter_case(name: str, head_input: np.ndarray, log_probs: np.ndarray, a: np.ndarray, b: np.ndarray,
                 d: np.ndarray, labels, blank: int = 0) -> dict:
    import torch

    f = torch.tensor(head_input, dtype=torch.float64)
    p = torch.tensor(log_probs, dtype=torch.float64)
    ta, tb, td = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (a, b, d))
    loss = ctc_loss_sum(p + (f @ ta.T) @ tb.T + td, labels, blank)
    assert math.isfinite(loss.item()), name
    loss.backward()
    return {"name": name, "labels": [int(v) for v in labels], "blank": blank, "headInput": head_input.tolist(),
            "logProbs": log_probs.tolist(), "a": a.tolist(), "b": b.tolist(), "d": d.tolist(), "loss": loss.item(),
            "aGradient": ta.grad.numpy().tolist(), "bGradient": tb.grad.numpy().tolist(),
            "dGradient": td.grad.numpy().tolist()}


def log_softmax_rows(x: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax, rounded to 6 decimals (an input of the adapter cases)."""
    m = x.max(axis=1, keepdims=True)
    return np.round(x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True)), 6)


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
    adapters = [
        adapter_case("r=2 H=5 C=4", draw(7, 5), log_softmax_rows(draw(7, 4, scale=1.5)), draw(2, 5, scale=0.5),
                     draw(4, 2, scale=0.5), draw(4, scale=0.3), [1, 2, 2, 3]),
        adapter_case("r=3 H=6 C=6 blank 5", draw(10, 6), log_softmax_rows(draw(10, 6, scale=2.0)), draw(3, 6, scale=0.4),
                     draw(6, 3, scale=0.4), draw(6, scale=0.3), [0, 4, 4, 1], blank=5),
    ]
    return {"note": NOTE, "cases": cases, "outputLayer": layers, "adapter": adapters}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    golden = fixture()
    with open(OUTPUT, "w") as f:
        json.dump(golden, f)
        f.write("\n")
    print(f"{len(golden['cases'])} logit cases, {len(golden['outputLayer'])} output-layer cases and "
          f"{len(golden['adapter'])} adapter cases written to",
          os.path.normpath(OUTPUT))


if __name__ == "__main__":
    main()
