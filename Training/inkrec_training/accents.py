"""Diacritics drawn onto real handwriting: accented letters that nobody wrote for us.

The shared data holds English handwriting only. An accented letter is composed from a real letter (a
letter located in a real word by forced alignment, ``align.py``, or an isolated UNIPEN character) and
a mark drawn as a stroke of the same pen:

* the mark's size follows the writer's x-height (``xh``), with a random scale of 0.75–1.3;
* it is placed above the letter's top (gap 0.1–0.4 xh) or below its bottom (cedilla, ogonek, comma
  below), at the letter's centre (ogonek: its right end), shifted by the slant at that height;
* it is drawn at the writer's own point spacing, with a small random rotation, a smooth wobble
  and point noise; no pressure and no time stamps (the features use neither);
* it is written right after the letter's last stroke or late, at the end of the word, as real writers
  do both (``late`` chance 0.4 by default).

Marks (combining characters of the letter's canonical decomposition, ``unicodedata.normalize("NFD")``):
acute, grave, circumflex, caron, breve, tilde, macron, dot above, diaeresis (two dots, or 25% of the
time a short bar or two ticks, as many German writers do), ring, double acute, cedilla, ogonek and
comma below, and Vietnamese's horn (ơ ư: a small hook at the letter's upper right), hook above (ả: a
"?" without its dot) and dot below (ạ). A letter with two marks (ấ ậ ợ) gets them stacked
(``draw_marks``): a second mark above sits on the first one's ink (a tone beside a circumflex half the
time at its upper right, as Vietnamese print has it), a mark below goes below. Vietnamese writers often
add the tone marks after the syllable and the shape marks (circumflex, breve, horn) with the letter:
``compose_marks(tone_late=…)`` makes the two lateness choices apart.

Letters without a decomposition get a constructed form: ł Ł (a slanted bar through the
stem), ø Ø (a slash through the bowl), đ Đ (a bar across the stem), ı (i without its dot: the small
strokes above the stem are dropped), İ (I with a dot). ß æ œ ð þ ŋ are not composed from real ink;
the Hershey renderer draws them (``synthetic.py``).

Coordinates follow the ink model: y grows downwards.
"""
from __future__ import annotations

import math
import random
import unicodedata
from dataclasses import dataclass
from typing import Optional

import numpy as np

COMBINING = {
    "\u0301": "acute", "\u0300": "grave", "\u0302": "circumflex", "\u030c": "caron", "\u0306": "breve",
    "\u0303": "tilde", "\u0304": "macron", "\u0307": "dot", "\u0308": "diaeresis", "\u030a": "ring",
    "\u030b": "double_acute", "\u0327": "cedilla", "\u0328": "ogonek", "\u0326": "comma_below",
    "\u031b": "horn", "\u0309": "hook_above", "\u0323": "dot_below",
}
BELOW = {"cedilla", "ogonek", "comma_below", "dot_below"}
# Vietnamese tone marks (written late more often than the letter's shape marks: ``compose_marks``).
TONES = {"acute", "grave", "hook_above", "tilde", "dot_below"}
SPECIAL = {"ł": ("l", "bar_slanted"), "Ł": ("L", "bar_slanted"), "ø": ("o", "slash"), "Ø": ("O", "slash"),
           "đ": ("d", "bar_high"), "Đ": ("D", "bar_stem"), "ı": ("i", "dotless"), "İ": ("I", "dot")}


def decompose(c: str) -> Optional[tuple[str, tuple[str, ...]]]:
    """(base letter, marks) for a letter this module composes, or None (plain letters, ß æ œ ð þ ŋ,
    punctuation)."""
    if c in SPECIAL:
        base, mark = SPECIAL[c]
        return base, (mark,)
    d = unicodedata.normalize("NFD", c)
    if len(d) < 2 or not d[0].isascii() or not d[0].isalpha():
        return None
    marks = tuple(COMBINING.get(m) for m in d[1:])
    if any(m is None for m in marks):
        return None
    return d[0], marks


