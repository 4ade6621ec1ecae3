"""Greek letters for the writer: the single-line Hershey glyphs (``hershey``, ``greeks``), a drawn final ς,
and tonos and dialytika drawn as marks (``accents``: acute, diaeresis), as Greek is written: the letter first,
its accent after it.

``letter(c)`` gives (strokes in x-height units, y down, baseline 0; marks) for every letter of
``alphabets.ALPHABETS["el"]`` and its capitals (capitals with tonos, Ά, take the mark at their upper left
in print; handwriting puts it above, as here). ``word(w)`` gives the list ``writer.write_word`` takes.
"""
from __future__ import annotations

import unicodedata
from typing import Optional

import numpy as np

from . import hershey

# ς: a c whose tail runs down below the baseline and turns back (drawn here; no Hershey font has it).
FINAL_SIGMA = [np.array([[0.62, -0.88], [0.35, -1.0], [0.1, -0.85], [0.0, -0.5], [0.12, -0.15], [0.42, 0.0],
                         [0.55, 0.15], [0.5, 0.35], [0.32, 0.48]])]
MARKS = {"\u0301": "acute", "\u0308": "diaeresis"}


def letter(c: str) -> Optional[tuple[list[np.ndarray], tuple[str, ...]]]:
    if c == "ς":
        return [s.copy() for s in FINAL_SIGMA], ()
    d = unicodedata.normalize("NFD", c)
    base, marks = d[0], tuple(MARKS.get(m) for m in d[1:])
    if any(m is None for m in marks):
        return None
    g = hershey.glyph("greeks", base)
    if g is None:
        return None
    return g, marks


def word(w: str) -> Optional[list[tuple[list[np.ndarray], tuple[str, ...]]]]:
    out = [letter(c) for c in w]
    return None if any(x is None for x in out) else out
