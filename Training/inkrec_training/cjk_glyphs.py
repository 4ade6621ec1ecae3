"""Centre lines of CJK characters: where they come from and how they are read.

Sources (each glyph is a list of strokes in writing order, each an ``(N, 2)`` float array in em units,
x right, y down, the em box ``[0, 1]^2``):

- **Make Me a Hanzi** (Arphic Public License; ``../shared/data/cjk/hanzi-medians.jsonl.gz`` and
  ``ARPHICPL.TXT``): 9,574 simplified and traditional Chinese characters, 1024-unit em box.
- **KanjiVG** (CC BY-SA 3.0; the PyPI package ``kanjivg`` installs its SVGs under ``site-packages/kanji``):
  6,703 kanji, hiragana, katakana and a few signs in a 109-unit box, each stroke a cubic Bézier path.
  Files with a suffix (``04e14-Kaisho.svg``, ``-HzFst``, ``-VtLst`` …) are alternative forms or stroke
  orders of the same character. Half of them (by a hash of the file name, ``heldout_variant``) are
  never trained on: the evaluation reads them as unseen variants.
- **Punctuation** drawn here (``PUNCTUATION``): the full-width marks of Chinese and Japanese running text.

``build_cache(out)`` reads every source once into one compressed file (about 3 MB) that the generator
and a GPU machine load; ``load_cache(path)`` reads it back.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import re
from typing import Optional

import numpy as np

HANZI_MEDIANS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "cjk", "hanzi-medians.jsonl.gz")
KVG_BOX = 109.0
HANZI_BOX = 1024.0


def _arc(cx, cy, r, a0, a1, n=10):
    t = np.linspace(a0, a1, n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _pts(*xy):
    return np.asarray(xy, dtype=np.float64).reshape(-1, 2)


# Full-width punctuation, drawn as a writer would in a 1-em cell (y down). Chinese and Japanese put
# 。、，at the bottom left of the cell (Taiwan centres them; the generator's jitter covers some of that).
PUNCTUATION: dict[str, list[np.ndarray]] = {
    "。": [_arc(0.22, 0.80, 0.08, -math.pi / 2, 1.5 * math.pi, 14)],
    "、": [_pts(0.16, 0.70, 0.22, 0.76, 0.28, 0.85)],
    "，": [_pts(0.20, 0.74, 0.23, 0.80, 0.21, 0.87, 0.14, 0.95)],
    "．": [_pts(0.22, 0.82, 0.23, 0.84)],
    "！": [_pts(0.50, 0.08, 0.50, 0.40, 0.50, 0.66), _pts(0.50, 0.84, 0.51, 0.86)],
    "？": [np.concatenate([_arc(0.50, 0.28, 0.18, math.pi * 1.05, math.pi * 2.35, 12), _pts(0.50, 0.52, 0.50, 0.66)]),
          _pts(0.50, 0.84, 0.51, 0.86)],
    "：": [_pts(0.50, 0.34, 0.51, 0.36), _pts(0.50, 0.76, 0.51, 0.78)],
    "；": [_pts(0.50, 0.34, 0.51, 0.36), _pts(0.50, 0.72, 0.52, 0.80, 0.46, 0.90)],
    "「": [_pts(0.70, 0.12, 0.40, 0.12, 0.40, 0.62)],
    "」": [_pts(0.60, 0.38, 0.60, 0.88, 0.30, 0.88)],
    "『": [_pts(0.74, 0.08, 0.34, 0.08, 0.34, 0.64), _pts(0.70, 0.18, 0.46, 0.18, 0.46, 0.54)],
    "』": [_pts(0.54, 0.46, 0.54, 0.82, 0.30, 0.82), _pts(0.66, 0.36, 0.66, 0.92, 0.26, 0.92)],
    "（": [_arc(0.95, 0.50, 0.50, math.pi * 0.78, math.pi * 1.22, 10)[::-1]],
    "）": [_arc(0.05, 0.50, 0.50, -math.pi * 0.22, math.pi * 0.22, 10)],
    "《": [_pts(0.55, 0.15, 0.30, 0.50, 0.55, 0.85), _pts(0.75, 0.15, 0.50, 0.50, 0.75, 0.85)],
    "》": [_pts(0.25, 0.15, 0.50, 0.50, 0.25, 0.85), _pts(0.45, 0.15, 0.70, 0.50, 0.45, 0.85)],
    "“": [_pts(0.62, 0.10, 0.56, 0.24), _pts(0.80, 0.10, 0.74, 0.24)],
    "”": [_pts(0.26, 0.10, 0.20, 0.24), _pts(0.44, 0.10, 0.38, 0.24)],
    "‘": [_pts(0.72, 0.10, 0.66, 0.24)],
    "’": [_pts(0.32, 0.10, 0.26, 0.24)],
    "…": [_pts(0.12, 0.50, 0.13, 0.51), _pts(0.48, 0.50, 0.49, 0.51), _pts(0.84, 0.50, 0.85, 0.51)],
    "—": [_pts(0.02, 0.50, 0.98, 0.50)],
    "・": [_pts(0.49, 0.49, 0.51, 0.52)],
    "〜": [np.stack([np.linspace(0.10, 0.90, 14), 0.50 - 0.08 * np.sin(np.linspace(0, 2 * math.pi, 14))], axis=1)],
}


def kanjivg_dir() -> Optional[str]:
    """The folder of KanjiVG's SVG files that the ``kanjivg`` package installed, or None."""
    try:
        from importlib.metadata import distribution
        d = str(distribution("kanjivg").locate_file("kanji"))
        return d if os.path.isdir(d) else None
    except Exception:
        return None


