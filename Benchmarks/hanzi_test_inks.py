#!/usr/bin/env python3
"""Test inks for zinnia_compare.py, drawn straight from the Hanzi Writer stroke medians.

    python3 Benchmarks/hanzi_test_inks.py                      # Benchmarks/.build/inks/hanzi200-zh-Hans.jsonl
    python3 Benchmarks/hanzi_test_inks.py --script ja --count 200 --lines 20

Each ink is one character's medians (the centre lines of a calligrapher's brush strokes, in writing
order, 1024-unit em box, y down: ``../shared/data/cjk/hanzi-medians.jsonl.gz``), resampled every
16 units with timestamps (8 ms a point, 150 ms between strokes): no personal variation, so these are
a check of the plumbing and the coordinate handling, not an evaluation set.

Characters: common ones, picked without a frequency list: GB2312 level 1 (the 3,755 常用 characters)
for ``zh-Hans``, JIS X 0208 level 1 kanji (2,965) for ``ja``; those the medians cover, every k-th in
code order so that ``--count`` of them come out (deterministic). ``--lines N`` also writes N line
inks of 4 to 8 of the following characters side by side (``...-lines.jsonl``), for ``--lines``.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_MEDIANS = os.path.join(os.environ.get("INKREC_DATA", os.path.join(ROOT, "..", "shared", "data")),
                               "cjk", "hanzi-medians.jsonl.gz")


def level1(script: str) -> list[str]:
    """The level-1 characters of GB2312 (zh-Hans) or JIS X 0208 (ja), in code order."""
    out = []
    if script == "zh-Hans":
        rows, codec = range(0xB0, 0xD8), "gb2312"            # rows 16-55
    else:
        rows, codec = range(0xB0, 0xD0), "euc_jp"            # rows 16-47
    for hi in rows:
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                pass
    return out


def resample(stroke: list[list[float]], step: float = 16.0) -> list[list[float]]:
    """Points every ``step`` units along the polyline, its vertices kept."""
    out = [list(stroke[0])]
    for (x0, y0), (x1, y1) in zip(stroke, stroke[1:]):
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / step))
        out += [[x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n] for k in range(1, n + 1)]
    return out


def num(v: float) -> float | int:
    v = round(float(v), 1)
    return int(v) if v.is_integer() else v


def ink(medians: list, dx: float = 0.0, t0: int = 0) -> tuple[list, int]:
    strokes, t = [], t0
    for m in medians:
        pts = []
        for x, y in resample(m):
            pts.append([num(x + dx), num(y), t])
            t += 8
        strokes.append(pts)
        t += 150
    return strokes, t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", choices=["zh-Hans", "ja"], default="zh-Hans")
    ap.add_argument("--count", type=int, default=200, help="single characters (default 200)")
    ap.add_argument("--lines", type=int, default=0, help="line inks too (default none)")
    ap.add_argument("--medians", default=DEFAULT_MEDIANS)
    ap.add_argument("--out", help="default Benchmarks/.build/inks/hanzi<COUNT>-<SCRIPT>.jsonl")
    a = ap.parse_args()

    medians = {}
    with gzip.open(a.medians, "rt", encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            medians[o["char"]] = o["medians"]
    pool = [c for c in level1(a.script) if c in medians]
    step = max(1, len(pool) // a.count)
    chars = pool[::step][:a.count]
    out = a.out or os.path.join(HERE, ".build", "inks", f"hanzi{a.count}-{a.script}.jsonl")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for c in chars:
            strokes, _ = ink(medians[c])
            f.write(json.dumps({"id": f"U+{ord(c):04X}", "label": c, "strokes": strokes},
                               ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{out}: {len(chars)} characters of {len(pool)} level-1 characters with medians (every {step}th)")
    if a.lines:
        # Characters between those of the single set (offset by half a step), 4 to 8 a line.
        rest = [c for c in pool[step // 2::step] if c not in chars] or pool
        lout = out[:-len(".jsonl")] + "-lines.jsonl" if out.endswith(".jsonl") else out + "-lines"
        i = 0
        with open(lout, "w", encoding="utf-8") as f:
            for n in range(a.lines):
                k = 4 + n % 5
                text = "".join(rest[(i + j) % len(rest)] for j in range(k))
                i += k
                strokes, t = [], 0
                for j, c in enumerate(text):
                    s, t = ink(medians[c], dx=1100.0 * j, t0=t)
                    strokes += s
                    t += 250
                f.write(json.dumps({"id": f"line{n + 1}", "label": text, "strokes": strokes},
                                   ensure_ascii=False, separators=(",", ":")) + "\n")
        print(f"{lout}: {a.lines} lines of 4 to 8 characters")


if __name__ == "__main__":
    main()
