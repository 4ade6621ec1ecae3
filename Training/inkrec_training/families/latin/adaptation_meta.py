#!/usr/bin/env python3
"""Meta-training the Latin network for writer profiles (issue 41): first-order MAML, a PyTorch prototype.

    python3 -m inkrec_training latin tune meta-adaptation --out Training/work/meta --minutes 60             # meta-training
    python3 -m inkrec_training latin tune meta-adaptation --out Training/work/ctl --minutes 60 --inner 0    # its control

A profile learns a rank-8 change beside every weight of the shipped network from a writer's first words
(``adaptation_prototype``'s ``loraall``: 28 Adam steps of 10 words, step 0.01, penalty 0.1; the runs of 2026-12-07 in
``Docs/personalization.md`` took 32, ``--inner 32``). Meta-training asks of the
network not that it read every writer well but that it read a writer well *after* that adaptation (MetaHTR, Bhunia et
al. 2021, did so for offline lines). Each outer step takes one UNIPEN training writer (never a validation writer, so
neither the tuning nor the reported writers of ``evaluate_adaptation``), K = 20 or 50 of their words in writing order
(the support) and 20 other words of theirs (the query); the profile's recipe learns from the support, and the outer
Adam step follows

    ∇_W [ CTC(query; W + ΔW) + base · CTC(query; W) ]

with ΔW, the learned change, held fixed (first order: no gradient through the 32 inner steps). ``--inner 0`` is the
control: the same writers and words, the plain loss alone, so that what meta-training adds is told apart from more
training on the same words. Checkpoints are model folders (a copy of ``--model`` with the network in 8 bits), to be
read by ``latin tune adaptation --model DIR --engine`` and ``latin evaluate adaptation --model DIR --tuning K``.
"""
from __future__ import annotations

import argparse
import os
import random
import time

import torch

from inkrec_training import data, splits
from inkrec_training.families.latin import adaptation_prototype as proto
from inkrec_training.paths import ROOT

QUERY = 20
SUPPORT = (20, 50)
INNER = (28, 0.01, 0.1, 10)  # the profile's recipe: steps, step size, penalty, words per step (32 until 2026-12-07)


def training_writers(items, min_words: int = 60) -> dict:
    """The items of each writer held in training (``splits.is_validation_writer`` false) with at least ``min_words``
    of them, in the order given (writing order)."""
    return splits.by_writer(items, lambda w: not splits.is_validation_writer(w), min_words)


def draw_task(rng: random.Random, items: list, query: int = QUERY) -> tuple[list, list]:
    """(support, query): K consecutive words (K drawn from ``SUPPORT``, at most all but ``query`` of them) and
    ``query`` of the writer's other words."""
    k = min(rng.choice(SUPPORT), len(items) - query)
    start = rng.randrange(0, len(items) - k - query + 1)
    rest = items[:start] + items[start + k:]
    return items[start:start + k], rng.sample(rest, query)


def meta_loss(net, support, query, inner: int, base: float, seed: int) -> tuple[torch.Tensor, float, float]:
    """The outer loss of one task, ready for ``backward`` into ``net``'s parameters, and its two parts' values (the
    query's loss at W, at W + ΔW). ``support`` and ``query`` are ``adaptation_prototype.Batch``-like (x, lengths,
    targets, target_lengths, other_targets). ``net`` is left in eval mode with every parameter requiring grad."""
    model = proto.Adapted(net, "loraall")  # freezes the network's own parameters while the change learns
    if inner > 0:
        _, lr, weight, minibatch = INNER
        proto.learn(model, support, inner, lr, weight, minibatch=minibatch, seed=seed)
    for p in model.parameters():  # the change is held fixed; only the network's parameters take the outer gradient
        p.requires_grad_(False)
    for p in net.parameters():
        p.requires_grad_(True)
    net.eval()
    others = getattr(query, "other_targets", None)
    lp, lens = net(query.x, query.lengths)
    at_base = proto.ctc_mean(lp, query.targets, lens, query.target_lengths, others)
    if inner == 0:
        return at_base, at_base.item(), at_base.item()
    lpa, lensa = model(query.x, query.lengths)
    adapted = proto.ctc_mean(lpa, query.targets, lensa, query.target_lengths, others)
    return adapted + base * at_base, at_base.item(), adapted.item()


def save_model(net, model_dir: str, out: str) -> str:
    """A copy of ``model_dir`` whose network is ``net`` in 8 bits; its path."""
    return proto.export_state({k: v.detach().clone() for k, v in net.state_dict().items()}, model_dir, out)


def main(argv=None):
    from inkrec_training.model import load_exported
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--out", required=True, help="a folder for the checkpoints (model folders step250, …, final)")
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--steps", type=int, default=1000, help="outer steps at most")
    ap.add_argument("--inner", type=int, default=INNER[0], help="the profile's steps in each task (0: the control)")
    ap.add_argument("--lr", type=float, default=5e-5, help="the outer Adam step")
    ap.add_argument("--base", type=float, default=0.5, help="the weight of the query's loss at the base weights")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save-every", type=int, default=250)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    net, cfg = load_exported(args.model)
    net.eval()
    symbol = {c: i + 1 for i, c in enumerate(cfg["labels"])}
    writers = training_writers(data.load("words"))
    names = list(writers)
    print(f"{len(names)} training writers, {sum(len(v) for v in writers.values())} words", flush=True)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    t0, step, recent = time.time(), 0, []
    while time.time() - t0 < args.minutes * 60 and step < args.steps:
        support, query = draw_task(rng, writers[rng.choice(names)])
        seed = rng.randrange(1 << 30)  # drawn with --inner 0 too: the control sees the same writers and words
        loss, at_base, adapted = meta_loss(net, proto.Batch(support, cfg, symbol), proto.Batch(query, cfg, symbol),
                                           args.inner, args.base, seed)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(net.parameters()), 1.0)
        opt.step()
        step += 1
        recent = (recent + [(at_base, adapted)])[-20:]
        if step % 20 == 0:
            print(f"step {step} {time.time() - t0:.0f} s: query loss at W {sum(r[0] for r in recent) / len(recent):.4f}, "
                  f"after the profile {sum(r[1] for r in recent) / len(recent):.4f}", flush=True)
        if step % args.save_every == 0:
            save_model(net, args.model, os.path.join(args.out, f"step{step}"))
    print(f"{step} steps; {save_model(net, args.model, os.path.join(args.out, 'final'))}", flush=True)


if __name__ == "__main__":
    main()