def base_text(text: str) -> str:
    """``text`` with every composable letter replaced by its base letter."""
    out = []
    for c in text:
        d = decompose(c)
        out.append(d[0] if d else c)
    return "".join(out)


@dataclass
class LetterBox:
    """Where a letter's ink lies: x range, top and bottom (y down), and the writer's x-height."""
    x0: float
    x1: float
    top: float
    bottom: float
    xh: float

    @property
    def cx(self) -> float:
        return 0.5 * (self.x0 + self.x1)


def _shape(mark: str, rng: random.Random) -> list[np.ndarray]:
    """The mark's strokes in x-height units, anchored at (0, 0): above-marks extend upwards (y < 0)
    from their lowest point, below-marks downwards."""
    if mark == "acute":
        return [np.array([[0.16, -0.34], [-0.1, 0.0]]) if rng.random() < 0.7 else np.array([[-0.1, 0.0], [0.16, -0.34]])]
    if mark == "grave":
        return [np.array([[-0.15, -0.34], [0.1, 0.0]])]
    if mark == "circumflex":
        return [np.array([[-0.2, 0.0], [0.0, -0.28], [0.2, 0.0]])]
    if mark == "caron":
        return [np.array([[-0.18, -0.28], [0.0, 0.0], [0.18, -0.28]])]
    if mark == "breve":
        t = np.linspace(math.pi, 2 * math.pi, 9)
        return [np.stack([0.18 * np.cos(t), -0.25 - 0.25 * np.sin(t)], axis=1)]
    if mark == "tilde":
        x = np.linspace(-0.24, 0.24, 11)
        return [np.stack([x, -0.1 - 0.09 * np.sin(2 * math.pi * (x + 0.24) / 0.48)], axis=1)]
    if mark == "macron":
        return [np.array([[-0.24, -0.05], [0.24, -0.05]])]
    if mark == "dot":
        return [_dot(0.0, -0.06, rng)]
    if mark == "diaeresis":
        r = rng.random()
        if r < 0.12:
            return [np.array([[-0.22, -0.06], [0.22, -0.06]])]
        if r < 0.25:
            return [np.array([[-0.14, -0.2], [-0.16, 0.0]]), np.array([[0.16, -0.2], [0.14, 0.0]])]
        return [_dot(-0.15, -0.06, rng), _dot(0.15, -0.06, rng)]
    if mark == "ring":
        t = np.linspace(-math.pi / 2, 1.6 * math.pi, 12)
        return [np.stack([0.12 * np.cos(t), -0.14 + 0.13 * np.sin(t)], axis=1)]
    if mark == "double_acute":
        return [np.array([[-0.02, -0.34], [-0.2, 0.0]]), np.array([[0.22, -0.34], [0.04, 0.0]])]
    if mark == "cedilla":
        return [np.array([[0.0, 0.0], [0.03, 0.12], [0.15, 0.18], [0.12, 0.3], [-0.08, 0.34]])]
    if mark == "comma_below":
        return [np.array([[0.03, 0.02], [0.02, 0.14], [-0.06, 0.3]])]
    if mark == "ogonek":
        return [np.array([[0.0, 0.0], [-0.14, 0.14], [-0.1, 0.3], [0.08, 0.32]])]
    if mark == "horn":  # from the letter's upper right, a short hook up and to the right
        return [np.array([[0.0, 0.0], [0.1, -0.05], [0.18, -0.15], [0.17, -0.27]])]
    if mark == "hook_above":  # a question mark without its dot
        t = np.linspace(1.05 * math.pi, -0.45 * math.pi, 9)
        hook = np.stack([0.1 * np.cos(t), -0.27 + 0.09 * np.sin(t)], axis=1)
        return [np.concatenate([hook, [[0.0, -0.1], [-0.01, 0.0]]])]
    if mark == "dot_below":
        return [_dot(0.0, 0.1, rng)]
    raise ValueError(f"no shape for mark {mark}")


