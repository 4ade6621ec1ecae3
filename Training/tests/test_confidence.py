"""The confidence formula (evaluate_hints.apply) against the golden fixture the Swift tests also check."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from evaluate_hints import FIXTURE, apply, ece  # noqa: E402


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
