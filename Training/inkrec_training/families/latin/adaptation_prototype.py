#!/usr/bin/env python3
"""Writer adaptation (issue 41): which part of the network to adapt, tried in PyTorch on the six tuning writers.

    python3 -m inkrec_training latin tune adaptation --methods head,last,all,loraall --ks 20,50

Only the six writers of ``evaluate_adaptation.tuning_writer`` (never in a reported figure). For each writer, in
writing order: the network learns from the first K words with its labels and reads the words after the first 50
(every K on the same words), greedy CTC decoding, no language model. Each method is a set of parameters to adapt
and a penalty that keeps them near the shipped network:

- ``head``: the shipped profile (``WriterProfile``): a rank-8 change B·A to the head's weight and a bias change d,
  penalty 0.3 (‖B A‖² + ‖d‖²), 50 Adam steps of 0.03.
- ``last``: the last LSTM layer (both directions) and the head, L2 to the shipped weights (L2-SP).
- ``all``: every weight, L2-SP.
- ``input``: a 4 × 4 affine map of the input features, from the identity (per-writer feature statistics).
- ``lora3``: rank-8 changes to the last layer's input weights (both directions) and the head's rank 8.
- ``loraall``: rank-8 changes to every LSTM weight (input and recurrent, both directions, every layer) and the
  head's rank 8: what a profile of at most 256 KB can hold.

With ``--augment N``, each of the K words also comes as N distorted copies (``data.warp`` and ``data.augment``, as
training draws them; fixed per writer), so that the steps see the writer's letters in more shapes than the K words
have.

With ``--engine``, each adapted network is also exported as the shipped model's 8-bit weights (the changes folded
in: W + B·A, the head's bias + d; ``quantize.quantize_state``) into a copy of the model folder, and the writer's
words are read by the release ``inkrec`` with the model's decoder and language model, against the shipped model:
the figure the issue's bar is about (methods whose change lives in the weights: not ``input``).

Prints one line per method and K: pooled word accuracy and CER without and with the adaptation, writers
better / worse, and the learning time per writer.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import time
import json
import shutil
import tempfile
import zlib

import numpy as np
import torch
import torch.nn as nn

from inkrec_training import data, splits
from inkrec_training.families.latin.evaluate_adaptation import tuning_writer
from inkrec_training.features import model_features
from inkrec_training.metrics import edit_distance, greedy_ids
from inkrec_training.model import load_exported
from inkrec_training.paths import ROOT

POOL = 50


def tuning_writers(min_words: int = 60, reported: bool = False) -> dict:
    """The six tuning writers; with ``reported``, instead the 20 writers the evaluation reports (to measure settings
    already chosen, never to choose them)."""
    return splits.by_writer(data.load("words"), lambda w: splits.is_validation_writer(w) and tuning_writer(w) != reported,
                            min_words)


class Batch:
    """Items as a padded feature batch with their CTC targets."""

    def __init__(self, items, cfg, symbol):
        feats = [torch.tensor(model_features(it.strokes, cfg["features"]), dtype=torch.float32) for it in items]
        self.lengths = torch.tensor([len(f) for f in feats])
        self.x = nn.utils.rnn.pad_sequence(feats, batch_first=True)
        self.labels = [it.label for it in items]
        tg = [[symbol[c] for c in it.label if c in symbol] for it in items]
        self.target_lengths = torch.tensor([len(t) for t in tg])
        self.targets = torch.tensor([s for t in tg for s in t], dtype=torch.long)
        # A lone letter's other case (as the Swift side's HeadExample.otherCase): it learns either case.
        self.other_targets = torch.tensor([other_case(it.label, symbol) or s for it, t in zip(items, tg) for s in t],
                                          dtype=torch.long)


def other_case(label: str, symbol: dict) -> int | None:
    """The class of a one-letter ``label``'s other case (C for c, a for A) where the labels have it; None for a
    longer text, a character without case, or a case that is not one character (ß's is SS)."""
    if len(label) != 1 or label.lower() == label.upper():
        return None
    other = label.lower() if label.isupper() else label.upper()
    return symbol.get(other) if len(other) == 1 and other != label else None


def ctc_mean(lp, targets, lens, target_lengths, others=None):
    """``nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)``: each word's CTC loss divided by its length, then
    their mean; where ``others`` (the same layout as ``targets``) differs, a lone letter's loss is that of either case,
    −logsumexp(−CTC(target), −CTC(other)) (the Swift side's ``CTCGradient.union``)."""
    per = nn.functional.ctc_loss(lp.transpose(0, 1), targets, lens, target_lengths, blank=0, reduction="none",
                                 zero_infinity=True)
    if others is not None and not torch.equal(others, targets):
        alt = nn.functional.ctc_loss(lp.transpose(0, 1), others, lens, target_lengths, blank=0, reduction="none",
                                     zero_infinity=True)
        starts = torch.cumsum(target_lengths, 0) - target_lengths
        differs = torch.tensor([bool((targets[s:s + n] != others[s:s + n]).any())
                                for s, n in zip(starts.tolist(), target_lengths.tolist())])
        per = torch.where(differs, -torch.logsumexp(torch.stack([-per, -alt]), dim=0), per)
    return (per / target_lengths.clamp(min=1)).mean()


def augmented(items, copies: int, seed: int) -> list:
    """``items`` and ``copies`` distorted copies of each (``data.warp`` then ``data.augment``), same labels."""
    rng = random.Random(seed)
    out = list(items)
    for it in items:
        for _ in range(copies):
            out.append(dataclasses.replace(it, strokes=data.augment(data.warp(it.strokes, rng, share=1.0), rng)))
    return out


def greedy(log_probs, lengths, labels) -> list[str]:
    return ["".join(labels[c - 1] for c in greedy_ids(log_probs[b, : int(lengths[b])].numpy()))
            for b in range(log_probs.shape[0])]


class Adapted(nn.Module):
    """The shipped network with a method's trainable changes."""

    def __init__(self, net, method: str, rank: int = 8):
        super().__init__()
        self.net, self.method = net, method
        for p in net.parameters():
            p.requires_grad_(False)
        self.start = {k: v.detach().clone() for k, v in net.state_dict().items()}
        H = net.head.in_features
        C = net.head.out_features
        g = torch.Generator().manual_seed(0)
        if method in ("head", "lora3", "loraall"):
            self.A = nn.Parameter(torch.randn(rank, H, generator=g) * 0.01)
            self.B = nn.Parameter(torch.zeros(C, rank))
            self.d = nn.Parameter(torch.zeros(C))
        # The LSTM weights with a rank-`rank` change beside them: (layer, "ih" or "hh"), both directions each.
        last = len(net.lstms) - 1
        self.lora_weights = {"lora3": [(last, "ih")],
                             "loraall": [(l, k) for l in range(len(net.lstms)) for k in ("ih", "hh")]}.get(method, [])
        self.lora = nn.ParameterDict()
        for l, kind in self.lora_weights:
            for sfx in ("", "_reverse"):
                w = getattr(net.lstms[l], f"weight_{kind}_l0{sfx}")
                self.lora[f"A{l}{kind}{sfx}"] = nn.Parameter(torch.randn(rank, w.shape[1], generator=g) * 0.01)
                self.lora[f"B{l}{kind}{sfx}"] = nn.Parameter(torch.zeros(w.shape[0], rank))
        if method == "input":
            self.M = nn.Parameter(torch.eye(net.input_dim))
            self.m = nn.Parameter(torch.zeros(net.input_dim))
        if method == "last":
            for p in list(net.lstms[-1].parameters()) + list(net.head.parameters()):
                p.requires_grad_(True)
        if method == "all":
            for p in net.parameters():
                p.requires_grad_(True)

    def forward(self, x, lengths):
        net = self.net
        if self.method == "input":
            x = x @ self.M.T + self.m
        h, lengths = self.features(x, lengths)
        logits = net.head(h)
        if self.method in ("head", "lora3", "loraall"):
            logits = logits + h @ (self.B @ self.A).T + self.d
        return torch.log_softmax(logits, -1), lengths

    def features(self, x, lengths):
        """The head's input (B, T', 2H·k) and lengths, the LSTM weights changed as the method says."""
        net = self.net

        def run(l, lstm, packed):
            kinds = [k for m, k in self.lora_weights if m == l]
            if not kinds:
                return lstm(packed)
            w = {f"weight_{kind}_l0{sfx}": getattr(lstm, f"weight_{kind}_l0{sfx}")
                 + self.lora[f"B{l}{kind}{sfx}"] @ self.lora[f"A{l}{kind}{sfx}"]
                 for kind in kinds for sfx in ("", "_reverse")}
            return torch.func.functional_call(lstm, w, (packed,))

        return net.encode(x, lengths, run)

    def penalty(self) -> torch.Tensor:
        if self.method in ("head", "lora3", "loraall"):
            p = (self.B @ self.A).pow(2).sum() + self.d.pow(2).sum()
            for key in self.lora:
                if key.startswith("A"):
                    p = p + (self.lora["B" + key[1:]] @ self.lora[key]).pow(2).sum()
            return p
        if self.method == "input":
            return (self.M - torch.eye(self.M.shape[0])).pow(2).sum() + self.m.pow(2).sum()
        total = torch.zeros(())
        for k, p in self.net.named_parameters():
            if p.requires_grad:
                total = total + (p - self.start[k]).pow(2).sum()
        return total


class Competitors:
    """For each learned word, the texts the decoder weighs against each other (the engine's best ``n`` readings
    with the shipped network, and the word itself) and each text's fixed part of the decoder's score: its language
    model and length terms, ``lmWeight · log P_LM(text) + insertionBonus · length + endWeight · log P_LM(end | text)``
    (``CTCPrefixBeamSearch``). A text's decoder score with an adapted network is its CTC log-likelihood plus that part."""

    def __init__(self, items, model_dir: str, cfg, symbol, n: int, tmp: str):
        from inkrec_training import engine, lm as lmmod
        dec = cfg["decoder"]
        ngram = lmmod.read_file(os.path.join(model_dir, dec["languageModel"]))
        index = {c: i + 1 for i, c in enumerate(ngram.alphabet)}
        def fixed(text: str) -> float:
            ids = [0] + [index[c] for c in text if c in index]
            lm = sum(ngram.logprob(ids[max(0, i - ngram.order + 1):i], ids[i]) for i in range(1, len(ids)))
            end = ngram.logprob(ids[-(ngram.order - 1):], index[" "])
            return dec["lmWeight"] * lm + dec["insertionBonus"] * len(text) + dec.get("endWeight", 0) * end
        answers = engine.candidate_lists(engine.recognize_items(engine.binary(), model_dir, items, ["--no-segments"], max_results=n))
        self.item, self.truth, tg, self.fixed = [], [], [], []
        for b, it in enumerate(items):
            texts = [it.label] + [t for t, _, _ in answers.get(it.id, []) if t != it.label and t and all(c in symbol for c in t)]
            for j, t in enumerate(texts[:n + 1]):
                self.item.append(b)
                self.truth.append(j == 0)
                tg.append([symbol[c] for c in t])
                self.fixed.append(fixed(t))
        self.item = torch.tensor(self.item)
        self.truth = torch.tensor(self.truth)
        self.fixed = torch.tensor(self.fixed, dtype=torch.float32)
        self.target_lengths = torch.tensor([len(t) for t in tg])
        self.targets = torch.tensor([s for t in tg for s in t], dtype=torch.long)
        self.words = len(items)

    def loss(self, lp, lens) -> torch.Tensor:
        """Mean over the words of −log P(word | the competitors), the decoder's scores as logits."""
        ll = -nn.functional.ctc_loss(lp.transpose(0, 1)[:, self.item], self.targets, lens[self.item], self.target_lengths,
                                     blank=0, reduction="none", zero_infinity=True)
        score = ll + self.fixed
        total = torch.zeros(())
        for b in range(self.words):
            m = self.item == b
            total = total + torch.logsumexp(score[m], 0) - score[m & self.truth].sum()
        return total / self.words


def learn(model: Adapted, batch: Batch, steps: int, lr: float, weight: float,
          competitors: Competitors | None = None, mmi: float = 0.0, minibatch: int = 0, seed: int = 0) -> None:
    """Adam on the mean CTC loss per character (a lone letter's of either case, ``ctc_mean``) plus ``weight`` times the
    penalty; with ``minibatch`` > 0 each step
    sees that many of the words (consecutive slices of one shuffled order, reshuffled each pass)."""
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=lr)
    others = getattr(batch, "other_targets", None)
    model.net.train(False)
    n = len(batch.target_lengths)
    rng = random.Random(seed)
    order: list[int] = []
    starts = torch.cumsum(batch.target_lengths, 0) - batch.target_lengths
    for _ in range(steps):
        opt.zero_grad()
        if 0 < minibatch < n:
            if len(order) < minibatch:
                order = list(range(n))
                rng.shuffle(order)
            idx, order = sorted(order[:minibatch]), order[minibatch:]
            it = torch.tensor(idx)
            def take(t):
                return None if t is None else torch.cat([t[int(starts[i]):int(starts[i] + batch.target_lengths[i])] for i in idx])
            lp, lens = model(batch.x[it], batch.lengths[it])
            loss = ctc_mean(lp, take(batch.targets), lens, batch.target_lengths[it], take(others)) + weight * model.penalty()
            loss.backward()
            opt.step()
            continue
        lp, lens = model(batch.x, batch.lengths)
        loss = ctc_mean(lp, batch.targets, lens, batch.target_lengths, others) + weight * model.penalty()
        if competitors is not None and mmi > 0:
            loss = loss + mmi * competitors.loss(lp, lens)
        loss.backward()
        opt.step()


