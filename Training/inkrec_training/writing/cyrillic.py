"""Handwritten Cyrillic letters for the writer: templates drawn by this project (no font is traced).

``TEMPLATES[c]`` holds, for every lowercase letter of ``ALPHABETS`` (Russian, Ukrainian, Bulgarian,
Macedonian, Serbian) and its capital, the letter's *handwritten* forms as people write them, not printed
type: lowercase in upright school cursive (т written like a Latin m, и like u, п like n, д with a looped
descender or as ∂, з like a 3 with a tail, л and м whose left leg rises from a small hook at the baseline),
capitals as upright print-like handwritten capitals. Each form (a *variant*) is a list of strokes in
writing order, each stroke a list of control points ``(x, y)`` in the pen's direction, in x-height units:
baseline at y = 0, y down, the x-height line at y = -1, capitals and ascenders up to about y = -1.45,
descenders to about y = +0.5, the letter's left edge near x = 0. ``_smooth`` turns the control points into
a curve (centripetal Catmull-Rom, about 0.04 apart); a repeated control point is a sharp corner.

Letters that people write in two (or three) ways have a variant each (an allograph: cursive т like m and
print-like т are both in everyday use). ``HELDOUT_VARIANT[c]`` (always the last) can be held out of
training to measure how the network reads a form it never saw (``hold_out_forms``, ``"heldout"``); the
shipped network is trained on every form, since writers use them all (Docs/scripts.md, "Cyrillic").
Letters with diacritics are not drawn (``MARKED``): й ё ї ў ѓ ќ are their base letter plus the marks
``accents`` draws (``"dotless"``: і's dot, its last stroke, is left out under the diaeresis of ї).

``letter(c)`` gives (strokes, marks) for one letter, ``word(w, rng)`` the list ``writer.write_word`` takes.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np

from . import alphabets as _alphabets

# The Cyrillic alphabets of ``alphabets.ALPHABETS``.
ALPHABETS: dict[str, str] = {code: _alphabets.ALPHABETS[code] for code in ("ru", "uk", "bg", "mk", "sr")}

MARKED: dict[str, tuple[str, tuple[str, ...]]] = {
    "й": ("и", ("breve",)), "ё": ("е", ("diaeresis",)), "ї": ("і", ("dotless", "diaeresis")),
    "ў": ("у", ("breve",)), "ѓ": ("г", ("acute",)), "ќ": ("к", ("acute",)),
    "Й": ("И", ("breve",)), "Ё": ("Е", ("diaeresis",)), "Ї": ("І", ("dotless", "diaeresis")),
    "Ў": ("У", ("breve",)), "Ѓ": ("Г", ("acute",)), "Ќ": ("К", ("acute",)),
}
# Letters whose last stroke is a dot ("dotless" leaves it out).
DOTTED = frozenset("\u0456\u0458")  # і ј

Stroke = list[tuple[float, float]]
Glyph = list[Stroke]


def _smooth(points: Sequence[tuple[float, float]], step: float = 0.04) -> np.ndarray:
    """A stroke's control points as a smooth curve through them (centripetal Catmull-Rom), densified so
    consecutive points are about ``step`` apart. Two points give a straight line; a point repeated (two
    equal consecutive points) is a sharp corner: the curve is smoothed piecewise between corners."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(p) == 0:
        return p
    # Split at repeated points (corners).
    pieces, cur = [], [p[0]]
    for q in p[1:]:
        if np.linalg.norm(q - cur[-1]) < 1e-9:
            pieces.append(np.array(cur))
            cur = [q]
        else:
            cur.append(q)
    pieces.append(np.array(cur))
    out = [pieces[0][:1]]
    for piece in pieces:
        if len(piece) < 2:
            continue
        dense = _catmull_rom(piece)
        out.append(_resample(dense, step)[1:])
    return np.concatenate(out)


def _catmull_rom(p: np.ndarray, per: int = 24) -> np.ndarray:
    if len(p) == 2:
        t = np.linspace(0, 1, per + 1)[:, None]
        return p[0] * (1 - t) + p[1] * t
    # Phantom end points continue the first and last spans.
    ext = np.concatenate([[2 * p[0] - p[1]], p, [2 * p[-1] - p[-2]]])
    out = [p[:1]]
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        d01 = max(np.linalg.norm(p1 - p0) ** 0.5, 1e-6)
        d12 = max(np.linalg.norm(p2 - p1) ** 0.5, 1e-6)
        d23 = max(np.linalg.norm(p3 - p2) ** 0.5, 1e-6)
        t0, t1 = 0.0, d01
        t2, t3 = t1 + d12, t1 + d12 + d23
        t = np.linspace(t1, t2, per + 1)[1:, None]
        a1 = (t1 - t) / (t1 - t0) * p0 + (t - t0) / (t1 - t0) * p1
        a2 = (t2 - t) / (t2 - t1) * p1 + (t - t1) / (t2 - t1) * p2
        a3 = (t3 - t) / (t3 - t2) * p2 + (t - t2) / (t3 - t2) * p3
        b1 = (t2 - t) / (t2 - t0) * a1 + (t - t0) / (t2 - t0) * a2
        b2 = (t3 - t) / (t3 - t1) * a2 + (t - t1) / (t3 - t1) * a3
        out.append((t2 - t) / (t2 - t1) * b1 + (t - t1) / (t2 - t1) * b2)
    return np.concatenate(out)


