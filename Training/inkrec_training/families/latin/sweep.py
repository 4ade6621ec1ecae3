#!/usr/bin/env python3
"""Networks of several sizes trained side by side on the same batches: the accuracy half of a size sweep
in one run (issue 17), where drawing the ink (the CPU processes) costs more than the networks (a GPU).

    python3 -m inkrec_training latin train sweep --sizes 96x3,128x3,160x3,192x3 --minutes 30 --charset latin --languages all
    Training/gpu/gpu_once.sh sweep 545 --sizes 96x3,128x3,160x3,192x3          # one call on a lent GPU

Every network sees the same batches in the same order with the same schedule (``latin train``'s options:
``add_training_arguments``); each has its own optimizer and moving average. At every checkpoint each is
validated (greedy, held-out writers, ``train.validation_entry``) and its moving average is written as
``<out16>/<H>x<L>/ema16.pt`` (float16, what ``latin export --checkpoint`` and ``latin train --init-from``
read), with ``<out16>/history.json`` ({size: entries}). Training the sizes one after the other would give
each the same number of steps too, at several times the cost of drawing the ink. With ``--init-from`` every
size starts from the same trained network, widened (Net2WiderNet, ``model.widen_hidden``): the sweep then
measures what each size adds to the shipped network in the same time.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import time

import torch
import torch.nn as nn

from inkrec_training.families.latin import train
from inkrec_training import charset, gpu_run
from inkrec_training.features import FEATURE_DIM  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402
from inkrec_training.trainer import Trainer


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``"96x3,192x3"`` → [(96, 3), (192, 3)]."""
    sizes = []
    for part in text.split(","):
        h, _, layers = part.strip().partition("x")
        if not (h.isdigit() and layers.isdigit() and int(h) > 0 and int(layers) > 0):
            raise argparse.ArgumentTypeError(f"{part!r} is not HIDDENxLAYERS (e.g. 192x3)")
        sizes.append((int(h), int(layers)))
    if len(set(sizes)) != len(sizes):
        raise argparse.ArgumentTypeError("a size is named twice")
    return sizes


class Member:
    """One network of the sweep: its weights, optimizer, moving average and history."""

    def __init__(self, hidden: int, layers: int, args, device):
        self.name = f"{hidden}x{layers}"
        self.model = InkRecNet(FEATURE_DIM, hidden, layers, charset.NUM_CLASSES, args.reduce_after)
        if args.init_from:
            self.model.load_state_dict(train.initial_weights(args.init_from, self.model))
        else:
            self.model.init_forget_gate_bias()
        self.model.to(device)
        self.trainer = Trainer(self.model, args.lr)
        # its updates counted by the member's steps, which are the sweep's
        self.ema = self.trainer.start_ema(args.ema)
        self.history: list = []
        self.losses: list = []
        self.params = sum(p.numel() for p in self.model.parameters())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=parse_sizes, default=parse_sizes("96x3,128x3,160x3,192x3"),
                    help="HIDDENxLAYERS, comma-separated (at most 6 with --out16 on a lent machine: a call brings "
                         "back 8 files, one per size, history.json and the log)")
    ap.add_argument("--run", default="Training/runs/sweep", help="history.json goes here")
    ap.add_argument("--reduce-after", type=int, default=1)
    ap.add_argument("--init-from", help="exported weights every size starts from, widened to it (train.initial_weights: "
                                        "each network first computes what these do; sizes of as many layers only)")
    train.add_training_arguments(ap)
    args = ap.parse_args()
    if args.ema <= 0:
        ap.error("the sweep exports moving averages: --ema must be above 0")
    train.set_up(args)
    device = torch.device(args.device)

    members = [Member(h, n, args, device) for h, n in args.sizes]
    for m in members:
        start = f", started from {args.init_from}" if args.init_from else ""
        print(f"model {m.name}: {m.model.config()} params={m.params}{start}", flush=True)
    stream, words_val, lang_val = train.training_stream(args, 0)
    state = {"step": 0, "elapsed": 0.0, "budget": args.minutes * 60.0}
    minutes = gpu_run.fit_deadline(state, args.deadline, time.time() - train.PROCESS_START,
                                   reserve=gpu_run.FINAL_RESERVE_S + 15.0 * (len(members) - 1))
    if minutes is not None:
        print(f"deadline: training for {minutes:.1f} minutes", flush=True)
    ctc = nn.CTCLoss(blank=charset.BLANK, zero_infinity=True)
    counts = {"fresh": 0, "replayed": 0}

    def checkpoint():
        for m in members:
            entry = train.validation_entry(m.model, m.ema, words_val, lang_val, state, device, label=f"{m.name} ")
            m.history.append(entry)
            meta = {"config": m.model.config(), "charset": args.charset,
                    "state": {"step": state["step"], "elapsed": state["elapsed"], "history": m.history}}
            # the moving average alone (the histories go in one file): a call brings back at most 8 files
            gpu_run.save16(os.path.join(args.out16, m.name) if args.out16 else None, m.ema, None, meta, None)
        summary = {m.name: {"params": m.params, "history": m.history} for m in members}
        for folder in filter(None, (args.run, args.out16)):
            with open(os.path.join(folder, "history.json"), "w") as f:
                json.dump(summary, f, indent=1)

    start = time.time()
    last = time.time()
    with contextlib.closing(gpu_run.replay(train.batch_source(stream, args.frames, args.workers), args.replay,
                                           args.seed, counts)) as batches:  # closing stops replay's reading thread
        for x, lengths, targets, target_lengths in batches:
            state["elapsed"] = time.time() - start
            lr = train.learning_rate(args, state)
            x, targets = x.to(device), targets.to(device)
            for m in members:
                for g in m.trainer.opt.param_groups:
                    g["lr"] = lr
                lp, out_len = m.model(x, lengths)
                loss = ctc(lp.transpose(0, 1), targets, out_len, target_lengths)
                m.trainer.step(loss)
                m.losses.append(loss.detach())
            state["step"] += 1
            if state["step"] % 50 == 0:
                losses = " ".join(f"{m.name} {torch.stack(m.losses).float().mean().item():.3f}" for m in members)
                for m in members:
                    m.losses = []
                print(f"step {state['step']} {state['elapsed'] / 60:.1f}min lr {lr:.2e} loss {losses}; "
                      f"batches fresh {counts['fresh']} replayed {counts['replayed']}", flush=True)
            done = state["elapsed"] >= state["budget"]
            if done or time.time() - last > args.checkpoint_minutes * 60:
                checkpoint()
                last = time.time()
            if done:
                break


if __name__ == "__main__":
    main()
