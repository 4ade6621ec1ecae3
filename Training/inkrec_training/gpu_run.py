"""What a training run needs to use one call on a lent GPU machine well (``latin train`` and ``cjk train``):

- ``fit_deadline``: the run's budget cut so that it ends, validated and saved, by a deadline measured from
  the process start (a call has a hard limit; a run killed at it brings nothing back).
- ``replay``: batches from the generator processes, and recent ones again while no fresh one is ready, so
  that the GPU does not wait for the CPUs that draw the ink.
- ``save16``: float16 copies of the moving average and the live weights with the run's history, written
  at every checkpoint into the folder that comes back from the machine (a call cut short still brings
  the last checkpoint's weights).
"""
from __future__ import annotations

import json
import os
import queue
import random
import threading
from typing import Iterable, Iterator, Optional

FINAL_RESERVE_S = 45.0
"""Seconds kept for the last validation and saving after the budget ends."""


def add_arguments(ap) -> None:
    """``--replay``, ``--deadline`` and ``--out16``: the options a trainer needs for one call on a lent machine
    (``replay``, ``fit_deadline``, ``save16``)."""
    ap.add_argument("--replay", type=int, default=1,
                    help="uses of each batch at most: when no fresh batch is ready the network trains on a recent "
                         "one again (up to this many uses) instead of waiting for the processes that make batches")
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="seconds from the process start by which everything (the final validation and saving "
                         "included) must be done; shortens --minutes where needed (0: none)")
    ap.add_argument("--out16", help="folder that receives float16 EMA and live weights and history.json at each "
                                    "checkpoint (what a GPU call brings back, even if it is cut short)")


def fit_deadline(state: dict, deadline: float, since_start: float, reserve: float = FINAL_RESERVE_S) -> Optional[float]:
    """Shortens ``state["budget"]`` (seconds of training, counted in ``state["elapsed"]``) so that training
    ends ``reserve`` seconds before ``deadline`` (seconds after the process start; ``since_start`` have
    passed). Returns the minutes it will train when it shortened the budget, else None. At least 30
    seconds are trained."""
    if not deadline:
        return None
    left = deadline - since_start - reserve
    if left >= state["budget"] - state["elapsed"]:
        return None
    state["budget"] = state["elapsed"] + max(left, 30.0)
    return max(left, 30.0) / 60


def replay(batches: Iterable, uses: int, seed: int, counts: dict, ring_size: int = 96) -> Iterator:
    """The batches of ``batches`` (read in a thread), and while none is ready a recent one again, each used at
    most ``uses`` times. ``counts["fresh"]`` and ``counts["replayed"]`` count what was yielded. With
    ``uses`` ≤ 1, just ``batches``. Ends when ``batches`` ends and every batch has had its uses.

    Closing the generator (or its end) stops the reading thread and waits for it: a thread left reading
    (torch code, for one) while the interpreter exits is torn down inside C++ and aborts the process
    ("terminate called without an active exception"), after training has finished."""
    counts.setdefault("fresh", 0)
    counts.setdefault("replayed", 0)
    if uses <= 1:
        for b in batches:
            counts["fresh"] += 1
            yield b
        return
    fresh: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()
    end = object()
    failed: list = []  # what reading raised, raised again here once the batches before it are used

    def put(item) -> bool:
        """Queues ``item`` unless the consumer stopped first; whether it did."""
        while not stop.is_set():
            try:
                fresh.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read():
        try:
            for b in batches:
                if not put(b):
                    return
        except BaseException as error:  # noqa: BLE001 (handed to the consuming thread)
            failed.append(error)
        finally:
            put(end)

    reader = threading.Thread(target=read, name="replay-reader", daemon=True)
    reader.start()
    ring: list = []  # [batch, uses]
    rng = random.Random(seed)
    ended = False
    empty = object()
    try:
        while True:
            ready = [e for e in ring if e[1] < uses]
            b = empty
            if not ended:
                try:
                    b = fresh.get_nowait()
                except queue.Empty:
                    if not ready:
                        b = fresh.get()  # nothing to replay: wait for the reader
            if b is end:
                ended = True
                continue
            if b is empty:
                if not ready:  # the reader has ended and every batch has had its uses
                    if failed:
                        raise failed[0]
                    return
                e = rng.choice(ready)
                e[1] += 1
                counts["replayed"] += 1
                yield e[0]
                continue
            counts["fresh"] += 1
            ring.append([b, 1])
            if len(ring) > ring_size:
                ring.pop(0)
            yield b
    finally:
        stop.set()
        reader.join(timeout=120)


def save16(folder: Optional[str], ema: Optional[dict], live: Optional[dict], meta: dict, history: Optional[list]) -> None:
    """Writes ``ema16.pt`` and ``live16.pt`` — ``{"model": float16 weights, **meta}`` — and ``history.json``
    into ``folder`` (nothing when it is None), each file whole or not at all; a None leaves its file out."""
    if not folder:
        return
    import torch
    os.makedirs(folder, exist_ok=True)
    for name, weights in (("ema16.pt", ema), ("live16.pt", live)):
        if weights is None:
            continue
        path = os.path.join(folder, name)
        torch.save({"model": {k: v.detach().half().cpu() for k, v in weights.items()}, **meta}, path + ".tmp")
        os.replace(path + ".tmp", path)
    if history is not None:
        with open(os.path.join(folder, "history.json.tmp"), "w") as f:
            json.dump(history, f, indent=1)
        os.replace(os.path.join(folder, "history.json.tmp"), os.path.join(folder, "history.json"))
