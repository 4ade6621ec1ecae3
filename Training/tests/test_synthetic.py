"""Synthetic Hershey-font ink: right way up, deterministic, covered by the charset, usable features."""
import os
import random

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset, synthetic
from inkrec_training.features import ink_features  # noqa: E402


def test_glyphs_cover_ascii_letters_and_digits():
    for font in synthetic.FONTS:
        g = synthetic.glyphs(font)
        assert all(c in g for c in "azAZ09.,!?"), font
        assert all(charset.covers(c) for c in g)


def test_ink_is_upright_and_left_to_right():
    rng = random.Random(1)
    ink = synthetic.hershey_ink("T", rng, font="futural")
    allp = np.concatenate(ink)
    # The bar of a T is its top: y grows downwards, so the horizontal stroke has the smallest y.
    bar = min(ink, key=lambda s: np.ptp(s[:, 1]))
    assert np.ptp(bar[:, 0]) > 3 * np.ptp(bar[:, 1])
    assert bar[:, 1].mean() < allp[:, 1].mean()
    ink = synthetic.hershey_ink("l l", random.Random(2), font="futural")
    xs = [s[:, 0].mean() for s in ink]
    assert xs[-1] - xs[0] > 20  # the space separates the two letters


def test_deterministic_and_featurizable():
    words, weights = ["hello", "world", "ink"], [3.0, 2.0, 1.0]
    a = [synthetic.hershey_ink(synthetic.sample_text(words, weights, r), r) for r in [random.Random(7)]][0]
    b = [synthetic.hershey_ink(synthetic.sample_text(words, weights, r), r) for r in [random.Random(7)]][0]
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    f = ink_features([s.tolist() for s in a])
    assert f.shape[0] > 10 and np.isfinite(f).all()


def test_missing_glyph_gives_none():
    assert synthetic.hershey_ink("§", random.Random(0), font="futural") is None
    assert synthetic.hershey_ink("£", random.Random(0), font="futural") is None
    assert not synthetic.renderable("café")  # the fonts' own glyphs: ASCII only


def test_accented_letters_are_composed_with_marks_above_or_below():
    """é is the font's e plus a drawn acute above it; ç a c plus a cedilla below (y grows downwards)."""
    e = synthetic.hershey_ink("e", random.Random(0), font="futural")
    for ch, above in (("é", True), ("ç", False), ("ő", True), ("ą", False)):
        ink = synthetic.hershey_ink(ch, random.Random(0), font="futural")
        assert ink is not None and len(ink) > len(e)
        base, marks = ink[: len(ink) - (2 if ch == "ő" else 1)], ink[len(ink) - (2 if ch == "ő" else 1):]
        top = min(p[:, 1].min() for p in base)
        bottom = max(p[:, 1].max() for p in base)
        for m in marks:
            if above:
                assert m[:, 1].max() < top + 1e-6, ch
            else:
                assert m[:, 1].max() > bottom, ch