_TOKEN = re.compile(r"[A-DF-Za-df-z]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_svg_path(d: str, steps: int = 8) -> np.ndarray:
    """Points along an SVG path of M/C/S/L/H/V commands (upper case absolute, lower case relative),
    each cubic sampled at ``steps`` points. KanjiVG's strokes are one open path each."""
    toks = _TOKEN.findall(d)
    pts: list[tuple[float, float]] = []
    i, cmd = 0, None
    cur = np.zeros(2)
    start = np.zeros(2)
    last_ctrl = None

    def num():
        nonlocal i
        if i >= len(toks) or toks[i].isalpha():
            raise ValueError(f"SVG path ends early or a number is missing: {d!r}")
        v = float(toks[i])
        i += 1
        return v

    while i < len(toks):
        if re.fullmatch(r"[A-Za-z]", toks[i]):
            cmd = toks[i]
            i += 1
            if cmd in "Zz":
                pts.append(tuple(start))
                cur = start.copy()
                continue
        if cmd is None or cmd.upper() not in "MLHVCS":
            raise ValueError(f"unsupported SVG path command {cmd!r}")
        rel = cmd.islower()
        c = cmd.upper()
        base = cur if rel else np.zeros(2)
        if c == "M":
            cur = base + np.array([num(), num()])
            start = cur.copy()
            pts.append(tuple(cur))
            cmd = "l" if rel else "L"  # further pairs are line-tos
            last_ctrl = None
        elif c == "L":
            cur = base + np.array([num(), num()])
            pts.append(tuple(cur))
            last_ctrl = None
        elif c == "H":
            cur = np.array([(cur[0] if rel else 0.0) + num(), cur[1]])
            pts.append(tuple(cur))
            last_ctrl = None
        elif c == "V":
            cur = np.array([cur[0], (cur[1] if rel else 0.0) + num()])
            pts.append(tuple(cur))
            last_ctrl = None
        elif c in "CS":
            if c == "C":
                p1 = base + np.array([num(), num()])
            else:
                p1 = 2 * cur - last_ctrl if last_ctrl is not None else cur.copy()
            p2 = base + np.array([num(), num()])
            p3 = base + np.array([num(), num()])
            t = np.linspace(0, 1, steps + 1)[1:, None]
            seg = ((1 - t) ** 3) * cur + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3
            pts.extend(map(tuple, seg))
            last_ctrl = p2
            cur = p3
        else:
            raise ValueError(f"unsupported SVG path command {cmd!r}")
    return np.asarray(pts, dtype=np.float64)


def read_kanjivg_file(path: str) -> list[np.ndarray]:
    """The strokes of one KanjiVG SVG (its ``<path d=…>`` elements in document order: the stroke order)."""
    text = open(path, encoding="utf-8").read()
    return [parse_svg_path(d) / KVG_BOX for d in re.findall(r'<path[^>]*\sd="([^"]+)"', text)]


def heldout_variant(name: str) -> bool:
    """Whether a KanjiVG alternative form (file name with a suffix) is kept for evaluation only."""
    return hashlib.sha1(name.encode()).digest()[0] % 2 == 1


def read_hanzi(path: str = HANZI_MEDIANS) -> dict[str, list[np.ndarray]]:
    out = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            out[o["char"]] = [np.asarray(s, dtype=np.float64) / HANZI_BOX for s in o["medians"]]
    return out


def _simplify(stroke: np.ndarray, spacing: float = 0.02, tolerance: float = 0.003) -> np.ndarray:
    """The stroke resampled at about ``spacing`` em along its length, then the points that lie within
    ``tolerance`` em of the polyline without them dropped (Ramer-Douglas-Peucker; both ends kept)."""
    if len(stroke) < 2:
        return stroke
    d = np.sqrt((np.diff(stroke, axis=0) ** 2).sum(axis=1))
    cum = np.concatenate([[0.0], np.cumsum(d)])
    n = max(1, int(round(cum[-1] / spacing)))
    t = cum[-1] * np.arange(n + 1) / n
    p = np.stack([np.interp(t, cum, stroke[:, 0]), np.interp(t, cum, stroke[:, 1])], axis=1)
    keep = np.zeros(len(p), dtype=bool)
    keep[0] = keep[-1] = True
    todo = [(0, len(p) - 1)]
    while todo:
        a, b = todo.pop()
        if b - a < 2:
            continue
        seg = p[b] - p[a]
        rel = p[a + 1:b] - p[a]
        norm = math.hypot(seg[0], seg[1])
        dist = np.abs(seg[0] * rel[:, 1] - seg[1] * rel[:, 0]) / norm if norm > 1e-12 else np.hypot(rel[:, 0], rel[:, 1])
        k = int(dist.argmax())
        if dist[k] > tolerance:
            keep[a + 1 + k] = True
            todo += [(a, a + 1 + k), (a + 1 + k, b)]
    return p[keep]


# Coordinates are stored in 8 bits over [LOW, HIGH] em (1/170 em steps).
LOW, HIGH = -0.25, 1.25


def build_cache(out: str, hanzi_path: str = HANZI_MEDIANS) -> dict:
    """Reads every source; writes the glyphs of every character (training forms and held-out
    alternative forms, each stroke simplified by ``_simplify``, coordinates in 8 bits) and each character's
    source to ``out`` (a compressed ``.npz`` of about 3 MB); returns what ``load_cache`` returns."""
    train: dict[str, list] = {}
    held: dict[str, list] = {}
    source: dict[str, str] = {}
    for c, g in read_hanzi(hanzi_path).items():
        if len(c) == 1 and (0x4E00 <= ord(c) <= 0x9FFF or 0x3400 <= ord(c) <= 0x4DBF):
            train.setdefault(c, []).append(g)
            source[c] = "hanzi"
    kdir = kanjivg_dir()
    if kdir is None:
        raise SystemExit("KanjiVG is not installed: pip install kanjivg")
    for name in sorted(os.listdir(kdir)):
        if not name.endswith(".svg"):
            continue
        stem = name[:-4]
        code, _, suffix = stem.partition("-")
        c = chr(int(code, 16))
        cp = ord(c)
        if not (0x3041 <= cp <= 0x30FF or 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or c in "々〆"):
            continue  # digits, Latin and punctuation come from Hershey and PUNCTUATION
        g = read_kanjivg_file(os.path.join(kdir, name))
        if not g:
            continue
        if suffix and heldout_variant(stem):
            held.setdefault(c, []).append(g)
            continue
        train.setdefault(c, []).append(g)
        source[c] = "both" if source.get(c) in ("hanzi", "both") else "kanjivg"
    for c, g in PUNCTUATION.items():
        train[c] = [g]
        source[c] = "drawn"
    arrays: dict[str, np.ndarray] = {}
    for key, table in (("train", train), ("held", held)):
        chars, glyph_strokes, stroke_points, coords = [], [], [], []
        for c, gl in table.items():
            for g in gl:
                chars.append(ord(c))
                glyph_strokes.append(len(g))
                for st in g:
                    p = _simplify(np.asarray(st, dtype=np.float64))
                    stroke_points.append(len(p))
                    coords.append(np.clip(np.round((p - LOW) / (HIGH - LOW) * 255), 0, 255).astype(np.uint8))
        arrays[f"{key}_chars"] = np.asarray(chars, dtype=np.int32)
        arrays[f"{key}_strokes"] = np.asarray(glyph_strokes, dtype=np.int32)
        arrays[f"{key}_points"] = np.asarray(stroke_points, dtype=np.int32)
        arrays[f"{key}_coords"] = np.concatenate(coords)
    arrays["source_chars"] = np.asarray([ord(c) for c in source], dtype=np.int32)
    names = ["hanzi", "kanjivg", "both", "drawn"]
    arrays["source_kind"] = np.asarray([names.index(v) for v in source.values()], dtype=np.int8)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out + ".tmp", "wb") as f:
        np.savez_compressed(f, **arrays)
    os.replace(out + ".tmp", out)
    return load_cache(out)


def load_cache(path: str) -> dict:
    """``{"train": {char: [glyph, ...]}, "heldout_variants": {char: [glyph, ...]}, "source": {char: kind}}``,
    a glyph being a list of ``(N, 2)`` float64 strokes in em units."""
    z = np.load(path)
    out: dict = {}
    for key, name in (("train", "train"), ("held", "heldout_variants")):
        coords = z[f"{key}_coords"].astype(np.float64) / 255 * (HIGH - LOW) + LOW
        points = z[f"{key}_points"]
        ends = np.cumsum(points)
        strokes = [coords[e - n:e] for n, e in zip(points, ends)]
        table: dict[str, list] = {}
        k = 0
        for c, n in zip(z[f"{key}_chars"], z[f"{key}_strokes"]):
            table.setdefault(chr(int(c)), []).append(strokes[k:k + n])
            k += n
        out[name] = table
    names = ["hanzi", "kanjivg", "both", "drawn"]
    out["source"] = {chr(int(c)): names[int(k)] for c, k in zip(z["source_chars"], z["source_kind"])}
    return out
