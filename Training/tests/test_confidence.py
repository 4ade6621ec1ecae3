"""The confidence formula (evaluate_hints.apply) against the golden fixture the Swift tests also check."""
import json
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin.evaluate_hints import FIXTURE, apply, ece  # noqa: E402


def independent(scores, lengths, params):
    """The confidence formula written out again from its documentation (ConfidenceCalibration.swift),
    in plain floats: q_i = softmax(s / T)_i over the finite scores, then
    sigmoid(bias + logProbabilityWeight * log q_i + lengthWeight * log(1 + length_i))."""
    finite = [v for v in scores if v is not None]
    t = params["temperature"] if params else 1.0
    top = max(finite)
    total = sum(math.exp((v - top) / t) for v in finite)
    out = []
    for v, n in zip(scores, lengths):
        q = 0.0 if v is None else math.exp((v - top) / t) / total
        if not params:
            out.append(q)
            continue
        if q == 0.0:
            out.append(0.0)
            continue
        x = params["bias"] + params["logProbabilityWeight"] * math.log(q) + params["lengthWeight"] * math.log(1 + n)
        out.append(1 / (1 + math.exp(-x)))
    return out


def test_a_hand_checked_case():
    # scores 0 and ln 3: q = 1/4 and 3/4. With bias 1/2, weight 2 on log q and -1 on log(1 + 1):
    # x = 1/2 + 2 ln(1/4) - ln 2 = 1/2 - ln 32, so the confidence is 1 / (1 + 32 e^(-1/2)); for q = 3/4,
    # x = 1/2 + ln(9/32), so 1 / (1 + (32/9) e^(-1/2)).
    params = {"temperature": 1.0, "bias": 0.5, "logProbabilityWeight": 2.0, "lengthWeight": -1.0}
    want = [1 / (1 + 32 * math.exp(-0.5)), 1 / (1 + 32 / 9 * math.exp(-0.5))]
    assert abs(want[0] - 0.0489980) < 1e-6  # by hand: 1 / (1 + 32 * 0.6065307) = 1 / 20.40898
    assert np.allclose(apply([0.0, math.log(3.0)], [1, 1], params), want, atol=1e-12)
    assert np.allclose(independent([0.0, math.log(3.0)], [1, 1], params), want, atol=1e-12)
    # A temperature of 2 halves the score gap: scores 0 and ln 9 give the same q as above.
    params2 = dict(params, temperature=2.0)
    assert np.allclose(apply([0.0, math.log(9.0)], [1, 1], params2), want, atol=1e-12)


def test_fixture_agrees_with_an_independent_computation():
    """The fixture's expected values (which the Swift tests also check) are written by `apply`; here
    they are recomputed by `independent`, which shares no code with it."""
    with open(FIXTURE) as f:
        cases = json.load(f)["cases"]
    for c in cases:
        assert np.allclose(independent(c["scores"], c["lengths"], c["calibration"]), c["expected"], atol=1e-6), c


def test_fixture_matches_apply():
    with open(FIXTURE) as f:
        cases = json.load(f)["cases"]
    assert len(cases) >= 4
    for c in cases:
        got = apply(c["scores"], c["lengths"], c["calibration"])
        assert np.allclose(got, c["expected"], atol=1e-6), (c, got)
        assert all(0 <= v <= 1 for v in got)


def test_uncalibrated_is_the_softmax():
    got = apply([0.0, np.log(3.0)], [1, 1], None)
    assert np.allclose(got, [0.25, 0.75])


def test_ece_of_a_perfect_and_a_wrong_calibration():
    assert ece([0.25, 0.25, 0.25, 0.25], [1, 0, 0, 0])[0] == 0
    assert abs(ece([0.9, 0.9], [0, 0])[0] - 0.9) < 1e-12
