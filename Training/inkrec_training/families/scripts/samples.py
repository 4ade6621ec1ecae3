#!/usr/bin/env python3
"""Generated samples of the script kit's languages (Cyrillic, Greek, Korean) for Samples/ (`generated-<lang>.json`), marked as generated.

    python3 -m inkrec_training scripts data samples

Each is one word written by the script kit: its letters in drawn forms chosen at random, written by a
held-out writer of the writer model from the tuning range of ids (``scripts evaluate models`` reports on
other ids), with time stamps. Not real handwriting of the language; see Docs/scripts.md.
"""
from __future__ import annotations

import argparse
import json
import os
import random

from inkrec_training.paths import ROOT
from inkrec_training.writing import alphabets, training, writer

WORDS = {"ru": "привет", "uk": "дякую", "bg": "здравей", "mk": "убаво", "sr": "хвала", "el": "ευχαριστώ", "ko": "감사합니다"}
WRITER_IDS = (100_000, 200_000)
# Where each script's letter forms come from, for the note.
LETTER_FORMS = {"Cyrl": "drawn letters", "Grek": "Hershey Greek letters", "Hang": "drawn jamo in their block layouts"}


def sample(lang: str, word: str, seed: int = 0) -> dict:
    rng = random.Random(f"{lang}-{seed}")
    wid = rng.randrange(*WRITER_IDS)
    script = alphabets.SCRIPTS[lang]
    if script == "Hang":
        strokes = training.write_hangul(word, writer.heldout_writer(wid), rng)
    else:
        letters = training.LETTERS[script](word, rng)
        if letters is None:
            raise ValueError(f"{lang}: the kit draws no form of a letter of {word!r}")
        strokes = writer.write_word(letters, writer.RULES[script], writer.heldout_writer(wid), rng)
    return {"id": f"generated-{lang}", "label": word,
            "note": f"GENERATED, not real {lang} handwriting: the script kit's {LETTER_FORMS[script]} written by "
                    f"held-out writer {wid} of the writer model (python3 -m inkrec_training scripts data samples)",
            "strokes": [{"points": [{"x": round(float(p[0]), 1), "y": round(float(p[1]), 1), "t": round(float(p[2]) * 1000)}
                                    for p in s]} for s in strokes]}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    for lang, word in WORDS.items():
        doc = sample(lang, word)
        path = os.path.join(ROOT, "Samples", f"generated-{lang}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
            f.write("\n")
        print(f"Samples/generated-{lang}.json: {word}")


if __name__ == "__main__":
    main()
