#!/usr/bin/env python3
"""Everything ``latin train`` reads, in a folder small enough to travel to a lent GPU machine (64 MiB with
the checkout; the UNIPEN files alone are 148 MB, and the machine has no wordfreq):

    python3 -m inkrec_training latin data --out Training/work/latn-gpu          # about 6 minutes on 2 cores

writes ``OUT/unipen/{words,text,chars}.inkpack.xz`` (``inkrec_training/inkpack.py``: the same items,
timestamps dropped), ``OUT/wordlists.json.xz`` (the wordfreq lists the training mix draws from:
``inkrec_training/wordlists.py``) and, with ``--languages`` (default all), ``OUT/boxes.pkl.xz``: the
letter boxes of the training words, found by forced alignment with ``--align-with`` (what ``latin train``
otherwise computes at its start, 4 minutes here). Then

    python3 -m inkrec_training latin train --data OUT --wordlists OUT/wordlists.json.xz --boxes OUT/boxes.pkl.xz …

trains on exactly what ``--data ../shared/data`` would give (``Training/gpu/gpu_once.sh latin`` does so on the GPU
machine).
"""
from __future__ import annotations

import argparse
import os
import time

from inkrec_training import charset, data, inkpack, wordlists

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import splits
KINDS = ("words", "text", "chars")
ENGLISH_WORDS = 20000  # synthetic.word_list
LANGUAGE_WORDS = 30000  # languages.words_of, accents.substitution_table


def pack_unipen(src: str, out: str) -> None:
    os.makedirs(os.path.join(out, "unipen"), exist_ok=True)
    for kind in KINDS:
        t = time.time()
        dest = data.packed_path(kind, out)
        n = inkpack.write(dest + ".incomplete", inkpack.records_of_jsonl(os.path.join(src, "unipen", f"{kind}.jsonl.gz")))
        os.replace(dest + ".incomplete", dest)
        print(f"{dest}: {n} items, {os.path.getsize(dest) / 1e6:.1f} MB ({time.time() - t:.0f} s)", flush=True)


def save_wordlists(path: str, langs: list[str], scripts: tuple[str, ...] = ()) -> None:
    """wordfreq's lists of English, ``langs`` and the ``scripts`` languages (``latin train --scripts``: Thai
    is left out, its list is in the checkout) into ``path``."""
    wanted = {"en": max(ENGLISH_WORDS, LANGUAGE_WORDS if "en" in langs else 0)}
    wanted.update({lang: LANGUAGE_WORDS for lang in (*langs, *scripts) if lang not in ("en", "th")})
    wordlists.save(path + ".incomplete", wanted)
    os.replace(path + ".incomplete", path)
    print(f"{path}: {len(wanted)} languages, {os.path.getsize(path) / 1e6:.1f} MB", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "work", "latn-gpu"))
    ap.add_argument("--data", default=data.DEFAULT_DATA, help="the folder holding unipen/*.jsonl.gz")
    ap.add_argument("--languages", default="all", help="wordfreq codes (or 'all', or '' for an English-only run)")
    ap.add_argument("--scripts", default="",
                    help="the languages of a latin train --scripts run whose word lists travel too (e.g. ta,th); "
                         "no letter boxes are made for them")
    ap.add_argument("--align-with", default=os.path.join(HERE, "..", "Models", "en-US"),
                    help="the model (directory, or weights file with its config.json beside it) that aligns the letters")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    import torch
    torch.set_num_threads(args.threads)
    from inkrec_training import align, languages
    langs = [] if not args.languages else languages.LANGUAGES if args.languages == "all" else args.languages.split(",")
    os.makedirs(args.out, exist_ok=True)
    pack_unipen(args.data, args.out)
    save_wordlists(os.path.join(args.out, "wordlists.json.xz"), langs,
                   tuple(s for s in args.scripts.split(",") if s))
    if langs:
        t = time.time()
        charset.select("latin")
        words_tr, _ = splits.split(data.load("words", args.out))  # the pack just written: the same items, 20 s sooner
        boxes = align.letter_boxes(align.load_reference_model(args.align_with), words_tr)
        path = os.path.join(args.out, "boxes.pkl.xz")
        align.save_boxes(boxes, path)
        print(f"{path}: {len(boxes)} of {len(words_tr)} training words aligned, "
              f"{os.path.getsize(path) / 1e6:.1f} MB ({time.time() - t:.0f} s)", flush=True)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.out) for f in fs)
    print(f"{args.out}: {total / 2**20:.1f} MiB in all", flush=True)


if __name__ == "__main__":
    main()
