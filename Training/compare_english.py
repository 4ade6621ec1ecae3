#!/usr/bin/env python3
"""English word accuracy of model folders on the 4,206 held-out words that are *not* reported, with the engine;
optionally for several weights of the engine's view rescoring (``decoder.viewRescoring`` in ``config.json``).

    python3 Training/compare_english.py Models/en-US /tmp/shared-en        # 30 s a folder on one core (no views)
    python3 Training/compare_english.py Models/en-US --view-weights 0,0.5,1,1.5   # 15 s a weight
    python3 Training/compare_english.py Models/en-US --view-weights 0,1 --lines   # + the 453 non-reported lines

The words are the held-out writers' tuning slice (600) and the monitoring slice (3,606, what ``train.py``
watches while it trains) of ``data.held_out_word_slices``; the 2,000 reported words are never read. The tuning
slice alone (what ``evaluate.py --sweep`` tunes the decoder on) moves by one word in 600 (0.17 points) and
ranked the candidates of issue 17 differently from the 4,206 words; this is for choices such as the
English language model's recipe, made before a reported figure is measured.

``--view-weights W1,W2,…``: the engine's ``--view-weight`` for each (0: no rescoring), for a model whose
``config.json`` rescores its best candidates with stretched views of the ink (``inkrec_training/views.py``
describes the rule). Choose on tuning, check on monitoring.
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from evaluate import held_out_lines, inkrec_binary, scores  # noqa: E402
from evaluate_hints import run  # noqa: E402
from inkrec_training import data  # noqa: E402


def non_reported_words():
    """(tuning words, monitoring words) of the held-out writers, as ``data.held_out_word_slices`` cuts them."""
    words = [it for it in data.load("words") if data.is_validation_writer(it.writer)]
    _, tuning, monitoring = data.held_out_word_slices(words)
    return tuning, monitoring


def accuracy(tops: dict, subset) -> float:
    """Percentage of ``subset`` whose engine reading (``tops``: id → text) is its label."""
    return 100.0 * sum(tops.get(it.id) == it.label for it in subset) / max(1, len(subset))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", help="model folders (config.json, weights, lm.bin)")
    ap.add_argument("--view-weights", default="", help="the engine's --view-weight for each run, e.g. 0,0.5,1")
    ap.add_argument("--lines", action="store_true",
                    help="also the CER of the held-out lines that are not reported (150 tuning, 303 monitoring)")
    args = ap.parse_args()
    binary = inkrec_binary()
    tuning, monitoring = non_reported_words()
    items = tuning + monitoring
    settings = [["--view-weight", w] for w in args.view_weights.split(",") if w] or [[]]
    for model_dir in args.models:
        for extra in settings:
            # The API's default of ten results: the beam keeps at least that many prefixes.
            cands = run(binary, items, extra, max_results=10, model=model_dir)
            tops = {k: v[0][0] for k, v in cands.items() if v}
            print(f"{model_dir}{' ' + ' '.join(extra) if extra else ''}: tuning {accuracy(tops, tuning):.2f}%, "
                  f"monitoring {accuracy(tops, monitoring):.2f}%, both {accuracy(tops, items):.2f}% (n={len(items)})",
                  flush=True)
            if args.lines:
                _, tuning_lines, monitoring_lines = held_out_lines()
                read = run(binary, tuning_lines + monitoring_lines, extra, max_results=10, model=model_dir)

                def cer(subset):
                    return 100 * scores([read[it.id][0][0] if read.get(it.id) else "" for it in subset],
                                        [it.label for it in subset])["cer"]
                print(f"  lines CER: tuning {cer(tuning_lines):.2f}%, monitoring {cer(monitoring_lines):.2f}%, "
                      f"both {cer(tuning_lines + monitoring_lines):.2f}% (n={len(tuning_lines) + len(monitoring_lines)})",
                      flush=True)


if __name__ == "__main__":
    main()
