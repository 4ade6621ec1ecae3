"""Handwritten Hebrew letters for the writer: cursive templates drawn by this project (no font is traced).

Hebrew is written by hand in its cursive (*ktav yad*), not in the square letters of print: א like "lc", ב an
arc with its base run back to the left, ח like n, כ like a reversed c, ל a tall stroke looped at its foot,
מ like N, ם like o with a tail, ס like o, צ like 3, ש like e, ת like n with a curled foot; ך ן ף ץ ק reach
below the baseline. ``TEMPLATES[c]`` holds each of the 22 letters and 5 final forms as strokes in writing
order, each a list of control points ``(x, y)`` in the pen's direction, in x-height units (baseline at y = 0,
y down, the x-height line at y = -1, ל's ascender to about -1.55, descenders to about +0.5), the letter's left
edge near x = 0; ``curves.DrawnLetters`` smooths them into curves. The forms were drawn from the letter shapes of
school cursive charts and checked against the cursive font Ktav Yad CLM (Culmus, GPL-2), which was looked
at, never traced or rendered into training data.

Letters that people write in two ways have a variant each; ``HELDOUT_VARIANT[c]`` (the last) can be held out
of training like Cyrillic's (``cyrillic.training_variants``). Hebrew has no capitals; the words are written
right to left (``writer.RULES["Hebr"].writing``), each letter's own strokes as drawn here.

``letter(c)`` gives (strokes, marks) for one letter, ``word(w, rng)`` the list ``writer.write_word`` takes.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np

from .curves import DrawnLetters

Stroke = list[tuple[float, float]]
Glyph = list[Stroke]

# Shared parts: the arc over the top that ה, ח, ר, ד, כ, ב, ק, ך start with (from the left end, over, down
# the right side).
_ARC = [(0.04, -0.84), (0.28, -1.0), (0.52, -0.9), (0.6, -0.55)]

TEMPLATES: dict[str, list[Glyph]] = {
    # א: a tall slanting stroke, then a c beside it whose ends touch it.
    "א": [[[(0.36, -1.28), (0.18, -0.6), (0.0, 0.0)],
           [(0.66, -0.8), (0.46, -0.86), (0.27, -0.55), (0.32, -0.12), (0.5, 0.0), (0.7, -0.06)]]],
    # ב: the arc, down the right side, back along the baseline past the left with a small rise.
    "ב": [[_ARC + [(0.58, -0.2), (0.42, 0.0), (0.3, -0.02), (0.2, -0.2), (0.12, -0.02), (-0.04, 0.0)]],
          [_ARC + [(0.58, -0.18), (0.45, 0.0), (0.2, 0.0), (-0.06, 0.0)]]],
    # ג: a short upstroke with a hook to the right at the top, then a c down to the baseline.
    "ג": [[[(0.42, -1.3), (0.5, -1.06), (0.7, -1.0), (0.7, -1.0), (0.3, -0.86), (0.08, -0.45), (0.16, -0.06),
            (0.44, 0.0)]]],
    # ד: a small 3: the arc, back in to the middle, out and down to the baseline.
    "ד": [[[(0.08, -0.84), (0.3, -1.0), (0.54, -0.9), (0.5, -0.66), (0.32, -0.56), (0.32, -0.56), (0.55, -0.44),
            (0.6, -0.18), (0.48, 0.0), (0.36, 0.0)]]],
    # ה: the arc down to the baseline, then the left leg apart from it.
    "ה": [[_ARC + [(0.6, -0.2), (0.58, 0.0)], [(0.2, -0.42), (0.16, -0.04)]]],
    # ו: one stroke down from the x-height.
    "ו": [[[(0.12, -1.0), (0.06, -0.5), (0.02, 0.0)]]],
    # ז: a hook at the top, then a bowl open to the left down to the baseline.
    "ז": [[[(0.34, -1.22), (0.22, -1.0), (0.26, -0.86), (0.52, -0.82), (0.62, -0.46), (0.48, -0.08), (0.2, 0.0),
            (0.04, -0.06)]]],
    # ח: like n, up from the baseline at the left, over and down.
    "ח": [[[(0.02, 0.0), (0.06, -0.6), (0.14, -0.92), (0.34, -1.0), (0.56, -0.88), (0.62, -0.45), (0.6, 0.0)]]],
    # ט: a c reaching above the x-height at its top right, its foot curling up on the right.
    "ט": [[[(0.64, -1.24), (0.36, -1.08), (0.1, -0.72), (0.04, -0.3), (0.2, -0.02), (0.44, -0.04), (0.6, -0.3)]]],
    # י: a short tick at the x-height.
    "י": [[[(0.14, -1.0), (0.08, -0.78), (0.02, -0.6)]]],
    # כ: a reversed c.
    "כ": [[_ARC + [(0.58, -0.22), (0.4, -0.02), (0.18, 0.0), (0.02, -0.04)]]],
    # ך: the top of כ, then straight down below the baseline.
    "ך": [[_ARC + [(0.5, -0.38), (0.3, -0.34), (0.3, -0.34), (0.22, 0.1), (0.14, 0.5)]],
          [_ARC + [(0.56, -0.3), (0.56, 0.1), (0.52, 0.5)]]],
    # ל: from a hook at the top right, down to the baseline at the left, a loop at the foot.
    "ל": [[[(0.78, -1.42), (0.64, -1.55), (0.48, -1.3), (0.3, -0.7), (0.14, -0.12), (0.02, -0.04), (0.04, -0.3),
            (0.22, -0.44), (0.4, -0.42)]]],
    # ם: o with a tail at its top left.
    "ם": [[[(0.0, -1.02), (0.12, -0.86), (0.34, -0.98), (0.58, -0.86), (0.64, -0.48), (0.5, -0.06), (0.26, -0.02),
            (0.1, -0.26), (0.1, -0.66), (0.2, -0.86)]],
          [[(0.1, -0.9), (0.04, 0.06)], [(0.1, -0.7), (0.34, -0.98), (0.6, -0.84), (0.64, -0.4), (0.46, -0.04),
                                         (0.22, -0.04), (0.1, -0.3)]]],
    # מ: like N: up from the baseline to a small loop at the top left, down to the baseline, up again.
    "מ": [[[(0.0, -0.02), (0.12, -0.7), (0.2, -0.96), (0.28, -0.9), (0.3, -0.6), (0.44, 0.0), (0.44, 0.0),
            (0.62, -0.5), (0.72, -1.02)]]],
    # ן: one long stroke down below the baseline.
    "ן": [[[(0.2, -1.0), (0.1, -0.2), (0.0, 0.5)]]],
    # נ: a J on the baseline.
    "נ": [[[(0.4, -1.0), (0.38, -0.4), (0.3, -0.06), (0.14, 0.0), (0.0, -0.1)]]],
    # ס: an o, from the top, anticlockwise.
    "ס": [[[(0.34, -1.0), (0.1, -0.86), (0.0, -0.45), (0.16, -0.02), (0.44, -0.04), (0.6, -0.44), (0.5, -0.88),
            (0.3, -1.0)]]],
    # ע: from the top left down to a small loop at the bottom, then up to the top right.
    "ע": [[[(0.02, -0.9), (0.14, -0.9), (0.34, -0.5), (0.44, -0.16), (0.34, 0.0), (0.2, -0.1), (0.3, -0.36),
            (0.56, -0.8), (0.68, -1.02)]]],
    # ף: a curl at the top left, over the top and down far below the baseline.
    "ף": [[[(0.18, -0.66), (0.04, -0.84), (0.26, -1.04), (0.56, -1.02), (0.62, -0.72), (0.48, -0.3), (0.34, 0.1),
            (0.24, 0.5)]]],
    # פ: a reversed c whose foot curls back into its middle.
    "פ": [[_ARC + [(0.58, -0.2), (0.4, -0.02), (0.14, -0.04), (0.06, -0.28), (0.22, -0.46), (0.36, -0.32)]]],
    # ץ: a short arm at the top left, then up to the top right and down far below the baseline.
    "ץ": [[[(0.0, -0.96), (0.16, -0.7), (0.4, -0.62), (0.62, -0.92), (0.68, -1.1), (0.68, -1.1), (0.5, -0.4),
            (0.34, 0.5)]]],
    # צ: a 3, its long foot running back to the left on the baseline.
    "צ": [[[(0.12, -0.96), (0.36, -1.08), (0.58, -0.98), (0.54, -0.74), (0.34, -0.6), (0.34, -0.6), (0.58, -0.48),
            (0.66, -0.18), (0.46, 0.0), (0.0, 0.0)]]],
    # ק: the top of כ, then a stroke of its own down below the baseline at the left.
    "ק": [[_ARC + [(0.54, -0.36), (0.42, -0.24)], [(0.24, -0.72), (0.12, -0.1), (0.02, 0.5)]]],
    # ר: the arc down to the baseline.
    "ר": [[_ARC + [(0.6, -0.2), (0.56, 0.0)]]],
    # ש: like e, its tail running out to the right.
    "ש": [[[(0.08, -0.46), (0.4, -0.58), (0.46, -0.86), (0.26, -0.98), (0.06, -0.72), (0.08, -0.22), (0.34, 0.0),
            (0.74, -0.14)]]],
    # ת: like n, its left foot curled out to the left.
    "ת": [[[(-0.06, -0.02), (0.1, -0.1), (0.2, -0.56), (0.32, -0.92), (0.52, -1.0), (0.7, -0.86), (0.74, -0.44),
            (0.7, 0.0)]]],
}

LETTERS = "".join(TEMPLATES)
FINALS = {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}

DRAWN = DrawnLetters(TEMPLATES)
# The held-out form of each letter written more than one way: its last variant.
HELDOUT_VARIANT: dict[str, int] = DRAWN.heldout_variant
training_variants = DRAWN.training_variants


def letter(c: str, variant=None, rng: Optional[random.Random] = None, hold_out_forms: bool = False
           ) -> Optional[tuple[list[np.ndarray], tuple[str, ...]]]:
    """Letter ``c``'s smoothed strokes (float64 ``(N, 2)`` arrays, x-height units, y down, baseline 0) and its
    marks (none: Hebrew is written here without vowel points). ``variant`` as ``DrawnLetters.strokes`` takes
    it. None for a character not drawn."""
    strokes = DRAWN.strokes(c, variant, rng, hold_out_forms)
    return None if strokes is None else (strokes, ())


def word(w: str, rng: random.Random, heldout: bool = False, hold_out_forms: bool = False
         ) -> Optional[list[tuple[list[np.ndarray], tuple[str, ...]]]]:
    """The letters of ``w`` in text (logical) order as ``writer.write_word`` takes them; with a right-to-left
    script's rules it writes the first letter rightmost. None when a character is not drawn."""
    out = [letter(c, "heldout" if heldout else None, rng, hold_out_forms) for c in w]
    return None if any(x is None for x in out) else out
