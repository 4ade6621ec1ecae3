"""Hand-drawn shapes, generated: the training and validation data of the shapes model (`zxx-Zsym-x-shapes`).

Every ink is drawn the way people draw shapes in a drawing app: one or several strokes, in any order
and direction, starting anywhere, with wobbly and bowed edges, overshot or unclosed ends, rounded
corners, random aspect ratio, rotation, shear, size, position and point density. Coordinates are
screen-like (y grows downwards); strokes are lists of ``[x, y, t]`` (t in milliseconds).

Classes (``CLASSES``, the model's labels in order): rectangle, triangle, ellipse (circles included),
arrow, line, diamond, star, check, cross.

Held-out generator parameters (the validation split)
----------------------------------------------------
Every continuous *shape parameter* (aspect ratio, rotation, corner rounding, closure overshoot/gap,
superellipse exponent, arrow-head size and angle, check-mark arm ratio and angles, cross angle, star
inner radius, edge bowing, wobble amplitude) is drawn through ``Params.draw(lo, hi)``: a uniform
``u`` in [0, 1) mapped linearly onto ``[lo, hi]``. ``HELD_OUT`` names two bands of ``u``
(``[0.20, 0.27)`` and ``[0.65, 0.72)``, 14% of every range). Training inks never draw ``u`` in those
bands; validation inks draw *every* such parameter inside them. So no validation ink has an aspect
ratio, a rotation, a rounding, ... that training has seen, and the random streams are separate too
(``make_dataset(split, seed)`` seeds ``random.Random`` with a split-specific offset).
Discrete choices (stroke count, stroke order, direction, drawing style) are shared by both splits.

Ambiguous rectangles
--------------------
A rectangle whose corner radius ``rho`` (relative to half its shorter side) is at most 0.5 is a
rectangle (hard label). Between 0.5 and 1.0 a rounded rectangle turns into a stadium or, for a
square, a circle: those inks (``ambiguous=True``, a share ``ambiguous_share`` of the rectangles, 0.12 by
default; the shipped model's last 4 minutes used 0.4) get a *soft*
target, ``p(rectangle) = 1 - s``, ``p(ellipse) = s`` with ``s = smoothstep((rho - 0.5) / 0.5)``,
so the model learns to say "not sure" there instead of guessing. They are left out of the
accuracy figures (their true class is a matter of opinion).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

CLASSES = ["rectangle", "triangle", "ellipse", "arrow", "line", "diamond", "star", "check", "cross"]
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}
HELD_OUT = ((0.20, 0.27), (0.65, 0.72))
_HELD_OUT_WIDTH = sum(b - a for a, b in HELD_OUT)
SPLIT_SEED_OFFSET = {"train": 0, "val": 7_919_000, "test": 15_485_000}


class Params:
    """Draws shape parameters from the training part or the held-out bands of their ranges."""

    def __init__(self, rng: random.Random, held_out: bool):
        self.rng, self.held_out = rng, held_out

    def unit(self) -> float:
        r = self.rng.random()
        if self.held_out:
            x = r * _HELD_OUT_WIDTH
            for a, b in HELD_OUT:
                if x < b - a:
                    return a + x
                x -= b - a
            return HELD_OUT[-1][1] - 1e-9
        # Training: u uniform over [0, 1) minus the bands.
        x = r * (1.0 - _HELD_OUT_WIDTH)
        lo = 0.0
        for a, b in HELD_OUT:
            if x < a - lo:
                return lo + x
            x -= a - lo
            lo = b
        return min(lo + x, 1.0 - 1e-9)

    def draw(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * self.unit()

    def log_draw(self, lo: float, hi: float) -> float:
        return math.exp(self.draw(math.log(lo), math.log(hi)))


@dataclass
class ShapeInk:
    label: str
    strokes: list            # list of (N, 3) float64 arrays: x, y, t
    target: np.ndarray       # (len(CLASSES),) probabilities: one-hot, or soft for ambiguous inks
    ambiguous: bool = False

    def stroke_lists(self) -> list:
        return [s.tolist() for s in self.strokes]


# ---------------------------------------------------------------- geometry helpers

def _dense(vertices, spacing: float = 0.01) -> np.ndarray:
    """Polyline through ``vertices`` with points about ``spacing`` apart."""
    v = np.asarray(vertices, dtype=np.float64)
    out = [v[:1]]
    for a, b in zip(v[:-1], v[1:]):
        n = max(1, int(math.ceil(np.linalg.norm(b - a) / spacing)))
        t = np.arange(1, n + 1)[:, None] / n
        out.append(a + (b - a) * t)
    return np.concatenate(out)


def _arclen(p: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])


def _sub_path(loop: np.ndarray, start: float, length: float) -> np.ndarray:
    """The part of a closed dense loop from arc position ``start`` over ``length`` (may exceed one turn)."""
    cum = _arclen(loop)
    per = cum[-1]
    n = max(2, int(abs(length) / 0.008) + 1)
    s = (start + np.linspace(0.0, length, n)) % per
    return np.stack([np.interp(s, cum, loop[:, 0]), np.interp(s, cum, loop[:, 1])], axis=1)


def _bow(a, b, amount: float, spacing: float = 0.01) -> np.ndarray:
    """A slightly curved edge from a to b: a parabola bulging ``amount`` x length sideways."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    d = b - a
    L = float(np.linalg.norm(d)) or 1e-9
    n = max(2, int(math.ceil(L / spacing)))
    t = np.linspace(0.0, 1.0, n + 1)[:, None]
    normal = np.array([-d[1], d[0]]) / L
    return a + d * t + normal * (4.0 * amount * L * t * (1 - t))