def _resample(c: np.ndarray, step: float) -> np.ndarray:
    d = np.sqrt((np.diff(c, axis=0) ** 2).sum(axis=1))
    cum = np.concatenate([[0.0], np.cumsum(d)])
    total = float(cum[-1])
    if total <= 1e-9:
        return c[[0, -1]]
    n = max(1, int(round(total / step)))
    s = np.linspace(0.0, total, n + 1)
    return np.stack([np.interp(s, cum, c[:, 0]), np.interp(s, cum, c[:, 1])], axis=1)


# ---------------------------------------------------------------------------------------------------
# The drawings. Lowercase: x-height 1 (y from -1 to 0). Capitals: height 1.4.
# Reusable parts are written as functions of their offset so that ш, щ, ц, љ, њ share them.

def _sh(stroke: Stroke, dx: float = 0.0, dy: float = 0.0) -> Stroke:
    return [(x + dx, y + dy) for x, y in stroke]


# о: from the top right, anticlockwise, closing at the top.
_O = [(0.48, -0.9), (0.3, -1.0), (0.1, -0.88), (0.0, -0.55), (0.06, -0.17), (0.26, 0.0), (0.46, -0.1),
      (0.56, -0.45), (0.5, -0.85), (0.32, -1.0), (0.2, -0.97)]
# The bowl of а and д: an о open at its right.
_BOWL = [(0.5, -0.86), (0.32, -1.0), (0.1, -0.88), (0.0, -0.52), (0.07, -0.14), (0.25, 0.0), (0.42, -0.1),
         (0.52, -0.45), (0.57, -1.0)]
# The cursive u of и, ц, ш: the left leg down, round the bottom, up to the right leg's top.
_U = [(0.02, -1.0), (0.02, -0.38), (0.08, -0.07), (0.24, 0.0), (0.4, -0.12), (0.48, -0.5), (0.52, -1.0)]
# ь's bowl hanging from a stem at x = 0: down the stem, back up to its middle, the bowl round to its foot.
_SOFT_BOWL = [(0.0, 0.0), (0.0, 0.0), (0.02, -0.48), (0.22, -0.58), (0.42, -0.52), (0.5, -0.28), (0.42, -0.06),
              (0.22, 0.0), (0.02, -0.02)]
# The small hook at the baseline that л, м, љ, я start with.
_HOOK = [(0.0, -0.12), (0.04, -0.02), (0.12, -0.04)]


def _soft(x: float, top: float = -1.0) -> Stroke:
    """ь's stem at x from ``top`` down, with its bowl."""
    return [(x + 0.02, top)] + _sh(_SOFT_BOWL, x)


def _cap_soft(x: float) -> Stroke:
    """Ь's stem at x (capital height) with its bowl drawn from the foot round to the middle."""
    return [(x, -1.4), (x, 0.0), (x, 0.0), (x + 0.32, 0.0), (x + 0.5, -0.14), (x + 0.55, -0.4), (x + 0.45, -0.64),
            (x + 0.25, -0.74), (x, -0.74)]


_DOT_I = [(0.09, -1.34), (0.11, -1.31)]

