"""Ink preprocessing and feature extraction: the reference implementation.

The Swift engine (`Sources/DigitalInk/Preprocessing/`) implements exactly the same
steps; golden fixtures (`Tests/DigitalInkTests/Fixtures/features-golden-<scheme>.json`) pin the two together.
All arithmetic is done in float64; the features are returned as float32.

Feature schemes ``resampled-v2`` (text models) and ``resampled-v1`` (the shapes model)
------------------------------------------------------------------------------------
The two differ only in the floor of the line-height estimate (step 2).

1. Empty strokes are dropped. An ink without points has no features (shape ``(0, 4)``).
2. Line height ``h``.  ``est = q95(y) - q05(y)`` over all raw points (quantiles with
   linear interpolation, numpy's default), floored
   - v1: by ``0.25 * (q95(x) - q05(x))``, a quarter of the ink's width. This is right for a
     shape (a horizontal line still gets a scale) and wrong for text: a line of text 20 line
     heights wide would be normalized as if it were 5 line heights tall.
   - v2: by ``0.1 * median(stroke widths)``, a tenth of the median over strokes of
     ``max(x) - min(x)`` of the stroke's raw points. A dash or an equals sign still gets a
     scale; the width of a line of text does not matter.
   With a writing area of height ``H`` the estimate is clamped to ``[0.3 H, 0.8 H]``
   (the writing area holds one line of text, whose ink covers part of its height).
   If ``h`` is not positive (all points equal) ``h = 1``.
3. Each stroke is resampled at equal arc-length spacing: consecutive duplicate points
   are removed, ``n = max(1, round(L / s))`` segments with ``s = h / STEPS_PER_LINE_HEIGHT``
   and ``L`` the stroke's length, giving ``n + 1`` points at distances ``L * k / n``
   (both ends kept). A stroke of one point (or of length 0) gives one point.
4. For every resampled point, 4 features:
   ``[dx, dy, pen_up, y_rel]``
   - inside a stroke: ``dx, dy`` = step from the previous point divided by ``s``
     (about unit length);
   - first point of a stroke after the first: ``dx, dy`` = jump from the previous
     stroke's last point divided by ``h``, clipped to ``[-JUMP_CLIP, JUMP_CLIP]``;
   - first point of the ink: ``dx = dy = 0``;
   - ``pen_up`` = 1 on the first point of every stroke, else 0;
   - ``y_rel = (y - c) / h`` clipped to ``[-2, 2]``, ``c = (q05(y) + q95(y)) / 2``.
Timestamps are not used by the features.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

SCHEME_V1 = "resampled-v1"
SCHEME_V2 = "resampled-v2"
SCHEMES = (SCHEME_V1, SCHEME_V2)
FEATURE_SCHEME = SCHEME_V2  # the text models' scheme; the shapes model uses SCHEME_V1
FEATURE_DIM = 4
STEPS_PER_LINE_HEIGHT = 4.0
JUMP_CLIP = 5.0
YREL_CLIP = 2.0
WRITING_AREA_MIN = 0.3
WRITING_AREA_MAX = 0.8
WIDTH_FLOOR = 0.25         # v1: of the ink's width
STROKE_WIDTH_FLOOR = 0.1   # v2: of the median stroke width


def quantile(values: np.ndarray, q: float) -> float:
    """Linear-interpolation quantile (numpy's default), written out so Swift can mirror it."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    n = len(v)
    if n == 0:
        return 0.0
    pos = q * (n - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, n - 1)
    frac = pos - lo
    return float(v[lo] + (v[hi] - v[lo]) * frac)


def line_height(xs: np.ndarray, ys: np.ndarray, writing_area_height: Optional[float] = None,
                stroke_widths: Optional[Sequence[float]] = None, scheme: str = FEATURE_SCHEME) -> float:
    """``stroke_widths`` (v2 only): ``max(x) - min(x)`` of every non-empty stroke."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown feature scheme {scheme}")
    est = quantile(ys, 0.95) - quantile(ys, 0.05)
    if scheme == SCHEME_V1:
        est = max(est, WIDTH_FLOOR * (quantile(xs, 0.95) - quantile(xs, 0.05)))
    else:
        est = max(est, STROKE_WIDTH_FLOOR * quantile(np.asarray(stroke_widths, dtype=np.float64), 0.5))
    if writing_area_height is not None and writing_area_height > 0:
        est = min(max(est, WRITING_AREA_MIN * writing_area_height), WRITING_AREA_MAX * writing_area_height)
    if not (est > 0):
        est = 1.0
    return float(est)


def resample_stroke(pts: np.ndarray, spacing: float) -> np.ndarray:
    """Resample an (N, 2) float64 stroke at equal arc-length steps of about ``spacing``."""
    if len(pts) > 1:
        keep = np.ones(len(pts), dtype=bool)
        keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
        pts = pts[keep]
    if len(pts) == 1:
        return pts.copy()
    d = pts[1:] - pts[:-1]
    seg = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])
    cum = np.concatenate([[0.0], np.cumsum(seg)])  # sequential sums, as the Swift loop does
    total = float(cum[-1])
    n = max(1, int(round(total / spacing)))  # round half to even
    # Target k lies at arc distance total * k / n; linear interpolation inside its segment.
    targets = total * np.arange(n + 1, dtype=np.float64) / n
    out = np.stack([np.interp(targets, cum, pts[:, 0]), np.interp(targets, cum, pts[:, 1])], axis=1)
    out[0] = pts[0]
    out[n] = pts[-1]
    return out


def ink_features(strokes: Sequence[Sequence[Sequence[float]]],
                 writing_area_height: Optional[float] = None,
                 steps_per_line_height: float = STEPS_PER_LINE_HEIGHT,
                 scheme: str = FEATURE_SCHEME) -> np.ndarray:
    """Features for one ink: ``strokes`` is a list of strokes, each a list of ``[x, y(, t)]``.

    ``steps_per_line_height`` and ``scheme`` come from a model's ``config.json``
    (``features.stepsPerLineHeight``, ``features.scheme``).
    """
    arrays = [np.asarray(s, dtype=np.float64)[:, :2] if isinstance(s, np.ndarray)
              else np.asarray([[p[0], p[1]] for p in s], dtype=np.float64) for s in strokes if len(s) > 0]
    if not arrays:
        return np.zeros((0, FEATURE_DIM), dtype=np.float32)
    allp = np.concatenate(arrays, axis=0)
    xs, ys = allp[:, 0], allp[:, 1]
    widths = [float(a[:, 0].max() - a[:, 0].min()) for a in arrays]
    h = line_height(xs, ys, writing_area_height, widths, scheme)
    s = h / steps_per_line_height
    c = (quantile(ys, 0.05) + quantile(ys, 0.95)) / 2.0
    rows = []
    prev_last = None
    for a in arrays:
        r = resample_stroke(a, s)
        f = np.zeros((len(r), FEATURE_DIM), dtype=np.float64)
        if len(r) > 1:
            f[1:, 0:2] = (r[1:] - r[:-1]) / s
        if prev_last is not None:
            f[0, 0:2] = np.clip((r[0] - prev_last) / h, -JUMP_CLIP, JUMP_CLIP)
        f[0, 2] = 1.0
        f[:, 3] = np.clip((r[:, 1] - c) / h, -YREL_CLIP, YREL_CLIP)
        rows.append(f)
        prev_last = r[-1]
    return np.concatenate(rows, axis=0).astype(np.float32)


def ink_features_vectorized(strokes: Sequence[np.ndarray], steps_per_line_height: float = STEPS_PER_LINE_HEIGHT,
                            scheme: str = FEATURE_SCHEME) -> np.ndarray:
    """``ink_features`` (no writing area) for strokes given as ``(N, >=2)`` arrays, every stroke at once:
    the same steps, the same features up to float rounding (``Training/tests/test_features.py`` checks
    them against ``ink_features``). For making training data fast (``cjk train``); the reference that
    the Swift engine mirrors stays ``ink_features``."""
    arrays = [np.asarray(a, dtype=np.float64)[:, :2] for a in strokes if len(a) > 0]
    if not arrays:
        return np.zeros((0, FEATURE_DIM), dtype=np.float32)
    pts = np.concatenate(arrays)
    lens = np.array([len(a) for a in arrays])
    first = np.concatenate([[0], np.cumsum(lens)[:-1]])
    xs, ys = pts[:, 0], pts[:, 1]
    widths = np.maximum.reduceat(xs, first) - np.minimum.reduceat(xs, first)
    h = line_height(xs, ys, None, widths, scheme)
    step = h / steps_per_line_height
    c = (quantile(ys, 0.05) + quantile(ys, 0.95)) / 2.0
    # Consecutive duplicates inside a stroke go (a stroke's first point always stays).
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    keep[first] = True
    stroke_of = np.repeat(np.arange(len(arrays)), lens)[keep]
    pts = pts[keep]
    lens = np.bincount(stroke_of, minlength=len(arrays))
    first = np.concatenate([[0], np.cumsum(lens)[:-1]])
    last = first + lens - 1
    d = np.sqrt(((pts[1:] - pts[:-1]) ** 2).sum(axis=1))
    d[first[1:] - 1] = 1.0  # between strokes: a gap that keeps them apart for the interpolation
    cum = np.concatenate([[0.0], np.cumsum(d)])
    total = cum[last] - cum[first]
    n = np.where(lens > 1, np.maximum(1, np.rint(total / step)), 0).astype(np.int64)
    count = n + 1
    out_first = np.concatenate([[0], np.cumsum(count)[:-1]])
    k = np.arange(int(count.sum())) - np.repeat(out_first, count)
    frac = k / np.repeat(np.maximum(n, 1), count)
    target = np.repeat(cum[first], count) + np.repeat(total, count) * frac
    r = np.stack([np.interp(target, cum, pts[:, 0]), np.interp(target, cum, pts[:, 1])], axis=1)
    r[out_first] = pts[first]
    r[out_first + n] = pts[last]
    f = np.zeros((len(r), FEATURE_DIM), dtype=np.float64)
    f[1:, 0:2] = (r[1:] - r[:-1]) / step
    f[out_first, 0:2] = 0.0
    jumps = out_first[1:]
    f[jumps, 0:2] = np.clip((r[jumps] - r[jumps - 1]) / h, -JUMP_CLIP, JUMP_CLIP)
    f[out_first, 2] = 1.0
    f[:, 3] = np.clip((r[:, 1] - c) / h, -YREL_CLIP, YREL_CLIP)
    return f.astype(np.float32)


def model_features(strokes: Sequence[Sequence[Sequence[float]]], features_config: dict,
                   writing_area_height: Optional[float] = None) -> np.ndarray:
    """``ink_features`` with the settings of a model's ``config.json`` ``features`` object
    (``scheme``, ``stepsPerLineHeight``), as the Swift engine's ``FeatureExtractor(config.features)``."""
    return ink_features(strokes, writing_area_height, steps_per_line_height=features_config["stepsPerLineHeight"],
                        scheme=features_config["scheme"])
