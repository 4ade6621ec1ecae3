"""Who is trained on, who is tuned on and who is reported: every split of the project, in one place.

Writers, not items, are split, by a stable hash of their id, so that no figure is measured on a writer
the network or the decoder saw:

- ``is_validation_writer``: about 10% of the UNIPEN writers, never trained on (``split``);
- ``held_out_word_slices``: their words, shuffled once: the reported words, the tuning words, the rest;
- ``writer_half``: a further split of held-out writers into a tuning and a reported half, salted per use
  (``"lang"``: the language figures' composed words; ``"align"``: the alignment figures), so that one
  evaluation's tuning writers are not chosen by another's.
"""
from __future__ import annotations

import collections
import hashlib
import random
from typing import Callable, Iterable, Sequence, TypeVar

T = TypeVar("T")

VALIDATION_PERCENT = 10
"""Share of writers (in percent) held out of training."""
REPORTED_WORDS = 2000
"""Held-out words whose figures the model card reports (``latin evaluate english``, ``latin evaluate hints``)."""
TUNING_WORDS = 600
"""Held-out words after the reported ones, on which decoder weights and calibrations are chosen."""


def bucket(key: str, salt: str = "") -> int:
    """A stable 32-bit number for ``salt + key`` (the first 8 hex digits of its MD5)."""
    return int(hashlib.md5((salt + key).encode("utf-8")).hexdigest()[:8], 16)


def is_validation_writer(writer: str) -> bool:
    """Whether ``writer`` is held out of training (about ``VALIDATION_PERCENT``% of writers)."""
    return bucket(writer) % 100 < VALIDATION_PERCENT


def split(items: Sequence[T]) -> tuple[list[T], list[T]]:
    """(training items, held-out items) by their writer."""
    train = [it for it in items if not is_validation_writer(it.writer)]
    val = [it for it in items if is_validation_writer(it.writer)]
    return train, val


def by_writer(items: Iterable[T], keep: Callable[[str], bool] = lambda writer: True, minimum: int = 0
              ) -> "collections.OrderedDict[str, list[T]]":
    """The items of each writer that ``keep`` accepts, in the order given (writers in the order of their first item,
    each writer's items in writing order), only the writers with at least ``minimum`` items."""
    by: collections.OrderedDict[str, list[T]] = collections.OrderedDict()
    for it in items:
        if keep(it.writer):
            by.setdefault(it.writer, []).append(it)
    return collections.OrderedDict((w, v) for w, v in by.items() if len(v) >= minimum)


def held_out_word_slices(words: Sequence[T], reported: int = REPORTED_WORDS, tuning: int = TUNING_WORDS
                         ) -> tuple[list[T], list[T], list[T]]:
    """(reported, tuning, monitoring) slices of the held-out writers' words (``words`` as ``split`` gives them),
    shuffled with seed 0: the reported words first, then the tuning words, then the rest, which training
    validates on while it runs, so that watching a run never looks at the words whose figures are reported
    or at those the decoder is tuned on. Disjoint; ``words`` is not changed."""
    shuffled = list(words)
    random.Random(0).shuffle(shuffled)
    return shuffled[:reported], shuffled[reported: reported + tuning], shuffled[reported + tuning:]


def writer_half(writer: str, salt: str) -> str:
    """``"tuning"`` or ``"reported"``: the half of held-out writers that ``writer`` is in for the use ``salt``."""
    return "tuning" if bucket(writer, salt) % 2 == 0 else "reported"
