"""Greek letters for the writer: the single-line Hershey glyphs (``hershey``, ``greeks``), a drawn final ς,
and tonos and dialytika drawn as marks (``accents``: acute, diaeresis), as Greek is written: the letter first,
its accent after it.

θ is drawn here too: the simplex font's θ is the cursive ϑ, which Greek writers do not use for θ; handwritten
θ is a tall closed oval crossed by a bar (two strokes, the oval from its top, anticlockwise).

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
_t = np.linspace(0.0, 2.0 * np.pi, 33)
THETA = [np.stack([0.27 - 0.27 * np.sin(_t), -0.73 - 0.73 * np.cos(_t)], axis=1),
         np.array([[0.02, -0.74], [0.52, -0.72]])]
MARKS = {"\u0301": "acute", "\u0308": "diaeresis"}


def letter(c: str) -> Optional[tuple[list[np.ndarray], tuple[str, ...]]]:
    if c == "ς":
        return [s.copy() for s in FINAL_SIGMA], ()
    if c == "θ":
        return [s.copy() for s in THETA], ()
    d = unicodedata.normalize("NFD", c)
    base, marks = d[0], tuple(MARKS.get(m) for m in d[1:])
    if any(m is None for m in marks):
        return None
    g = hershey.glyph("greeks", base)
    if g is None:
        return None
    return g, marks


def word(w: str, rng=None, heldout: bool = False, hold_out_forms: bool = False
         ) -> Optional[list[tuple[list[np.ndarray], tuple[str, ...]]]]:
    """The letters of ``w`` as ``writer.write_word`` takes them, or None when one is not covered. Every Greek
    letter has one drawn form, so ``rng``, ``heldout`` and ``hold_out_forms`` (``writing.training``'s
    arguments, as for ``cyrillic.word``) change nothing."""
    out = [letter(c) for c in w]
    return None if any(x is None for x in out) else out
