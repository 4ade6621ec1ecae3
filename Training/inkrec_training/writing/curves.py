"""Drawn letter templates, for the drawn letters of every script (``cyrillic``, ``hebrew``): smooth pen paths
through a template's control points, and the choice of a letter's variant.

``smooth(points)`` is a centripetal Catmull-Rom curve through the points, resampled about ``step`` apart; a
point given twice in a row is a sharp corner. ``DrawnLetters(templates)`` holds a script's templates (each
letter a list of variants, each variant a list of strokes of control points) and picks a letter's smoothed
strokes by variant; a letter's last variant is its held-out one (``heldout_variant``).
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np


def smooth(points: Sequence[tuple[float, float]], step: float = 0.04) -> np.ndarray:
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
        dense = catmull_rom(piece)
        out.append(resample(dense, step)[1:])
    return np.concatenate(out)


def catmull_rom(p: np.ndarray, per: int = 24) -> np.ndarray:
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


def resample(c: np.ndarray, step: float) -> np.ndarray:
    d = np.sqrt((np.diff(c, axis=0) ** 2).sum(axis=1))
    cum = np.concatenate([[0.0], np.cumsum(d)])
    total = float(cum[-1])
    if total <= 1e-9:
        return c[[0, -1]]
    n = max(1, int(round(total / step)))
    s = np.linspace(0.0, total, n + 1)
    return np.stack([np.interp(s, cum, c[:, 0]), np.interp(s, cum, c[:, 1])], axis=1)


class DrawnLetters:
    """A script's drawn templates: ``templates[c]`` is letter c's variants, each a list of strokes of control
    points in x-height units (y down, baseline 0). Letters written more than one way have a held-out variant,
    their last (``heldout_variant``), that training may leave out to measure how a network reads a form it
    never saw."""

    def __init__(self, templates: dict):
        self.templates = templates
        self.heldout_variant = {c: len(v) - 1 for c, v in templates.items() if len(v) >= 2}
        self._smoothed = lru_cache(maxsize=None)(
            lambda c, i: tuple(smooth(s) for s in self.templates[c][i]))

    def training_variants(self, c: str, hold_out_forms: bool = True) -> list[int]:
        """The variants of ``c`` that training may use: all but the held-out one with ``hold_out_forms``, else
        all."""
        h = self.heldout_variant.get(c) if hold_out_forms else None
        return [i for i in range(len(self.templates[c])) if i != h]

    def strokes(self, c: str, variant=None, rng: Optional[random.Random] = None, hold_out_forms: bool = False
                ) -> Optional[list[np.ndarray]]:
        """Letter ``c``'s smoothed strokes (float64 ``(N, 2)`` arrays). ``variant``: None, a random variant drawn
        with ``rng`` (with ``hold_out_forms``, never the held-out one); ``"heldout"``, the held-out variant (the
        only one for a letter written one way); or an index (``IndexError`` when out of range). None for a
        letter not drawn."""
        if c not in self.templates:
            return None
        if variant is None:
            i = (rng or random.Random()).choice(self.training_variants(c, hold_out_forms))
        elif variant == "heldout":
            i = self.heldout_variant.get(c, 0)
        else:
            i = int(variant)
            if not 0 <= i < len(self.templates[c]):
                raise IndexError(f"{c!r} has {len(self.templates[c])} variants")
        return [s.copy() for s in self._smoothed(c, i)]
