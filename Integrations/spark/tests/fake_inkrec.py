#!/usr/bin/env python3
"""A stand-in for ``inkrec recognize --batch -`` that answers each line with its text reversed, and kills
itself (SIGKILL) on a line containing POISON: the restart and isolation logic of InkrecProcess, tested
without the real engine. With DIE_AFTER=N it also dies after N answers, once per flag file."""
import json
import os
import signal
import sys

die_after = int(os.environ.get("DIE_AFTER", "0"))
flag = os.environ.get("DIE_FLAG")
n = 0
for k, raw in enumerate(sys.stdin, 1):
    line = raw.rstrip("\n")
    if "POISON" in line:
        print("fake_inkrec: poisoned", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    if die_after and n == die_after and flag and not os.path.exists(flag):
        open(flag, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdout.write(json.dumps({"line": k, "candidates": [{"text": line[::-1], "score": -1.0}]}) + "\n")
    sys.stdout.flush()
    n += 1