def adapted_state(model: Adapted) -> dict:
    """The network's weights with the method's changes folded in (W + B·A beside each adapted weight, the head's
    W + B·A and bias + d)."""
    sd = {k: v.detach().clone() for k, v in model.net.state_dict().items()}
    with torch.no_grad():
        for l, kind in model.lora_weights:
            for sfx in ("", "_reverse"):
                sd[f"lstms.{l}.weight_{kind}_l0{sfx}"] += model.lora[f"B{l}{kind}{sfx}"] @ model.lora[f"A{l}{kind}{sfx}"]
        if model.method in ("head", "lora3", "loraall"):
            sd["head.weight"] += model.B @ model.A
            sd["head.bias"] += model.d
    return sd


def export_model(model: Adapted, model_dir: str, out: str, lm_weight: float | None = None) -> str:
    """A copy of ``model_dir`` whose network is ``adapted_state(model)`` in 8 bits (and whose decoder's LM weight is
    ``lm_weight`` when given); its path."""
    return export_state(adapted_state(model), model_dir, out, lm_weight)


def export_state(state: dict, model_dir: str, out: str, lm_weight: float | None = None) -> str:
    """A copy of ``model_dir`` whose network is the float ``state`` in 8 bits (``quantize.quantize_state``; the
    config names the copy's own weights file), and whose decoder's LM weight is ``lm_weight`` when given; its path."""
    from safetensors.torch import save_file
    from inkrec_training.quantize import quantize_state
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(model_dir):
        if os.path.isfile(os.path.join(model_dir, name)):
            shutil.copy(os.path.join(model_dir, name), out)
    save_file(quantize_state(state), os.path.join(out, "weights.safetensors"))
    with open(os.path.join(out, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    cfg["network"]["weights"] = "weights.safetensors"
    if lm_weight is not None:
        cfg["decoder"]["lmWeight"] = lm_weight
    with open(os.path.join(out, "config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, ensure_ascii=False)
    return out


def engine_read(model_dir: str, items, tmp: str) -> tuple[int, int, int]:
    """``items`` read by the release ``inkrec`` through ``model_dir`` (decoder and LM as configured): (words right,
    character errors, characters)."""
    from inkrec_training import engine
    from inkrec_training.families.latin.evaluate_adaptation import read, score as engine_score
    return engine_score(items, read(engine.binary(), model_dir, items, os.path.join(tmp, "t.jsonl"), None))


def score(hyps, labels) -> tuple[int, int, int]:
    return (sum(h == l for h, l in zip(hyps, labels)), sum(edit_distance(h, l) for h, l in zip(hyps, labels)),
            sum(len(l) for l in labels))


SETTINGS = {  # method: (steps, lr, penalty weight)
    "head": (50, 0.03, 0.3),
    "last": (30, 3e-3, 1.0),
    "all": (30, 2e-3, 1.0),
    "input": (50, 0.01, 0.1),
    "lora3": (50, 0.01, 0.3),
    "loraall": (40, 0.01, 0.1),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--methods", default="head,last,all,input,lora3")
    ap.add_argument("--ks", default="50")
    ap.add_argument("--set", action="append", default=[],
                    help="METHOD:STEPS:LR:WEIGHT overrides a method's settings (repeatable)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--augment", type=int, default=0, help="distorted copies of each learned word")
    ap.add_argument("--engine", action="store_true", help="also read each writer through inkrec with the adapted weights")
    ap.add_argument("--lm-weight", type=float, help="with --engine: the adapted models' LM weight (the shipped one's otherwise)")
    ap.add_argument("--mmi", type=float, default=0.0,
                    help="add this weight times the decoder-aware loss (Competitors: each word against the engine's best readings)")
    ap.add_argument("--competitors", type=int, default=16, help="with --mmi: the engine's readings per word")
    ap.add_argument("--minibatch", type=int, default=0, help="words per step (0: all of them)")
    ap.add_argument("--reported", action="store_true",
                    help="the 20 reported writers instead of the six tuning ones: measures chosen settings, chooses nothing")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    for s in args.set:
        m, steps, lr, w = s.split(":")
        SETTINGS[m] = (int(steps), float(lr), float(w))
    net, cfg = load_exported(args.model)
    net.eval()
    labels = cfg["labels"]
    symbol = {c: i + 1 for i, c in enumerate(labels)}
    writers = tuning_writers(reported=args.reported)
    print(f"{len(writers)} {'reported' if args.reported else 'tuning'} writers: " + ", ".join(f"{w} ({len(v)})" for w, v in writers.items()), flush=True)
    tests = {w: Batch(items[POOL:], cfg, symbol) for w, items in writers.items()}
    base = {}
    with torch.no_grad():
        for w, b in tests.items():
            lp, lens = net(b.x, b.lengths)
            base[w] = score(greedy(lp, lens, labels), b.labels)
    ok, errs, chars = (sum(v[i] for v in base.values()) for i in range(3))
    n = sum(len(b.labels) for b in tests.values())
    print(f"without: words {100 * ok / n:.2f}% CER {100 * errs / chars:.2f}% ({n} words)", flush=True)
    tmp = tempfile.mkdtemp(prefix="inkrec-adapt-proto-")
    engine_base = {}
    if args.engine:
        engine_base = {w: engine_read(args.model, items[POOL:], tmp) for w, items in writers.items()}
        e = [sum(v[i] for v in engine_base.values()) for i in range(3)]
        print(f"without, through inkrec with the LM: words {100 * e[0] / n:.2f}% CER {100 * e[1] / e[2]:.2f}%", flush=True)
    for K in (int(k) for k in args.ks.split(",")):
        for method in args.methods.split(","):
            steps, lr, weight = SETTINGS[method]
            tot = [0, 0, 0]
            etot, ebetter, eworse = [0, 0, 0], 0, 0
            better = worse = 0
            seconds = []
            for w, items in writers.items():
                net, _ = load_exported(args.model)
                net.eval()
                model = Adapted(net, method)
                t = time.time()
                comp = Competitors(items[:K], args.model, cfg, symbol, args.competitors, tmp) if args.mmi > 0 else None
                learn(model, Batch(augmented(items[:K], args.augment, zlib.crc32(w.encode())), cfg, symbol), steps, lr, weight,
                      comp, args.mmi, args.minibatch, zlib.crc32(w.encode()))
                seconds.append(time.time() - t)
                with torch.no_grad():
                    lp, lens = model(tests[w].x, tests[w].lengths)
                s = score(greedy(lp, lens, labels), tests[w].labels)
                better += s[0] > base[w][0]
                worse += s[0] < base[w][0]
                tot = [a + b for a, b in zip(tot, s)]
                if args.engine and method != "input":
                    es = engine_read(export_model(model, args.model, os.path.join(tmp, "model"), args.lm_weight), items[POOL:], tmp)
                    ebetter += es[0] > engine_base[w][0]
                    eworse += es[0] < engine_base[w][0]
                    etot = [a + b for a, b in zip(etot, es)]
            print(f"K={K} {method} ({steps} steps, lr {lr}, penalty {weight}, augment {args.augment}, mmi {args.mmi}, minibatch {args.minibatch}): words {100 * tot[0] / n:.2f}% "
                  f"(WER {100 * (1 - tot[0] / n):.2f} vs {100 * (1 - ok / n):.2f}: "
                  f"{100 * ((1 - tot[0] / n) / (1 - ok / n) - 1):+.1f}%) CER {100 * tot[1] / tot[2]:.2f}% "
                  f"better/worse {better}/{worse}, {np.median(seconds):.1f} s a writer", flush=True)
            if args.engine and method != "input":
                e0 = sum(v[0] for v in engine_base.values())
                print(f"    through inkrec with the LM: words {100 * etot[0] / n:.2f}% (WER {100 * (1 - etot[0] / n):.2f} vs "
                      f"{100 * (1 - e0 / n):.2f}: {100 * ((1 - etot[0] / n) / (1 - e0 / n) - 1):+.1f}%) "
                      f"CER {100 * etot[1] / max(1, etot[2]):.2f}% better/worse {ebetter}/{eworse}", flush=True)


if __name__ == "__main__":
    main()
