#!/usr/bin/env python3
"""The DigitalInk module's public API as text, one line per public symbol with its declaration, from
the symbol graphs `swift package dump-symbol-graph` writes; compared with scripts/public-api.txt.

A removed or changed public method, property, initializer, case or type shows as a line that differs;
the Engine SPI (`@_spi(Engine)`) and members that the compiler synthesizes (protocol default
implementations) are left out.

    public_api.py GRAPH_DIR [--update] [--api FILE]
"""
import argparse
import difflib
import glob
import json
import os
import sys

API_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "public-api.txt")


def declaration(symbol):
    """The symbol's declaration in one line, whitespace collapsed (`public` is implied)."""
    text = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
    return " ".join(text.split())


def listing(graphs):
    """Sorted lines `Path.to.symbol (kind): declaration` for the public, non-SPI, written symbols of
    `graphs` (parsed symbol-graph JSON objects). A symbol declared twice (an overload) gives two lines."""
    lines = set()
    for graph in graphs:
        for s in graph.get("symbols", []):
            if s.get("spi") or "::SYNTHESIZED::" in s["identifier"]["precise"]:
                continue
            if s.get("accessLevel", "public") not in ("public", "open"):
                continue
            path = ".".join(s["pathComponents"])
            lines.add(f"{path} ({s['kind']['displayName'].lower()}): {declaration(s)}")
    return sorted(lines)


def load(graph_dir, module="DigitalInk"):
    """The module's graphs in `graph_dir`: its own and its extensions of other modules'
    types (`DigitalInk@Foundation.symbols.json`)."""
    paths = sorted(glob.glob(os.path.join(graph_dir, f"{module}.symbols.json"))
                   + glob.glob(os.path.join(graph_dir, f"{module}@*.symbols.json")))
    if not paths:
        raise SystemExit(f"public_api: no {module} symbol graph in {graph_dir}")
    graphs = []
    for p in paths:
        with open(p) as f:
            graphs.append(json.load(f))
    return graphs


def compare(now, listed):
    """The unified diff from `listed` (the file) to `now`, as lines; empty when they agree."""
    return list(difflib.unified_diff(listed, now, "scripts/public-api.txt", "now", lineterm="", n=0))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("graph_dir")
    ap.add_argument("--update", action="store_true", help="write the listing to the API file")
    ap.add_argument("--api", default=API_FILE)
    a = ap.parse_args(argv)
    now = listing(load(a.graph_dir))
    if a.update:
        with open(a.api, "w") as f:
            f.write("\n".join(now) + "\n")
        print(f"{a.api} updated ({len(now)} public symbols)")
        return 0
    with open(a.api) as f:
        listed = f.read().splitlines()
    diff = compare(now, listed)
    if diff:
        print("\n".join(diff), file=sys.stderr)
        removed = sum(1 for d in diff if d.startswith("-") and not d.startswith("---"))
        added = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
        print(f"check-public-api: the public API differs from scripts/public-api.txt ({removed} lines gone or changed, "
              f"{added} new); after a deliberate change, run scripts/check-public-api --update", file=sys.stderr)
        return 1
    types = sum(1 for line in now if "." not in line.split(" (")[0])
    print(f"check-public-api: {len(now)} public symbols ({types} top-level), as listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
