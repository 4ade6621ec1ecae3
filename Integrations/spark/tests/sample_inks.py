"""Inks for the tests and the benchmark, made from the repository's real samples (Samples/, held-out UNIPEN
writers): each a sample word or line, or two to four sample words side by side as a line, moved, scaled,
sheared and jittered, some without timestamps, some with strokes in the lenient ``[x, y, t]`` form;
plus a few malformed ones. Deterministic for a seed."""
from __future__ import annotations

import json
import os
import random

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
WORDS = ["hello", "there", "argument", "digits"]
LINES = ["line"]

BAD = [
    "not json at all",
    '{"strokes": []}',
    '{"strokes": [{"points": [{"x": "a", "y": 1}]}]}',
    '{"no strokes": true}',
    "[1, 2, 3]",
    '{"strokes": [{"points": [{"x": 1e40, "y": 1}]}]}',
    '{"strokes": [{"points": [{"x": 1, "y": 2}]}], "writingArea": {"width": -5, "height": 10}}',
]


def _strokes(name: str) -> list[list[tuple[float, float, int]]]:
    with open(os.path.join(ROOT, "Samples", f"{name}.json")) as f:
        d = json.load(f)
    return [[(p["x"], p["y"], p.get("t")) for p in s["points"]] for s in d["strokes"]]


def _box(strokes):
    xs = [p[0] for s in strokes for p in s]
    ys = [p[1] for s in strokes for p in s]
    return min(xs), min(ys), max(xs), max(ys)


def _side_by_side(parts):
    out, x = [], 0.0
    for strokes in parts:
        x0, y0, x1, y1 = _box(strokes)
        h = max(1.0, y1 - y0)
        out += [[(px - x0 + x, py - y0, t) for px, py, t in s] for s in strokes]
        x += (x1 - x0) + 0.6 * h
    return out


def _transform(strokes, rng: random.Random):
    s = rng.uniform(0.3, 4.0)
    shear = rng.uniform(-0.2, 0.2)
    dx, dy = rng.uniform(-5000, 5000), rng.uniform(-5000, 5000)
    x0, y0, x1, y1 = _box(strokes)
    jitter = 0.004 * max(1.0, y1 - y0)
    return [[((px - x0 + shear * (py - y0) + rng.gauss(0, jitter)) * s + dx,
              (py - y0 + rng.gauss(0, jitter)) * s + dy, t) for px, py, t in st] for st in strokes]


def _json(strokes, rng: random.Random, ink_id: str) -> dict:
    timed = rng.random() < 0.7
    lenient = rng.random() < 0.2

    def point(p):
        x, y, t = round(p[0], 3), round(p[1], 3), p[2]
        if lenient:
            return [x, y, t] if timed and t is not None else [x, y]
        return {"x": x, "y": y, "t": t} if timed and t is not None else {"x": x, "y": y}

    return {"id": ink_id, "strokes": [[point(p) for p in s] if lenient else {"points": [point(p) for p in s]}
                                      for s in strokes]}


def make_inks(n: int, seed: int = 7, bad_every: int = 500, line_share: float = 0.3) -> list[tuple[str, str]]:
    """``n`` (id, JSON line) pairs: words, lines, and one malformed ink in every ``bad_every``."""
    rng = random.Random(seed)
    words = {w: _strokes(w) for w in WORDS}
    lines = {ln: _strokes(ln) for ln in LINES}
    out = []
    for i in range(n):
        ink_id = f"ink-{seed}-{i:06d}"
        if bad_every and i % bad_every == bad_every - 1:
            out.append((ink_id, BAD[(i // bad_every) % len(BAD)]))
            continue
        r = rng.random()
        if r < line_share / 2:
            strokes = lines[rng.choice(LINES)]
        elif r < line_share:
            strokes = _side_by_side([words[rng.choice(WORDS)] for _ in range(rng.randint(2, 4))])
        else:
            strokes = words[rng.choice(WORDS)]
        out.append((ink_id, json.dumps(_json(_transform(strokes, rng), rng, ink_id), separators=(",", ":"))))
    return out


def write_jsonl(path: str, inks: list[tuple[str, str]]) -> None:
    with open(path, "w") as f:
        for _, line in inks:
            f.write(line + "\n")
