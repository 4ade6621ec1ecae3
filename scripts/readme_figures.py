#!/usr/bin/env python3
"""README figures quoted from the files that the measuring tools write (model cards, Benchmarks/README).

A quoted figure is marked in the README as

    <!--fig Models/en-US/MODEL_CARD.md | reported words (2000): ECE of the best candidate-->0.0456<!--/fig-->

which renders as `0.0456`. The check finds the first line of the source that contains the label and
takes the first number after the label on it (a label `A … B` finds the line by `A` and takes the first
number after the first `B` that follows it, for a figure with other numbers before it on its line): the README's figure must be that number (as written
there, with its unit: `84.4%`, `0.0456`, `1.45 ms`). `--update` rewrites every marked figure from its
source. `make test` runs the check (scripts/tests/test_readme_figures.py).

    readme_figures.py [--update] [--readme README.md]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"<!--fig (?P<source>[^|>]+?) \| (?P<label>.+?)-->(?P<value>.*?)<!--/fig-->", re.S)
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|ms|s|MB|KB|x|×))?")


def source_figure(root, source, label):
    """The first number after `label` on the first line of `source` that contains it (for `A … B`: the line
    with `A`, the number after the `B` that follows it), or an error."""
    path = os.path.join(root, source)
    if not os.path.exists(path):
        return None, f"{source} does not exist"
    with open(path, encoding="utf-8") as f:
        head, _, tail = label.partition(" … ")
        for line in f:
            at = line.find(head)
            if at < 0:
                continue
            at += len(head)
            if tail:
                at = line.find(tail, at)
                if at < 0:
                    return None, f"{source}: no \"{tail}\" after \"{head}\""
                at += len(tail)
            m = NUMBER.search(line, at)
            if not m:
                return None, f"{source}: no number after \"{label}\""
            return m.group(0), None
    return None, f"{source}: no line contains \"{label}\""


def check(text, root):
    """(problems, updated text) for the README `text`."""
    problems = []

    def replace(m):
        label = " ".join(m["label"].split())
        want, error = source_figure(root, m["source"].strip(), label)
        if error:
            problems.append(error)
            return m.group(0)
        if m["value"] != want:
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"README.md:{line}: {m['value']!r} but {m['source'].strip()} says {want!r} after \"{label}\"")
        return m.group(0)[: m.start("value") - m.start()] + want + "<!--/fig-->"

    updated = MARK.sub(replace, text)
    return problems, updated


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    ap.add_argument("--root", default=ROOT)
    a = ap.parse_args(argv)
    with open(a.readme, encoding="utf-8") as f:
        text = f.read()
    problems, updated = check(text, a.root)
    count = len(MARK.findall(text))
    if a.update:
        with open(a.readme, "w", encoding="utf-8") as f:
            f.write(updated)
        missing = [p for p in problems if "says" not in p]
        for p in missing:
            print(p, file=sys.stderr)
        print(f"{a.readme}: {count} figures from their sources")
        return 1 if missing else 0
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-readme-figures: {len(problems)} of {count} figures differ from their sources "
              "(scripts/readme_figures.py --update rewrites them)", file=sys.stderr)
        return 1
    print(f"check-readme-figures: {count} figures agree with their sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
