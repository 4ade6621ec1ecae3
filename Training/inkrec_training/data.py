"""UNIPEN loading, the writer split, augmentation and synthetic lines."""
from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import charset, inkpack
from .features import ink_features, quantile

DEFAULT_DATA = os.environ.get("INKREC_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))


@dataclass
class Item:
    id: str
    writer: str
    label: str
    strokes: list  # list of (N, 2) float64 arrays
    kind: str


def load(kind: str, data_dir: str = DEFAULT_DATA, limit: Optional[int] = None,
         max_label: int = 80, max_points: int = 4000) -> list[Item]:
    """The usable items of ``{data_dir}/unipen/{kind}.jsonl.gz``, or of ``{kind}.inkpack.xz`` there when the
    JSON Lines file is absent (``inkpack``: the same items, for a machine the data does not travel to)."""
    path = jsonl_path(kind, data_dir)
    if os.path.exists(path) or not os.path.exists(packed_path(kind, data_dir)):
        records = inkpack.records_of_jsonl(path)
        points = lambda s: [p[:2] for p in s]  # noqa: E731
    else:
        records = inkpack.read(packed_path(kind, data_dir))
        points = lambda s: s  # noqa: E731
    out: list[Item] = []
    for d in records:
        label = d["label"].strip()
        if not label or d.get("quality") == "BAD" or not charset.covers(label) or len(label) > max_label:
            continue
        strokes = [np.asarray(points(s), dtype=np.float64) for s in d["strokes"] if len(s) > 0]
        if not strokes or sum(len(s) for s in strokes) > max_points:
            continue
        if kind == "text" and not looks_like_one_line(strokes, label):
            continue
        out.append(Item(d["id"], d["writer"], " ".join(label.split()), strokes, kind))
        if limit and len(out) >= limit:
            break
    return out


def available(kind: str, data_dir: str = DEFAULT_DATA) -> bool:
    """Whether ``load(kind, data_dir)`` has a file to read: ``unipen/{kind}.jsonl.gz`` or its packed form.
    A clone of the repository alone has neither (the data lies in ``../shared/data`` or ``$INKREC_DATA``)."""
    return os.path.exists(jsonl_path(kind, data_dir)) or os.path.exists(packed_path(kind, data_dir))


def jsonl_path(kind: str, data_dir: str = DEFAULT_DATA) -> str:
    """Where ``load`` looks for ``kind`` first (the JSON Lines file of the shared data)."""
    return os.path.join(data_dir, "unipen", f"{kind}.jsonl.gz")


def packed_path(kind: str, data_dir: str = DEFAULT_DATA) -> str:
    """Where ``load`` looks for the packed form of ``kind``."""
    return os.path.join(data_dir, "unipen", f"{kind}.inkpack.xz")


def looks_like_one_line(strokes: list, label: str, min_width_per_char: float = 0.25) -> bool:
    """False for free text written over several lines (a paragraph), which a one-line recognizer
    cannot learn from: its labels are joined into one line, its ink is not. A single line is at
    least ``min_width_per_char`` line heights wide per character (median 0.58 in UNIPEN's text;
    paragraphs sit below 0.1)."""
    allp = np.concatenate(strokes, axis=0)
    h = quantile(allp[:, 1], 0.95) - quantile(allp[:, 1], 0.05)
    w = quantile(allp[:, 0], 0.95) - quantile(allp[:, 0], 0.05)
    return h <= 0 or w / h >= min_width_per_char * max(len(label), 1)


def augment(strokes: list, rng: random.Random) -> list:
    """Random slant, rotation, aspect change and small point noise, about the ink's centre."""
    allp = np.concatenate(strokes, axis=0)
    center = allp.mean(axis=0)
    h = max(quantile(allp[:, 1], 0.95) - quantile(allp[:, 1], 0.05), 1e-6)
    shear = rng.uniform(-0.3, 0.3)
    theta = rng.gauss(0.0, 0.05)
    aspect = float(np.exp(rng.uniform(-0.15, 0.15)))
    c, s = np.cos(theta), np.sin(theta)
    m = np.array([[c, -s], [s, c]]) @ np.array([[aspect, shear], [0.0, 1.0]])
    noise = rng.uniform(0.0, 0.015) * h
    nrng = np.random.default_rng(rng.getrandbits(32))
    out = []
    for st in strokes:
        p = (st - center) @ m.T + center
        if noise > 0:
            p = p + nrng.normal(0.0, noise, size=p.shape)
        out.append(p)
    return out


def warp(strokes: list, rng: random.Random, share: float = 0.7) -> list:
    """Smooth, label-keeping distortions that one affine transform of the whole ink cannot make, for
    ``share`` of the inks (the others come back unchanged):

    - an elastic warp along the line (``h`` = the ink's 5–95% height): letters widened and narrowed by
      ``x + a·sin(2πx/λ + φ)`` (slope at most 0.3, so strokes never fold back), the baseline waving by up
      to 0.06 h, letter size growing and shrinking by up to 10% and the slant drifting by up to ±0.12
      along the line, each with its own wavelength of 1.5–6 h;
    - for half of those inks, each stroke moved on its own (standard deviations): 0.015 h of offset,
      0.03 rad of rotation and 3% of scale about its centre (a dot, a cross-bar, an accent placed a
      little off).

    Applied before ``augment``; all random numbers come from ``rng``."""
    if rng.random() >= share:
        return strokes
    allp = np.concatenate(strokes, axis=0)
    h = max(quantile(allp[:, 1], 0.95) - quantile(allp[:, 1], 0.05), 1e-6)
    cy = float(np.median(allp[:, 1]))
    x0 = float(allp[:, 0].min())

    def wave(max_amp: float, lo: float = 1.5, hi: float = 6.0):
        lam = rng.uniform(lo, hi) * h
        return rng.uniform(0.0, max_amp), 2 * np.pi / lam, rng.uniform(0.0, 2 * np.pi)

    ax, kx, px = wave(1.0)
    ax = min(ax * h, 0.3 / kx)            # |d(x')/dx - 1| <= 0.3: monotone in x
    ay, ky, py = wave(0.06)
    az, kz, pz = wave(0.10)
    asl, ks, ps = wave(0.12)
    per_stroke = rng.random() < 0.5
    nrng = np.random.default_rng(rng.getrandbits(32))
    out = []
    for st in strokes:
        p = np.array(st, dtype=np.float64)
        if per_stroke:
            c = p[:, :2].mean(axis=0)
            t = nrng.normal(0.0, 0.03)
            sc = float(np.exp(nrng.normal(0.0, 0.03)))
            r = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) * sc
            p[:, :2] = (p[:, :2] - c) @ r.T + c + nrng.normal(0.0, 0.015 * h, size=2)
        x = p[:, 0] - x0
        y = p[:, 1]
        nx = p[:, 0] + ax * np.sin(kx * x + px) + asl * np.sin(ks * x + ps) * (cy - y)
        ny = cy + (y - cy) * (1.0 + az * np.sin(kz * x + pz)) + ay * h * np.sin(ky * x + py)
        p[:, 0], p[:, 1] = nx, ny
        out.append(p)
    return out


