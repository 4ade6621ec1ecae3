"""Synthetic handwriting from single-stroke (Hershey) fonts, with hand-like variation.

Real UNIPEN ink stays the backbone of training; this adds text the real data lacks (rare words,
punctuation, digits in context, long lines). Each call renders a text in one of a few single-stroke
fonts (``hershey-fonts`` on PyPI) and then disturbs it the way hands and tablets do:

* per-character jitter of position, size and baseline, and variable letter spacing;
* a smooth elastic displacement field (a few random low-frequency sinusoids);
* resampling at a random point density (tablets sample at different rates and pen speeds);
* stroke splitting (a pen lifted mid-stroke) and, rarely, a dropped tiny stroke;
* slant, rotation, aspect and point noise are applied later by ``data.augment`` as for real ink.

Timing is not synthesized: the ``resampled-v1`` features do not use time stamps.
Coordinates follow the ink model: y grows downwards.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np

FONTS = ("futural", "cursive", "scripts", "rowmans", "futuram")
_CACHE: dict = {}


def _font(name: str):
    f = _CACHE.get(name)
    if f is None:
        from HersheyFonts import HersheyFonts
        f = HersheyFonts()
        f.load_default_font(name)
        f.normalize_rendering(100)
        _CACHE[name] = f
    return f


def glyphs(font: str) -> frozenset:
    """The printable ASCII characters that ``font`` draws."""
    key = ("glyphs", font)
    g = _CACHE.get(key)
    if g is None:
        f = _font(font)
        g = frozenset(chr(i) for i in range(33, 127) if len(list(f.strokes_for_text(chr(i)))) > 0)
        _CACHE[key] = g
    return g


def renderable(text: str, font: Optional[str] = None) -> bool:
    """True when every non-space character of ``text`` is drawn by ``font`` (by every font if None)."""
    fonts = [font] if font else FONTS
    return all(c == " " or all(c in glyphs(f) for f in fonts) for c in text)


def _char_strokes(font, c: str) -> list[np.ndarray]:
    return [np.asarray(s, dtype=np.float64) for s in font.strokes_for_text(c) if len(s) > 0]


def _densify(p: np.ndarray, spacing: float) -> np.ndarray:
    if len(p) < 2:
        return p
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    n = max(2, int(np.ceil(cum[-1] / spacing)) + 1)
    t = np.linspace(0.0, cum[-1], n)
    return np.stack([np.interp(t, cum, p[:, 0]), np.interp(t, cum, p[:, 1])], axis=1)


_ALIAS = {"\u201e": ",,", "\u201a": ",", "\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'",
          "\u2026": "...", "\u00ab": "<<", "\u00bb": ">>"}


def _glyph(font, c: str, rng: random.Random) -> list[np.ndarray]:
    """The strokes of ``c`` in the font's units (y up, baseline 25, x-height 50): the font's own glyph,
    or one composed from glyphs and drawn marks (``accents``) for the letters and punctuation the fonts
    lack; [] when neither is possible (£ §)."""
    from . import accents
    own = _char_strokes(font, c) if c.isascii() else []
    if own:
        return own
    if c in _ALIAS:
        out, x = [], 0.0
        small = c in "\u00ab\u00bb"
        for k in _ALIAS[c]:
            g = _char_strokes(font, k)
            if not g:
                return []
            p = np.concatenate(g)
            sc = 0.6 if small else 1.0
            for st in g:
                q = (st - [p[:, 0].min(), 25.0]) * sc + [x, 25.0 + (12.0 if small else 0.0)]
                out.append(q)
            x += (p[:, 0].max() - p[:, 0].min()) * sc + 6.0
        return out
    if c in "\u2013\u2014":
        w = 30.0 if c == "\u2013" else 60.0
        return [np.array([[0.0, 50.0], [w, 50.0]])]
    if c == "\u00b7":
        return [np.array([[0.0, 50.0], [2.0, 51.0]])]
    if c == "\u00b0":
        t = np.linspace(0, 2 * np.pi, 12)
        return [np.stack([8 + 7 * np.cos(t), 92 + 7 * np.sin(t)], axis=1)]
    if c in "\u00a1\u00bf":
        g = _char_strokes(font, "!" if c == "\u00a1" else "?")
        if not g:
            return []
        p = np.concatenate(g)
        cx, top = (p[:, 0].min() + p[:, 0].max()) / 2, p[:, 1].max()
        return [np.stack([2 * cx - st[:, 0], top - st[:, 1] + 25.0 - 25.0 * 0.6], axis=1) for st in g]
    pairs = {"æ": "ae", "œ": "oe", "Æ": "AE", "Œ": "OE"}
    if c in pairs:
        a, b = (_char_strokes(font, k) for k in pairs[c])
        if not a or not b:
            return []
        pa, pb = np.concatenate(a), np.concatenate(b)
        shift = pa[:, 0].max() - pb[:, 0].min() - 0.3 * (pa[:, 0].max() - pa[:, 0].min())
        return a + [st + [shift, 0.0] for st in b]
    if c == "ß":
        g = _greek_b()
        return g
    spec = {"ð": ("d", "bar_high"), "Ð": ("D", "bar_stem"), "þ": ("b", "descender"), "Þ": ("P", "thorn"),
            "ŋ": ("n", "hook"), "Ŋ": ("N", "hook")}
    d = accents.decompose(c)
    if c in spec:
        base, mark = spec[c]
    elif d is not None:
        base, mark = d[0], None
    else:
        return []
    g = _char_strokes(font, base)
    if not g:
        return []
    p = np.concatenate(g)
    x0, x1, lo, hi = p[:, 0].min(), p[:, 0].max(), p[:, 1].min(), p[:, 1].max()
    if mark == "descender":
        xs = x0 + 0.15 * (x1 - x0)
        return g + [np.array([[xs, 30.0], [xs, 0.0]])]
    if mark == "thorn":  # Þ: the P's bowl lowered onto a full stem
        return [st - [0.0, 12.0] for st in g[1:]] + [np.array([[x0, hi], [x0, lo]])]
    if mark == "hook":
        return g + [np.array([[x1, 30.0], [x1, 12.0], [x1 - 4.0, 2.0], [x1 - 12.0, 0.0]])]
    # Marks are drawn in y-down coordinates: flip, draw, flip back.
    box = accents.LetterBox(float(x0), float(x1), float(-hi), float(-lo), 50.0)
    marks = (mark,) if mark else d[1]
    out = [st for st in g]
    if "dotless" in marks and len(out) > 1:
        sizes = [np.ptp(st[:, 0]) + np.ptp(st[:, 1]) for st in out]
        out.pop(int(np.argmin(sizes)))
    for st in accents.draw_marks(marks, box, rng, 3.0):
        out.append(np.stack([st[:, 0], -st[:, 1]], axis=1))
    return out


def _greek_b() -> list[np.ndarray]:
    f = _font("greek")
    return _char_strokes(f, "b")


def hershey_ink(text: str, rng: random.Random, font: Optional[str] = None) -> Optional[list[np.ndarray]]:
    """Strokes (a list of (N, 2) arrays, y down, line height about 100) for ``text``, or None when the
    font lacks a character of it."""
    name = font or rng.choice(FONTS)
    f = _font(name)
    strokes: list[np.ndarray] = []
    x = 0.0
    baseline = 0.0
    size = 1.0
    for c in text:
        if c == " ":
            x += rng.uniform(25.0, 60.0)
            continue
        cs = _glyph(f, c, rng)
        if not cs:
            return None
        allp = np.concatenate(cs)
        left, right = allp[:, 0].min(), allp[:, 0].max()
        size = float(np.clip(size * np.exp(rng.gauss(0.0, 0.05)), 0.8, 1.25))
        baseline = float(np.clip(baseline + rng.gauss(0.0, 2.0), -10.0, 10.0))
        dx = x - left * size
        for s in cs:
            p = s * size
            p[:, 0] += dx
            p[:, 1] = -p[:, 1] + baseline  # Hershey's y grows upwards
            strokes.append(p)
        x = dx + right * size + rng.uniform(2.0, 14.0)
    if not strokes:
        return None
    # Smooth elastic field: displacement = sum of a few sinusoids of x and y.
    amp = rng.uniform(0.0, 4.0)
    waves = [(rng.uniform(0.01, 0.05), rng.uniform(0.01, 0.05), rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi))
             for _ in range(3)]
    spacing = rng.uniform(1.5, 6.0)
    out: list[np.ndarray] = []
    for s in strokes:
        p = _densify(s, spacing)
        for kx, ky, ph1, ph2 in waves:
            p = p + amp * np.stack([np.sin(kx * p[:, 1] + ph1), np.sin(ky * p[:, 0] + ph2)], axis=1)
        if len(p) >= 8 and rng.random() < 0.08:  # pen lifted mid-stroke
            k = rng.randint(3, len(p) - 3)
            out.extend([p[:k], p[k:]])
        else:
            out.append(p)
    return out


def sample_text(words: list[str], weights: list[float], rng: random.Random, max_words: int = 5) -> str:
    """A short text: 1..max_words frequency-weighted words, sometimes capitalised, with punctuation or digits."""
    n = rng.randint(1, max_words)
    ws = rng.choices(words, weights, k=n)
    if rng.random() < 0.3:
        ws[0] = ws[0][:1].upper() + ws[0][1:]
    if rng.random() < 0.1:
        ws.insert(rng.randint(0, len(ws)), str(rng.randint(0, 9999)))
    text = " ".join(ws)
    if rng.random() < 0.25:
        text += rng.choice([".", ",", "!", "?", ":", ";"])
    return text


def word_list(n: int = 20000) -> tuple[list[str], list[float]]:
    """The ``n`` most frequent English words (wordfreq) that the fonts and the charset cover."""
    from . import charset, wordlists
    pairs = [(w, f) for w, f in wordlists.top_words("en", n) if charset.covers(w) and renderable(w)]
    return [w for w, _ in pairs], [f for _, f in pairs]
