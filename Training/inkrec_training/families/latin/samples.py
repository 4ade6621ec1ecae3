#!/usr/bin/env python3
"""Regenerate Samples/: recorded handwriting from UNIPEN validation writers (never trained on).

    python3 -m inkrec_training latin data samples                 # writes Samples/*.json, Samples/word.inkml, Samples/README.md

Every sample is a fixed UNIPEN item (chosen by eye: clean ink whose label matches); the script checks
that its writer is a validation writer (``splits.is_validation_writer``) and that its quality is not BAD.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
from xml.sax.saxutils import escape

from inkrec_training import data

from inkrec_training.paths import ROOT
from inkrec_training import splits
ATTRIBUTION = ("UNIPEN train_r01_v07, International Unipen Foundation, CC BY 4.0 "
               "(Zenodo doi 10.5281/zenodo.1195803)")

# (file, UNIPEN file kind, item id, label, what it is for)
SAMPLES = [
    ("hello.json", "words", "7/int/l.dat#241", "hello",
     "A single cursive word, \"hello\"."),
    ("line.json", "text", "8/sta/hpb1-kaj.dat#5", "from the day when our fathers",
     "A short line of six words written on one line (free text, category 8)."),
    ("digits.json", "words", "7/hpp/hpb3-kn0.dat#44", "93652",
     "A digit string, five digits."),
    ("there.json", "words", "7/imp/imp5152.dat#39", "there",
     "A lowercase word for a pre-context test (\"hello \" + \"there\"); no validation writer wrote \"world\"."),
    ("argument.json", "words", "7/sta/hpb0-lcf.dat#45", "argument",
     "A cursive word whose \"ument\" ending is ambiguous between u and n (\"argument\" / \"argnment\")."),
    ("word.inkml", "words", "7/sta/hpb0-mek.dat#141", "example",
     "A printed word as W3C InkML, traceFormat X Y T (T in milliseconds)."),
]


def find_items(data_dir: str, kind: str, ids: set[str]) -> dict:
    found = {}
    with gzip.open(os.path.join(data_dir, "unipen", f"{kind}.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            i = line.find(',"strokes":')
            head = json.loads(line[:i] + "}")
            if head["id"] in ids:
                found[head["id"]] = json.loads(line)
                if len(found) == len(ids):
                    break
    return found


def num(v):
    return int(v) if float(v).is_integer() else float(v)


def to_json(item: dict, label: str) -> str:
    lines = ["{", f' "id": {json.dumps(item["id"])},', f' "label": {json.dumps(label)},', ' "strokes": [']
    strokes = [s for s in item["strokes"] if s]
    for k, s in enumerate(strokes):
        pts = []
        for p in s:
            d = {"x": num(p[0]), "y": num(p[1])}
            if len(p) > 2:
                d["t"] = int(round(p[2]))
            pts.append(json.dumps(d, separators=(",", ":")))
        lines.append('  {"points": [' + ",".join(pts) + "]}" + ("," if k < len(strokes) - 1 else ""))
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def to_inkml(item: dict, label: str) -> str:
    strokes = [s for s in item["strokes"] if s]
    has_t = all(len(p) > 2 for s in strokes for p in s)
    channels = ['    <channel name="X" type="decimal"/>', '    <channel name="Y" type="decimal"/>']
    if has_t:
        channels.append('    <channel name="T" type="integer" units="ms"/>')
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<ink xmlns="http://www.w3.org/2003/InkML">',
           f'  <annotation type="truth">{escape(label)}</annotation>',
           f'  <annotation type="source">{escape(item["id"])} (writer {escape(item["writer"])}); {escape(ATTRIBUTION)}</annotation>',
           '  <traceFormat>', *channels, '  </traceFormat>']
    for s in strokes:
        pts = [" ".join(str(num(v)) for v in (p[:3] if has_t else p[:2])) for p in s]
        out.append("  <trace>" + ", ".join(pts) + "</trace>")
    out.append("</ink>")
    return "\n".join(out) + "\n"


def readme(rows) -> str:
    out = ["# Samples", "",
           "Real handwriting for examples, demos and end-to-end tests, from writers the recognizer is never",
           "trained on (UNIPEN validation writers: `is_validation_writer` in",
           "`Training/inkrec_training/splits.py`). Regenerate with `python3 -m inkrec_training latin data samples`.", "",
           "JSON files are one ink each in the library's JSON form: `{\"id\", \"label\", \"strokes\": [{\"points\":",
           "[{\"x\", \"y\", \"t\"}]}]}` — x and y in the tablet's own units (y grows downwards), t in milliseconds",
           "from the first point; `label` is the truth text (an extra key that readers ignore) and `id` is the",
           "UNIPEN item id.", "",
           "| file | label | what | UNIPEN id | writer | quality | strokes | points |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, label, what, item in rows:
        strokes = [s for s in item["strokes"] if s]
        out.append(f"| `{name}` | `{label}` | {what} | `{item['id']}` | `{item['writer']}` | {item['quality']} | "
                   f"{len(strokes)} | {sum(len(s) for s in strokes)} |")
    out += ["", "UNIPEN's quality `?` means the item was not graded (neither GOOD nor BAD); the labels were",
            "checked against the ink by eye.", "",
            "## Licence", "", f"All samples: {ATTRIBUTION}.", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--out", default=os.path.join(ROOT, "Samples"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    items = {}
    for kind in ("words", "text"):
        items.update(find_items(args.data, kind, {s[2] for s in SAMPLES if s[1] == kind}))
    rows = []
    for name, kind, item_id, label, what in SAMPLES:
        item = items.get(item_id)
        if item is None:
            raise SystemExit(f"{item_id} not found in {kind}.jsonl.gz")
        if not splits.is_validation_writer(item["writer"]):
            raise SystemExit(f"{item_id}: writer {item['writer']} is a training writer")
        if item.get("quality") == "BAD":
            raise SystemExit(f"{item_id}: quality BAD")
        if " ".join(item["label"].split()) != label:
            raise SystemExit(f"{item_id}: label {item['label']!r} != {label!r}")
        text = to_inkml(item, label) if name.endswith(".inkml") else to_json(item, label)
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(text)
        rows.append((name, label, what, item))
        print(f"{name}: {label!r} from {item_id} ({item['writer']}, {item['quality']}), "
              f"{sum(len(s) for s in item['strokes'])} points")
    with open(os.path.join(args.out, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme(rows))


if __name__ == "__main__":
    main()
