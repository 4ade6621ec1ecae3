#!/usr/bin/env python3
"""Generated samples of the script kit's languages (Cyrillic, Greek, Korean, Hebrew, Arabic, Persian, Urdu, Hindi, Bengali, Tamil, Thai) for Samples/ (`generated-<lang>.json`), marked as generated.

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

import numpy as np

from inkrec_training.paths import ROOT
from inkrec_training.writing import alphabets, training, writer

WORDS = {"ru": "привет", "uk": "дякую", "bg": "здравей", "mk": "убаво", "sr": "хвала", "el": "ευχαριστώ", "ko": "감사합니다", "he": "שלום",
         "ar": "شكرا", "fa": "سلام", "ur": "شکریہ", "hi": "नमस्ते", "bn": "ধন্যবাদ",
         "ta": "வணக்கம்", "th": "สวัสดี"}
WRITER_IDS = (100_000, 200_000)
# Where each script's letter forms come from, for the note.
LETTER_FORMS = {"Cyrl": "drawn letters", "Grek": "Hershey Greek letters", "Hang": "drawn jamo in their block layouts",
                "Hebr": "drawn cursive letters, written right to left",
                "Arab": "Noto Naskh joining forms traced to centre lines, joined and written right to left",
                "Deva": "Noto Sans Devanagari syllables shaped by HarfBuzz and traced to centre lines, the headline last",
                "Beng": "Noto Sans Bengali syllables shaped by HarfBuzz and traced to centre lines, the headline last",
                "Taml": "Noto Sans Tamil syllables shaped by HarfBuzz and traced to centre lines",
                "Thai": "Noto Looped Thai clusters shaped by HarfBuzz and traced to centre lines, the marks above last"}


def _strokes_json(strokes) -> list:
    """``[x, y, t]`` strokes (t in seconds) as the project's JSON strokes (t in milliseconds)."""
    return [{"points": [{"x": round(float(p[0]), 1), "y": round(float(p[1]), 1), "t": round(float(p[2]) * 1000)}
                        for p in s]} for s in strokes]


def _write(lang: str, word: str, style: writer.Style, rng: random.Random) -> list:
    """``word`` written by ``style`` as the script kit writes ``lang``'s script: ``[x, y, t]`` strokes."""
    script = alphabets.SCRIPTS[lang]
    if script == "Hang":
        return training.write_hangul(word, style, rng)
    if script in training.OWN_WRITERS:  # joined pieces or shaped syllables: the script's own writer
        strokes = training.OWN_WRITERS[script](word, writer.RULES[script], style, rng)
        if strokes is None:
            raise ValueError(f"{lang}: a form of {word!r} was not traced")
        return strokes
    letters = training.LETTERS[script](word, rng)
    if letters is None:
        raise ValueError(f"{lang}: the kit draws no form of a letter of {word!r}")
    return writer.write_word(letters, writer.RULES[script], style, rng)


def sample(lang: str, word: str, seed: int = 0) -> dict:
    rng = random.Random(f"{lang}-{seed}")
    wid = rng.randrange(*WRITER_IDS)
    script = alphabets.SCRIPTS[lang]
    strokes = _write(lang, word, writer.heldout_writer(wid), rng)
    return {"id": f"generated-{lang}", "label": word,
            "note": f"GENERATED, not real {lang} handwriting: the script kit's {LETTER_FORMS[script]} written by "
                    f"held-out writer {wid} of the writer model (python3 -m inkrec_training scripts data samples)",
            "strokes": _strokes_json(strokes)}


# A right-to-left page: its first word (rightmost) was written after the second, so reading order and writing
# order differ (issue 40: a word written later to the right of a line goes first in the text).
PAGE = {"he": ("שלום", "עולם"), "ar": ("السلام", "عليكم")}


def late_word_page(lang: str, seed: int = 0) -> dict:
    """One line of two words of a right-to-left language by one held-out writer: the second word (on the left)
    written first, then the first word to its right; the label is the text in logical order."""
    first, second = PAGE[lang]
    rng = random.Random(f"{lang}-page-{seed}")
    wid = rng.randrange(*WRITER_IDS)
    style = writer.heldout_writer(wid)
    inks = {w: _write(lang, w, style, rng) for w in (second, first)}
    left, right = inks[second], inks[first]
    # the first word to the right of the second, a word gap apart, on the same baseline; written later
    gap = 70.0
    lx = max(float(s[:, 0].max()) for s in left)
    rx = min(float(s[:, 0].min()) for s in right)
    t_end = max(float(s[-1, 2]) for s in left) + 0.6
    moved = [s + np.array([lx + gap - rx, 0.0, t_end]) for s in right]
    strokes = left + moved
    return {"id": f"generated-{lang}-page", "label": f"{first} {second}",
            "note": f"GENERATED, not real {lang} handwriting: two words of held-out writer {wid}, the second (left) "
                    "written first, the first (right) written after it; read right to left the text is the label "
                    "(python3 -m inkrec_training scripts data samples)",
            "strokes": _strokes_json(strokes)}


def main():
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    for lang, word in WORDS.items():
        doc = sample(lang, word)
        path = os.path.join(ROOT, "Samples", f"generated-{lang}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
            f.write("\n")
        print(f"Samples/generated-{lang}.json: {word}")
    for lang in PAGE:
        doc = late_word_page(lang)
        path = os.path.join(ROOT, "Samples", f"generated-{lang}-page.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)
            f.write("\n")
        print(f"Samples/generated-{lang}-page.json: {doc['label']} (right to left, the first word written last)")


if __name__ == "__main__":
    main()
