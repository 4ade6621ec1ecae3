"""Tests/DigitalInkTests/Fixtures/lstm-gradient.json (written by inkrec_training.lstm_gradient_golden) is what
PyTorch computes: the generator reproduces the file (inputs exactly, outputs within 1e-9), the loss recomputed here
apart from the generator (the LSTMs run with their LoRA-changed weights through ``InkRecNet.encode``'s ``run``)
matches, central finite differences of the loss agree with the stored gradients, and the LoRA gradients follow from
the weight gradients by the chain rule the Swift side uses."""
import json
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the LSTM gradient fixture is computed with torch (not installed)")
import torch.nn.functional as F  # noqa: E402

from inkrec_training import lstm_gradient_golden  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402
from inkrec_training.paths import FIXTURES  # noqa: E402

from .json_close import same_json  # noqa: E402

FIXTURE = os.path.join(FIXTURES, "lstm-gradient.json")
TOL = 1e-9
INPUTS = ("name", "inputDim", "hidden", "layers", "numClasses", "reduceAfter", "blank", "rank", "features", "labels",
          "weights", "lora", "otherLabels")


def golden():
    with open(FIXTURE) as f:
        return json.load(f)


def test_the_generator_reproduces_the_file():
    made, stored = lstm_gradient_golden.fixture(), golden()
    assert made.keys() == stored.keys() and made["note"] == stored["note"]
    assert len(made["cases"]) == len(stored["cases"]) == 4
    for m, s in zip(made["cases"], stored["cases"]):
        assert m.keys() == s.keys()
        for k in INPUTS:
            assert m.get(k) == s.get(k), f"{s['name']}: {k}"  # inputs exactly: rounded to 6 decimals
        same_json({k: v for k, v in m.items() if k not in INPUTS}, {k: v for k, v in s.items() if k not in INPUTS}, TOL,
                  s["name"])


def loss_of(case, weights=None, lora=None):
    """The case's summed CTC loss, written here apart from the generator: the network's own weights loaded, each
    LSTM run with ``W + b @ a`` through ``encode``'s ``run`` hook, the head applied by hand."""
    weights = case["weights"] if weights is None else weights
    lora = case["lora"] if lora is None else lora
    net = InkRecNet(case["inputDim"], case["hidden"], case["layers"], case["numClasses"],
                    reduce_after=case["reduceAfter"]).double().eval()
    net.load_state_dict({k: torch.tensor(np.asarray(v), dtype=torch.float64) for k, v in weights.items()})

    def run(l, lstm, packed):
        changed = {}
        for name, p in lstm.named_parameters():
            key = f"lstms.{l}.{name}"
            if key in lora:
                a, b = (torch.tensor(np.asarray(lora[key][n]), dtype=torch.float64) for n in ("a", "b"))
                changed[name] = p + b @ a
        return torch.func.functional_call(lstm, changed, (packed,))

    x = torch.tensor(case["features"], dtype=torch.float64)[None]
    with torch.no_grad():
        h, lengths = net.encode(x, torch.tensor([x.shape[1]]), run)
        logits = h[0] @ net.head.weight.T + net.head.bias
    t = int(lengths[0])
    assert t == logits.shape[0]
    def ctc(labels):
        return F.ctc_loss(F.log_softmax(logits, dim=-1)[:, None, :], torch.tensor([labels]), torch.tensor([t]),
                          torch.tensor([len(labels)]), blank=case["blank"], reduction="sum", zero_infinity=False).item()

    if "otherLabels" not in case:
        return ctc(case["labels"])
    a, b = ctc(case["labels"]), ctc(case["otherLabels"])  # either text: −ln(e^−a + e^−b), from the smaller
    return min(a, b) - np.log1p(np.exp(-abs(a - b)))


