"""The writer model: one character (or letter) written by one of many generated writers, sampled as a pen would.

Lifted from the CJK generator (``cjk.py``, which now calls it) so that every script's generator uses the
same writer. A *writer* is a ``Style``: a set of parameters drawn once from its id; training uses ids
``0 .. TRAIN_WRITERS-1`` and every figure uses ids from ``HELDOUT_WRITER_BASE`` on, never trained on.

* ``char_strokes``: a glyph's centre lines varied as that writer varies them (stroke order swaps, a stroke
  drawn backwards, each stroke's length, angle and position, a smooth elastic field, slant, rotation and
  aspect about the glyph's centre, joins between consecutive strokes);
* ``pen``: strokes sampled at 100 Hz along a minimum-jerk speed profile with tremor, ``[x, y, t]``;
* ``ScriptRules`` / ``RULES``: what differs between scripts, as data: how a glyph sits (an em box for CJK
  and Hangul, a baseline and an x-height for alphabets), the stroke order and direction to normalize
  traced glyphs to, what joins (strokes inside a character, or letters inside a word), which marks a
  writer adds after the word, and the gaps. ``write_word`` writes a word of baseline glyphs by these rules.

Units: ``char_strokes`` and ``pen`` work in em (CJK) or x-height (alphabets) units, y down.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .. import accents, synthetic

TRAIN_WRITERS = 100_000
HELDOUT_WRITER_BASE = 10_000_000


@dataclass(frozen=True)
class Style:
    """One writer's generator parameters."""
    slant: float        # shear: x += slant * (0.5 - y)
    rotation: float     # radians
    aspect: float       # width / height
    stroke_scale: float  # sd of a stroke's length factor
    stroke_angle: float  # sd of a stroke's rotation (radians)
    stroke_shift: float  # sd of a stroke's shift (em)
    elastic: float      # amplitude of the smooth warp (em)
    join: float         # probability that two consecutive strokes are joined by the pen's path
    swap: float         # probability per character of two neighbouring strokes swapped
    reverse: float      # probability per stroke of being drawn backwards
    size_var: float     # sd of log character size inside a line
    spacing: float      # mean gap between characters (em)
    drift: float        # sd of the baseline's random walk per character (em)
    tremor: float       # sd of the pen's tremor (em)
    speed: float        # pen speed (em per second)
    font: str = "futural"  # Hershey font of Latin letters and digits

    @staticmethod
    def for_writer(writer: int) -> "Style":
        r = random.Random(writer * 7919 + 17)
        return Style(slant=r.gauss(0.0, 0.10), rotation=r.gauss(0.0, 0.04), aspect=math.exp(r.gauss(0.0, 0.08)),
                     stroke_scale=r.uniform(0.03, 0.12), stroke_angle=r.uniform(0.02, 0.10),
                     stroke_shift=r.uniform(0.005, 0.03), elastic=r.uniform(0.0, 0.04),
                     join=r.choice((0.0, 0.0, r.uniform(0.0, 0.2), r.uniform(0.1, 0.5))),
                     swap=r.uniform(0.0, 0.15), reverse=r.uniform(0.0, 0.03), size_var=r.uniform(0.02, 0.12),
                     spacing=r.uniform(0.03, 0.35), drift=r.uniform(0.0, 0.04), tremor=r.uniform(0.0, 0.004),
                     speed=r.uniform(2.0, 6.0), font=r.choice(synthetic.FONTS))


def train_writer(rng: random.Random) -> Style:
    return Style.for_writer(rng.randrange(TRAIN_WRITERS))


def heldout_writer(i: int) -> Style:
    return Style.for_writer(HELDOUT_WRITER_BASE + i)