LOWER: dict[str, list[Glyph]] = {
    "а": [[_BOWL + [(0.57, -1.0), (0.55, -0.45), (0.56, -0.08), (0.66, 0.0)]]],
    "б": [
        # like a 6: from the top right flourish down the left side, round the bowl, closing at its left
        [[(0.72, -1.42), (0.5, -1.38), (0.25, -1.18), (0.08, -0.8), (0.0, -0.42), (0.1, -0.08), (0.3, 0.0),
          (0.5, -0.14), (0.56, -0.48), (0.4, -0.74), (0.2, -0.72), (0.05, -0.5)]],
        # the bowl first (an о), then up from its right side into the ascender, ending on a flick to the right
        [[(0.48, -0.88), (0.3, -0.98), (0.1, -0.86), (0.0, -0.5), (0.07, -0.14), (0.26, 0.0), (0.46, -0.12),
          (0.54, -0.5), (0.52, -0.95), (0.44, -1.25), (0.5, -1.42), (0.72, -1.45)]],
    ],
    "в": [
        # cursive: down the stem, the lower lobe from its foot, then the upper lobe, ending at the top left
        [[(0.16, -1.0), (0.12, -0.5), (0.1, -0.05), (0.26, 0.0), (0.5, -0.1), (0.56, -0.32), (0.42, -0.5),
          (0.16, -0.54), (0.42, -0.62), (0.5, -0.82), (0.36, -1.0), (0.14, -1.0), (0.0, -0.86)]],
        # print-like: the stem, then both lobes from its top
        [[(0.08, -1.0), (0.08, 0.0)],
         [(0.08, -1.0), (0.08, -1.0), (0.36, -1.0), (0.48, -0.86), (0.4, -0.58), (0.08, -0.53), (0.08, -0.53),
          (0.42, -0.5), (0.56, -0.3), (0.46, -0.04), (0.2, 0.0), (0.08, 0.0)]],
    ],
    "г": [
        # cursive, an r-like hook: up from the baseline, over to the right
        [[(0.04, 0.0), (0.08, -0.5), (0.14, -0.88), (0.28, -1.0), (0.46, -0.98), (0.56, -0.84)]],
        # print-like: the stem, then the bar
        [[(0.1, -1.0), (0.1, 0.0)], [(0.1, -1.0), (0.52, -1.0)]],
    ],
    "д": [
        # a g: the bowl, down the stem into a loop below the baseline
        [_BOWL + [(0.57, -1.0), (0.55, -0.2), (0.5, 0.25), (0.36, 0.47), (0.16, 0.46), (0.1, 0.3), (0.3, 0.14),
                  (0.62, 0.02)]],
        # ∂: the bowl, its right side rising and curling back left above the x-height
        [[(0.5, -0.86), (0.32, -1.0), (0.1, -0.88), (0.0, -0.52), (0.07, -0.14), (0.25, 0.0), (0.44, -0.1),
          (0.56, -0.5), (0.54, -1.0), (0.42, -1.3), (0.22, -1.42), (0.06, -1.34)]],
        # the tailed triangle: a left leg, the roof and right stem, the base with its two feet below
        [[(0.3, -1.0), (0.22, -0.45), (0.06, 0.0)],
         [(0.3, -1.0), (0.3, -1.0), (0.62, -1.0), (0.62, -1.0), (0.62, 0.0)],
         [(-0.04, 0.28), (-0.04, 0.0), (-0.04, 0.0), (0.74, 0.0), (0.74, 0.0), (0.74, 0.28)]],
    ],
    "е": [[[(0.04, -0.46), (0.3, -0.5), (0.48, -0.64), (0.46, -0.9), (0.28, -1.0), (0.08, -0.88), (0.0, -0.5),
            (0.08, -0.12), (0.28, 0.0), (0.52, -0.12)]]],
    "ж": [
        # cursive )|(: each side an arc touching the stem at the middle
        [[(0.0, -0.98), (0.22, -0.9), (0.4, -0.5), (0.22, -0.1), (0.0, -0.02)],
         [(0.5, -1.0), (0.5, 0.0)],
         [(1.0, -0.98), (0.78, -0.9), (0.6, -0.5), (0.78, -0.1), (1.0, -0.02)]],
        # print-like >|<
        [[(0.0, -1.0), (0.42, -0.52), (0.42, -0.52), (0.0, 0.0)],
         [(0.5, -1.0), (0.5, 0.0)],
         [(1.0, -1.0), (0.58, -0.52), (0.58, -0.52), (1.0, 0.0)]],
    ],
    "з": [
        # a 3 whose lower lobe runs into a looped tail below the baseline
        [[(0.04, -0.86), (0.22, -1.0), (0.44, -0.94), (0.46, -0.7), (0.22, -0.53), (0.22, -0.53), (0.46, -0.4),
          (0.52, -0.1), (0.44, 0.24), (0.28, 0.46), (0.1, 0.46), (0.06, 0.32), (0.26, 0.16), (0.56, 0.02)]],
        # ʒ: the lower lobe's tail open, curving down and back left
        [[(0.04, -0.9), (0.26, -1.0), (0.48, -0.9), (0.42, -0.68), (0.22, -0.52), (0.22, -0.52), (0.48, -0.36),
          (0.54, -0.04), (0.42, 0.3), (0.2, 0.46), (0.0, 0.4)]],
    ],
    "и": [
        [_U + [(0.52, -1.0), (0.52, -0.4), (0.54, -0.06), (0.62, 0.0)]],
        # print-like: left stem, up the diagonal, down the right stem
        [[(0.06, -1.0), (0.06, 0.0), (0.06, 0.0), (0.52, -1.0), (0.52, -1.0), (0.52, 0.0)]],
    ],
    "к": [
        # cursive: the stem, then the arm curving in from the top right to the stem and out to the foot
        [[(0.08, -1.0), (0.08, 0.0)],
         [(0.54, -0.96), (0.4, -0.88), (0.24, -0.64), (0.1, -0.5), (0.1, -0.5), (0.28, -0.44), (0.4, -0.22),
          (0.46, -0.04), (0.56, 0.0)]],
        # print-like: the stem, then < in one stroke
        [[(0.08, -1.0), (0.08, 0.0)], [(0.5, -1.0), (0.12, -0.52), (0.12, -0.52), (0.52, 0.0)]],
    ],
    "л": [
        # cursive: from the hook at the baseline up to a rounded top and down the right stem
        [_HOOK + [(0.24, -0.42), (0.34, -0.88), (0.44, -1.0), (0.52, -0.9), (0.55, -0.5), (0.56, -0.08),
                  (0.64, 0.0)]],
        # print-like: a left leg up to a flat roof, the right stem down
        [[(0.0, 0.0), (0.14, -0.3), (0.2, -1.0), (0.2, -1.0), (0.56, -1.0), (0.56, -1.0), (0.56, 0.0)]],
    ],
    "м": [[_HOOK + [(0.22, -0.42), (0.32, -0.88), (0.4, -1.0), (0.46, -0.86), (0.5, -0.45), (0.54, -0.14),
                    (0.54, -0.14), (0.62, -0.6), (0.7, -0.94), (0.78, -1.0), (0.85, -0.86), (0.87, -0.4),
                    (0.88, -0.06), (0.96, 0.0)]]],
    "н": [[[(0.08, -1.0), (0.06, 0.0)],
           [(0.07, -0.48), (0.3, -0.54), (0.48, -0.62), (0.54, -1.0), (0.54, -1.0), (0.53, -0.4), (0.55, -0.06),
            (0.63, 0.0)]]],
    "о": [[_O]],
    "п": [[[(0.05, -1.0), (0.04, 0.0), (0.04, 0.0), (0.06, -0.66), (0.2, -0.96), (0.38, -1.0), (0.52, -0.86),
            (0.54, -0.4), (0.55, -0.06), (0.63, 0.0)]]],
    "р": [[[(0.06, -1.0), (0.06, 0.5), (0.06, 0.5), (0.07, -0.6), (0.2, -0.95), (0.42, -0.98), (0.56, -0.72),
            (0.52, -0.26), (0.32, -0.02), (0.08, -0.08)]]],
    "с": [[[(0.5, -0.84), (0.36, -0.98), (0.16, -0.96), (0.02, -0.7), (0.0, -0.38), (0.1, -0.08), (0.3, 0.0),
            (0.5, -0.12)]]],
    "т": [
        # cursive, a Latin m: the first leg, then two arches
        [[(0.02, -1.0), (0.02, 0.0), (0.02, 0.0), (0.04, -0.66), (0.14, -0.95), (0.28, -1.0), (0.38, -0.86),
          (0.4, -0.4), (0.4, 0.0), (0.4, 0.0), (0.42, -0.66), (0.52, -0.95), (0.66, -1.0), (0.76, -0.86),
          (0.78, -0.4), (0.79, -0.06), (0.86, 0.0)]],
        # the m with a bar above it, as many writers mark т
        [[(0.02, -1.0), (0.02, 0.0), (0.02, 0.0), (0.04, -0.66), (0.14, -0.95), (0.28, -1.0), (0.38, -0.86),
          (0.4, -0.4), (0.4, 0.0), (0.4, 0.0), (0.42, -0.66), (0.52, -0.95), (0.66, -1.0), (0.76, -0.86),
          (0.78, -0.4), (0.79, -0.06), (0.86, 0.0)],
         [(0.06, -1.24), (0.8, -1.24)]],
        # print-like т: the bar, then the stem
        [[(0.0, -1.0), (0.6, -1.0)], [(0.3, -1.0), (0.3, 0.0)]],
    ],
    "у": [
        # a y: the u, its right leg running into a loop below the baseline
        [_U + [(0.52, -1.0), (0.52, -0.2), (0.48, 0.24), (0.36, 0.46), (0.16, 0.46), (0.1, 0.32), (0.3, 0.14),
               (0.6, 0.02)]],
        # print-like: the short left arm, then the long arm from the top right down to the descender
        [[(0.0, -1.0), (0.14, -0.6), (0.3, -0.2)],
         [(0.6, -1.0), (0.4, -0.4), (0.24, 0.12), (0.12, 0.4), (0.0, 0.46)]],
    ],
    "ф": [[[(0.4, -1.45), (0.4, 0.5)],
           [(0.4, -0.98), (0.16, -0.94), (0.0, -0.7), (0.0, -0.3), (0.16, -0.04), (0.4, 0.0), (0.64, -0.04),
            (0.8, -0.3), (0.8, -0.7), (0.64, -0.94), (0.4, -0.98)]]],
    "х": [[[(0.0, -0.9), (0.1, -1.0), (0.22, -0.9), (0.28, -0.5), (0.34, -0.1), (0.46, 0.0), (0.56, -0.1)],
           [(0.56, -0.9), (0.46, -1.0), (0.34, -0.9), (0.28, -0.5), (0.22, -0.1), (0.1, 0.0), (0.0, -0.1)]]],
    "ц": [[_U + [(0.52, -1.0), (0.52, -0.36), (0.54, -0.04), (0.64, 0.0), (0.68, 0.16), (0.66, 0.34), (0.6, 0.44)]]],
    "ч": [
        [[(0.03, -1.0), (0.02, -0.72), (0.1, -0.5), (0.28, -0.42), (0.46, -0.54), (0.52, -1.0), (0.52, -1.0),
          (0.52, -0.4), (0.53, -0.06), (0.62, 0.0)]],
        # print-like: the arm, then the stem
        [[(0.04, -1.0), (0.04, -0.66), (0.14, -0.48), (0.5, -0.46)], [(0.52, -1.0), (0.52, 0.0)]],
    ],
    "ш": [
        # cursive: two u's, the middle leg retraced
        [[(0.0, -1.0), (0.01, -0.36), (0.07, -0.06), (0.2, 0.0), (0.32, -0.12), (0.37, -0.5), (0.4, -1.0),
          (0.4, -1.0), (0.41, -0.36), (0.47, -0.06), (0.6, 0.0), (0.72, -0.12), (0.77, -0.5), (0.8, -1.0),
          (0.8, -1.0), (0.8, -0.36), (0.81, -0.06), (0.88, 0.0)]],
        # the same with a bar below, as many writers mark ш
        [[(0.0, -1.0), (0.01, -0.36), (0.07, -0.06), (0.2, 0.0), (0.32, -0.12), (0.37, -0.5), (0.4, -1.0),
          (0.4, -1.0), (0.41, -0.36), (0.47, -0.06), (0.6, 0.0), (0.72, -0.12), (0.77, -0.5), (0.8, -1.0),
          (0.8, -1.0), (0.8, -0.36), (0.81, -0.06), (0.88, 0.0)],
         [(0.06, 0.2), (0.8, 0.2)]],
        # print-like: a U with a flat base, then the middle stem
        [[(0.04, -1.0), (0.04, 0.0), (0.04, 0.0), (0.84, 0.0), (0.84, 0.0), (0.84, -1.0)],
         [(0.44, -1.0), (0.44, 0.0)]],
    ],
    "щ": [[[(0.0, -1.0), (0.01, -0.36), (0.07, -0.06), (0.2, 0.0), (0.32, -0.12), (0.37, -0.5), (0.4, -1.0),
            (0.4, -1.0), (0.41, -0.36), (0.47, -0.06), (0.6, 0.0), (0.72, -0.12), (0.77, -0.5), (0.8, -1.0),
            (0.8, -1.0), (0.8, -0.36), (0.82, -0.04), (0.92, 0.0), (0.96, 0.16), (0.94, 0.34), (0.88, 0.44)]]],
    "ъ": [[[(0.0, -0.9), (0.06, -1.0), (0.2, -1.0), (0.2, -1.0)] + _sh(_SOFT_BOWL, 0.2)]],
    "ы": [[_soft(0.06), [(0.8, -1.0), (0.8, 0.0)]]],
    "ь": [[_soft(0.06)]],
    "э": [
        # the arc from the top left round to the bottom left, then the bar
        [[(0.04, -0.84), (0.2, -1.0), (0.4, -0.98), (0.54, -0.72), (0.56, -0.36), (0.44, -0.08), (0.24, 0.0),
          (0.02, -0.12)], [(0.2, -0.5), (0.54, -0.5)]],
        # the bar first, then an arc begun with a small curl
        [[(0.16, -0.52), (0.5, -0.52)],
         [(0.1, -0.8), (0.04, -0.9), (0.14, -1.0), (0.36, -1.0), (0.52, -0.8), (0.56, -0.42), (0.46, -0.1),
          (0.26, 0.0), (0.04, -0.1)]],
    ],
    "ю": [[[(0.06, -1.0), (0.05, 0.0)],
           [(0.06, -0.5), (0.3, -0.5), (0.3, -0.5), (0.36, -0.86), (0.54, -1.0), (0.72, -0.86), (0.78, -0.5),
            (0.72, -0.14), (0.54, 0.0), (0.36, -0.14), (0.3, -0.5)]]],
    "я": [
        # cursive: from the hook at the baseline up the leg, round the bowl, across the top and down the stem
        [_HOOK + [(0.24, -0.34), (0.38, -0.5), (0.38, -0.5), (0.18, -0.56), (0.06, -0.74), (0.14, -0.94),
                  (0.34, -1.0), (0.56, -1.0), (0.56, -1.0), (0.55, -0.4), (0.56, -0.06), (0.64, 0.0)]],
        # print-like: the bowl from the top right with the leg from its foot, then the stem
        [[(0.54, -0.98), (0.28, -1.0), (0.08, -0.9), (0.06, -0.66), (0.24, -0.52), (0.44, -0.5), (0.44, -0.5),
          (0.24, -0.36), (0.08, -0.1), (0.0, 0.0)],
         [(0.54, -1.0), (0.54, 0.0)]],
    ],
    # Ukrainian
    "ґ": [[[(0.1, 0.0), (0.1, -1.0), (0.1, -1.0), (0.48, -1.0), (0.48, -1.0), (0.5, -1.3)]]],
    "є": [[[(0.5, -0.84), (0.36, -0.98), (0.16, -0.96), (0.02, -0.7), (0.0, -0.38), (0.1, -0.08), (0.3, 0.0),
            (0.5, -0.12)], [(0.02, -0.5), (0.36, -0.5)]]],
    "і": [[[(0.1, -1.0), (0.1, -0.3), (0.12, -0.04), (0.2, 0.0)], _DOT_I]],
    # Macedonian and Serbian
    "ј": [[[(0.32, -1.0), (0.32, 0.18), (0.26, 0.42), (0.1, 0.48), (0.0, 0.38)], _sh(_DOT_I, 0.22)]],
    "ѕ": [[[(0.48, -0.88), (0.34, -1.0), (0.12, -0.96), (0.04, -0.78), (0.18, -0.58), (0.4, -0.44),
            (0.5, -0.2), (0.38, -0.02), (0.14, 0.0), (0.0, -0.12)]]],
    "љ": [[_HOOK + [(0.24, -0.42), (0.34, -0.88), (0.44, -1.0), (0.52, -0.9), (0.55, -0.5), (0.56, 0.0)]
           + _sh(_SOFT_BOWL, 0.56)[1:]]],
    "њ": [[[(0.08, -1.0), (0.06, 0.0)],
           [(0.07, -0.48), (0.3, -0.54), (0.48, -0.62), (0.54, -1.0), (0.54, -1.0), (0.54, 0.0)]
           + _sh(_SOFT_BOWL, 0.54)[1:]]],
    "ђ": [[[(0.14, -1.45), (0.12, 0.0), (0.12, 0.0), (0.14, -0.62), (0.28, -0.94), (0.46, -1.0), (0.58, -0.84),
            (0.6, -0.4), (0.6, 0.12), (0.54, 0.36), (0.38, 0.46), (0.26, 0.42)],
           [(0.0, -1.2), (0.36, -1.2)]]],
    "ћ": [[[(0.14, -1.45), (0.12, 0.0), (0.12, 0.0), (0.14, -0.62), (0.28, -0.94), (0.46, -1.0), (0.58, -0.84),
            (0.6, -0.4), (0.61, -0.06), (0.68, 0.0)],
           [(0.0, -1.2), (0.36, -1.2)]]],
    "џ": [[_U + [(0.52, -1.0), (0.52, -0.4), (0.54, -0.06), (0.62, 0.0)], [(0.26, 0.0), (0.26, 0.34)]]],
}

