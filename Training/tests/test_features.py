"""The Python features must reproduce the golden fixtures the Swift tests also check."""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
import pytest  # noqa: E402

from inkrec_training.features import ink_features, resample_stroke, quantile, SCHEMES  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")


def strokes_of(ink):
    return [[[p["x"], p["y"]] for p in s["points"]] for s in ink["strokes"]]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_golden_features(scheme):
    with open(os.path.join(FIXTURES, f"features-golden-{scheme}.json")) as f:
        golden = json.load(f)
    assert golden["scheme"] == scheme
    assert len(golden["cases"]) >= 8
    for case in golden["cases"]:
        area = case["ink"].get("writingArea")
        feats = ink_features(strokes_of(case["ink"]), area["height"] if area else None, scheme=scheme)
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


def test_v2_scale_does_not_depend_on_the_length_of_a_line():
    """The same word written once and three times on a line gets the same feature scale under v2
    (v1 floors the line height by a quarter of the width, which shrinks a long line's features)."""
    rng = np.random.default_rng(3)
    word = [np.cumsum(rng.normal(0, 3, size=(40, 2)), axis=0) for _ in range(2)]
    w = max(s[:, 0].max() for s in word) - min(s[:, 0].min() for s in word)
    line = [s + np.array([k * (w + 15.0), 0.0]) for k in range(3) for s in word]
    one = ink_features([s.tolist() for s in word], scheme="resampled-v2")
    three = ink_features([s.tolist() for s in line], scheme="resampled-v2")
    np.testing.assert_allclose(three[: len(one), 3], one[:, 3], atol=1e-4)  # same y_rel scale
    assert len(three) >= 3 * len(one) - 3
    v1 = ink_features([s.tolist() for s in line], scheme="resampled-v1")
    assert len(v1) < len(three)


def test_unknown_scheme_is_rejected():
    with pytest.raises(ValueError):
        ink_features([[[0, 0], [1, 1]]], scheme="bezier-v9")


def test_vectorized_features_equal_the_reference():
    """ink_features_vectorized (training data) gives ink_features' frames: random strokes with repeated
    points, one-point strokes, strokes of no length, both feature schemes and several step sizes."""
    import random as _random
    from inkrec_training.features import ink_features, ink_features_vectorized
    rng = _random.Random(11)
    for trial in range(200):
        strokes = []
        for _ in range(rng.randint(1, 8)):
            n = rng.choice([1, 2, 3, 10, 40])
            p = np.cumsum(np.array([[rng.gauss(0, 5), rng.gauss(0, 5)] for _ in range(n)]), axis=0) + rng.uniform(-50, 50)
            if n > 2 and rng.random() < 0.3:
                p[1] = p[0]  # a repeated point
            if rng.random() < 0.1:
                p[:] = p[0]  # a stroke of no length
            strokes.append(np.concatenate([p, np.arange(n)[:, None]], axis=1))
        steps = rng.choice([4.0, 6.0, 9.5])
        scheme = rng.choice(["resampled-v1", "resampled-v2"])
        a = ink_features(strokes, steps_per_line_height=steps, scheme=scheme)
        b = ink_features_vectorized(strokes, steps, scheme)
        assert a.shape == b.shape, trial
        assert np.allclose(a, b, atol=1e-6), trial