def _dot(x: float, y: float, rng: random.Random) -> np.ndarray:
    # A dot is a tiny stroke: a short tick or a small loop, 0.03-0.09 x-heights across.
    r = rng.uniform(0.03, 0.09)
    a = rng.uniform(0, 2 * math.pi)
    if rng.random() < 0.5:
        return np.array([[x, y], [x + r * math.cos(a), y + r * math.sin(a)]])
    t = np.linspace(0, 2 * math.pi, 7) + a
    return np.stack([x + 0.5 * r * np.cos(t), y + 0.5 * r * np.sin(t)], axis=1)


def _densify(p: np.ndarray, spacing: float) -> np.ndarray:
    if len(p) < 2:
        return p
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    n = max(2, int(math.ceil(cum[-1] / max(spacing, 1e-9))) + 1)
    t = np.linspace(0.0, cum[-1], n)
    return np.stack([np.interp(t, cum, p[:, 0]), np.interp(t, cum, p[:, 1])], axis=1)


def point_spacing(strokes: list) -> float:
    """The median distance between consecutive points of the ink (the pen's sampling density)."""
    d = [np.linalg.norm(np.diff(s, axis=0), axis=1) for s in strokes if len(s) > 1]
    d = np.concatenate(d) if d else np.array([1.0])
    d = d[d > 0]
    return float(np.median(d)) if len(d) else 1.0


def draw_mark(mark: str, box: LetterBox, rng: random.Random, spacing: float, slant: float = 0.0) -> list[np.ndarray]:
    """The strokes of ``mark`` for the letter in ``box``, in the ink's coordinates.

    ``slant``: the writer's slant as dx per unit of height upwards (positive: leaning right)."""
    xh = box.xh
    if mark in ("bar_slanted", "slash", "bar_high", "bar_stem"):
        return [_densify(_through(mark, box, rng), spacing)]
    scale = xh * rng.uniform(0.75, 1.3)
    theta = rng.gauss(0.0, 0.12)
    c, s = math.cos(theta), math.sin(theta)
    rot = np.array([[c, -s], [s, c]])
    if mark == "horn":
        ax = box.x1 - 0.05 * xh
        ay = box.top + rng.uniform(0.05, 0.25) * xh
    elif mark in BELOW:
        ax = box.x1 - 0.1 * xh if mark == "ogonek" else box.cx
        ay = box.bottom + rng.uniform(-0.05, 0.12) * xh
        ax -= slant * (ay - box.bottom)
    else:
        ax = box.cx + rng.gauss(0.0, 0.08) * xh
        ay = box.top - rng.uniform(0.1, 0.4) * xh
        ax += slant * (box.bottom - ay) * 0.8
    out = []
    wob = rng.uniform(0.0, 0.03) * xh
    for st in _shape(mark, rng):
        p = (st * scale) @ rot.T + np.array([ax, ay])
        p = _densify(p, spacing)
        if len(p) > 2 and wob > 0:
            k = rng.uniform(0.5, 2.0)
            ph = rng.uniform(0, 2 * math.pi)
            t = np.linspace(0, 1, len(p))
            p = p + wob * np.stack([np.sin(k * math.pi * t + ph), np.cos(k * math.pi * t + ph)], axis=1)
        p = p + np.random.default_rng(rng.getrandbits(32)).normal(0.0, 0.006 * xh, size=p.shape)
        out.append(p)
    return out


def draw_marks(marks, box: LetterBox, rng: random.Random, spacing: float, slant: float = 0.0) -> list[np.ndarray]:
    """The strokes of a letter's ``marks`` (as ``decompose`` gives them), stacked: the first mark above
    sits over the letter, each further one above the marks' ink drawn so far (a tone beside a
    circumflex or breve half the time at its upper right); marks below and the horn keep their own
    places. With one mark this is ``draw_mark``."""
    return [st for _, got in marks_by_mark(marks, box, rng, spacing, slant) for st in got]


