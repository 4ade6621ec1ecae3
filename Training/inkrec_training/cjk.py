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

# The writer model lives in ``writing.writer`` (shared by every script's generator); its names stay here.
from .writing.writer import (HELDOUT_WRITER_BASE, TRAIN_WRITERS, Style, char_strokes,  # noqa: F401,E402
                             heldout_writer, pen as _pen, train_writer)

EM = 100.0
ASCII = [chr(c) for c in range(32, 127)]


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