H = -1.4  # capital height
CAPITAL: dict[str, list[Glyph]] = {
    "А": [[[(0.0, 0.0), (0.35, H), (0.35, H), (0.7, 0.0)], [(0.16, -0.5), (0.54, -0.5)]]],
    "Б": [[[(0.6, H), (0.08, H), (0.08, H), (0.08, 0.0)] + _cap_soft(0.08)[2:]]],
    "В": [[[(0.08, H), (0.08, 0.0)],
           [(0.08, H), (0.08, H), (0.4, H), (0.55, -1.22), (0.5, -0.88), (0.08, -0.76), (0.08, -0.76),
            (0.5, -0.7), (0.64, -0.4), (0.55, -0.08), (0.3, 0.0), (0.08, 0.0)]]],
    "Г": [[[(0.1, H), (0.1, 0.0)], [(0.1, H), (0.62, H)]]],
    "Д": [
        # trapezoid on feet
        [[(0.26, H), (0.2, -0.6), (0.06, 0.0)],
         [(0.26, H), (0.26, H), (0.66, H), (0.66, H), (0.66, 0.0)],
         [(-0.04, 0.28), (-0.04, 0.0), (-0.04, 0.0), (0.78, 0.0), (0.78, 0.0), (0.78, 0.28)]],
        # triangle on feet
        [[(0.4, H), (0.06, 0.0)], [(0.4, H), (0.74, 0.0)],
         [(-0.04, 0.28), (-0.04, 0.0), (-0.04, 0.0), (0.84, 0.0), (0.84, 0.0), (0.84, 0.28)]],
    ],
    "Е": [
        [[(0.6, H), (0.08, H), (0.08, H), (0.08, 0.0), (0.08, 0.0), (0.62, 0.0)], [(0.08, -0.7), (0.5, -0.7)]],
        # the cursive capital, a reversed 3
        [[(0.56, -1.24), (0.42, H), (0.18, -1.36), (0.1, -1.1), (0.3, -0.78), (0.3, -0.78), (0.06, -0.64),
          (0.0, -0.32), (0.14, -0.04), (0.4, 0.0), (0.62, -0.16)]],
    ],
    "Ж": [[[(0.0, H), (0.46, -0.72), (0.46, -0.72), (0.0, 0.0)], [(0.56, H), (0.56, 0.0)],
           [(1.12, H), (0.66, -0.72), (0.66, -0.72), (1.12, 0.0)]]],
    "З": [[[(0.04, -1.22), (0.24, H), (0.48, -1.32), (0.52, -1.02), (0.28, -0.76), (0.28, -0.76), (0.56, -0.6),
            (0.62, -0.3), (0.46, -0.02), (0.2, 0.0), (0.0, -0.16)]]],
    "И": [[[(0.08, H), (0.08, 0.0), (0.08, 0.0), (0.64, H), (0.64, H), (0.64, 0.0)]]],
    "К": [[[(0.08, H), (0.08, 0.0)], [(0.6, H), (0.12, -0.72), (0.12, -0.72), (0.62, 0.0)]]],
    "Л": [
        # print: a left leg up to a flat roof, the right stem
        [[(0.0, 0.0), (0.16, -0.4), (0.24, H), (0.24, H), (0.66, H), (0.66, H), (0.66, 0.0)]],
        # cursive: from a hook at the baseline up to a rounded top
        [[(0.0, -0.16), (0.05, -0.02), (0.14, -0.06), (0.3, -0.6), (0.44, -1.26), (0.56, H), (0.66, -1.26),
          (0.68, -0.6), (0.69, -0.08), (0.78, 0.0)]],
        # Λ
        [[(0.0, 0.0), (0.36, H), (0.36, H), (0.72, 0.0)]],
    ],
    "М": [[[(0.0, 0.0), (0.08, H), (0.08, H), (0.46, -0.5), (0.46, -0.5), (0.84, H), (0.84, H), (0.92, 0.0)]]],
    "Н": [[[(0.08, H), (0.08, 0.0)], [(0.64, H), (0.64, 0.0)], [(0.08, -0.72), (0.64, -0.72)]]],
    "О": [[[(0.6, -1.28), (0.38, H), (0.12, -1.24), (0.0, -0.7), (0.1, -0.16), (0.36, 0.0), (0.62, -0.14),
            (0.74, -0.7), (0.64, -1.24), (0.42, H), (0.28, -1.36)]]],
    "П": [[[(0.08, 0.0), (0.08, H), (0.08, H), (0.64, H), (0.64, H), (0.64, 0.0)]]],
    "Р": [[[(0.08, H), (0.08, 0.0)],
           [(0.08, H), (0.08, H), (0.42, H), (0.58, -1.2), (0.56, -0.88), (0.36, -0.7), (0.08, -0.7)]]],
    "С": [[[(0.64, -1.2), (0.46, H), (0.2, -1.3), (0.02, -0.9), (0.0, -0.44), (0.14, -0.08), (0.4, 0.0),
            (0.64, -0.16)]]],
    "Т": [
        # print: the bar, then the stem
        [[(0.0, H), (0.7, H)], [(0.35, H), (0.35, 0.0)]],
        # cursive: a tall m under a bar
        [[(0.04, H), (0.04, 0.0), (0.04, 0.0), (0.06, -0.9), (0.16, -1.32), (0.3, H), (0.42, -1.24),
          (0.44, -0.6), (0.44, 0.0), (0.44, 0.0), (0.46, -0.9), (0.56, -1.32), (0.7, H), (0.82, -1.24),
          (0.84, -0.6), (0.85, -0.06), (0.92, 0.0)],
         [(0.0, -1.58), (0.9, -1.58)]],
    ],
    "У": [[[(0.0, H), (0.18, -0.9), (0.34, -0.6)],
           [(0.7, H), (0.46, -0.66), (0.3, -0.2), (0.16, 0.0), (0.0, -0.04)]]],
    "Ф": [[[(0.42, -1.5), (0.42, 0.04)],
           [(0.42, -1.2), (0.14, -1.14), (0.0, -0.9), (0.02, -0.5), (0.2, -0.32), (0.42, -0.3), (0.64, -0.32),
            (0.82, -0.5), (0.84, -0.9), (0.7, -1.14), (0.42, -1.2)]]],
    "Х": [[[(0.0, H), (0.66, 0.0)], [(0.66, H), (0.0, 0.0)]]],
    "Ц": [[[(0.08, H), (0.08, 0.0), (0.08, 0.0), (0.76, 0.0), (0.76, 0.0), (0.78, 0.3)], [(0.64, H), (0.64, 0.0)]]],
    "Ч": [[[(0.04, H), (0.04, -0.98), (0.14, -0.72), (0.36, -0.64), (0.62, -0.72)], [(0.62, H), (0.62, 0.0)]]],
    "Ш": [[[(0.06, H), (0.06, 0.0), (0.06, 0.0), (0.96, 0.0), (0.96, 0.0), (0.96, H)], [(0.51, H), (0.51, 0.0)]]],
    "Щ": [[[(0.06, H), (0.06, 0.0), (0.06, 0.0), (1.06, 0.0), (1.06, 0.0), (1.08, 0.3)], [(0.51, H), (0.51, 0.0)],
           [(0.96, H), (0.96, 0.0)]]],
    "Ъ": [[[(0.0, H), (0.22, H), (0.22, H)] + _cap_soft(0.22)[1:]]],
    "Ы": [[_cap_soft(0.08), [(0.9, H), (0.9, 0.0)]]],
    "Ь": [[_cap_soft(0.08)]],
    "Э": [[[(0.04, -1.2), (0.24, H), (0.5, -1.34), (0.68, -1.0), (0.7, -0.44), (0.52, -0.06), (0.26, 0.0),
            (0.02, -0.18)], [(0.24, -0.7), (0.68, -0.7)]]],
    "Ю": [[[(0.08, H), (0.08, 0.0)], [(0.08, -0.7), (0.36, -0.7)],
           [(0.66, H), (0.46, -1.24), (0.36, -0.7), (0.42, -0.16), (0.62, 0.0), (0.84, -0.16),
            (0.92, -0.7), (0.86, -1.22), (0.66, H)]]],
    "Я": [[[(0.62, H), (0.3, H), (0.1, -1.26), (0.08, -0.96), (0.26, -0.76), (0.5, -0.72), (0.5, -0.72),
            (0.3, -0.52), (0.12, -0.2), (0.0, 0.0)],
           [(0.62, H), (0.62, 0.0)]]],
    "Ґ": [[[(0.1, H), (0.1, 0.0)], [(0.1, H), (0.1, H), (0.58, H), (0.58, H), (0.6, -1.66)]]],
    "Є": [[[(0.64, -1.2), (0.46, H), (0.2, -1.3), (0.02, -0.9), (0.0, -0.44), (0.14, -0.08), (0.4, 0.0),
            (0.64, -0.16)], [(0.02, -0.7), (0.46, -0.7)]]],
    "І": [[[(0.1, H), (0.1, 0.0)]]],
    "Ј": [[[(0.5, H), (0.5, -0.32), (0.42, -0.04), (0.22, 0.0), (0.06, -0.2)]]],
    "Ѕ": [[[(0.6, -1.24), (0.42, H), (0.16, -1.34), (0.06, -1.06), (0.24, -0.82), (0.5, -0.62), (0.64, -0.32),
            (0.5, -0.04), (0.2, 0.0), (0.0, -0.16)]]],
    "Љ": [[[(0.0, 0.0), (0.14, -0.4), (0.22, H), (0.22, H), (0.56, H), (0.56, H)] + _cap_soft(0.56)[1:]]],
    "Њ": [[[(0.08, H), (0.08, 0.0)], _cap_soft(0.6), [(0.08, -0.74), (0.6, -0.74)]]],
    "Ђ": [[[(0.0, H), (0.64, H)],
           [(0.3, H), (0.3, 0.0), (0.3, 0.0), (0.31, -0.66), (0.48, -0.84), (0.68, -0.78), (0.78, -0.46),
            (0.78, 0.06), (0.72, 0.3), (0.56, 0.4), (0.44, 0.36)]]],
    "Ћ": [[[(0.0, H), (0.64, H)],
           [(0.3, H), (0.3, 0.0), (0.3, 0.0), (0.31, -0.66), (0.48, -0.84), (0.68, -0.78), (0.78, -0.46),
            (0.78, 0.0)]]],
    "Џ": [[[(0.08, H), (0.08, 0.0), (0.08, 0.0), (0.64, 0.0), (0.64, 0.0), (0.64, H)], [(0.36, 0.0), (0.36, 0.32)]]],
}

