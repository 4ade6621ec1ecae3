#!/usr/bin/env python3
"""The uniform average of several runs' weights ("model soup"): runs of one network started from the same
weights land in one basin, and their mean often reads better than each of them.

    python3 -m inkrec_training latin train average --out Training/work/soup.pt \\
        Training/runs/latn4/last.pt Training/runs/latnwarp/last.pt

Each input is a checkpoint ``export.checkpoint_weights`` reads (a run's ``last.pt``: its moving average;
an ``ema16.pt``). They must share the network's configuration, parameter names and shapes (refused by name
otherwise). The output is a checkpoint ``latin export``, ``latin report --candidate`` and
``latin train --init-from`` read: ``{"model": mean weights, "config", "state": {"step": 0, "history": [],
"averaged": inputs}}``.
"""
from __future__ import annotations

import argparse

import torch

from inkrec_training.export import checkpoint_weights  # noqa: E402
from inkrec_training.trainer import save_atomic


def average(checkpoints: list[dict], names: list[str]) -> dict:
    """The mean of the checkpoints' weights (float32); ValueError naming the first mismatch."""
    if not checkpoints:
        raise ValueError("no checkpoints to average")
    first = checkpoints[0]
    weights = [checkpoint_weights(ck) for ck in checkpoints]
    for ck, w, name in zip(checkpoints[1:], weights[1:], names[1:]):
        if ck.get("config") != first.get("config"):
            raise ValueError(f"{name}: configuration {ck.get('config')} differs from {names[0]}'s {first.get('config')}")
        missing, extra = sorted(set(weights[0]) - set(w)), sorted(set(w) - set(weights[0]))
        if missing or extra:
            raise ValueError(f"{name}: parameters missing {missing[:3]}, unexpected {extra[:3]}")
        for k, v in w.items():
            if tuple(v.shape) != tuple(weights[0][k].shape):
                raise ValueError(f"{name}: {k} has shape {tuple(v.shape)}, {names[0]} {tuple(weights[0][k].shape)}")
    mean = {k: sum(w[k].float() for w in weights) / len(weights) for k in weights[0]}
    return {"model": mean, "config": first.get("config"), "state": {"step": 0, "history": [], "averaged": names}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    cks = [torch.load(p, weights_only=False, map_location="cpu") for p in args.checkpoints]
    try:
        soup = average(cks, args.checkpoints)
    except ValueError as e:
        raise SystemExit(f"average_weights: {e}")
    save_atomic(soup, args.out)
    print(f"{args.out}: the mean of {len(cks)} checkpoints' weights")


if __name__ == "__main__":
    main()
