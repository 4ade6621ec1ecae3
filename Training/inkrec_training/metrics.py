"""Greedy CTC decoding and edit distance, for training-time validation."""
from __future__ import annotations

import numpy as np

from . import charset


def greedy_ids(log_probs: np.ndarray, blank: int = 0) -> list[int]:
    """The classes of the best path of (T, C) log-probabilities, repeats merged and blanks dropped."""
    best = log_probs.argmax(axis=-1)
    out = []
    prev = -1
    for k in best:
        if k != prev and k != blank:
            out.append(int(k))
        prev = k
    return out


def greedy_decode(log_probs: np.ndarray) -> str:
    return charset.decode(greedy_ids(log_probs, charset.BLANK))


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1]