TEMPLATES: dict[str, list[Glyph]] = {**LOWER, **CAPITAL}

# The held-out form of each letter written more than one way: its last variant.
HELDOUT_VARIANT: dict[str, int] = {c: len(v) - 1 for c, v in TEMPLATES.items() if len(v) >= 2}


@lru_cache(maxsize=None)
def _smoothed(c: str, i: int) -> tuple[np.ndarray, ...]:
    return tuple(_smooth(s) for s in TEMPLATES[c][i])


def training_variants(c: str, hold_out_forms: bool = True) -> list[int]:
    """The variants of ``c`` that training may use: all but the held-out one with ``hold_out_forms``, else all."""
    n = len(TEMPLATES[c])
    h = HELDOUT_VARIANT.get(c) if hold_out_forms else None
    return [i for i in range(n) if i != h]


def letter(c: str, variant=None, rng: Optional[random.Random] = None, hold_out_forms: bool = False
           ) -> Optional[tuple[list[np.ndarray], tuple[str, ...]]]:
    """Letter ``c``'s smoothed strokes (float64 ``(N, 2)`` arrays, x-height units, y down, baseline 0) and
    its marks. ``variant``: None, a random variant drawn with ``rng`` (with ``hold_out_forms``, never the
    held-out one); ``"heldout"``, the held-out variant (the only one for a letter written one way); or an index.
    A letter of ``MARKED`` gives its base letter's strokes (without the dot for ``"dotless"``) and its
    marks. None for a character not covered."""
    if c in MARKED:
        base, marks = MARKED[c]
        got = letter(base, variant, rng, hold_out_forms)
        if got is None:
            return None
        strokes = got[0]
        if "dotless" in marks and base in DOTTED:
            strokes = strokes[:-1]
        return strokes, tuple(m for m in marks if m != "dotless") + got[1]
    if c not in TEMPLATES:
        return None
    if variant is None:
        rng = rng or random.Random()
        i = rng.choice(training_variants(c, hold_out_forms))
    elif variant == "heldout":
        i = HELDOUT_VARIANT.get(c, 0)
    else:
        i = int(variant)
        if not 0 <= i < len(TEMPLATES[c]):
            raise IndexError(f"{c!r} has {len(TEMPLATES[c])} variants")
    return [s.copy() for s in _smoothed(c, i)], ()


def word(w: str, rng: random.Random, heldout: bool = False, hold_out_forms: bool = False
         ) -> Optional[list[tuple[list[np.ndarray], tuple[str, ...]]]]:
    """The letters of ``w`` as ``writer.write_word`` takes them (variants drawn with ``rng``, without the
    held-out ones with ``hold_out_forms``; or, with ``heldout``, the held-out variants); None when a character
    is not covered."""
    out = [letter(c, "heldout" if heldout else None, rng, hold_out_forms) for c in w]
    return None if any(x is None for x in out) else out