def _extend(p: np.ndarray, start_by: float, end_by: float) -> np.ndarray:
    """Lengthen (positive) or shorten (negative) an open path at its ends by the given distances."""
    def grow_end(q, by):
        if by > 0:
            d = q[-1] - q[-2]
            n = float(np.linalg.norm(d)) or 1e-9
            return np.concatenate([q, q[-1] + d / n * by * np.linspace(0.2, 1.0, 5)[:, None]])
        if by < 0:
            cum = _arclen(q)
            keep = cum <= cum[-1] + by
            return q[keep] if keep.sum() >= 2 else q[:2]
        return q
    p = grow_end(p, end_by)
    return grow_end(p[::-1], start_by)[::-1]


def _rounded_polygon(vertices, cut: float, bulges=None, spacing: float = 0.01) -> np.ndarray:
    """Closed loop through ``vertices`` with corners cut by a fraction ``cut`` of the shorter adjacent
    edge and replaced by quadratic Bézier arcs; edges bulge by ``bulges``. Starts at the first edge's start."""
    v = np.asarray(vertices, float)
    n = len(v)
    bulges = bulges if bulges is not None else [0.0] * n
    pieces = []
    for i in range(n):
        a, b, c = v[i], v[(i + 1) % n], v[(i + 2) % n]
        l1, l2 = np.linalg.norm(b - a), np.linalg.norm(c - b)
        d = cut * min(l1, l2) * 0.5
        prev = v[i - 1]
        d0 = cut * min(np.linalg.norm(a - prev), l1) * 0.5
        e0 = a + (b - a) / l1 * d0
        e1 = b - (b - a) / l1 * d
        pieces.append(_bow(e0, e1, bulges[i], spacing)[:-1])
        if d > 1e-9:
            f = b + (c - b) / l2 * d
            t = np.linspace(0, 1, max(3, int(d / spacing) + 2))[:, None]
            pieces.append(((1 - t) ** 2 * e1 + 2 * (1 - t) * t * b + t ** 2 * f)[:-1])
    loop = np.concatenate(pieces)
    return np.concatenate([loop, loop[:1]])


