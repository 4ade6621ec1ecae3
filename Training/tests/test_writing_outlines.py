"""Font outlines to centre lines (inkrec_training/writing/outlines.py): scanline filling, Zhang–Suen thinning
and skeleton tracing, checked on glyphs drawn from thick synthetic polylines whose strokes are known (no font
and no fontTools needed)."""
import sys

import numpy as np
import pytest

from inkrec_training.writing import outlines, writer


def draw(polylines, size=64, width=6.0):
    """Ink of ``width`` pixels along each polyline (points in [0, 1]², y down): every pixel whose centre lies
    within width / 2 of a segment."""
    yy, xx = np.mgrid[0:size, 0:size] + 0.5
    p = np.stack([xx.ravel(), yy.ravel()], axis=1)
    img = np.zeros(size * size, dtype=bool)
    for pl in polylines:
        pl = np.asarray(pl, dtype=np.float64) * size
        for a, b in zip(pl[:-1], pl[1:]):
            ab = b - a
            t = np.clip((p - a) @ ab / (ab @ ab), 0.0, 1.0)
            img |= np.linalg.norm(p - (a + t[:, None] * ab), axis=1) <= width / 2
    return img.reshape(size, size)


def ring(cx, cy, r, n=90):
    t = np.linspace(0, 2 * np.pi, n + 1)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def dist_to_polyline(q, pl):
    """Distance of each point of q to the polyline pl (same units)."""
    q, pl = np.atleast_2d(q), np.asarray(pl, dtype=np.float64)
    best = np.full(len(q), np.inf)
    for a, b in zip(pl[:-1], pl[1:]):
        ab = b - a
        t = np.clip((q - a) @ ab / max(ab @ ab, 1e-12), 0.0, 1.0)
        best = np.minimum(best, np.linalg.norm(q - (a + t[:, None] * ab), axis=1))
    return best


def densify(s, step=0.005):
    """Points every ``step`` along polyline s (its vertices included)."""
    out = [s[:1]]
    for a, b in zip(s[:-1], s[1:]):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        out.append(a + (b - a) * (np.arange(1, n + 1) / n)[:, None])
    return np.concatenate(out)


def assert_matches(traced, known, size, end_tol=4.0, mean_tol=1.5):
    """Every known stroke has its own traced stroke whose ends lie within ``end_tol`` pixels of its ends (in
    either direction) and whose points lie on average within ``mean_tol`` pixels of it, and vice versa."""
    known = [np.asarray(k, dtype=np.float64) for k in known]
    assert len(traced) == len(known), [np.round(s * size, 1).tolist() for s in traced]
    free = list(range(len(traced)))
    for k in known:
        found = None
        for i in free:
            s = traced[i]
            ends = min(max(np.linalg.norm(s[0] - k[0]), np.linalg.norm(s[-1] - k[-1])),
                       max(np.linalg.norm(s[0] - k[-1]), np.linalg.norm(s[-1] - k[0]))) * size
            if ends <= end_tol and dist_to_polyline(densify(s), k).mean() * size <= mean_tol:
                found = i
                break
        assert found is not None, (k.tolist(), [np.round(s * size, 1).tolist() for s in traced])
        free.remove(found)


L = [[(0.25, 0.15), (0.25, 0.85), (0.75, 0.85)]]
T = [[(0.15, 0.2), (0.85, 0.2)], [(0.5, 0.2), (0.5, 0.85)]]
X = [[(0.15, 0.15), (0.85, 0.85)], [(0.85, 0.15), (0.15, 0.85)]]
H = [[(0.2, 0.15), (0.2, 0.85)], [(0.8, 0.15), (0.8, 0.85)], [(0.2, 0.5), (0.8, 0.5)]]
PI = [[(0.1, 0.2), (0.9, 0.2)], [(0.25, 0.2), (0.25, 0.85)], [(0.75, 0.2), (0.75, 0.85)]]


@pytest.mark.parametrize("size,width", [(64, 6.0), (96, 9.0)])
@pytest.mark.parametrize("name,known", [("L", L), ("T", T), ("X", X), ("H", H), ("PI", PI)])
def test_known_strokes_are_traced(name, known, size, width):
    strokes = outlines.centre_lines(draw(known, size, width))
    for s in strokes:
        assert s.dtype == np.float64 and s.ndim == 2 and s.shape[1] == 2
        assert (s >= 0).all() and (s <= 1).all()
    assert_matches(strokes, known, size, end_tol=1.5 + 0.5 * width)  # thinning eats about half a width at an end


@pytest.mark.parametrize("size,width", [(64, 6.0), (96, 9.0)])
def test_a_shallow_x_is_still_two_strokes(size, width):
    # Crossing at 53 degrees, the X thins into two forks joined by a short edge: one junction all the same.
    known = [[(0.1, 0.3), (0.9, 0.7)], [(0.1, 0.7), (0.9, 0.3)]]
    assert_matches(outlines.centre_lines(draw(known, size, width)), known, size, end_tol=1.5 + 0.5 * width)


@pytest.mark.parametrize("size,width", [(64, 6.0), (96, 9.0)])
def test_an_l_turns_square_at_its_corner(size, width):
    (s,) = outlines.centre_lines(draw(L, size, width))
    corner = np.array([0.25, 0.85])
    k = int(np.argmin(np.linalg.norm(s - corner, axis=1)))
    assert 0 < k < len(s) - 1 and np.linalg.norm(s[k] - corner) * size < 2.5   # a vertex at the corner
    down, right = s[k] - s[0], s[-1] - s[k]
    assert abs(down[0]) < 0.1 * down[1] and abs(right[1]) < 0.1 * right[0]    # down the stem, then along the foot