def synthetic_line(words: list[Item], rng: random.Random) -> tuple[list, str]:
    """Lay out words of one writer (same tablet units) left to right on a jittered baseline."""
    heights = [max(quantile(np.concatenate(w.strokes)[:, 1], 0.95) - quantile(np.concatenate(w.strokes)[:, 1], 0.05), 1.0)
               for w in words]
    lh = float(np.median(heights))
    x = 0.0
    base_y = 0.0
    strokes = []
    for w in words:
        allp = np.concatenate(w.strokes)
        dx = x - allp[:, 0].min()
        dy = base_y - np.median(allp[:, 1]) + rng.gauss(0.0, 0.08) * lh
        for st in w.strokes:
            strokes.append(st + np.array([dx, dy]))
        x = allp[:, 0].max() + dx + rng.uniform(0.35, 1.1) * lh
        base_y += rng.gauss(0.0, 0.04) * lh
    return strokes, " ".join(w.label for w in words)


class TrainingStream:
    """Endless stream of (features, label) pairs mixing words, real lines, synthetic lines and chars."""

    def __init__(self, words, texts, chars, seed: int = 0,
                 mix=(("word", 0.5), ("line", 0.2), ("text", 0.15), ("char", 0.15)),
                 warmup_samples: int = 0,
                 warmup_mix=(("word", 0.65), ("line", 0.1), ("text", 0.0), ("char", 0.25))):
        """``warmup_samples``: the first samples use ``warmup_mix`` (short inks), a curriculum that gets
        CTC past its all-blank plateau sooner."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.words, self.texts, self.chars = words, texts, chars
        self.by_writer: dict[str, list[Item]] = {}
        for w in words:
            self.by_writer.setdefault(w.writer, []).append(w)
        self.writers = [k for k, v in self.by_writer.items() if len(v) >= 2]
        self.synthetic_words = None
        if dict(mix).get("hershey", 0.0) > 0:
            from . import synthetic
            self.synthetic_words = synthetic.word_list()
        self.warp_share = 0.0  # share of inks that `warp` distorts before `augment` (latin train --warp)
        self.languages = None  # a languages.LanguageSources for the kinds "accent", "composed", "langhershey"
        self.scripts = None  # a writing.training.ScriptSources for "script_word", "script_line", "script_real"
        self.kinds = [k for k, _ in mix]
        self.weights = [p for _, p in mix]
        self.warmup_weights = [dict(warmup_mix).get(k, 0.0) for k in self.kinds]
        self.warmup_samples = warmup_samples
        self.count = 0

    def sample(self):
        rng = self.rng
        self.count += 1
        weights = self.warmup_weights if self.count <= self.warmup_samples else self.weights
        kind = rng.choices(self.kinds, weights)[0]
        got = None
        if kind in ("accent", "composed", "langhershey") and self.languages is not None:
            fn = {"accent": self.languages.accent_word, "composed": self.languages.composed_word,
                  "langhershey": self.languages.hershey_text}[kind]
            got = fn(rng)
            if got is None:
                kind = "word"
        elif kind in ("script_word", "script_line", "script_real") and self.scripts is not None:
            fn = {"script_word": self.scripts.word, "script_line": self.scripts.line,
                  "script_real": self.scripts.real_word}[kind]
            got = fn(rng)
            if got is None:
                kind = "word"
        if got is not None:
            strokes, label = got
        elif kind == "hershey" and self.synthetic_words:
            from . import synthetic
            strokes = None
            while strokes is None:
                label = synthetic.sample_text(*self.synthetic_words, rng)
                strokes = synthetic.hershey_ink(label, rng)
        elif kind == "line" and self.writers:
            pool = self.by_writer[rng.choice(self.writers)]
            strokes, label = synthetic_line([rng.choice(pool) for _ in range(rng.randint(2, 5))], rng)
        else:
            src = {"word": self.words, "text": self.texts, "char": self.chars}.get(kind) or self.words
            it = rng.choice(src)
            strokes, label = it.strokes, it.label
        if self.warp_share > 0:
            strokes = warp(strokes, rng, self.warp_share)
        strokes = augment(strokes, rng)
        area = None
        if rng.random() < 0.3:
            allp = np.concatenate(strokes)
            est = quantile(allp[:, 1], 0.95) - quantile(allp[:, 1], 0.05)
            area = est / rng.uniform(0.35, 0.75) if est > 0 else None
        feats = ink_features(strokes, area)
        return feats, label