def test_the_cases_and_their_losses():
    cases = golden()["cases"]
    assert any("otherLabels" in c for c in cases)  # a lone letter's either case
    assert any(c["reduceAfter"] > 0 and len(c["features"]) % 2 for c in cases)  # an odd T padded by a zero row
    assert any(c["reduceAfter"] == 0 for c in cases)
    assert any(c["blank"] == c["numClasses"] - 1 for c in cases)
    for case in cases:
        h, layers = case["hidden"], case["layers"]
        t = len(case["features"])
        assert case["outputFrames"] == ((t + 1) // 2 if case["reduceAfter"] else t)
        lstm_weights = [k for k in case["weights"] if k.startswith("lstms.") and ".weight_" in k]
        assert len(lstm_weights) == 4 * layers and set(case["lora"]) == set(lstm_weights)
        assert set(case["gradients"]) == set(case["weights"]) and set(case["loraGradients"]) == set(case["lora"])
        assert "head.weight" in case["weights"] and "head.bias" in case["weights"]
        for k, p in case["lora"].items():
            w = np.asarray(case["weights"][k])
            assert np.asarray(p["a"]).shape == (case["rank"], w.shape[1])
            assert np.asarray(p["b"]).shape == (4 * h, case["rank"]) and np.any(np.asarray(p["b"]) != 0)
        for k in case["weights"]:
            assert np.asarray(case["gradients"][k]).shape == np.asarray(case["weights"][k]).shape, k
            if ".bias_ih" in k:
                np.testing.assert_allclose(case["gradients"][k], case["gradients"][k.replace("bias_ih", "bias_hh")],
                                           rtol=0, atol=1e-15, err_msg=k)  # the same up to the summation order
        assert np.isfinite(case["loss"]) and case["loss"] > 0
        assert abs(loss_of(case) - case["loss"]) <= TOL * max(1.0, case["loss"]), case["name"]


def test_lora_gradients_follow_by_the_chain_rule():
    """With W' = W + b·a: d/db = G·aᵀ and d/da = bᵀ·G, G = d loss / d W' (what the Swift side computes)."""
    for case in golden()["cases"]:
        for k, p in case["lora"].items():
            g, a, b = np.asarray(case["gradients"][k]), np.asarray(p["a"]), np.asarray(p["b"])
            lg = case["loraGradients"][k]
            np.testing.assert_allclose(g @ a.T, lg["b"], rtol=0, atol=TOL, err_msg=f"{case['name']} {k} b")
            np.testing.assert_allclose(b.T @ g, lg["a"], rtol=0, atol=TOL, err_msg=f"{case['name']} {k} a")


def central_difference(f, x, index, step=1e-5):
    up, down = np.array(x, dtype=np.float64), np.array(x, dtype=np.float64)
    up[index] += step
    down[index] -= step
    return (f(up) - f(down)) / (2 * step)


def test_finite_differences_of_the_loss():
    torch.set_num_threads(1)
    case = golden()["cases"][0]  # 2 layers, reduce after 1, odd T
    weight = "lstms.0.weight_hh_l0_reverse"
    fixed = case["weights"]
    for index in [(0, 0), (4, 2), (7, 1), (11, 0)]:
        fd = central_difference(lambda w: loss_of(case, weights={**fixed, weight: w}), fixed[weight], index)
        stored = case["gradients"][weight][index[0]][index[1]]
        assert abs(fd - stored) <= 1e-5 * abs(stored) + 1e-9, f"{weight}{index}: {fd} vs {stored}"
    key = "lstms.1.weight_ih_l0"
    lora = case["lora"]
    for index in [(0, 0), (1, 3), (0, 5), (1, 11)]:
        fd = central_difference(lambda a: loss_of(case, lora={**lora, key: {"a": a, "b": lora[key]["b"]}}),
                                lora[key]["a"], index)
        stored = case["loraGradients"][key]["a"][index[0]][index[1]]
        assert abs(fd - stored) <= 1e-5 * abs(stored) + 1e-9, f"lora {key} a{index}: {fd} vs {stored}"


def test_finite_differences_of_the_loss_of_either_text():
    torch.set_num_threads(1)
    case = next(c for c in golden()["cases"] if "otherLabels" in c)
    weight = "lstms.1.weight_hh_l0"
    fixed = case["weights"]
    for index in [(0, 0), (5, 1), (9, 2)]:
        fd = central_difference(lambda w: loss_of(case, weights={**fixed, weight: w}), fixed[weight], index)
        stored = case["gradients"][weight][index[0]][index[1]]
        assert abs(fd - stored) <= 1e-5 * abs(stored) + 1e-9, f"{weight}{index}: {fd} vs {stored}"