@pytest.mark.parametrize("size,width", [(64, 6.0), (96, 9.0)])
def test_a_ring_is_one_closed_stroke_from_its_top(size, width):
    cx, cy, r = 0.5, 0.5, 0.3
    (s,) = outlines.centre_lines(draw([ring(cx, cy, r)], size, width))
    assert np.allclose(s[0], s[-1]) and len(s) > 8
    assert s[0, 1] == s[:, 1].min()                                  # starts at its topmost point
    radius = np.linalg.norm(densify(s) - [cx, cy], axis=1)
    assert np.abs(radius - r).mean() * size < 1.0
    x, y = s[:, 0], -s[:, 1]
    assert 0.5 * np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]) > 0          # anticlockwise on the page, as an o


def test_a_short_spur_is_dropped_and_a_longer_branch_kept():
    size = 64
    line = [(0.15, 0.5), (0.85, 0.5)]
    img = draw([line, [(0.5, 0.5), (0.5, 0.42)]], size)              # a stub 5 pixels long on a 6-pixel line
    skel = outlines.thin(img)
    assert len(outlines.trace(skel, min_spur=0.0, width=1.0)) == 2   # the skeleton does have the spur
    assert_matches(outlines.centre_lines(img), [line], size)
    branch = [(0.5, 0.5), (0.5, 0.3)]                                 # 13 pixels: a stroke of its own
    assert_matches(outlines.centre_lines(draw([line, branch], size)), [line, branch], size, end_tol=4.5)


def test_centre_lines_order_and_direct_a_t():
    bar, stem = outlines.centre_lines(draw(T, 64))
    assert bar[-1, 0] - bar[0, 0] > 0.5 and abs(bar[-1, 1] - bar[0, 1]) < 0.05   # the bar first, left to right
    assert stem[-1, 1] - stem[0, 1] > 0.5 and abs(stem[-1, 0] - stem[0, 0]) < 0.05  # the stem, top to bottom
    assert stem[0, 1] < 0.3                                                       # from the bar down


def test_centre_lines_take_the_rules():
    img = draw(T, 64)
    drawn = outlines.centre_lines(img, rules=writer.RULES["Hani"])  # "as drawn": the tracer's own order
    assert len(drawn) == 2
    assert sorted(len(s) for s in drawn) == sorted(len(s) for s in outlines.centre_lines(img))


def test_a_blob_thinning_wipes_out_comes_back_as_a_dot():
    img = np.zeros((32, 32), dtype=bool)
    img[10:12, 20:22] = True
    assert not outlines.thin(img).any()
    (dot,) = outlines.centre_lines(img)
    assert dot.shape == (1, 2) and np.linalg.norm(dot[0] * 32 - [21, 11]) <= 1.0


def test_rasterize_squares_even_odd_and_nonzero():
    size = 64
    outer = [(0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)]
    inner = [(0.375, 0.375), (0.625, 0.375), (0.625, 0.625), (0.375, 0.625)]
    border = 4 * 32                                                   # the outer square's boundary pixels
    full = outlines.rasterize_polygons([outer], size)
    assert full.shape == (size, size) and full.dtype == bool
    assert abs(int(full.sum()) - 32 * 32) <= border
    assert full[32, 32] and not full[5, 5] and not full[32, 10]
    holed = outlines.rasterize_polygons([outer, inner], size)
    assert abs(int(holed.sum()) - (32 * 32 - 16 * 16)) <= border
    assert not holed[32, 32] and holed[20, 20]
    # Nonzero: an inner contour running the same way fills; running the other way cuts the hole.
    assert outlines.rasterize_polygons([outer, inner], size, rule="nonzero")[32, 32]
    assert not outlines.rasterize_polygons([outer, inner[::-1]], size, rule="nonzero")[32, 32]


def test_rasterize_a_triangle_fills_its_area():
    size = 96
    img = outlines.rasterize_polygons([[(0.1, 0.9), (0.9, 0.9), (0.5, 0.1)]], size)
    area = 0.5 * 0.8 * 0.8 * size * size
    assert abs(int(img.sum()) - area) < 0.03 * area
    assert img[80, 48] and not img[12, 20]


@pytest.mark.parametrize("polyline", [[(0.1, 0.5), (0.9, 0.5)], [(0.15, 0.2), (0.85, 0.75)]])
def test_thin_gives_a_one_pixel_skeleton_inside_the_bar(polyline):
    size = 64
    bar = draw([polyline], size, width=11.0)
    skel = outlines.thin(bar)
    assert skel.any() and not (skel & ~bar).any()
    blocks = skel[:-1, :-1] & skel[1:, :-1] & skel[:-1, 1:] & skel[1:, 1:]
    assert not blocks.any()                                           # no 2 x 2 block anywhere
    assert skel.sum() < 0.25 * bar.sum()
    (s,) = outlines.trace(skel)                                       # still one piece
    assert dist_to_polyline(densify(s), polyline).max() * size < 2.0


def test_simplify_keeps_corners_and_drops_the_rest():
    t = np.linspace(0, 1, 20)[:, None]
    line = np.concatenate([t * [10.0, 0.0], [10.0, 0.0] + t[1:] * [0.0, 10.0]])
    out = outlines.simplify(line, tolerance=0.5)
    assert out.tolist() == [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]]


def test_font_glyphs_need_fonttools(monkeypatch):
    monkeypatch.setitem(sys.modules, "fontTools", None)
    monkeypatch.setitem(sys.modules, "fontTools.ttLib", None)
    with pytest.raises(RuntimeError, match="pip install fonttools"):
        outlines.rasterize_font_glyph("/no/such/font.ttf", "Л")
