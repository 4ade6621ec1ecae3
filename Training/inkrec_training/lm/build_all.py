"""Builds the INKLM2 character LM of every Latin-script and Cyrillic wordfreq language into ``Training/work/lm/<code>.bin``
(plus de-CH without ß, and en-unipen, en-US's: the English builder's text with the UNIPEN labels, order 7 and
5.5 MB since en-US 2.0.0, Benchmarks/README.md "English: the language model"), one after the other, each in a
process of its own at a lower priority, with timing; the measured figures go to ``Training/work/lm/report.jsonl``.

    python -m inkrec_training latin lm all                      # all of them (about a minute each)
    python -m inkrec_training latin lm all de fr pl             # only these
    python -m inkrec_training latin lm all --nice 10 --max-bytes 1500000
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from inkrec_training.paths import WORK

LANGUAGES = ("ca cs da de de-CH en en-unipen es fi fil fr hu id is it lt lv ms nb nl pl pt ro sh sk sl sv tr vi ru uk bg mk sr el ko he ar fa ur").split()


def arguments(code: str) -> list[str]:
    """``lm build``'s options for one entry of ``LANGUAGES``."""
    if code == "de-CH":
        return ["--language", "de", "--no-eszett"]
    if code == "en-unipen":
        return ["--format", "v2", "--order", "7"]
    if code == "ko":  # jamo: about 2.5 symbols a syllable, so the longest context INKLM2 holds
        return ["--language", code, "--order", "7"]
    return ["--language", code]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("languages", nargs="*", default=list(LANGUAGES), help="codes (default: all of them)")
    ap.add_argument("--out", default=os.path.join(WORK, "lm"))
    ap.add_argument("--nice", type=int, default=5)
    ap.add_argument("--max-bytes", type=int, default=2_000_000)
    ap.add_argument("--en-max-bytes", type=int, default=5_500_000, help="en-unipen's budget")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    report = os.path.join(args.out, "report.jsonl")
    start, failed = time.time(), []
    for code in args.languages:
        t0 = time.time()
        budget = args.en_max_bytes if code == "en-unipen" else args.max_bytes
        out = os.path.join(args.out, f"{code}.bin")
        cmd = ["nice", "-n", str(args.nice), sys.executable, "-m", "inkrec_training.lm.build", *arguments(code),
               "--max-bytes", str(budget), "--out", out, "--report", report]
        with open(os.path.join(args.out, f"{code}.log"), "w") as log:
            rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            failed.append(code)
            print(f"{code}: FAILED (see {args.out}/{code}.log)")
            continue
        print(f"{code:<10} {os.path.getsize(out):9d} bytes  {time.time() - t0:4.0f}s")
    print(f"all done in {time.time() - start:.0f}s; figures in {report}")
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