def _round_rect(w: float, h: float, rho: float, spacing: float = 0.01) -> np.ndarray:
    """Closed rectangle outline with circular corners of radius rho * min(w, h) / 2, from the top-left."""
    r = max(0.0, min(1.0, rho)) * min(w, h) / 2
    x0, x1, y0, y1 = -w / 2, w / 2, -h / 2, h / 2
    if r <= 1e-9:
        pts = [(x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    else:
        pts = []
        corners = [((x1 - r, y0 + r), -math.pi / 2), ((x1 - r, y1 - r), 0.0), ((x0 + r, y1 - r), math.pi / 2), ((x0 + r, y0 + r), math.pi)]
        for (cx, cy), a0 in corners:
            k = max(2, int(r * math.pi / 2 / spacing))
            for a in np.linspace(a0, a0 + math.pi / 2, k):
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pts.append(pts[0])
    return _dense(pts, spacing)


def _rot(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


# ---------------------------------------------------------------- drawing of closed outlines

def _draw_loop(loop: np.ndarray, P: Params, rng: random.Random) -> list:
    """One stroke around a closed loop: random start and direction, overshoot or gap at the end."""
    per = _arclen(loop)[-1]
    if rng.random() < 0.5:
        loop = loop[::-1].copy()
    start = rng.random() * per
    closure = P.draw(-0.07, 0.14)  # fraction of the perimeter: < 0 unclosed, > 0 overshoot
    return [_sub_path(loop, start, per * (1.0 + closure))]


def _draw_polygon(vertices, P: Params, rng: random.Random, cut: float, bulge: float, max_strokes: int = 4) -> list:
    """A polygon in one stroke (a rounded loop) or in 2..max_strokes strokes of consecutive edges."""
    v = np.asarray(vertices, float)
    n = len(v)
    bulges = [rng.uniform(-1, 1) * bulge for _ in range(n)]
    if rng.random() < 0.55:
        loop = _rounded_polygon(v, cut, bulges)
        if rng.random() < 0.6:  # start at a corner (the usual way), else anywhere
            k = rng.randrange(n)
            cum = _arclen(loop)
            idx = int(np.argmin(np.linalg.norm(loop - v[k], axis=1)))
            per = cum[-1]
            if rng.random() < 0.5:
                loop = loop[::-1].copy()
                idx = len(loop) - 1 - idx
                cum = _arclen(loop)
            closure = P.draw(-0.07, 0.14)
            return [_sub_path(loop, cum[idx], per * (1.0 + closure))]
        return _draw_loop(loop, P, rng)
    # Several strokes: split the edge cycle at k corners.
    k = rng.randint(2, min(max_strokes, n))
    first = rng.randrange(n)
    cuts = sorted(rng.sample(range(n), k))
    chains = []
    for j in range(k):
        a, b = cuts[j], cuts[(j + 1) % k] if j + 1 < k else cuts[0] + n
        chains.append([(first + i) % n for i in range(a, b + 1)])
    strokes = []
    for ch in chains:
        pts = v[ch]
        path = [pts[:1]]
        for i in range(len(pts) - 1):
            path.append(_bow(pts[i], pts[i + 1], bulges[ch[i]])[1:])
        p = np.concatenate(path)
        edge = float(np.linalg.norm(pts[1] - pts[0]))
        p = _extend(p, P.draw(-0.06, 0.12) * edge, P.draw(-0.06, 0.12) * edge)
        if rng.random() < 0.35:
            p = p[::-1]
        strokes.append(p)
    if rng.random() < 0.35:
        rng.shuffle(strokes)
    return strokes


# ---------------------------------------------------------------- the shapes (unit size, centred)

def _rectangle(P: Params, rng: random.Random, ambiguous: bool):
    aspect = P.log_draw(0.3, 3.3)                     # width / height
    w, h = math.sqrt(aspect), 1 / math.sqrt(aspect)
    if ambiguous:
        rho = P.draw(0.5, 1.0)
    else:
        rho = 0.0 if rng.random() < 0.35 else P.draw(0.0, 0.5) ** 1.5 / 0.5 ** 0.5  # mostly small radii
    if rng.random() < 0.55 or rho > 0.15:
        loop = _round_rect(w, h, rho)
        bulge = P.draw(0.0, 0.035)
        loop = loop + _wobble(loop, rng, bulge)
        strokes = _draw_loop(loop, P, rng)
    else:
        verts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
        strokes = _draw_polygon(verts, P, rng, cut=rho, bulge=P.draw(0.0, 0.035))
    return strokes, P.draw(-12, 12), rho


def _triangle(P: Params, rng: random.Random):
    aspect = P.log_draw(0.45, 2.4)
    w, h = math.sqrt(aspect), 1 / math.sqrt(aspect)
    apex = P.draw(-0.6, 0.6) * w / 2
    if rng.random() < 0.15:  # right triangle
        apex = rng.choice([-1, 1]) * w / 2
    verts = [(apex, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    rotation = P.draw(-20, 20) if rng.random() < 0.7 else P.draw(-180, 180)
    return _draw_polygon(verts, P, rng, cut=P.draw(0.0, 0.2), bulge=P.draw(0.0, 0.04), max_strokes=3), rotation


def _diamond(P: Params, rng: random.Random):
    aspect = P.log_draw(0.55, 1.8)
    w, h = math.sqrt(aspect), 1 / math.sqrt(aspect)
    verts = [(0, -h / 2), (w / 2, 0), (0, h / 2), (-w / 2, 0)]
    return _draw_polygon(verts, P, rng, cut=P.draw(0.0, 0.2), bulge=P.draw(0.0, 0.035)), P.draw(-12, 12)


def _ellipse(P: Params, rng: random.Random):
    aspect = P.log_draw(0.33, 3.0) if rng.random() < 0.7 else P.log_draw(0.85, 1.18)  # circles are common
    a, b = math.sqrt(aspect) / 2, 1 / math.sqrt(aspect) / 2
    n = P.draw(1.8, 2.6)  # superellipse exponent: hand-drawn ellipses are often a bit boxy (or pointed)
    th = np.linspace(0, 2 * math.pi, 400)
    c, s = np.cos(th), np.sin(th)
    x = a * np.sign(c) * np.abs(c) ** (2 / n)
    y = b * np.sign(s) * np.abs(s) ** (2 / n)
    amp = P.draw(0.0, 0.06)
    radial = 1 + sum(rng.uniform(-amp, amp) * np.cos(k * th + rng.uniform(0, 2 * math.pi)) for k in (1, 2, 3))
    loop = np.stack([x * radial, y * radial], axis=1)
    loop[-1] = loop[0]
    per = _arclen(loop)[-1]
    if rng.random() < 0.5:
        loop = loop[::-1].copy()
    start = rng.random() * per
    if rng.random() < 0.12:  # two arcs
        split = rng.uniform(0.35, 0.65)
        p1 = _sub_path(loop, start, per * split * (1 + P.draw(-0.05, 0.08)))
        p2 = _sub_path(loop, start + per * split, per * (1 - split) * (1 + P.draw(-0.05, 0.12)))
        if rng.random() < 0.4:
            p2 = p2[::-1]
        return [p1, p2], P.draw(-180, 180)
    closure = P.draw(-0.08, 0.2)
    p = _sub_path(loop, start, per * (1 + closure))
    drift = P.draw(-0.08, 0.08)  # spiralling: the radius drifts along the stroke
    p = p * (1 + drift * np.linspace(0, 1, len(p)))[:, None]
    return [p], P.draw(-180, 180)


def _line(P: Params, rng: random.Random):
    p = _bow((-0.5, 0), (0.5, 0), P.draw(-0.05, 0.05))
    for end in (0, 1):
        if rng.random() < 0.2:  # a little hook where the pen lands or lifts
            L = P.draw(0.015, 0.06)
            ang = rng.uniform(0, 2 * math.pi)
            hook = np.array([math.cos(ang), math.sin(ang)]) * L
            if end == 0:
                p = np.concatenate([(p[0] + hook)[None], p])
            else:
                p = np.concatenate([p, (p[-1] + hook)[None]])
    return [p], P.draw(-180, 180)


def _arrow(P: Params, rng: random.Random):
    curved = rng.random() < 0.2
    shaft = _bow((-0.5, 0), (0.5, 0), P.draw(-0.22, 0.22) if curved else P.draw(-0.05, 0.05))
    tip = shaft[-1]
    d = shaft[-1] - shaft[-6]
    base = math.atan2(d[1], d[0])
    L = P.draw(0.12, 0.4)
    beta = math.radians(P.draw(20, 50))
    asym = P.draw(-0.2, 0.2)
    b1 = tip + L * (1 + asym) * np.array([math.cos(base + math.pi - beta), math.sin(base + math.pi - beta)])
    b2 = tip + L * (1 - asym) * np.array([math.cos(base + math.pi + beta + rng.uniform(-0.1, 0.1)),
                                          math.sin(base + math.pi + beta + rng.uniform(-0.1, 0.1))])
    if rng.random() < 0.5:
        b1, b2 = b2, b1
    style = rng.random()
    if style < 0.45:      # shaft, then the head as one V
        strokes = [shaft, _dense([b1, tip, b2])]
    elif style < 0.6:     # shaft, then two barbs
        strokes = [shaft, _dense([b1, tip])[::-1] if rng.random() < 0.5 else _dense([b1, tip]), _dense([tip, b2])]
    elif style < 0.8:     # one stroke: shaft, out to a barb and back, the other barb
        strokes = [np.concatenate([shaft, _dense([tip, b1, tip, b2])[1:]])]
    elif style < 0.9:     # head first, then the shaft
        strokes = [_dense([b1, tip, b2]), shaft if rng.random() < 0.5 else shaft[::-1]]
    else:                 # closed triangular head
        strokes = [shaft, _dense([tip, b1, b2, tip])]
    return strokes, P.draw(-180, 180)


def _star(P: Params, rng: random.Random):
    jit = P.draw(0.0, 0.1)
    outer = [(-math.pi / 2 + 2 * math.pi * k / 5) for k in range(5)]
    if rng.random() < 0.75:  # pentagram, one stroke
        order = [0, 2, 4, 1, 3]
        s = rng.randrange(5)
        order = order[s:] + order[:s]
        if rng.random() < 0.5:
            order = order[::-1]
        pts = [(0.5 * (1 + rng.uniform(-jit, jit)) * math.cos(outer[k]), 0.5 * (1 + rng.uniform(-jit, jit)) * math.sin(outer[k])) for k in order]
        pts.append(pts[0])
        p = _dense(pts)
        p = _extend(p, 0.0, P.draw(-0.08, 0.1))
        strokes = [p]
    else:  # outline (10 corners)
        inner = P.draw(0.32, 0.5)
        verts = []
        for k in range(5):
            r = 0.5 * (1 + rng.uniform(-jit, jit))
            verts.append((r * math.cos(outer[k]), r * math.sin(outer[k])))
            a = outer[k] + math.pi / 5
            ri = 0.5 * inner * (1 + rng.uniform(-jit, jit))
            verts.append((ri * math.cos(a), ri * math.sin(a)))
        s = 2 * rng.randrange(5)
        verts = verts[s:] + verts[:s]
        loop = _rounded_polygon(verts, 0.0, [rng.uniform(-0.03, 0.03) for _ in verts])
        if rng.random() < 0.5:
            loop = loop[::-1].copy()
        per = _arclen(loop)[-1]
        strokes = [_sub_path(loop, 0.0, per * (1 + P.draw(-0.04, 0.06)))]
    sx = P.log_draw(0.8, 1.25)
    strokes = [s * np.array([sx, 1 / sx]) for s in strokes]
    return strokes, P.draw(-25, 25)


def _check(P: Params, rng: random.Random):
    short = P.draw(0.22, 0.6)
    t1 = math.radians(P.draw(25, 70))     # short arm: down and to the right
    t2 = math.radians(P.draw(35, 75))     # long arm: up and to the right
    b = np.array([0.0, 0.0])
    a = b - short * np.array([math.cos(t1), math.sin(t1)])
    c = b + np.array([math.cos(t2), -math.sin(t2)])
    arm1 = _bow(a, b, P.draw(-0.08, 0.08))
    arm2 = _bow(b, c, P.draw(-0.06, 0.06))
    if rng.random() < 0.88:
        strokes = [np.concatenate([arm1, arm2[1:]])]
    else:
        strokes = [arm1, arm2]
    if rng.random() < 0.1:
        strokes = [s[::-1] for s in strokes[::-1]]
    return strokes, P.draw(-15, 15)


def _cross(P: Params, rng: random.Random):
    phi = math.radians(rng.choice([0.0, 45.0]) + P.draw(-25, 25))
    between = math.radians(P.draw(60, 120))
    strokes = []
    for k, ang in enumerate((phi, phi + between)):
        L = 1.0 if k == 0 else P.log_draw(0.7, 1.4)
        f = P.draw(0.3, 0.7)
        d = np.array([math.cos(ang), math.sin(ang)])
        p = _bow(-d * L * f, d * L * (1 - f), P.draw(-0.05, 0.05))
        strokes.append(p if rng.random() < 0.5 else p[::-1])
    if rng.random() < 0.5:
        strokes = strokes[::-1]
    return strokes, 0.0


def _wobble(p: np.ndarray, rng: random.Random, amp: float) -> np.ndarray:
    """A smooth random displacement along the path: the hand's slow drift."""
    if amp <= 0 or len(p) < 2:
        return np.zeros_like(p)
    cum = _arclen(p)
    L = cum[-1] or 1.0
    out = np.zeros_like(p)
    for _ in range(3):
        f = rng.uniform(0.5, 3.0) / L
        for dim in (0, 1):
            out[:, dim] += rng.uniform(-amp, amp) * np.sin(2 * math.pi * f * cum + rng.uniform(0, 2 * math.pi))
    return out


# ---------------------------------------------------------------- the ink

def _finish(strokes: list, rotation_deg: float, P: Params, rng: random.Random, keep_aspect: bool = False) -> list:
    """Hand jitter, affine (rotation, shear, slight stretch), size, position, point density, timestamps."""
    wob = P.draw(0.0, 0.02)
    noise = P.draw(0.0, 0.006)
    out = []
    A = _rot(math.radians(rotation_deg))
    shear = P.draw(-0.1, 0.1)
    A = A @ np.array([[1.0, shear], [0.0, 1.0]])
    if not keep_aspect:
        st = P.log_draw(0.9, 1.11)
        A = A @ np.diag([st, 1 / st])
    size = math.exp(rng.uniform(math.log(40), math.log(600)))
    origin = np.array([rng.uniform(0, 1000), rng.uniform(0, 800)])
    spacing = math.exp(rng.uniform(math.log(0.004), math.log(0.04)))
    t = 0.0
    speed = rng.uniform(0.4, 2.0)  # unit lengths per second
    gen = np.random.default_rng(rng.getrandbits(63))
    for s in strokes:
        s = np.asarray(s, float)
        s = s + _wobble(s, rng, wob)
        # Re-sample at the pen's point density (a digitizer's samples), keep both ends.
        cum = _arclen(s)
        n = max(1, int(cum[-1] / spacing))
        d = np.linspace(0, cum[-1], n + 1)
        s = np.stack([np.interp(d, cum, s[:, 0]), np.interp(d, cum, s[:, 1])], axis=1)
        s = s + gen.normal(0.0, noise, size=s.shape)
        xy = s @ A.T * size + origin
        ts = t + np.arange(len(xy)) * (spacing / speed * 1000.0)
        t = float(ts[-1]) + rng.uniform(80, 400)
        out.append(np.concatenate([xy, np.round(ts)[:, None]], axis=1))
    return out


def generate(label: str, rng: random.Random, held_out: bool = False, ambiguous: bool = False) -> ShapeInk:
    """One ink of class ``label``; ``held_out`` draws shape parameters from the held-out bands."""
    P = Params(rng, held_out)
    target = np.zeros(len(CLASSES))
    keep_aspect = False
    if label == "rectangle":
        strokes, rot, rho = _rectangle(P, rng, ambiguous)
        if ambiguous:
            x = min(max((rho - 0.5) / 0.5, 0.0), 1.0)
            s = x * x * (3 - 2 * x)
            target[CLASS_INDEX["rectangle"]] = 1 - s
            target[CLASS_INDEX["ellipse"]] = s
    else:
        fn = {"triangle": _triangle, "ellipse": _ellipse, "arrow": _arrow, "line": _line, "diamond": _diamond,
              "star": _star, "check": _check, "cross": _cross}[label]
        strokes, rot = fn(P, rng)
        keep_aspect = label in ("line", "arrow")
    if not target.any():
        target[CLASS_INDEX[label]] = 1.0
    return ShapeInk(label, _finish(strokes, rot, P, rng, keep_aspect), target, ambiguous)


def random_ink(rng: random.Random, held_out: bool = False, ambiguous_share: float = 0.12,
               classes: Optional[list] = None) -> ShapeInk:
    classes = classes or CLASSES
    label = rng.choice(classes)
    amb = label == "rectangle" and rng.random() < ambiguous_share
    return generate(label, rng, held_out, amb)


def make_dataset(split: str, n: int, seed: int = 1, ambiguous_share: float = 0.12,
                 classes: Optional[list] = None) -> list:
    """``n`` inks, classes balanced (round robin). ``split`` "train" uses the training parameter ranges;
    "val" and "test" the held-out bands, with random streams of their own."""
    rng = random.Random(SPLIT_SEED_OFFSET[split] + seed)
    classes = classes or CLASSES
    out = []
    for i in range(n):
        label = classes[i % len(classes)]
        amb = label == "rectangle" and rng.random() < ambiguous_share
        out.append(generate(label, rng, held_out=split != "train", ambiguous=amb))
    return out
