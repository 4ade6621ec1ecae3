"""The Python features must reproduce the golden fixtures the Swift tests also check."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from inkrec_training.features import ink_features, resample_stroke, quantile  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")


def strokes_of(ink):
    return [[[p["x"], p["y"]] for p in s["points"]] for s in ink["strokes"]]


def test_golden_features():
    with open(os.path.join(FIXTURES, "features-golden.json")) as f:
        golden = json.load(f)
    assert golden["scheme"] == "resampled-v1"
    assert len(golden["cases"]) >= 8
    for case in golden["cases"]:
        area = case["ink"].get("writingArea")
        feats = ink_features(strokes_of(case["ink"]), area["height"] if area else None)
        expected = np.asarray(case["features"], dtype=np.float32).reshape(-1, 4)
        assert feats.shape == expected.shape, case["name"]
        np.testing.assert_allclose(feats, expected, atol=1e-5, err_msg=case["name"])


def test_empty_ink_has_no_features():
    assert ink_features([]).shape == (0, 4)
    assert ink_features([[], []]).shape == (0, 4)


def test_resampling_spacing_and_ends():
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]])
    r = resample_stroke(pts, 2.0)
    assert len(r) == 11
    np.testing.assert_allclose(r[0], [0, 0])
    np.testing.assert_allclose(r[-1], [10, 10])
    steps = np.linalg.norm(np.diff(r, axis=0), axis=1)
    np.testing.assert_allclose(steps, 2.0, atol=1e-9)


def test_quantile_matches_numpy():
    v = np.random.default_rng(0).normal(size=37)
    for q in (0.0, 0.05, 0.5, 0.95, 1.0):
        assert abs(quantile(v, q) - np.quantile(v, q)) < 1e-12


def test_features_are_translation_and_scale_invariant():
    rng = np.random.default_rng(1)
    strokes = [np.cumsum(rng.normal(0, 3, size=(40, 2)), axis=0) for _ in range(3)]
    a = ink_features([s.tolist() for s in strokes])
    b = ink_features([(s * 2.5 + 100).tolist() for s in strokes])
    np.testing.assert_allclose(a, b, atol=1e-4)
