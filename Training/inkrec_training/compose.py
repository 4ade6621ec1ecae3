"""Words composed from isolated handwritten characters of one writer, with the true character of every
stroke known (for measuring stroke alignment).

Characters keep the writer's own size (one writer's tablet units; ``writer_characters`` leaves out the
samples a writer's data holds in other units). Each is placed left to right with a
gap of 0.1–0.3 x-heights: letters with descenders (g j p q y) hang their top at the x-height line,
all others stand on the baseline. With ``delay`` the later strokes of i, j, t, f and x (dots and bars)
are moved to the end of the word, as writers who dot their i's after the word do.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np

DESCENDERS = set("gjpqy")
X_HEIGHT = set("acemnorsuvwxz")
DELAYABLE = set("ijtfx")


# A sample this many times larger (or, for letters and digits, smaller) than its writer's median letter
# or digit is in other tablet units: some UNIPEN writers' isolated characters mix two recordings
# about 80 times apart (ibm:r03-15's "z" is 4,100 units tall, its "o" 44), and a word composed from
# both has letters a hundred times the size of their neighbours.
OTHER_UNITS = 8.0


def _size(strokes) -> float:
    p = np.concatenate(strokes)
    return float(max(np.ptp(p[:, 0]), np.ptp(p[:, 1])))


def writer_characters(items) -> dict:
    """{writer: {character: [strokes, ...]}} of single-character items (``data.Item``), without the
    samples in other units than the writer's own: a letter or digit more than ``OTHER_UNITS`` times
    larger or smaller than the writer's median letter or digit (by the larger side of its box), any
    other character more than ``OTHER_UNITS`` times larger (dots and commas are legitimately tiny)."""
    grouped: dict = {}
    for it in items:
        if len(it.label) == 1:
            grouped.setdefault(it.writer, {}).setdefault(it.label, []).append(it.strokes)
    out = {}
    for w, by_label in grouped.items():
        sizes = [_size(s) for c, ss in by_label.items() if c.isalnum() for s in ss]
        ref = float(np.median(sizes)) if sizes else 0.0
        kept = {}
        for c, ss in by_label.items():
            if ref > 0:
                ss = [s for s in ss if _size(s) <= OTHER_UNITS * ref and (not c.isalnum() or _size(s) >= ref / OTHER_UNITS)]
            if ss:
                kept[c] = ss
        out[w] = kept
    return out


def x_height(chars_by_label: dict) -> float:
    hs = [np.ptp(np.concatenate(s)[:, 1]) for c, items in chars_by_label.items() if c in X_HEIGHT for s in items]
    return float(np.median(hs)) if hs else 1.0


def compose_word(word: str, chars_by_label: dict, rng: random.Random, delay: bool = False,
                 xh: Optional[float] = None, descenders=DESCENDERS,
                 delayable=DELAYABLE) -> Optional[tuple[list, list, list]]:
    """(strokes, the character index of each stroke, whether each stroke was delayed), or None when the
    writer has no sample of a character of ``word``. ``descenders`` and ``delayable`` are the characters
    that hang below the baseline and whose later strokes may come after the word (Latin letters by default;
    ``writing.homoglyphs`` passes its own)."""
    if any(c not in chars_by_label for c in word):
        return None
    xh = xh or x_height(chars_by_label)
    x = 0.0
    strokes, owners, delayed, late = [], [], [], []
    for i, c in enumerate(word):
        sample = rng.choice(chars_by_label[c])
        pts = np.concatenate(sample)
        dx = x - pts[:, 0].min()
        dy = (-xh - pts[:, 1].min()) if c in descenders else (0.0 - pts[:, 1].max())
        dy += rng.gauss(0, 0.05) * xh
        moved = [st + np.array([dx, dy]) for st in sample]
        for k, st in enumerate(moved):
            if delay and c in delayable and k > 0 and len(moved) > 1:
                late.append((st, i))
            else:
                strokes.append(st)
                owners.append(i)
                delayed.append(False)
        x = pts[:, 0].max() + dx + rng.uniform(0.1, 0.3) * xh
    for st, i in late:
        strokes.append(st)
        owners.append(i)
        delayed.append(True)
    return strokes, owners, delayed


def letter_boxes(strokes: list, owners: list, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(boxes (n, 4) of x0, x1, top, bottom; the index of each letter's last stroke) of a composed word's
    ``n`` letters, from ``compose_word``'s strokes and owners (what ``accents.compose_marks`` takes)."""
    boxes = np.zeros((n, 4))
    last = np.zeros(n, dtype=int)
    for i in range(n):
        ks = [k for k, o in enumerate(owners) if o == i]
        p = np.concatenate([strokes[k] for k in ks])
        boxes[i] = (p[:, 0].min(), p[:, 0].max(), p[:, 1].min(), p[:, 1].max())
        last[i] = max(ks)
    return boxes, last