def marks_by_mark(marks, box: LetterBox, rng: random.Random, spacing: float,
                  slant: float = 0.0) -> list[tuple[str, list[np.ndarray]]]:
    """``draw_marks``' strokes, as (mark, its strokes) in the order of ``marks``."""
    out: list[tuple[str, list[np.ndarray]]] = []
    top = box.top
    shape_mark = None
    for m in marks:
        if m == "dotless":
            continue
        b = box
        if m not in BELOW and m != "horn" and top < box.top:
            dx = 0.0
            if shape_mark in ("circumflex", "breve") and m in TONES and rng.random() < 0.5:
                dx = 0.35 * box.xh
            b = LetterBox(box.x0 + dx, box.x1 + dx, top + 0.12 * box.xh, box.bottom, box.xh)
        got = draw_mark(m, b, rng, spacing, slant)
        if m not in BELOW and m != "horn":
            top = min(top, min(float(st[:, 1].min()) for st in got))
            shape_mark = shape_mark or m
        out.append((m, got))
    return out


def _through(mark: str, box: LetterBox, rng: random.Random) -> np.ndarray:
    xh = box.xh
    j = lambda a: rng.uniform(-a, a) * xh  # noqa: E731
    h = box.bottom - box.top
    if mark == "bar_slanted":  # ł: a bar rising to the right through the stem, a little below its middle
        y = box.top + 0.55 * h + j(0.08)
        return np.array([[box.cx - 0.3 * xh + j(0.05), y + 0.15 * xh], [box.cx + 0.3 * xh + j(0.05), y - 0.15 * xh]])
    if mark == "slash":  # ø: from below left to above right, through the bowl
        return np.array([[box.x0 - 0.1 * xh + j(0.05), box.bottom + 0.12 * xh], [box.x1 + 0.1 * xh + j(0.05), box.top - 0.12 * xh]])
    if mark == "bar_high":  # đ: a bar across the ascender, at a fifth of the letter's height
        y = box.top + 0.22 * h + j(0.05)
        return np.array([[box.cx + 0.05 * xh + j(0.05), y], [box.x1 + 0.3 * xh + j(0.05), y + j(0.03)]])
    # Đ: a bar across the stem at mid-height
    y = box.top + 0.5 * h + j(0.05)
    return np.array([[box.x0 - 0.2 * xh + j(0.05), y], [box.x0 + 0.45 * xh + j(0.05), y + j(0.03)]])


def drop_dot(strokes: list, box: LetterBox) -> list:
    """The strokes of an 'i' without its dot: strokes smaller than 0.4 x-heights both ways whose
    bottom lies above the middle of the letter are dropped (the stem is kept even if it is small)."""
    if len(strokes) < 2:
        return strokes
    mid = box.top + 0.5 * (box.bottom - box.top)
    keep = []
    for st in strokes:
        w, h = np.ptp(st[:, 0]), np.ptp(st[:, 1])
        if w < 0.4 * box.xh and h < 0.4 * box.xh and st[:, 1].max() < mid:
            continue
        keep.append(st)
    return keep or strokes


