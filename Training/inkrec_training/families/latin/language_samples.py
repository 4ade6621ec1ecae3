#!/usr/bin/env python3
"""Composed samples of a few Latin-script languages (Vietnamese too) for Samples/ (`composed-<lang>.json`), marked as composed.

    python3 -m inkrec_training latin data language-samples

Each is a real word of the language built from ONE held-out UNIPEN writer's isolated characters
(validation writers of the "tuning" half of latin evaluate languages, so the reported figures never see
them) with its diacritics drawn in that writer's scale (`languages.compose_language_word`). Not real
handwriting of the language; see Docs/composer.md.
"""
from __future__ import annotations

import argparse
import json
import os
import random

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import charset, compose, data, languages
from inkrec_training.families.latin.evaluate_languages import writer_set  # noqa: E402
from inkrec_training import splits

WORDS = {"de": "Übung", "pl": "źródło", "fr": "élève", "cs": "řeka", "vi": "người"}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    charset.select("latin")
    chars = [it for it in data.load("chars") if splits.is_validation_writer(it.writer) and len(it.label) == 1]
    by_writer = compose.writer_characters(chars)
    writers = sorted(w for w, d in by_writer.items() if len(d) >= 60 and writer_set(w) == "tuning")
    out_dir = os.path.join(HERE, "..", "Samples")
    for lang, word in WORDS.items():
        for seed in range(50):
            rng = random.Random(f"{lang}-{seed}")
            w = rng.choice(writers)
            strokes = languages.compose_language_word(word, by_writer[w], rng, compose.x_height(by_writer[w]), late=0.0)
            if strokes is not None:
                break
        doc = {"id": f"composed-{lang}", "label": word,
               "note": f"COMPOSED, not real {lang} handwriting: isolated UNIPEN characters of held-out writer {w} "
                       "(CC BY 4.0) with drawn diacritics (python3 -m inkrec_training latin data language-samples)",
               "strokes": [{"points": [{"x": round(float(p[0]), 1), "y": round(float(p[1]), 1)} for p in s]} for s in strokes]}
        with open(os.path.join(out_dir, f"composed-{lang}.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
            f.write("\n")
        print(f"Samples/composed-{lang}.json: {word} (writer {w}, seed {seed})")


if __name__ == "__main__":
    main()
