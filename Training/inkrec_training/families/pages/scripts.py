"""Line pools of a generated script (Hebrew, Arabic, ...) for pages: ``pages.make_pages`` takes them as
it takes UNIPEN's held-out writers' lines.

    pool = generated_pool("he", seed=1)
    made = pages.make_pages(pool, 1, 200, min_lines=3, max_lines=6, direction=direction("he"))

Each pseudo-writer is ONE writer of the writer model (``writer.heldout_writer(i)``, ``i`` drawn from
``writer_ids``: 0–99,999 are the ids whose figures are reported, 100,000–199,999 the tuning ones, and
training never draws either, it uses ``writer.train_writer``), and all its lines are written in that style
by ``ScriptSources.line(..., style=)``: two to ``max_words`` words of the language (wordfreq), y down,
``unit`` (100) tablet units per x-height, as UNIPEN's ink is read; small strokes (``late-marks``) are
measured against ``MARK_HEIGHT`` x-heights (``pages.Line.mark_height``). Writers are named ``"he:w01234"``,
lines ``"he:w01234#3"``. The pool is a function of (language, seed, sizes, writer ids).
"""
from __future__ import annotations

import random

import numpy as np

from inkrec_training import pages
from inkrec_training.writing import alphabets, writer
from inkrec_training.writing.training import LETTERS, ScriptSources

# Writer ids of generated ink (as ``scripts evaluate``): reported figures, and tuning (never reported).
WRITER_IDS = {"held-out": (0, 100_000), "training": (100_000, 200_000)}
# Small strokes (``late-marks``) are measured against this many x-heights, about a Hebrew line's height: at
# an Arabic line's own height (~3.3 x-heights) a third of its letter bodies' strokes would pass for dots;
# at 1.25, 7% do, and 97% of the dots and hamzas are found (the letters' traced forms, 1,500 frequent words).
MARK_HEIGHT = 1.25
# Default page sizes of generated pages (issue 40: 3–6 lines).
MIN_LINES, MAX_LINES = 3, 6


def direction(lang: str) -> str:
    """``"rtl"`` for a language written right to left (its script's ``writer.RULES``), else ``"ltr"``."""
    script = alphabets.SCRIPTS.get(lang, "")
    if script not in LETTERS:
        raise ValueError(f"no generated script for language {lang!r} (scripts: {', '.join(sorted(LETTERS))})")
    return writer.RULES[script].writing


def generated_pool(lang: str, seed: int = 1, writers: int = 50, lines_per_writer: int = 10, max_words: int = 5,
                   writer_ids: tuple[int, int] = WRITER_IDS["held-out"], unit: float = 100.0,
                   source: ScriptSources | None = None) -> dict[str, list[pages.Line]]:
    """``writers`` distinct held-out writers with ``lines_per_writer`` generated lines each (module doc)."""
    src = source or ScriptSources([lang], heldout=True, writer_ids=writer_ids)
    rng = random.Random(f"inkrec-pages-{lang}:{seed}:{writer_ids[0]}-{writer_ids[1]}")
    ids: list[int] = []
    while len(ids) < writers:
        i = rng.randrange(*writer_ids)
        if i not in ids:
            ids.append(i)
    pool: dict[str, list[pages.Line]] = {}
    for i in ids:
        style = writer.heldout_writer(i)
        name = f"{lang}:w{i:05d}"
        lines: list[pages.Line] = []
        for _ in range(20 * lines_per_writer):
            if len(lines) == lines_per_writer:
                break
            got = src.line(rng, lang, unit=unit, max_words=max_words, style=style)
            if got is None:
                continue
            strokes = [np.asarray(s, dtype=np.float64)[:, :2] for s in got[0] if len(s)]
            lines.append(pages.Line(f"{name}#{len(lines)}", name, got[1], strokes, MARK_HEIGHT * unit))
        pool[name] = lines
    return pool
