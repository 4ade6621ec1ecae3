"""Writes ``Tests/DigitalInkTests/Fixtures/lstm-gradient.json``: the CTC loss of a whole network (``InkRecNet``:
bidirectional LSTM layers, the time reduction, the linear CTC head) and its gradients with respect to every weight
and to low-rank ("LoRA") changes of every LSTM weight matrix, as PyTorch computes them. A Swift implementation of
backpropagation through time must reproduce them; ``Training/tests/test_lstm_gradient_golden.py`` recomputes them,
so that the file cannot drift from PyTorch.

Each case draws its inputs from a fixed seed, rounded to 6 decimals, and computes the outputs from the rounded values
in float64, with the real ``InkRecNet`` (``.double()``, eval mode, batch 1, lengths [T]):

- ``weights``: every state-dict tensor by its state-dict name (``lstms.{l}.weight_ih_l0``, ``lstms.{l}.weight_hh_l0``,
  ``lstms.{l}.bias_ih_l0``, ``lstms.{l}.bias_hh_l0``, the same with ``_reverse``, ``head.weight``, ``head.bias``;
  PyTorch's layout: W_ih (4H, in), W_hh (4H, H), gate order i, f, g, o).
- ``lora``: for every LSTM weight matrix W (by its name) ``a`` (r × in_features of W) and ``b`` (4H × r); the network
  runs with the effective weight ``W + b · a``.
- ``features`` (T × inputDim) and ``labels``; ``loss`` = ``F.ctc_loss(log_softmax(head(encode(features)))[:, None],
  labels, [T'], [L], blank, reduction="sum", zero_infinity=False)`` with ``outputFrames`` = T' (⌈T/2⌉ when
  ``reduceAfter`` > 0: rows 2t and 2t+1 of layer ``reduceAfter``'s output stacked side by side, a zero row padding
  an odd T; T when 0).
- ``otherLabels`` (some cases): the loss is then that of either text, ``−logsumexp(−ctc(labels), −ctc(otherLabels))``
  (what a lone letter learns: either case; ``CTCGradient.union`` on the Swift side), and every gradient is its.
- ``gradients``: by autograd, d loss / d (effective weight) for every LSTM weight matrix, d loss / d bias for every
  LSTM bias (``bias_ih`` and ``bias_hh`` have the same gradient), d loss / d ``head.weight`` and ``head.bias``.
- ``loraGradients``: d loss / d ``a`` and d loss / d ``b`` for every LSTM weight matrix, by autograd in a second pass;
  by the chain rule d/db = G · aᵀ and d/da = bᵀ · G, with G the effective weight's gradient.

Run: ``python3 -m inkrec_training.lstm_gradient_golden`` (needs torch).
"""
from __future__ import annotations

import argparse
import json
import math
import os

import numpy as np

from inkrec_training.paths import FIXTURES

OUTPUT = os.path.join(FIXTURES, "lstm-gradient.json")
SEED = 41  # issue 41: writer adaptation

NOTE = ("Written by `python3 -m inkrec_training.lstm_gradient_golden` (Training/inkrec_training/lstm_gradient_golden.py) "
        f"with numpy's default_rng({SEED}). Inputs rounded to 6 decimals; InkRecNet (Training/inkrec_training/model.py) "
        "in float64, eval mode, batch 1, each LSTM weight matrix W replaced by W + b @ a (lora); loss = "
        "torch.nn.functional.ctc_loss(log_softmax(head(encode(features)))[:, None], labels, [outputFrames], [L], blank, "
        "reduction='sum', zero_infinity=False) (with otherLabels: -logsumexp(-ctc(labels), -ctc(otherLabels))); gradients by autograd: d loss / d (W + b @ a) for LSTM weights, d loss / d "
        "bias, head.weight, head.bias; loraGradients: d loss / d a, d loss / d b. "
        "Checked by Training/tests/test_lstm_gradient_golden.py and Tests/DigitalInkTests/LSTMGradientTests.swift.")

#: (name, inputDim, hidden, layers, numClasses, reduceAfter, blank, rank, T, labels[, otherLabels])
CASES = [
    ("2 layers, reduce after 1, odd T", 3, 3, 2, 5, 1, 0, 2, 9, [1, 3, 3]),
    ("3 layers, reduce after 1, blank last", 4, 4, 3, 6, 1, 5, 2, 12, [0, 2, 4]),
    ("1 layer, no reduction", 2, 2, 1, 4, 0, 0, 1, 6, [2, 1]),
    ("2 layers, reduce after 1, either of two one-letter texts", 3, 3, 2, 5, 1, 0, 2, 8, [2], [3]),
]