def writer_slant(strokes: list) -> float:
    """A rough slant (dx per unit of upward height) from the ink's long near-vertical segments."""
    num = den = 0.0
    for s in strokes:
        if len(s) < 3:
            continue
        d = np.diff(s[:: max(1, len(s) // 30)], axis=0)
        for dx, dy in d:
            if abs(dy) > 2 * abs(dx) and dy != 0:
                num += -dx * np.sign(dy) * abs(dy)
                den += abs(dy) * abs(dy)
    return float(np.clip(num / den, -0.6, 0.6)) if den > 0 else 0.0


def x_height_of(boxes: np.ndarray, label: str) -> float:
    """The median height of the x-height letters' boxes (a c e m n o r s u v w x z), else of all."""
    hs = [b[3] - b[2] for b, c in zip(boxes, label) if c in "acemnorsuvwxz"]
    if not hs:
        hs = [0.6 * (b[3] - b[2]) for b in boxes]
    return float(max(np.median(hs), 1e-6))


def compose_marks(strokes: list, boxes, last_stroke, label: str, target: str, rng: random.Random,
                  late: float = 0.4, xh: Optional[float] = None, tone_late: Optional[float] = None,
                  decompose=decompose) -> list:
    """``strokes`` (a word whose letters ``label`` lie in ``boxes``, the last stroke of each letter in
    ``last_stroke``) with the marks that turn ``label`` into ``target`` (same length; every changed
    letter's base is the label's letter). Each mark goes right after its letter's last stroke, or (with
    chance ``late``, once per word) all marks at the end of the word. With ``tone_late`` (Vietnamese) the
    tone marks (``TONES``) go to the end of the word with that chance, and the letter's other marks with
    chance ``late``, each choice once per word. ``decompose`` maps a target letter to (base letter, marks)
    (``writing.homoglyphs`` passes one for Cyrillic and Greek letters over Latin ones)."""
    assert len(label) == len(target)
    xh = xh or x_height_of(np.asarray(boxes), label)
    spacing = point_spacing(strokes)
    slant = writer_slant(strokes)
    after: dict[int, list] = {}
    tail: list = []
    drop: set = set()
    all_late = rng.random() < late
    tones_late = rng.random() < tone_late if tone_late is not None else all_late
    out = [np.asarray(s) for s in strokes]
    for i, (a, b) in enumerate(zip(label, target)):
        if a == b:
            continue
        d = decompose(b)
        assert d is not None and d[0] == a, (a, b)
        box = LetterBox(float(boxes[i][0]), float(boxes[i][1]), float(boxes[i][2]), float(boxes[i][3]), xh)
        drawn = marks_by_mark(d[1], box, rng, spacing, slant)
        if "dotless" in d[1]:
            # Drop the dot: small strokes above the letter's middle inside its x range.
            for k, st in enumerate(out):
                w, h = np.ptp(st[:, 0]), np.ptp(st[:, 1])
                cx = st[:, 0].mean()
                if (w < 0.45 * xh and h < 0.45 * xh and st[:, 1].max() < box.top + 0.5 * (box.bottom - box.top)
                        and box.x0 - 0.3 * xh <= cx <= box.x1 + 0.3 * xh):
                    drop.add(k)
        for m, new in drawn:
            if (tones_late if m in TONES else all_late):
                tail.extend(new)
            else:
                after.setdefault(int(last_stroke[i]), []).extend(new)
    result = []
    for k, st in enumerate(out):
        if k not in drop:
            result.append(st)
        result.extend(after.get(k, []))
    return result + tail


def substitution_table(lang: str, n: int = 30000, boost: float = 2.0) -> dict:
    """{base letter: ([accented letters], [probabilities])}: how often language ``lang`` writes each
    composable accented letter instead of its base letter (wordfreq frequencies over its ``n`` most
    frequent words), each share multiplied by ``boost`` (capped at 0.9) so that the marks are common
    in training."""
    from collections import Counter
    from . import charset, wordlists
    cnt: Counter = Counter()
    for w, f in wordlists.top_words(lang, n):
        for c in w:
            cnt[c] += f
            cnt[c.upper()] += f * 0.05
    table: dict = {}
    for c, f in cnt.items():
        if c not in charset.SETS[charset.for_language(lang)]:
            continue
        d = decompose(c)
        if d is None:
            continue
        base = d[0]
        tot = cnt.get(base, 0.0) + sum(v for k, v in cnt.items() if (decompose(k) or ("",))[0] == base)
        table.setdefault(base, ([], []))
        table[base][0].append(c)
        table[base][1].append(min(0.9, boost * f / max(tot, 1e-12)))
    return table


def substitute(label: str, table: dict, rng: random.Random) -> str:
    out = []
    for c in label:
        if c in table:
            letters, probs = table[c]
            r = rng.random()
            acc = 0.0
            pick = c
            for l, p in zip(letters, probs):
                acc += p
                if r < acc:
                    pick = l
                    break
            out.append(pick)
        else:
            out.append(c)
    return "".join(out)
