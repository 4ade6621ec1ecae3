"""Tests/DigitalInkTests/Fixtures/ctc-gradient.json (written by inkrec_training.ctc_gradient_golden) is what
PyTorch computes: every case's loss and gradients recomputed from its inputs with ``F.ctc_loss`` and autograd
(float64, within 1e-9), the generator reproduces the file (inputs exactly, outputs within 1e-9), and central finite differences of the loss
agree with the gradients. CTCGradientTests (Swift) checks the engine against the same file."""
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

from inkrec_training import ctc_gradient_golden
from inkrec_training.paths import FIXTURES

from .json_close import same_json

FIXTURE = os.path.join(FIXTURES, "ctc-gradient.json")
ATOL = 1e-9


def golden():
    with open(FIXTURE) as f:
        return json.load(f)


def loss_of(logits, labels, blank):
    """Summed CTC loss of ``labels`` under (T, C) float64 logits, written here apart from the generator."""
    t = logits.shape[0]
    targets = torch.tensor(labels, dtype=torch.long).reshape(1, len(labels))
    return F.ctc_loss(F.log_softmax(logits, dim=-1).unsqueeze(1), targets, torch.tensor([t]),
                      torch.tensor([len(labels)]), blank=blank, reduction="sum", zero_infinity=False)


def test_logit_cases_are_pytorchs():
    g = golden()
    assert "note" in g and "ctc_loss" in g["note"]
    finite = 0
    for case in g["cases"]:
        x = torch.tensor(case["logits"], dtype=torch.float64, requires_grad=True)
        loss = loss_of(x, case["labels"], case["blank"])
        if case["loss"] is None:
            assert loss.item() == float("inf"), case["name"]
            assert case["gradient"] is None
            continue
        loss.backward()
        assert abs(loss.item() - case["loss"]) <= ATOL * max(1.0, abs(case["loss"])), case["name"]
        np.testing.assert_allclose(x.grad.numpy(), case["gradient"], rtol=0, atol=ATOL, err_msg=case["name"])
        # Each row of d loss / d logits is softmax − occupation: it sums to 0.
        np.testing.assert_allclose(x.grad.numpy().sum(axis=1), 0.0, atol=1e-12, err_msg=case["name"])
        finite += 1
    assert finite >= 6
    assert any(c["loss"] is None for c in g["cases"])
    assert any(c["labels"] == [] for c in g["cases"])
    assert any(len(c["logits"]) == 1 for c in g["cases"])
    assert any(c["blank"] != 0 for c in g["cases"])
    assert any(a == b for c in g["cases"] for a, b in zip(c["labels"], c["labels"][1:]))  # a repeated label


def test_output_layer_cases_are_pytorchs():
    cases = golden()["outputLayer"]
    assert cases
    for case in cases:
        f = torch.tensor(case["features"], dtype=torch.float64)
        w = torch.tensor(case["weight"], dtype=torch.float64, requires_grad=True)
        b = torch.tensor(case["bias"], dtype=torch.float64, requires_grad=True)
        assert w.shape == (len(case["bias"]), f.shape[1])
        x = f @ w.T + b
        x.retain_grad()
        loss = loss_of(x, case["labels"], case["blank"])
        loss.backward()
        assert abs(loss.item() - case["loss"]) <= ATOL * max(1.0, abs(case["loss"])), case["name"]
        np.testing.assert_allclose(w.grad.numpy(), case["weightGradient"], rtol=0, atol=ATOL, err_msg=case["name"])
        np.testing.assert_allclose(b.grad.numpy(), case["biasGradient"], rtol=0, atol=ATOL, err_msg=case["name"])
        np.testing.assert_allclose(x.grad.numpy(), case["logitsGradient"], rtol=0, atol=ATOL, err_msg=case["name"])
        # dW = Gᵀ · features and db = Σ_t G_t, with G the logits' gradient.
        grad = np.asarray(case["logitsGradient"])
        np.testing.assert_allclose(grad.T @ np.asarray(case["features"]), case["weightGradient"], atol=1e-12)
        np.testing.assert_allclose(grad.sum(axis=0), case["biasGradient"], atol=1e-12)


def test_the_generator_reproduces_the_file():
    same_json(ctc_gradient_golden.fixture(), golden(), ATOL)


def central_differences(f, x, step):
    x = np.array(x, dtype=np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += step
        down[i] -= step
        out[i] = (f(up) - f(down)) / (2 * step)
    return out


def test_finite_differences_of_the_logits_gradient():
    for case in golden()["cases"][:2]:  # "repeated label", "three labels"
        def f(v):
            return loss_of(torch.tensor(v), case["labels"], case["blank"]).item()
        fd = central_differences(f, case["logits"], 1e-5)
        np.testing.assert_allclose(fd, case["gradient"], rtol=0, atol=1e-7, err_msg=case["name"])


def test_finite_differences_of_the_output_layer_gradients():
    case = golden()["outputLayer"][0]
    f_ = np.asarray(case["features"])

    def loss_w(w):
        return loss_of(torch.tensor(f_ @ w.T + np.asarray(case["bias"])), case["labels"], case["blank"]).item()

    def loss_b(b):
        return loss_of(torch.tensor(f_ @ np.asarray(case["weight"]).T + b), case["labels"], case["blank"]).item()

    np.testing.assert_allclose(central_differences(loss_w, case["weight"], 1e-5), case["weightGradient"], atol=1e-7)
    np.testing.assert_allclose(central_differences(loss_b, case["bias"], 1e-5), case["biasGradient"], atol=1e-7)


def test_adapter_cases_are_pytorchs():
    """The writer profile's low-rank head change (HeadAdapter.swift): logits P + F·Aᵀ·Bᵀ + d, written here apart
    from the generator; the chain rule checked against the logits' gradient too."""
    cases = golden()["adapter"]
    assert cases
    for case in cases:
        f = torch.tensor(case["headInput"], dtype=torch.float64)
        p = torch.tensor(case["logProbs"], dtype=torch.float64)
        a, b, d = (torch.tensor(case[k], dtype=torch.float64, requires_grad=True) for k in ("a", "b", "d"))
        x = p + torch.matmul(torch.matmul(f, a.T), b.T) + d
        x.retain_grad()
        loss = loss_of(x, case["labels"], case["blank"])
        loss.backward()
        assert abs(loss.item() - case["loss"]) <= ATOL * max(1.0, abs(case["loss"])), case["name"]
        for t, k in ((a, "aGradient"), (b, "bGradient"), (d, "dGradient")):
            np.testing.assert_allclose(t.grad.numpy(), case[k], rtol=0, atol=ATOL, err_msg=f"{case['name']} {k}")
        g = x.grad.numpy()
        z = np.asarray(case["headInput"]) @ np.asarray(case["a"]).T
        np.testing.assert_allclose(g.T @ z, case["bGradient"], atol=1e-12)
        np.testing.assert_allclose((g @ np.asarray(case["b"])).T @ np.asarray(case["headInput"]), case["aGradient"], atol=1e-12)
        np.testing.assert_allclose(g.sum(axis=0), case["dGradient"], atol=1e-12)
