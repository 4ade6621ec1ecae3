#!/usr/bin/env python3
"""Pick the UNIPEN inks the benchmarks run on and write them in the project's JSON Lines format.

    python3 Benchmarks/prepare_inks.py            # writes Benchmarks/.build/inks/{word8,line40}.jsonl

- word8.jsonl: 32 words of exactly 8 letters (UNIPEN category 7, words.jsonl.gz);
- line40.jsonl: up to 16 lines of 36 to 44 characters, at least 4 words, mostly letters (category 8,
  text.jsonl.gz), written on one line: the ink at least 6 times as wide as it is high (most category-8
  items are paragraphs of several lines, which the single-line recognizer is not meant for).

Only writers the model is never trained on (``splits.is_validation_writer``), quality not BAD, labels
the model's character set covers, distinct labels, at most two inks per writer, in file order: the choice is
deterministic. Data: ``$INKREC_DATA`` or ``../shared/data`` beside the repository (see
Training/inkrec_training/data.py). UNIPEN train_r01_v07, International Unipen Foundation, CC BY 4.0.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Training"))
from inkrec_training import charset, data, splits  # noqa: E402

SETS = [
    # file, UNIPEN file, label lengths, count, text filter, least width / height of the ink
    ("word8.jsonl", "words", range(8, 9), 32, lambda s: s.isalpha(), 0),
    ("line40.jsonl", "text", range(36, 45), 16,
     lambda s: len(s.split()) >= 4 and sum(c.isalpha() or c == " " for c in s) >= 0.85 * len(s), 6),
]
PER_WRITER = 2


def num(v):
    return int(v) if float(v).is_integer() else float(v)


def to_json(item: dict, label: str) -> str:
    strokes = []
    for s in item["strokes"]:
        if not s:
            continue
        pts = []
        for p in s:
            q = {"x": num(p[0]), "y": num(p[1])}
            if len(p) > 2:
                q["t"] = num(p[2])
            pts.append(q)
        strokes.append({"points": pts})
    return json.dumps({"id": item["id"], "label": label, "strokes": strokes}, separators=(",", ":"), ensure_ascii=False)


def aspect(strokes) -> float:
    xs = [p[0] for s in strokes for p in s]
    ys = [p[1] for s in strokes for p in s]
    return (max(xs) - min(xs)) / max(max(ys) - min(ys), 1e-9)


def pick(path: str, lengths: range, count: int, accept, min_aspect: float) -> list[tuple[dict, str]]:
    chosen: list[tuple[dict, str]] = []
    labels: set[str] = set()
    per_writer: dict[str, int] = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            i = line.find(',"strokes":')
            head = json.loads(line[:i] + "}") if i > 0 else json.loads(line)
            label = " ".join(head["label"].split())
            w = head["writer"]
            if (len(label) not in lengths or head.get("quality") == "BAD" or not splits.is_validation_writer(w)
                    or per_writer.get(w, 0) >= PER_WRITER or not charset.covers(label) or label in labels
                    or not accept(label)):
                continue
            item = json.loads(line)
            if (not any(item["strokes"]) or sum(len(s) for s in item["strokes"]) > 8000
                    or aspect(item["strokes"]) < min_aspect):
                continue
            per_writer[w] = per_writer.get(w, 0) + 1
            labels.add(label)
            chosen.append((item, label))
            if len(chosen) >= count:
                break
    return chosen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=data.DEFAULT_DATA, help="folder holding unipen/ (default: %(default)s)")
    ap.add_argument("--out", default=os.path.join(HERE, ".build", "inks"))
    ap.add_argument("--force", action="store_true", help="rewrite files that exist")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    manifest = {}
    for name, kind, lengths, count, accept, min_aspect in SETS:
        out = os.path.join(a.out, name)
        if os.path.exists(out) and not a.force:
            with open(out, encoding="utf-8") as f:
                rows = [json.loads(l) for l in f if l.strip()]
            print(f"{out}: exists ({len(rows)} inks; --force to rewrite)")
        else:
            src = os.path.join(a.data, "unipen", f"{kind}.jsonl.gz")
            if not os.path.exists(src):
                print(f"error: {src} not found (set INKREC_DATA or --data)", file=sys.stderr)
                return 1
            chosen = pick(src, lengths, count, accept, min_aspect)
            with open(out, "w", encoding="utf-8") as f:
                for item, label in chosen:
                    f.write(to_json(item, label) + "\n")
            rows = [{"id": it["id"], "label": lb, "strokes": it["strokes"]} for it, lb in chosen]
            print(f"{out}: {len(chosen)} inks from {src}")
        manifest[name] = {
            "count": len(rows),
            "meanLabelLength": sum(len(r["label"]) for r in rows) / max(1, len(rows)),
            "ids": [r["id"] for r in rows],
        }
    with open(os.path.join(a.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
