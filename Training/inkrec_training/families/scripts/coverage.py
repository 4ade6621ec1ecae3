#!/usr/bin/env python3
"""How many words of each Cyrillic and Greek language can be composed from real UNIPEN letters
(`writing.homoglyphs`): the size of the real-ink check of each script, reported apart from generated ink.

    python3 -m inkrec_training scripts evaluate coverage [--words 20000]
"""
from __future__ import annotations

import argparse

from inkrec_training.writing import homoglyphs, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=20000, help="the most frequent words of each language")
    args = ap.parse_args()
    print("| language | words (of the most frequent) | composable from real letters | their share of running text | examples |")
    print("| --- | ---: | ---: | ---: | --- |")
    for code in ("ru", "uk", "bg", "mk", "sr", "el"):
        words, freqs = text.words(code, args.words)
        n, share = homoglyphs.coverage(words, freqs)
        examples = [w for w in words if len(w) >= 3 and homoglyphs.composable(w)][:6]
        print(f"| {code} | {len(words)} | {n} | {100 * share:.1f}% | {' '.join(examples)} |")


if __name__ == "__main__":
    main()
