"""Generated CJK handwriting: centre lines (``cjk_glyphs``) turned into the ink of many writers.

A *writer* is a ``Style``: a set of generator parameters drawn once from its id. Training uses writer
ids ``0 .. TRAIN_WRITERS-1``; evaluation uses ids from ``HELDOUT_WRITER_BASE`` on, whose parameters are
never trained on (``Style.for_writer``). For one character the generator
1. picks one of its glyphs (Make Me a Hanzi and/or KanjiVG forms),
2. changes the stroke order a little (two neighbouring strokes swapped, a stroke drawn backwards),
3. varies each stroke: its length and angle about its first point, its position (per-stroke affine),
4. bends the whole character with a smooth elastic field and applies the writer's slant, rotation and
   aspect,
5. joins consecutive strokes as fast writers do (the pen's path between them drawn, semi-cursive),
6. samples the pen along each stroke with a speed profile (slow at the ends, fast in the middle) and a
   little tremor, giving ``[x, y, t]`` points.
A line places 5–15 such characters (and Hershey-font Latin letters and digits, ``synthetic``) left to
right with the writer's size, spacing and baseline drift. Ink units: 100 per em, y down.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from . import synthetic

TRAIN_WRITERS = 100_000
HELDOUT_WRITER_BASE = 10_000_000
EM = 100.0
ASCII = [chr(c) for c in range(32, 127)]


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


def char_strokes(glyph: Sequence[np.ndarray], style: Style, rng: random.Random) -> list[np.ndarray]:
    """One character written by ``style``: strokes in em units (x right, y down), before placement."""
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
    c = np.array([0.5, 0.5])
    out = [(s - c) @ m.T + c for s in out]
    # Joins: the pen's path to the next stroke drawn when it is short.
    joined = [out[0]]
    for s in out[1:]:
        prev = joined[-1]
        if rng.random() < style.join and np.linalg.norm(s[0] - prev[-1]) < 0.6:
            joined[-1] = np.concatenate([prev, _join_path(prev[-1], s[0], rng), s])
        else:
            joined.append(s)
    return joined


def _pen(strokes: list[np.ndarray], pauses: np.ndarray, style: Style, rng: random.Random) -> list[np.ndarray]:
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


@dataclass
class Generator:
    """Writes characters and lines from the glyph cache (``cjk_glyphs.load_cache``)."""
    glyphs: dict            # char -> list of glyphs
    heldout_glyphs: dict    # char -> alternative forms never trained on

    def has(self, c: str) -> bool:
        return c in self.glyphs or (c in ASCII and c != " ")

    def _cell(self, c: str, style: Style, rng: random.Random, variants: Optional[dict] = None
              ) -> Optional[tuple[list[np.ndarray], float, float]]:
        """Strokes of one character in em units placed in its own cell at x = 0, and the cell's width
        and the gap after it."""
        src = variants if variants is not None else self.glyphs
        if c in src:
            strokes = char_strokes(rng.choice(src[c]), style, rng)
            allp = np.concatenate(strokes)
            left, right = float(allp[:, 0].min()), float(allp[:, 0].max())
            full = ord(c) >= 0x3000 or c in "“”‘’…—"
            if c in "。、，．：；！？「」『』（）《》“”‘’・":
                left, right = min(left, 0.1), max(right, 0.9 if full else right)
            return [s - np.array([left, 0]) for s in strokes], right - left, style.spacing
        if c in ASCII and c != " ":
            ink = synthetic.hershey_ink(c, rng, font=style.font)
            if ink is None:
                return None
            # Hershey: cap height about 100 above the baseline at y = 0 (y down, up is negative).
            scale = rng.uniform(0.0058, 0.0072)
            strokes = [np.asarray(s, dtype=np.float64) * scale + np.array([0.0, 0.88]) for s in ink]
            allp = np.concatenate(strokes)
            left, right = float(allp[:, 0].min()), float(allp[:, 0].max())
            return [s - np.array([left, 0]) for s in strokes], max(right - left, 0.05), style.spacing * 0.5 + 0.04
        return None

    def write(self, text: str, style: Style, rng: random.Random, variants: Optional[dict] = None
              ) -> Optional[list[np.ndarray]]:
        """Ink of ``text`` (a character or a line) by ``style``: strokes as ``(N, 3)`` arrays of ``[x, y, t]``,
        100 units per em, or None when a character has no glyph. A space is a wider gap."""
        strokes: list[np.ndarray] = []
        pauses: list[float] = []
        x, base = 0.0, 0.0
        size = 1.0
        for c in text:
            if c == " ":
                x += rng.uniform(0.25, 0.5)
                continue
            cell = self._cell(c, style, rng, variants)
            if cell is None:
                return None
            cs, width, gap = cell
            size = float(np.clip(size * math.exp(rng.gauss(0, style.size_var * 0.5)), 0.75, 1.3))
            base = float(np.clip(base + rng.gauss(0, style.drift), -0.3, 0.3))
            for q in cs:
                strokes.append(q * size + np.array([x, base + (1 - size) * 0.5]))
                pauses.append(rng.uniform(0.05, 0.2))  # pen up
            pauses[-1] += rng.uniform(0.0, 0.3)  # and between characters
            x += width * size + max(0.0, gap + rng.gauss(0, 0.04))
        if not strokes:
            return None
        scale = np.array([EM, EM, 1.0])
        return [q * scale for q in _pen(strokes, np.asarray(pauses), style, rng)]


# Text of the three languages for lines: words by frequency (word lists written by
# ``python3 -m inkrec_training cjk data``), with punctuation, digits and an occasional Latin word.
SENTENCE_END = {"zh-Hans": "。。。！？", "zh-Hant": "。。。！？", "ja": "。。。！？"}
COMMAS = {"zh-Hans": "，，，、：；", "zh-Hant": "，，，、：；", "ja": "、、、、・"}
QUOTES = {"zh-Hans": [("“", "”"), ("《", "》"), ("（", "）")], "zh-Hant": [("「", "」"), ("《", "》"), ("（", "）")],
          "ja": [("「", "」"), ("『", "』"), ("（", "）")]}
LATIN_WORDS = ["OK", "CD", "DNA", "USB", "WiFi", "App", "iPhone", "PDF", "AI", "TV", "NHK", "CEO", "GPS", "Email",
               "km", "kg", "cm", "A", "B", "C", "X", "PC"]


def sample_line(words: Sequence[str], cum_weights: Sequence[float], lang: str, rng: random.Random,
                min_chars: int = 5, max_chars: int = 15) -> str:
    """A line of running text of about ``min_chars..max_chars`` characters."""
    target = rng.randint(min_chars, max_chars)
    out = ""
    while len(out) < target:
        r = rng.random()
        if r < 0.06:
            out += str(rng.choice([rng.randint(0, 99), rng.randint(100, 9999), rng.randint(1900, 2030)]))
        elif r < 0.09:
            out += rng.choice(LATIN_WORDS)
        elif r < 0.15 and out:
            out += rng.choice(COMMAS[lang])
        elif r < 0.18:
            a, b = rng.choice(QUOTES[lang])
            w = rng.choices(words, cum_weights=cum_weights)[0]
            out += a + w + b
        else:
            out += rng.choices(words, cum_weights=cum_weights)[0]
    out = out[:target]
    if rng.random() < 0.3:
        out = out[:-1] + rng.choice(SENTENCE_END[lang])
    return out
