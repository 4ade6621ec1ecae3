"""Synthetic handwritten pages made of real UNIPEN lines, for testing page recognition.

Data: UNIPEN train_r01_v07, International Unipen Foundation, CC BY 4.0 (free-text lines, category 8,
``text.jsonl.gz``). Only **held-out writers** (``splits.is_validation_writer``) are used, so that a page
never shows the recognizer ink of a writer it was trained on.

A page is 2–8 real lines of ONE writer stacked top to bottom. The lines keep their raw scale (one
writer, one tablet: tablet units are comparable) and are only moved, plus small rotations. Each
source line is first levelled (``level``: writers drift on a tablet, and a drifting line stacked
under another would cross it, which no page shows), and items written over two rows (some program
code in UNIPEN's "text" category) are left out (``single_row``).

- each line's height ``h`` is the project's line-height estimate (``q95(y) - q05(y)``, floored by a
  tenth of the median stroke width, as in ``features.py``); it sets the layout, not the ink's scale;
- line pitch: the smallest vertical distance between the centre lines (the middle of the
  ``q05..q95`` band) of two neighbouring lines over their common x range is ``u × (h_a + h_b) / 2``,
  with ``u`` drawn once per page in [1.0, 1.6] and jittered per line (kept in [1.0, 1.6]); since ``h``
  leaves out the outer 5% of points on either side, the descenders of one line and the ascenders
  of the next may overlap in y;
- each line is rotated about its centre by ±2° (baseline drift), then the whole page by ±4°;
- indentation: each line starts 0–1 median line heights right of the margin; a quarter of pages have
  a larger first-line indent (1.5–4 line heights);
- with probability 1/2 the last line is a short line (at most 3 words) of the same writer.

Strokes are written line after line in the original writing order (``plain``). The other variants
change only the stroke order, never the geometry:

- ``inserted-word``: one word of one line (words are found from the x gaps between stroke clusters:
  only gaps larger than the median gap can split words) is moved to the end of the page's strokes,
  as if written later;
- ``inserted-line``: one middle line (neither the first nor the last) is moved to the end of the page;
- ``late-marks``: in one line, the small strokes (i-dots, t-crosses, punctuation: bounding box below
  ``0.35 h`` in both dimensions, or short flat strokes) are moved to the end of that line's strokes.

One more variant, not in ``VARIANTS`` (so that the sets made before it keep their pages), changes the
text instead: ``wrapped`` is running text broken across lines, where each line goes on from the line
above. Every chosen line of at least four words whose word groups (``word_groups``) match its words
one to one is cut at a word boundary (after 40–60% of its words) into two lines of the page, in
writing order; the others stay whole. A page has at least one cut line; lines past ``max_lines`` are
dropped.

Right-to-left scripts (``direction="rtl"``, generated Hebrew or Arabic lines: ``families/pages/scripts.py``)
are laid out mirrored: each line's right end at the margin (minus its indent), so the ragged edge is on
the left and the big first-line indent at the right, with the same random draws as left to right. Word
groups then hold the words from the last (leftmost) to the first, and the page records
``"direction": "rtl"``.

A page is a dict, also valid project ink JSON (the Swift reader skips the extra keys)::

    {"id": "p0003-late-marks", "writer": "sta:hpb0-etb", "variant": "late-marks", "seed": 123456,
     "strokes": [[[x, y], ...], ...],
     "lines": [{"text": "Give me your arm .", "strokes": [0, 1, 2, ...]}, ...],
     "moved": {"line": 1, "strokes": [17, 18], "word": "arm"}}

``lines`` are top to bottom; their ``strokes`` are ascending indices into the page's ``strokes`` and
together cover every stroke exactly once. ``moved`` (absent for ``plain``) names the line whose
strokes the variant moved and their indices on the page (``word``: the word's text when the number of
word groups found equals the label's word count, else null). Points are integers, or floats with one
decimal for tablets with small units (a median line height below 50 units). Timestamps are dropped:
the recognizer does not use them, and moved strokes would need invented ones.

Every page is a function of (line pool, page seed, variant); ``make_pages`` derives page seeds from one
master seed, so ``make_pages(pool, seed, n)[:k] == make_pages(pool, seed, k)``.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import charset, data
from .features import quantile
from inkrec_training import splits

VARIANTS = ("plain", "inserted-word", "inserted-line", "late-marks")
# Writing directions of a page's lines: "rtl" lines are right-aligned (``layout``).
DIRECTIONS = ("ltr", "rtl")
# Variants made on demand only (``make_pages(..., variants=("wrapped",))``).
EXTRA_VARIANTS = ("wrapped",)

# Small-stroke ("late mark") thresholds, in line heights.
MARK_SIZE = 0.35        # both bounding-box sides below this: a dot, a comma, an apostrophe
FLAT_HEIGHT = 0.25      # or flatter than this ...
FLAT_WIDTH = 1.0        # ... and narrower than this (a t-cross, a dash)


@dataclass
class Line:
    """One UNIPEN free-text line: strokes as (N, 2) float arrays, y down, raw tablet units.

    ``mark_height``: the height ``small_marks`` measures small strokes against for ``late-marks``; None
    (UNIPEN) uses the line height. Generated lines of a script whose line height is far from Latin's in
    x-heights set it (Arabic: ascenders and descenders make the line ~3.3 x-heights tall, and half its
    letter bodies would pass for dots)."""
    id: str
    writer: str
    label: str
    strokes: list
    mark_height: Optional[float] = None

    @property
    def words(self) -> list[str]:
        return self.label.split()


def acceptable_label(label: str) -> bool:
    """Printable text the recognizer's character set covers."""
    return bool(label) and label.isprintable() and charset.covers(label)