def is_lstm_weight(name: str) -> bool:
    """``lstms.{l}.weight_ih_l0`` / ``weight_hh_l0`` (and ``_reverse``): the matrices that carry a LoRA pair."""
    return name.startswith("lstms.") and ".weight_" in name


def network(case: dict):
    """A float64 ``InkRecNet`` in eval mode with the case's ``weights`` loaded."""
    import torch

    from inkrec_training.model import InkRecNet

    net = InkRecNet(case["inputDim"], case["hidden"], case["layers"], case["numClasses"],
                    reduce_after=case["reduceAfter"]).double().eval()
    net.load_state_dict({k: torch.tensor(v, dtype=torch.float64) for k, v in case["weights"].items()})
    return net


def network_loss(net, params: dict, features, labels, blank: int, other=None):
    """The summed CTC loss of ``labels`` (with ``other``: of either text, −logsumexp of both negated) for ``net`` run
    with ``params`` (name → tensor, e.g. effective weights) in place of its own; returns (loss, T')."""
    import torch
    import torch.nn.functional as F

    x = torch.as_tensor(features, dtype=torch.float64)[None]
    log_probs, lengths = torch.func.functional_call(net, params, (x, torch.tensor([x.shape[1]])))
    t = int(lengths[0])

    def ctc(text):
        return F.ctc_loss(log_probs[0, :t][:, None, :], torch.tensor([list(text)], dtype=torch.long),
                          torch.tensor([t]), torch.tensor([len(text)]), blank=blank, reduction="sum",
                          zero_infinity=False)

    if other is None:
        return ctc(labels), t
    return -torch.logsumexp(torch.stack([-ctc(labels), -ctc(other)]), dim=0), t


def network_case(name: str, input_dim: int, hidden: int, layers: int, num_classes: int, reduce_after: int,
                 blank: int, rank: int, frames: int, labels, other=None, *, draw) -> dict:
    import torch

    from inkrec_training.model import InkRecNet

    shapes = {k: tuple(v.shape) for k, v in
              InkRecNet(input_dim, hidden, layers, num_classes, reduce_after=reduce_after).state_dict().items()}
    weights = {k: draw(*s, scale=0.5) for k, s in shapes.items()}
    lora = {k: {"a": draw(rank, s[1], scale=0.3), "b": draw(s[0], rank, scale=0.3)}
            for k, s in shapes.items() if is_lstm_weight(k)}
    features = draw(frames, input_dim, scale=1.0)
    case = {"name": name, "inputDim": input_dim, "hidden": hidden, "layers": layers, "numClasses": num_classes,
            "reduceAfter": reduce_after, "blank": blank, "rank": rank, "features": features.tolist(),
            "labels": [int(v) for v in labels], "weights": {k: v.tolist() for k, v in weights.items()},
            "lora": {k: {"a": p["a"].tolist(), "b": p["b"].tolist()} for k, p in lora.items()}}
    if other is not None:
        case["otherLabels"] = [int(v) for v in other]
    net = network(case)
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in weights.items()}
    ab = {k: {n: torch.tensor(v, dtype=torch.float64) for n, v in p.items()} for k, p in lora.items()}

    # Pass 1: the effective weights (and every other tensor) are the leaves.
    leaves = {k: ((v + ab[k]["b"] @ ab[k]["a"]) if k in ab else v.clone()).requires_grad_() for k, v in w.items()}
    loss, t = network_loss(net, leaves, features, labels, blank, other)
    assert math.isfinite(loss.item()), name
    loss.backward()
    gradients = {k: v.grad.numpy().tolist() for k, v in leaves.items()}

    # Pass 2: the LoRA pairs are the leaves.
    for p in ab.values():
        for v in p.values():
            v.requires_grad_()
    params = {k: (v + ab[k]["b"] @ ab[k]["a"]) if k in ab else v for k, v in w.items()}
    loss2, _ = network_loss(net, params, features, labels, blank, other)
    loss2.backward()
    lora_gradients = {k: {n: v.grad.numpy().tolist() for n, v in p.items()} for k, p in ab.items()}
    return {**case, "loss": loss.item(), "outputFrames": t, "gradients": gradients, "loraGradients": lora_gradients}


def fixture() -> dict:
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(SEED)

    def draw(*shape, scale=1.0):
        return np.round(rng.normal(0.0, scale, size=shape), 6)

    return {"note": NOTE, "cases": [network_case(*c, draw=draw) for c in CASES]}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    golden = fixture()
    with open(OUTPUT, "w") as f:
        json.dump(golden, f)
        f.write("\n")
    print(f"{len(golden['cases'])} network cases written to", os.path.normpath(OUTPUT))


if __name__ == "__main__":
    main()
