"""The Hershey fonts' Cyrillic and Greek glyphs, reached through their layouts.

Every Hershey font maps its glyphs onto the ASCII slots 32–127, so a Cyrillic or Greek letter is found
through a table of slots. The tables below were made by matching the glyph numbers that ``cyrilc_1``,
``greekc`` and ``greeks`` carry (Hershey's own numbering, alphabetical) and checked by eye:

* ``greeks`` (Greek simplex): Α–Ω on A–X and α–ω on a–x, in alphabetical order. Single-line glyphs, 1–4
  strokes a letter: centre lines, usable as they are. No final ς and no accented letter.
* ``cyrillic``: the Cyrillic alphabet spread over A–Z and punctuation slots; *complex* glyphs (serifs, stems
  drawn as two or three parallel lines, 7 strokes a letter): a shape reference, not centre lines. Its
  capital Й slot holds И's glyph again, and Ё, the Ukrainian, Serbian and Macedonian letters are missing.

``glyph(font, letter)`` gives a letter's strokes with y down, in units of the font's x-height, baseline at 0
(``writing`` coordinates); ``None`` when the font has no such letter.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

import numpy as np

_GREEK_UPPER = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
_GREEK_LOWER = "αβγδεζηθικλμνξοπρστυφχψω"
_ASCII_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWX"

LAYOUTS: dict[str, dict[str, str]] = {
    "greeks": {**dict(zip(_GREEK_UPPER, _ASCII_UPPER)), **dict(zip(_GREEK_LOWER, _ASCII_UPPER.lower()))},
    "cyrillic": {
        **dict(zip("АБЭДФГЖИЧКЛМНОПШРСТЮВЩХУЗЕЪЯЬЦЫ", "ABCDFGHIJKLMNOPQRSTUVWXYZ[]^_`$")),
        **dict(zip("абэдйфгжичклмнопшрстювщхузеъяьцы", "abcdefghijklmnopqrstuvwxyz{|}~%&")),
    },
}
CENTRE_LINES = {"greeks": True, "cyrillic": False}


@lru_cache(maxsize=None)
def _font(name: str):
    from HersheyFonts import HersheyFonts
    f = HersheyFonts()
    f.load_default_font(name)
    f.normalize_rendering(100)
    return f


@lru_cache(maxsize=None)
def _metrics(name: str) -> tuple[float, float]:
    """(x-height, baseline) of the font in rendering units: the height of its lowercase ο/о and where it sits."""
    slot = LAYOUTS[name]["ο" if "ο" in LAYOUTS[name] else "о"]
    pts = np.concatenate([np.asarray(s, float) for s in _font(name).strokes_for_text(slot)])
    return float(np.ptp(pts[:, 1])), float(pts[:, 1].min())


def letters(font: str) -> str:
    return "".join(LAYOUTS[font])


def glyph(font: str, letter: str) -> Optional[list[np.ndarray]]:
    """``letter``'s strokes in ``font`` (y down, x-height 1, baseline y = 0, left edge x = 0), or None."""
    slot = LAYOUTS[font].get(letter)
    if slot is None:
        return None
    strokes = [np.asarray(s, float) for s in _font(font).strokes_for_text(slot) if len(s) > 1]
    if not strokes:
        return None
    xh, base = _metrics(font)
    x0 = min(float(s[:, 0].min()) for s in strokes)
    return [np.stack([(s[:, 0] - x0) / xh, -(s[:, 1] - base) / xh], axis=1) for s in strokes]
