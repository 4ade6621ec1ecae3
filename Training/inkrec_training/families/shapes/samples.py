#!/usr/bin/env python3
"""Write the synthetic shape samples `Samples/shape-rectangle.json` and `Samples/shape-arrow.json`.

    python3 -m inkrec_training shapes data

Drawn by the small hand-like code below (not by the training generator): straight edges with a
smooth sideways wobble and a little point noise, a pen's point spacing, timestamps in milliseconds,
y growing downwards. Deterministic (fixed seed).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random

from inkrec_training.paths import ROOT


def stroke(vertices, rng, t0, spacing=5.0, wobble=2.0):
    pts, travelled = [], 0.0
    phase = rng.uniform(0, 6.28)
    for (ax, ay), (bx, by) in zip(vertices, vertices[1:]):
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        n = max(1, round(length / spacing))
        for k in range(0 if not pts else 1, n + 1):
            f = k / n
            s = travelled + f * length
            w = wobble * (math.sin(s / 41 + phase) + 0.4 * math.sin(s / 11 + 2 * phase))
            nx, ny = -dy / length, dx / length
            pts.append({"x": round(ax + f * dx + w * nx + rng.gauss(0, 0.4), 1),
                        "y": round(ay + f * dy + w * ny + rng.gauss(0, 0.4), 1),
                        "t": t0 + 8 * len(pts)})
        travelled += length
    return {"points": pts}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    rng = random.Random(8)
    # A rectangle in two strokes, as many people draw one: top and right edges, then left and bottom.
    first = stroke([(212, 131), (498, 124), (503, 302)], rng, 0)
    second = stroke([(209, 127), (214, 306), (506, 298)], rng, first["points"][-1]["t"] + 260)
    rect = {"id": "shape-rectangle", "label": "rectangle", "strokes": [first, second]}
    # An arrow: the shaft, then the head as one V.
    shaft = stroke([(120, 420), (390, 190)], rng, 0)
    head = stroke([(318, 196), (392, 188), (378, 262)], rng, shaft["points"][-1]["t"] + 300, wobble=1.0)
    arrow = {"id": "shape-arrow", "label": "arrow", "strokes": [shaft, head]}
    for name, doc in (("shape-rectangle.json", rect), ("shape-arrow.json", arrow)):
        with open(os.path.join(ROOT, "Samples", name), "w") as f:
            f.write("{\n")
            f.write(f' "id": {json.dumps(doc["id"])},\n "label": {json.dumps(doc["label"])},\n "strokes": [\n')
            f.write(",\n".join("  " + json.dumps(s, separators=(",", ":")) for s in doc["strokes"]))
            f.write("\n ]\n}\n")
        print(f"wrote Samples/{name}: {len(doc['strokes'])} strokes, {sum(len(s['points']) for s in doc['strokes'])} points")


if __name__ == "__main__":
    main()
