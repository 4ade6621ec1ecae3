"""data.warp (latin train --warp): smooth, label-keeping distortions of an ink — deterministic for a seed,
the identity for the inks outside its share, bounded, never folding a stroke back along the line, and
the stream applies it only when asked."""
import os
import random

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import data


def word_ink():
    """A left-to-right scribble 1 unit high and 6 wide (a 'word'), a dot above it and a comma-like tick."""
    x = np.linspace(0.0, 6.0, 400)
    body = np.stack([x, 0.5 + 0.5 * np.sin(x * 5.0)], axis=1)
    dot = np.array([[2.0, -0.6], [2.02, -0.58]])
    tick = np.array([[6.3, 0.9], [6.25, 1.2]])
    return [body, dot, tick]


def test_same_seed_same_ink_and_share_zero_is_the_identity():
    ink = word_ink()
    a = data.warp(ink, random.Random(5), share=1.0)
    b = data.warp(ink, random.Random(5), share=1.0)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert any(not np.allclose(p, q) for p, q in zip(a, ink))  # share 1: changed
    same = data.warp(ink, random.Random(5), share=0.0)
    assert all(p is q for p, q in zip(same, ink))


def test_warp_is_bounded_keeps_strokes_and_points_and_does_not_fold_back():
    ink = word_ink()
    for seed in range(200):
        out = data.warp(ink, random.Random(seed), share=1.0)
        assert [len(s) for s in out] == [len(s) for s in ink]
        for p, q in zip(out, ink):
            # h = 1: letters move by at most about a third of a line height
            assert np.abs(p - q).max() < 0.6, seed
        body = out[0]
        # the body is written left to right: the warp keeps its x order (slope of x' >= 0.7 minus slant drift)
        assert np.all(np.diff(body[:, 0]) > -0.05), seed
        # the dot stays above the body where it was written, the tick to the right of the body
        assert out[1][:, 1].max() < body[:, 1].min() + 0.2, seed
        assert out[2][:, 0].min() > body[:, 0].max() - 0.5, seed


def test_the_stream_warps_only_when_asked():
    words = [data.Item(id=f"w{i}", writer="a", label="ab", strokes=word_ink(), kind="words") for i in range(4)]
    plain = data.TrainingStream(words, [], [], seed=3, mix=(("word", 1.0),))
    again = data.TrainingStream(words, [], [], seed=3, mix=(("word", 1.0),))
    warped = data.TrainingStream(words, [], [], seed=3, mix=(("word", 1.0),))
    warped.warp_share = 1.0
    f0, l0 = plain.sample()
    f1, _ = again.sample()
    f2, l2 = warped.sample()
    assert np.array_equal(f0, f1)  # default: the stream as before
    assert l0 == l2 == "ab"
    assert f2.shape != f0.shape or not np.allclose(f0, f2)
