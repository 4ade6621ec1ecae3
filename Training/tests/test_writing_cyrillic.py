"""The drawn handwritten Cyrillic letters (inkrec_training/writing/cyrillic.py): coverage of the five alphabets
and their capitals, variants and the held-out split, where letters sit on the lines, stroke directions, and
words written through the writer model."""
import random

import numpy as np
import pytest

from inkrec_training.writing import alphabets, cyrillic, writer

ALL = "".join(dict.fromkeys("".join(cyrillic.ALPHABETS.values())))
TWO_WAYS = "тдбвгиклзжучшэяДЛТ"


def _all_points(strokes):
    return np.concatenate(strokes)


def _signed_area(p):
    """Shoelace area with y pointing up: > 0 for an anticlockwise path as seen on the page."""
    x, y = p[:, 0], -p[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def test_alphabets_match_the_kits():
    for code, letters in cyrillic.ALPHABETS.items():
        assert letters == alphabets.ALPHABETS[code]


@pytest.mark.parametrize("c", list(ALL + ALL.upper()))
def test_every_letter_and_capital_gives_a_glyph(c):
    got = cyrillic.letter(c, rng=random.Random(0))
    assert got is not None, c
    strokes, marks = got
    assert strokes and isinstance(marks, tuple)
    for s in strokes:
        assert isinstance(s, np.ndarray) and s.dtype == np.float64 and s.ndim == 2 and s.shape[1] == 2
        assert np.isfinite(s).all()
    p = _all_points(strokes)
    assert -0.15 <= p[:, 0].min() <= 0.15, c  # left edge near 0
    assert p[:, 0].max() - p[:, 0].min() <= 1.3, c
    assert -1.7 <= p[:, 1].min() and p[:, 1].max() <= 0.55, c
    # every variant, held-out one included
    if c in cyrillic.TEMPLATES:
        for i in range(len(cyrillic.TEMPLATES[c])):
            assert cyrillic.letter(c, i) is not None


def test_uncovered_characters():
    assert cyrillic.letter("a") is None and cyrillic.letter("ω") is None and cyrillic.letter("1") is None
    assert cyrillic.word("привет!", random.Random(0)) is None


def test_variants_and_the_heldout_split():
    for c in TWO_WAYS:
        assert len(cyrillic.TEMPLATES[c]) >= 2, c
    for c, v in cyrillic.TEMPLATES.items():
        if len(v) >= 2:
            assert cyrillic.HELDOUT_VARIANT[c] == len(v) - 1
        else:
            assert c not in cyrillic.HELDOUT_VARIANT
    for c in cyrillic.HELDOUT_VARIANT:
        held = cyrillic.letter(c, "heldout")[0]
        assert all(np.array_equal(a, b) for a, b in zip(held, cyrillic.letter(c, cyrillic.HELDOUT_VARIANT[c])[0]))
        seen, every = set(), set()
        for seed in range(60):
            every.add(tuple(len(s) for s in cyrillic.letter(c, rng=random.Random(seed))[0]))
            strokes, _ = cyrillic.letter(c, rng=random.Random(seed), hold_out_forms=True)
            same = len(strokes) == len(held) and all(a.shape == b.shape and np.allclose(a, b)
                                                       for a, b in zip(strokes, held))
            assert not same, (c, seed)
            seen.add(tuple(len(s) for s in strokes))
        assert len(seen) == len(cyrillic.TEMPLATES[c]) - 1, c  # every training variant gets drawn
        if len({tuple(len(s) for s in g) for g in cyrillic.TEMPLATES[c]}) == len(cyrillic.TEMPLATES[c]):
            assert len(every) == len(cyrillic.TEMPLATES[c]), c  # without hold_out_forms, every form
    # held-out pick of a letter written one way: its only form
    assert len(cyrillic.letter("о", "heldout")[0]) == 1
    # marked letters follow their base letter's split
    print_i = cyrillic.letter("и", "heldout")[0][0]
    for seed in range(30):
        got = cyrillic.letter("й", rng=random.Random(seed), hold_out_forms=True)[0][0]
        assert got.shape != print_i.shape or not np.allclose(got, print_i)
    assert np.array_equal(cyrillic.letter("й", "heldout")[0][0], print_i)
    w = cyrillic.word("ты", random.Random(0), heldout=True)
    assert len(w[0][0]) == 2  # print-like т: bar and stem


def test_descenders_and_x_height_letters():
    for c in "дзруфцщџ":
        for i in range(len(cyrillic.TEMPLATES[c])):
            if (c, i) == ("д", 1):  # ∂: an ascender, not a descender
                assert _all_points(cyrillic.letter(c, i)[0])[:, 1].min() < -1.3
                continue
            assert _all_points(cyrillic.letter(c, i)[0])[:, 1].max() > 0.2, (c, i)
    for c in "аосе":
        p = _all_points(cyrillic.letter(c, 0)[0])
        assert p[:, 1].min() >= -1.1 and p[:, 1].max() <= 0.1, c
    for c in "кмнпти":
        for i in range(len(cyrillic.TEMPLATES[c])):
            p = _all_points(cyrillic.letter(c, i)[0])
            assert p[:, 1].max() <= 0.1, c
            assert p[:, 1].min() >= -1.3, c  # the bar over т stays below the capitals' height


def test_ascenders_and_capitals():
    for c in "бф":
        for i in range(len(cyrillic.TEMPLATES[c])):
            assert _all_points(cyrillic.letter(c, i)[0])[:, 1].min() < -1.3, c
    for c in cyrillic.CAPITAL:
        for i in range(len(cyrillic.TEMPLATES[c])):
            p = _all_points(cyrillic.letter(c, i)[0])
            assert p[:, 1].min() < -1.3, c
            assert p[:, 1].max() > -0.1, c  # sits on the baseline


def test_i_dot_is_last_and_yi_drops_it():
    strokes, marks = cyrillic.letter("і")
    assert marks == () and len(strokes) == 2
    dot = strokes[-1]
    assert np.linalg.norm(dot[-1] - dot[0]) < 0.06 and dot[:, 1].max() < -1.15
    yi, yi_marks = cyrillic.letter("ї")
    assert yi_marks == ("diaeresis",)
    assert len(yi) == 1 and np.array_equal(yi[0], strokes[0])
    cap, cap_marks = cyrillic.letter("Ї")
    assert cap_marks == ("diaeresis",) and len(cap) == len(cyrillic.letter("І")[0]) == 1
    je = cyrillic.letter("ј")[0]
    assert np.linalg.norm(je[-1][-1] - je[-1][0]) < 0.06 and je[-1][:, 1].max() < -1.15
    for c, (base, m) in cyrillic.MARKED.items():
        got = cyrillic.letter(c, 0)
        assert got[1] == tuple(x for x in m if x != "dotless")
        if "dotless" not in m:
            assert all(np.array_equal(a, b) for a, b in zip(got[0], cyrillic.letter(base, 0)[0]))


def test_stroke_directions():
    o = cyrillic.letter("о")[0][0]
    mid = 0.5 * (o[:, 0].min() + o[:, 0].max())
    assert o[0, 0] > mid and o[0, 1] < -0.7  # from the top right
    assert _signed_area(o) > 0.2  # anticlockwise
    c = cyrillic.letter("с")[0][0]
    assert c[0, 0] > 0.35 and c[0, 1] < -0.7 and c[-1, 1] > -0.3 and _signed_area(c) > 0
    a = cyrillic.letter("а")[0][0]
    assert a[0, 1] < -0.7 and a[1, 0] < a[0, 0]  # the bowl starts leftwards from its top right
    m_like = cyrillic.letter("т", 0)[0][0]  # cursive т: first leg from the top down, then the arches rightwards
    assert m_like[0, 1] < -0.9 and m_like[0, 0] < 0.1 and m_like[-1, 0] > 0.7 and m_like[-1, 1] > -0.1
    for ch in "лм":  # the left leg rises from a hook at the baseline
        s = cyrillic.letter(ch, 0)[0][0]
        assert s[0, 0] < 0.05 and s[0, 1] > -0.2 and s[:, 1].argmin() > 5
    e = cyrillic.letter("е")[0][0]
    assert -0.6 < e[0, 1] < -0.35 and e[1, 0] > e[0, 0]  # the bar of e first, rightwards
    for ch in "иш":  # legs written top to bottom
        s = cyrillic.letter(ch, 0)[0][0]
        assert s[0, 1] < -0.9 and s[1, 1] > s[0, 1]


def test_smooth():
    line = cyrillic._smooth([(0, 0), (1, 0)], step=0.1)
    assert np.allclose(line[:, 1], 0) and len(line) == 11
    corner = cyrillic._smooth([(0, 0), (0, -1), (0, -1), (0.5, -1)], step=0.04)
    assert any(np.allclose(p, (0, -1)) for p in corner)
    assert np.allclose(corner[corner[:, 1] > -0.999][:, 0], 0)  # no rounding before the corner
    curve = cyrillic._smooth([(0, 0), (0.5, -0.5), (1, 0)], step=0.04)
    d = np.linalg.norm(np.diff(curve, axis=0), axis=1)
    assert d.max() < 0.06 and np.allclose(curve[0], (0, 0)) and np.allclose(curve[-1], (1, 0))


@pytest.mark.parametrize("w", ["привет", "україна", "българия", "македонија", "љубав", "Їжак", "ЩЁЛКОВО"])
def test_write_word(w):
    for k, heldout in ((0, False), (1, True)):
        letters = cyrillic.word(w, random.Random(k), heldout=heldout)
        assert letters is not None and len(letters) == len(w)
        ink = writer.write_word(letters, writer.RULES["Cyrl"], writer.heldout_writer(k), random.Random(2))
        assert ink and all(a.ndim == 2 and a.shape[1] == 3 for a in ink)
        t = np.concatenate(ink)[:, 2]
        assert np.all(np.diff(t) > 0)
        assert np.isfinite(np.concatenate(ink)).all()
    # the brief's example
    ink = writer.write_word(cyrillic.word("привет", random.Random(1)), writer.RULES["Cyrl"], writer.heldout_writer(0),
                            random.Random(2))
    assert ink[0].shape[1] == 3