WRITER_SETS = ("held-out", "training")


def load_lines(data_dir: str = data.DEFAULT_DATA, max_points: int = 4000, max_label: int = 80,
               writers: str = "held-out") -> dict[str, list[Line]]:
    """Held-out writers' one-line free-text items, by writer (writers and items in a fixed order).

    ``writers="training"`` takes the training writers instead: pages for tuning the segmentation,
    so that its settings are never chosen on the held-out writers whose pages are reported.

    The same filters as ``data.load("text")``: not graded BAD, label covered by the character set (and
    printable), one line (``data.looks_like_one_line``), at most ``max_points`` points and
    ``max_label`` characters. Training writers are skipped before their ink is parsed."""
    path = os.path.join(data_dir, "unipen", "text.jsonl.gz")
    if writers not in WRITER_SETS:
        raise ValueError(f"writers must be one of {WRITER_SETS}, not {writers!r}")
    held_out = writers == "held-out"
    pool: dict[str, list[Line]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for row in f:
            d = json.loads(row)
            if splits.is_validation_writer(d["writer"]) != held_out or d.get("quality") == "BAD":
                continue
            label = " ".join(d["label"].split())
            if not acceptable_label(label) or len(label) > max_label:
                continue
            strokes = [np.asarray([p[:2] for p in s], dtype=np.float64) for s in d["strokes"] if len(s) > 0]
            if not strokes or sum(len(s) for s in strokes) > max_points:
                continue
            if not data.looks_like_one_line(strokes, label):
                continue
            strokes = level(strokes)
            if not single_row(strokes):
                continue
            pool.setdefault(d["writer"], []).append(Line(d["id"], d["writer"], label, strokes))
    return dict(sorted(pool.items()))


# ---------------------------------------------------------------------------------------------
# Geometry of one line


def level(strokes: list) -> list:
    """The line rotated about its mean point so that its points' least-squares line is horizontal
    (at most 15°): writers drift up or down on a tablet, and a page stacks its lines level before
    giving each the small rotation of the layout, so that neighbours never cross."""
    allp = np.concatenate(strokes, axis=0)
    m = allp.mean(axis=0)
    d = allp - m
    sxx = float((d[:, 0] ** 2).sum())
    if sxx <= 0:
        return strokes
    degrees = math.degrees(math.atan2(float((d[:, 0] * d[:, 1]).sum()), sxx))
    degrees = max(-15.0, min(15.0, degrees))
    return [_rotate(s, -degrees, m) for s in strokes]


def single_row(strokes: list, limit: float = 3.0) -> bool:
    """False for an item written over two rows (some UNIPEN "text" items of program code are): its
    height (``line_height``) is more than ``limit`` times the median core height (q90 − q10 of y) of
    the upper half of its strokes. Single rows stay below 2.6 (98% below 2.1)."""
    cores = sorted(float(quantile(s[:, 1], 0.9) - quantile(s[:, 1], 0.1)) for s in strokes if len(s) >= 3)
    if not cores:
        return True
    upper = cores[len(cores) // 2:]
    core = upper[len(upper) // 2]
    return core <= 0 or line_height(strokes) <= limit * core


def line_height(strokes: list) -> float:
    """``q95(y) - q05(y)`` floored by a tenth of the median stroke width (``features.py``, v2)."""
    allp = np.concatenate(strokes, axis=0)
    est = quantile(allp[:, 1], 0.95) - quantile(allp[:, 1], 0.05)
    widths = [float(s[:, 0].max() - s[:, 0].min()) for s in strokes]
    est = max(est, 0.1 * float(np.median(widths)))
    return est if est > 0 else 1.0


def line_centre_y(strokes: list) -> float:
    """The middle of the ``q05..q95`` band of y: the line's centre line."""
    y = np.concatenate(strokes, axis=0)[:, 1]
    return 0.5 * (quantile(y, 0.05) + quantile(y, 0.95))


def word_groups(strokes: list, n_words: int) -> Optional[list[list[int]]]:
    """Split a line's strokes into words by horizontal gaps.

    Strokes whose x ranges overlap form a cluster; a gap between neighbouring clusters can split
    words only if it is larger than the median gap, and of those the ``n_words - 1`` largest do.
    Returns the groups (stroke indices, ascending) left to right, or None when no gap qualifies."""
    if n_words < 2 or len(strokes) < 2:
        return None
    spans = sorted((float(s[:, 0].min()), float(s[:, 0].max()), i) for i, s in enumerate(strokes))
    clusters: list[list] = []  # [lo, hi, members]
    for lo, hi, i in spans:
        if clusters and lo <= clusters[-1][1]:
            clusters[-1][1] = max(clusters[-1][1], hi)
            clusters[-1][2].append(i)
        else:
            clusters.append([lo, hi, [i]])
    if len(clusters) < 2:
        return None
    gaps = [clusters[k + 1][0] - clusters[k][1] for k in range(len(clusters) - 1)]
    median = float(np.median(gaps))
    wide = sorted((k for k, g in enumerate(gaps) if g > median), key=lambda k: (-gaps[k], k))
    cuts = sorted(wide[: n_words - 1])
    if not cuts:
        return None
    groups, start = [], 0
    for cut in cuts + [len(clusters) - 1]:
        groups.append(sorted(i for c in clusters[start: cut + 1] for i in c[2]))
        start = cut + 1
    return groups


def small_marks(strokes: list, h: float) -> list[int]:
    """Indices of small strokes: i-dots, commas, apostrophes (bounding box below ``MARK_SIZE h`` in
    both dimensions) and t-crosses or dashes (flatter than ``FLAT_HEIGHT h``, narrower than
    ``FLAT_WIDTH h``)."""
    out = []
    for i, s in enumerate(strokes):
        w = float(s[:, 0].max() - s[:, 0].min())
        hh = float(s[:, 1].max() - s[:, 1].min())
        if (w < MARK_SIZE * h and hh < MARK_SIZE * h) or (hh < FLAT_HEIGHT * h and hh <= w < FLAT_WIDTH * h):
            out.append(i)
    return out


def _rotate(p: np.ndarray, degrees: float, centre) -> np.ndarray:
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    q = p - centre
    return np.stack([c * q[:, 0] - s * q[:, 1], s * q[:, 0] + c * q[:, 1]], axis=1) + centre


# ---------------------------------------------------------------------------------------------
# Pages


def page_seed(seed: int, index: int) -> int:
    """The seed of page ``index`` of a set made with master ``seed`` (stable across Python versions)."""
    return int(hashlib.sha256(f"inkrec-pages:{seed}:{index}".encode()).hexdigest()[:8], 16)


def _choose_lines(pool_lines: list[Line], k: int, rng: random.Random, need_multiword: bool) -> list[Line]:
    idx = list(range(len(pool_lines)))
    rng.shuffle(idx)
    chosen = idx[:k]
    if rng.random() < 0.5:  # a short last line
        short = [i for i in idx[k:] if len(pool_lines[i].words) <= 3]
        if short:
            chosen[-1] = short[0]
        elif len(pool_lines[chosen[-1]].words) > 3:
            shorts = [j for j, i in enumerate(chosen) if len(pool_lines[i].words) <= 3]
            if shorts:  # move a short chosen line last
                chosen.append(chosen.pop(shorts[0]))
    lines = [pool_lines[i] for i in chosen]
    if need_multiword and not any(len(l.words) >= 2 for l in lines):
        multi = [i for i in idx if i not in chosen and len(pool_lines[i].words) >= 2]
        if not multi:
            return []
        chosen[0] = multi[0]
        lines[0] = pool_lines[multi[0]]
    return lines


def wrap(lines: list[Line], rng: random.Random, direction: str = "ltr") -> Optional[list[Line]]:
    """Running text broken across lines (the ``wrapped`` variant): each line of at least four words
    whose word groups match its words is cut in two after 40–60% of its words; None when no line
    could be cut. Right to left, the groups (left to right) are the words from the last."""
    out, cut = [], False
    for line in lines:
        words = line.words
        groups = word_groups(line.strokes, len(words)) if len(words) >= 4 else None
        if not groups or len(groups) != len(words):
            out.append(line)
            continue
        if direction == "rtl":
            groups = groups[::-1]  # in word order: the rightmost first
        k = min(len(words) - 1, max(1, round(rng.uniform(0.4, 0.6) * len(words))))
        for part, (ws, gs) in enumerate(((words[:k], groups[:k]), (words[k:], groups[k:]))):
            keep = sorted(i for g in gs for i in g)
            out.append(Line(f"{line.id}/{part + 1}", line.writer, " ".join(ws), [line.strokes[i] for i in keep],
                            line.mark_height))
        cut = True
    return out if cut else None


def layout(lines: list[Line], rng: random.Random, direction: str = "ltr") -> tuple[list[list[np.ndarray]], list[float]]:
    """Place the lines top to bottom (module docstring); returns each line's placed strokes (same
    order as the source) and its line height. ``direction="rtl"`` (Hebrew, Arabic) mirrors the
    alignment: each line's right end at ``-indent``, so the margin is on the right and the ragged edge
    on the left (the big first-line indent is at the right); the random draws are the same."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
    rtl = direction == "rtl"
    heights = [line_height(l.strokes) for l in lines]
    h_ref = float(np.median(heights))
    base_pitch = rng.uniform(1.0, 1.6)
    big_first_indent = rng.random() < 0.25
    placed: list[list[np.ndarray]] = []
    prev = None  # (centre x, centre y, slope, x min, x max) of the line above
    for i, (line, h) in enumerate(zip(lines, heights)):
        allp = np.concatenate(line.strokes, axis=0)
        x0, x1 = float(allp[:, 0].min()), float(allp[:, 0].max())
        cy = line_centre_y(line.strokes)
        angle = rng.uniform(-2.0, 2.0)
        indent = (rng.uniform(1.5, 4.0) if (i == 0 and big_first_indent) else rng.uniform(0.0, 1.0)) * h_ref
        # the line's own coordinates: left end of its centre line at the origin, rotated about its middle
        # (right to left: the right end at the origin, the line placed at -indent)
        half = 0.5 * (x1 - x0)
        slope = math.tan(math.radians(angle))
        if rtl:
            local = [_rotate(s - (x1, cy), angle, (-half, 0.0)) for s in line.strokes]
            indent = -indent
            lo, hi = indent - 2 * half, indent
            cx = indent - half
        else:
            local = [_rotate(s - (x0, cy), angle, (half, 0.0)) for s in line.strokes]
            lo, hi = indent, indent + 2 * half
            cx = indent + half  # the centre line: y = y_c + slope * (x - cx)
        if prev is None:
            y_c = 0.0
        else:
            pitch = min(1.6, max(1.0, base_pitch + rng.gauss(0.0, 0.08))) * 0.5 * (heights[i - 1] + h)
            pcx, pyc, pslope, plo, phi = prev
            xs = [max(lo, plo), min(hi, phi)]
            if xs[0] > xs[1]:
                xs = [cx]
            # smallest distance between the two centre lines over their common x range == pitch
            y_c = max(pyc + pslope * (x - pcx) + pitch - slope * (x - cx) for x in xs)
        placed.append([p + (indent, y_c) for p in local])
        prev = (cx, y_c, slope, lo, hi)
    # the whole page: rotation about its centre, then moved to a margin of one line height
    allp = np.concatenate([p for line in placed for p in line], axis=0)
    centre = 0.5 * (allp.min(axis=0) + allp.max(axis=0))
    page_angle = rng.uniform(-4.0, 4.0)
    placed = [[_rotate(p, page_angle, centre) for p in line] for line in placed]
    allp = np.concatenate([p for line in placed for p in line], axis=0)
    shift = h_ref - allp.min(axis=0)
    return [[p + shift for p in line] for line in placed], heights


def _plain_order(lines: list[Line]) -> list[tuple[int, int]]:
    return [(li, si) for li, line in enumerate(lines) for si in range(len(line.strokes))]


def words_of_groups(groups: list[list[int]], words: list[str], direction: str = "ltr") -> Optional[list[str]]:
    """The word each of ``word_groups``' groups (left to right) holds: the label's words in order, or
    reversed for right-to-left writing (the first word rightmost); None when the counts differ."""
    if len(groups) != len(words):
        return None
    return list(reversed(words)) if direction == "rtl" else list(words)


def _variant_order(variant: str, lines: list[Line], heights: list[float], rng: random.Random,
                   direction: str = "ltr"):
    """(stroke order as (line, stroke) pairs, moved line index, moved (line, stroke) pairs, word), or
    None when the variant cannot be made from these lines (the caller draws other lines)."""
    plain = _plain_order(lines)
    if variant == "plain":
        return plain, None, [], None
    if variant == "inserted-line":
        if len(lines) < 3:
            return None
        m = rng.randint(1, len(lines) - 2)
        moved = [p for p in plain if p[0] == m]
        return [p for p in plain if p[0] != m] + moved, m, moved, None
    if variant == "inserted-word":
        options = []
        for li, line in enumerate(lines):
            groups = word_groups(line.strokes, len(line.words))
            if not groups:
                continue
            texts = words_of_groups(groups, line.words, direction)
            for gi, g in enumerate(groups):
                moved = [(li, si) for si in g]
                order = [p for p in plain if p[0] != li or p[1] not in g] + moved
                if order != plain:
                    word = texts[gi] if texts else None
                    options.append((order, li, moved, word))
        return rng.choice(options) if options else None
    if variant == "late-marks":
        options = []
        for li, line in enumerate(lines):
            marks = small_marks(line.strokes, heights[li] if line.mark_height is None else line.mark_height)
            if not marks or len(marks) == len(line.strokes):
                continue
            rest = [si for si in range(len(line.strokes)) if si not in marks]
            line_order = [(li, si) for si in rest + marks]
            order = [p for p in plain if p[0] < li] + line_order + [p for p in plain if p[0] > li]
            if order != plain:
                options.append((order, li, [(li, si) for si in marks], None))
        return rng.choice(options) if options else None
    raise ValueError(f"unknown variant {variant!r}")


def _round(p: np.ndarray, decimals: int) -> list:
    q = np.round(p, decimals)
    if decimals == 0:
        return [[int(x), int(y)] for x, y in q]
    return [[round(float(x), decimals), round(float(y), decimals)] for x, y in q]


def make_page(pool: dict[str, list[Line]], seed: int, variant: str, page_id: str,
              min_lines: int = 2, max_lines: int = 8, max_points: Optional[int] = None,
              attempts: int = 50, direction: str = "ltr") -> dict:
    """One page of ``variant`` from ``pool`` (``load_lines``), a function of ``seed`` alone. With
    ``max_points``, lines are drawn again until the page has at most that many points (for small
    fixtures). ``direction="rtl"``: lines of a right-to-left script, right-aligned (``layout``); the
    page then records ``"direction": "rtl"``."""
    if variant not in VARIANTS + EXTRA_VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, not {direction!r}")
    rng = random.Random(seed)
    lo = max(min_lines, 3) if variant == "inserted-line" else min_lines
    writers = [w for w, ls in pool.items() if len(ls) >= lo]
    if variant == "inserted-word":
        writers = [w for w in writers if any(len(l.words) >= 2 for l in pool[w])]
    if not writers:
        raise ValueError(f"no writer has {lo} lines for a {variant} page")
    for _ in range(attempts):
        writer = rng.choice(writers)
        k = rng.randint(lo, max(lo, min(max_lines, len(pool[writer]))))
        lines = _choose_lines(pool[writer], k, rng, need_multiword=variant == "inserted-word")
        if not lines or (max_points and sum(len(st) for l in lines for st in l.strokes) > max_points):
            continue
        if variant == "wrapped":
            lines = wrap(lines, rng, direction)
            if lines is None:
                continue
            lines = lines[:max_lines]
        placed, heights = layout(lines, rng, direction)
        made = _variant_order("plain" if variant == "wrapped" else variant, lines, heights, rng, direction)
        if made is None:
            continue
        order, moved_line, moved, word = made
        decimals = 0 if float(np.median(heights)) >= 50 else 1
        position = {p: n for n, p in enumerate(order)}
        page = {
            "id": page_id, "writer": writer, "variant": variant, "seed": seed,
            "strokes": [_round(placed[li][si], decimals) for li, si in order],
            "lines": [{"text": line.label, "source": line.id,
                       "strokes": sorted(position[(li, si)] for si in range(len(line.strokes)))}
                      for li, line in enumerate(lines)],
        }
        if direction != "ltr":
            page["direction"] = direction
        if moved_line is not None:
            page["moved"] = {"line": moved_line, "strokes": sorted(position[p] for p in moved), "word": word}
        return page
    raise RuntimeError(f"could not make a {variant} page from seed {seed} in {attempts} attempts")


def make_pages(pool: dict[str, list[Line]], seed: int, count: int, variants=VARIANTS,
               min_lines: int = 2, max_lines: int = 8, max_points: Optional[int] = None,
               direction: str = "ltr") -> list[dict]:
    """``count`` pages; page ``i`` has variant ``variants[i % len(variants)]`` and seed
    ``page_seed(seed, i)``, so each variant gets the same number of pages (±1)."""
    return [make_page(pool, page_seed(seed, i), variants[i % len(variants)], f"p{i:04d}-{variants[i % len(variants)]}",
                      min_lines, max_lines, max_points, direction=direction)
            for i in range(count)]


def to_svg(page: dict, boxes: Optional[list] = None, width: int = 900) -> str:
    """An SVG picture of a page: each true line in its own colour, moved strokes dashed, stroke
    order numbers at the start of every stroke, and ``boxes`` (``{"x","y","width","height"}``, e.g.
    a recognizer's line boxes) as grey rectangles."""
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
    allp = np.concatenate([np.asarray(s, dtype=float)[:, :2] for s in page["strokes"] if s], axis=0)
    x0, y0 = allp.min(axis=0)
    x1, y1 = allp.max(axis=0)
    scale = width / max(x1 - x0, 1e-9)
    pad = 10
    height = int((y1 - y0) * scale) + 2 * pad

    def xy(x, y):
        return (x - x0) * scale + pad, (y - y0) * scale + pad

    moved = set(page.get("moved", {}).get("strokes", []))
    line_of = {i: k for k, line in enumerate(page["lines"]) for i in line["strokes"]}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2 * pad}" height="{height}">',
           '<rect width="100%" height="100%" fill="white"/>']
    for b in boxes or []:
        bx, by = xy(b["x"], b["y"])
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{b["width"] * scale:.1f}" height="{b["height"] * scale:.1f}" '
                   'fill="none" stroke="#999" stroke-width="1"/>')
    for i, s in enumerate(page["strokes"]):
        if not s:
            continue
        c = colours[line_of.get(i, 0) % len(colours)]
        pts = " ".join("%.1f,%.1f" % xy(p[0], p[1]) for p in (s if len(s) > 1 else [s[0], s[0]]))
        dash = ' stroke-dasharray="4,2"' if i in moved else ""
        out.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="1.5" stroke-linecap="round"{dash}/>')
        tx, ty = xy(s[0][0], s[0][1])
        out.append(f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="8" fill="#555">{i}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_jsonl(pages: list[dict], path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for p in pages:
            f.write(json.dumps(p, ensure_ascii=False, separators=(",", ":")) + "\n")


def read_jsonl(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(row) for row in f if row.strip()]
