"""Cyrillic and Greek words composed from REAL UNIPEN letters, where the handwritten forms are the same.

Handwritten Cyrillic а е о р с у х and Greek α ο ι ν ρ υ χ look like Latin letters; cursive т is written
like m, и like u, п like n. A word made only of such letters can be built from one writer's isolated
UNIPEN characters (``compose.compose_word``, real strokes) and its marks drawn with the writer's pen
(``accents``: й is и with a breve, ё е with a diaeresis, ά α with an acute as tonos). These words are the
real-ink check of the generated Cyrillic and Greek ink; their figures are reported apart from the
generated ones, and the words are few and short (``coverage``).

``HOMOGLYPHS[letter] = (UNIPEN label, transform)``: the letter is drawn as that label's real samples,
``transform``-ed: ``"small"`` scales the sample to the x-height on the baseline (к from k, м from M),
``"lower"`` stretches it down into the descender (χ from x), ``"dotless"`` drops the dot (ι from i).
``MARKED[letter] = (base letter, marks)``: a letter with marks over a homoglyph base.
Which forms are alike is a judgement, marked in the table; a figure on these words says how the network
reads real strokes of these shapes, not how it reads people who write Russian or Greek.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np

from .. import accents, compose

HOMOGLYPHS: dict[str, tuple[str, Optional[str]]] = {
    # Cyrillic lowercase: the printed-alike seven, then the cursive forms
    "а": ("a", None), "е": ("e", None), "о": ("o", None), "р": ("p", None), "с": ("c", None), "у": ("y", None),
    "х": ("x", None), "к": ("k", "small"), "м": ("M", "small"), "т": ("m", None), "и": ("u", None),
    "п": ("n", None), "і": ("i", None), "ј": ("j", None), "ѕ": ("s", None),
    # Cyrillic capitals
    "А": ("A", None), "В": ("B", None), "Е": ("E", None), "К": ("K", None), "М": ("M", None), "Н": ("H", None),
    "О": ("O", None), "Р": ("P", None), "С": ("C", None), "Т": ("T", None), "Х": ("X", None), "І": ("I", None),
    "Ј": ("J", None), "Ѕ": ("S", None),
    # Greek lowercase (α as a, υ as u: common approximations) and capitals
    "α": ("a", None), "ο": ("o", None), "ι": ("i", "dotless"), "κ": ("k", "small"), "ν": ("v", None),
    "ρ": ("p", None), "τ": ("T", "small"), "υ": ("u", None), "χ": ("x", "lower"),
    "Α": ("A", None), "Β": ("B", None), "Ε": ("E", None), "Ζ": ("Z", None), "Η": ("H", None), "Ι": ("I", None),
    "Κ": ("K", None), "Μ": ("M", None), "Ν": ("N", None), "Ο": ("O", None), "Ρ": ("P", None), "Τ": ("T", None),
    "Υ": ("Y", None), "Χ": ("X", None),
}
MARKED: dict[str, tuple[str, tuple[str, ...]]] = {
    "й": ("и", ("breve",)), "ё": ("е", ("diaeresis",)), "ї": ("і", ("dotless", "diaeresis")),
    "ў": ("у", ("breve",)), "ќ": ("к", ("acute",)), "Ё": ("Е", ("diaeresis",)), "Ї": ("І", ("diaeresis",)),
    "ά": ("α", ("acute",)), "ό": ("ο", ("acute",)), "ί": ("ι", ("acute",)), "ύ": ("υ", ("acute",)),
    "ϊ": ("ι", ("diaeresis",)), "ϋ": ("υ", ("diaeresis",)), "ΐ": ("ι", ("diaeresis", "acute")),
    "ΰ": ("υ", ("diaeresis", "acute")),
}
# Homoglyphs that hang below the baseline, and whose later strokes (dots) a writer may add after the word.
DESCENDERS = frozenset("руjј" "ρχ" "Ј")
DELAYABLE = frozenset("ії" "ј")


def base_of(c: str) -> Optional[str]:
    """The homoglyph a letter is drawn on (itself, or the base of a marked letter), or None."""
    if c in HOMOGLYPHS:
        return c
    return MARKED[c][0] if c in MARKED else None


def decompose(c: str) -> Optional[tuple[str, tuple[str, ...]]]:
    """``accents.decompose`` for the marked letters of this table."""
    return MARKED.get(c)


def composable(word: str) -> bool:
    return bool(word) and all(base_of(c) is not None for c in word)


def coverage(words: list[str], freqs: list[float]) -> tuple[int, float]:
    """(how many of ``words`` of two letters or more can be composed, their share of the frequency of all)."""
    total = sum(freqs) or 1.0
    ok = [(w, f) for w, f in zip(words, freqs) if len(w) >= 2 and composable(w)]
    return len(ok), sum(f for _, f in ok) / total


def _transform(sample: list, how: Optional[str], xh: float) -> list:
    if how is None:
        return sample
    pts = np.concatenate(sample)
    x0, x1, top, bottom = pts[:, 0].min(), pts[:, 0].max(), pts[:, 1].min(), pts[:, 1].max()
    if how == "dotless":
        return accents.drop_dot(sample, accents.LetterBox(float(x0), float(x1), float(top), float(bottom), xh))
    if how == "lower":  # χ: stretched down by half its height (compose hangs its top at the x-height line)
        return [np.stack([st[:, 0], top + (st[:, 1] - top) * 1.5], axis=1) for st in sample]
    # "small": scaled about its bottom-left corner to one x-height
    k = xh / max(float(bottom - top), 1e-6)
    return [np.stack([x0 + (st[:, 0] - x0) * k, bottom + (st[:, 1] - bottom) * k], axis=1) for st in sample]


def writer_letters(chars_by_label: dict, xh: float) -> dict:
    """{homoglyph: [samples]} of one writer (``compose.writer_characters``'s value) for every letter of
    ``HOMOGLYPHS`` whose label the writer wrote."""
    out = {}
    for c, (label, how) in HOMOGLYPHS.items():
        if label in chars_by_label:
            out[c] = [_transform(s, how, xh) for s in chars_by_label[label]]
    return out


def compose_word(word: str, letters: dict, rng: random.Random, xh: float, late: float = 0.4) -> Optional[list]:
    """``word`` from one writer's homoglyph samples (``writer_letters``) with the marks of its marked letters
    drawn in the writer's scale, or None when a letter is not composable or the writer lacks its label."""
    if not composable(word):
        return None
    base = "".join(base_of(c) for c in word)
    got = compose.compose_word(base, letters, rng, delay=rng.random() < 0.3, xh=xh,
                               descenders=DESCENDERS | {"χ"}, delayable=DELAYABLE)
    if got is None:
        return None
    strokes, owners, _ = got
    boxes, last = compose.letter_boxes(strokes, owners, len(word))
    if base == word:
        return strokes
    return accents.compose_marks(strokes, boxes, last, base, word, rng, late=late, xh=xh, decompose=decompose)
