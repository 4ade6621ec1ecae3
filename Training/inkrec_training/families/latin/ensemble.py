#!/usr/bin/env python3
"""Greedy figures of exported models alone and averaged per frame, on the held-out writers' *tuning* words.

    python3 -m inkrec_training latin tune ensemble --models Models/en-US,Models/de       # about 2 minutes on 2 cores

Each model's greedy CTC reading (PyTorch, 8-bit weights dequantized), then the teachers of ``distil.Teacher``
over the same models: their log-probabilities averaged per frame over the characters all of them have (what
``latin train --distil-from`` teaches). Word accuracy and CER over the tuning slice of ``evaluate.held_out_sets``
(never the reported words). Without a language model: a quick look at whether the models err on different
words, not a figure for a card.
"""
from __future__ import annotations

import argparse
import json
import os

import torch

from inkrec_training.families.latin.evaluate import held_out_sets  # noqa: E402
from inkrec_training.distil import Teacher  # noqa: E402
from inkrec_training.features import FEATURE_SCHEME, STEPS_PER_LINE_HEIGHT, model_features  # noqa: E402
from inkrec_training.metrics import edit_distance, greedy_ids  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="Models/en-US,Models/de", help="comma-separated exported model directories")
    args = ap.parse_args()
    dirs = args.models.split(",")
    labels = []
    for d in dirs:  # the widest model's characters index the columns
        with open(os.path.join(d, "config.json"), encoding="utf-8") as f:
            labels = max(labels, json.load(f)["labels"], key=len)
    singles = [Teacher([d], labels, reduce_after=1) for d in dirs]
    both = Teacher(dirs, labels, reduce_after=1)
    _, tune_words, _, _ = held_out_sets()
    hyps = {name: [] for name in dirs + ["mean of all"]}
    refs = []
    features = {"scheme": FEATURE_SCHEME, "stepsPerLineHeight": STEPS_PER_LINE_HEIGHT}  # every Teacher checked it

    def text(log_probs: torch.Tensor) -> str:
        return "".join(labels[k - 1] for k in greedy_ids(log_probs.numpy()))

    with torch.no_grad():
        for it in tune_words:
            f = model_features([s.tolist() for s in it.strokes], features)
            x, n = torch.from_numpy(f)[None], torch.tensor([len(f)])
            for d, t in zip(dirs, singles):
                hyps[d].append(text(t.log_probs(x, n)[0]))
            hyps["mean of all"].append(text(both.log_probs(x, n)[0]))
            refs.append(it.label)
    chars = sum(len(r) for r in refs)
    print(f"{len(refs)} tuning words, greedy, no language model")
    for name, h in hyps.items():
        acc = sum(a == b for a, b in zip(h, refs)) / len(refs)
        cer = sum(edit_distance(a, b) for a, b in zip(h, refs)) / chars
        print(f"{name}: words {acc:.1%}, CER {cer:.2%}")


if __name__ == "__main__":
    main()