def _rot(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def _join_path(a: np.ndarray, b: np.ndarray, rng: random.Random) -> np.ndarray:
    """The pen's path from point a to b: a slightly bent curve."""
    d = b - a
    n = np.array([-d[1], d[0]])
    mid = (a + b) / 2 + n * rng.uniform(-0.25, 0.25)
    t = np.linspace(0, 1, 6)[1:-1, None]
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * mid + t * t * b


def char_strokes(glyph: Sequence[np.ndarray], style: Style, rng: random.Random,
                 centre: Sequence[float] = (0.5, 0.5), join_reach: float = 0.6) -> list[np.ndarray]:
    """One character written by ``style``: strokes in em units (x right, y down), before placement. The
    writer's slant, rotation and aspect turn it about ``centre`` (the em box's, for CJK); consecutive
    strokes closer than ``join_reach`` may be joined by the pen's path."""
    strokes = [np.asarray(s, dtype=np.float64).copy() for s in glyph if len(s)]
    if len(strokes) >= 2 and rng.random() < style.swap:
        k = rng.randrange(len(strokes) - 1)
        strokes[k], strokes[k + 1] = strokes[k + 1], strokes[k]
    out = []
    for s in strokes:
        if len(s) >= 2 and rng.random() < style.reverse:
            s = s[::-1].copy()
        o = s[0]
        f = math.exp(rng.gauss(0.0, style.stroke_scale))
        m = _rot(rng.gauss(0.0, style.stroke_angle)) * f
        s = (s - o) @ m.T + o + np.array([rng.gauss(0, style.stroke_shift), rng.gauss(0, style.stroke_shift)])
        out.append(s)
    # Smooth elastic field over the em box.
    if style.elastic > 0:
        amp = style.elastic * rng.uniform(0.3, 1.0)
        waves = [(rng.uniform(1, 3) * math.pi, rng.uniform(1, 3) * math.pi, rng.uniform(0, 2 * math.pi),
                  rng.uniform(0, 2 * math.pi)) for _ in range(2)]
        for i, s in enumerate(out):
            d = np.zeros_like(s)
            for kx, ky, p1, p2 in waves:
                d[:, 0] += np.sin(ky * s[:, 1] + p1)
                d[:, 1] += np.sin(kx * s[:, 0] + p2)
            out[i] = s + amp * d / len(waves)
    # The writer's slant, rotation and aspect, with a little per-character variation, about the centre.
    m = _rot(style.rotation + rng.gauss(0, 0.02)) @ np.array([[style.aspect * math.exp(rng.gauss(0, 0.03)), 0], [0, 1]])
    m = np.array([[1.0, -(style.slant + rng.gauss(0, 0.03))], [0.0, 1.0]]) @ m
    c = np.asarray(centre, dtype=np.float64)
    out = [(s - c) @ m.T + c for s in out]
    # Joins: the pen's path to the next stroke drawn when it is short.
    joined = [out[0]]
    for s in out[1:]:
        prev = joined[-1]
        if rng.random() < style.join and np.linalg.norm(s[0] - prev[-1]) < join_reach:
            joined[-1] = np.concatenate([prev, _join_path(prev[-1], s[0], rng), s])
        else:
            joined.append(s)
    return joined


def pen(strokes: list[np.ndarray], pauses: np.ndarray, style: Style, rng: random.Random) -> list[np.ndarray]:
    """Samples strokes (em units) as a pen would, all of an ink at once: each at 100 Hz along a
    minimum-jerk speed profile (slow at its ends, ``s(u) = 10u^3 - 15u^4 + 6u^5``), its duration its length
    over the writer's speed (±25%), with tremor (a random walk that ends where it starts); ``pauses[i]``
    seconds of pen up after stroke i. Returns ``(N, 3)`` arrays ``[x, y, t]`` (em, seconds). A stroke of
    one point, or of no length, gives one point and lasts 0.05 s."""
    nrng = np.random.default_rng(rng.getrandbits(64))
    S = len(strokes)
    pts = np.concatenate(strokes)
    lens = np.array([len(q) for q in strokes])
    first = np.concatenate([[0], np.cumsum(lens)[:-1]])
    d = np.sqrt((np.diff(pts, axis=0) ** 2).sum(axis=1))
    d[first[1:] - 1] = 1.0  # the jump to the next stroke: a gap that keeps the strokes apart below
    cum = np.concatenate([[0.0], np.cumsum(d)])
    start, end = cum[first], cum[first + lens - 1]
    total = end - start
    dot = total <= 1e-9
    duration = np.where(dot, 0.05, np.maximum(0.03, total / style.speed * nrng.uniform(0.8, 1.25, S)))
    n = np.where(dot, 1, np.maximum(2, (duration * 100).astype(np.int64)))
    out_first = np.concatenate([[0], np.cumsum(n)[:-1]])
    k = np.arange(int(n.sum())) - np.repeat(out_first, n)
    u = k / np.repeat(np.maximum(n - 1, 1), n)
    sdist = np.repeat(start, n) + np.repeat(total, n) * (10 * u ** 3 - 15 * u ** 4 + 6 * u ** 5)
    x = np.interp(sdist, cum, pts[:, 0])
    y = np.interp(sdist, cum, pts[:, 1])
    if style.tremor > 0:
        walk = np.cumsum(nrng.normal(0, style.tremor, (len(u), 2)), axis=0)
        before = np.concatenate([np.zeros((1, 2)), walk[out_first[1:] - 1]])
        walk -= np.repeat(before, n, axis=0)
        last = walk[out_first + n - 1]
        walk -= u[:, None] * np.repeat(last, n, axis=0)  # ends stay put
        x, y = x + walk[:, 0], y + walk[:, 1]
    t0 = np.concatenate([[0.0], np.cumsum(duration + pauses)[:-1]])
    t = np.repeat(t0, n) + u * np.repeat(duration, n)
    allp = np.stack([x, y, t], axis=1)
    return np.split(allp, out_first[1:])




@dataclass(frozen=True)
class ScriptRules:
    """What a script's writer does differently, as data (``RULES``)."""
    script: str
    layout: str                           # "em": a glyph fills a 1 x 1 em box (Han, Hangul); "baseline": x-height 1,
                                          # baseline at y = 0, ascenders to -1.5, descenders to +0.5 (alphabets)
    stroke_order: str = "as drawn"        # or "rows": top to bottom, then left to right (traced or plotter glyphs)
    direction: str = "as drawn"           # or "down-right": an open stroke starts at its top (at its left when flat)
    letter_join: float = 0.0              # how often a letter's last stroke runs into the next letter's first
                                          # (times 0.5 + the writer's join tendency)
    late_marks: frozenset = frozenset()   # marks written after the word (Vietnamese tones), not after their letter
    letter_gap: tuple = (0.08, 0.3)       # gap between letters, in x-heights (baseline layout)
    writing: str = "ltr"                  # or "rtl": letters (and words on a line) go right to left, the
                                          # first letter of the text rightmost (Hebrew, Arabic)
    word_space: bool = True               # False: a line's words are written joined, as one phrase, and its text
                                          # has no space between them (Thai)


RULES: dict[str, ScriptRules] = {
    "Hani": ScriptRules("Hani", "em"),
    "Hang": ScriptRules("Hang", "em", stroke_order="as drawn"),
    "Latn": ScriptRules("Latn", "baseline", letter_join=0.5),
    "Grek": ScriptRules("Grek", "baseline", stroke_order="rows", direction="down-right", letter_join=0.4),
    "Cyrl": ScriptRules("Cyrl", "baseline", letter_join=0.6),
    "Arab": ScriptRules("Arab", "baseline", letter_join=1.0, letter_gap=(0.15, 0.45), writing="rtl"),
    "Hebr": ScriptRules("Hebr", "baseline", letter_join=0.15, letter_gap=(0.1, 0.32), writing="rtl"),
    # Devanagari (writing.devanagari writes it): syllables left to right at the font's advances with a small
    # gap (the headline bridges them), each open stroke from its top or left; no letter joins.
    "Deva": ScriptRules("Deva", "baseline", direction="down-right", letter_gap=(-0.02, 0.12)),
    # Bengali and Tamil (writing.bengali / writing.tamil through writing.indic) as Devanagari: syllables at the
    # font's advances, no letter joins; Tamil has no headline to bridge them, so a little more gap.
    "Beng": ScriptRules("Beng", "baseline", direction="down-right", letter_gap=(-0.02, 0.12)),
    "Taml": ScriptRules("Taml", "baseline", direction="down-right", letter_gap=(0.0, 0.15)),
    # Thai (writing.thai through writing.indic): clusters at Noto Looped Thai's advances, no letter joins, no
    # headline; the gap as Tamil's (a word's letters stand apart, and words on a line follow with no space).
    "Thai": ScriptRules("Thai", "baseline", direction="down-right", letter_gap=(0.0, 0.15), word_space=False),
    "Viet": ScriptRules("Latn", "baseline", letter_join=0.5,
                        late_marks=frozenset({"acute", "grave", "hook_above", "tilde", "dot_below"})),
}


def normalize(glyph: Sequence[np.ndarray], rules: ScriptRules) -> list[np.ndarray]:
    """``glyph``'s strokes in the order and direction ``rules`` ask for (for glyphs whose order is a plotter's
    or a tracer's, not a writer's)."""
    strokes = [np.asarray(s, dtype=np.float64) for s in glyph if len(s)]
    if rules.direction == "down-right":
        out = []
        for s in strokes:
            closed = len(s) > 2 and np.linalg.norm(s[0] - s[-1]) < 1e-6
            dx, dy = s[-1] - s[0]
            backwards = (dy < 0 and abs(dy) >= 0.5 * abs(dx)) or (abs(dy) < 0.5 * abs(dx) and dx < 0)
            out.append(s[::-1].copy() if backwards and not closed else s)
        strokes = out
    if rules.stroke_order == "rows":
        def key(s):
            top = float(s[:, 1].min())
            return (round(top * 4) / 4, float(s[:, 0].min()))
        strokes = sorted(strokes, key=key)
    return strokes


def write_word(letters: Sequence[tuple[Sequence[np.ndarray], Sequence[str]]], rules: ScriptRules, style: Style,
               rng: random.Random, unit: float = 100.0) -> list[np.ndarray]:
    """A word of baseline glyphs written by ``style``: ``letters`` are (glyph strokes in x-height units, y down,
    baseline 0; the names of its marks, ``accents``' shapes drawn above or below it), in text order. Letters go
    left to right (right to left for ``rules.writing == "rtl"``: the first rightmost) with the writer's gaps,
    size changes and baseline drift, some joined to the next by the pen (``rules``),
    marks right after their letter or, for ``rules.late_marks``, after the word. Returns ``[x, y, t]`` arrays,
    ``unit`` per x-height."""
    assert rules.layout == "baseline"
    rtl = rules.writing == "rtl"
    strokes: list[np.ndarray] = []
    pauses: list[float] = []
    tail: list[np.ndarray] = []
    x, base, size = 0.0, 0.0, 1.0
    join = rules.letter_join * (0.5 + style.join)
    prev_joinable = False
    for glyph, marks in letters:
        g = normalize(glyph, rules)
        allp = np.concatenate(g)
        centre = (0.5 * float(allp[:, 0].min() + allp[:, 0].max()), -0.5)
        written = char_strokes(g, style, rng, centre=centre, join_reach=0.5)
        size = float(np.clip(size * math.exp(rng.gauss(0, style.size_var * 0.5)), 0.8, 1.25))
        base = float(np.clip(base + rng.gauss(0, style.drift), -0.2, 0.2))
        allp = np.concatenate(written)
        edge = float(allp[:, 0].max() if rtl else allp[:, 0].min())  # the side that meets the previous letter
        placed = [(s - np.array([edge, 0.0])) * size + np.array([x, base]) for s in written]
        q = np.concatenate(placed)
        box = accents.LetterBox(float(q[:, 0].min()), float(q[:, 0].max()), float(q[:, 1].min()),
                                float(q[:, 1].max()), size)
        drawn = accents.marks_by_mark(tuple(marks), box, rng, 0.05, slant=style.slant)
        if prev_joinable and strokes and rng.random() < join and np.linalg.norm(placed[0][0] - strokes[-1][-1]) < 1.2:
            a, b = strokes[-1][-1], placed[0][0]
            strokes[-1] = np.concatenate([strokes[-1], _join_path(a, b, rng), placed[0]])
            placed = placed[1:]
        for s in placed:
            strokes.append(s)
            pauses.append(rng.uniform(0.03, 0.12))
        prev_joinable = not drawn or all(m in rules.late_marks for m, _ in drawn)
        for m, ms in drawn:
            for s in ms:
                if m in rules.late_marks:
                    tail.append(s)
                else:
                    strokes.append(s)
                    pauses.append(rng.uniform(0.05, 0.15))
        gap = rng.uniform(*rules.letter_gap) * (0.5 + style.spacing * 2)
        x = float(q[:, 0].min()) - gap if rtl else float(q[:, 0].max()) + gap
    for s in tail:
        strokes.append(s)
        pauses.append(rng.uniform(0.05, 0.15))
    scale = np.array([unit, unit, 1.0])
    return [p * scale for p in pen(strokes, np.asarray(pauses), style, rng)]
