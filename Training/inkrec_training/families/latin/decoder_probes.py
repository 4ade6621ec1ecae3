#!/usr/bin/env python3
"""Writer adaptation that sees the decoder (issue 41): two probes, measured before anything is built in Swift.

    python3 -m inkrec_training latin tune decoder-adaptation lm-weight        # the 20 reported writers: a fixed rule
    python3 -m inkrec_training latin tune decoder-adaptation cache            # the six tuning writers
    python3 -m inkrec_training latin tune decoder-adaptation language         # text only, every held-out writer

``lm-weight``: each writer's words read by the release ``inkrec`` through en-US with LM weights 0 … 1.5 (copies of the
model folder that differ only in ``decoder.lmWeight``); the rule "keep the weight that reads the writer's first K
words best (ties: the shipped 1.0)" applied to the words after the first 50, against the shipped weight.

``cache``: a character n-gram of the writer's first K confirmed words (Witten-Bell within the cache, orders 1 … N,
each word between start-of-text and a space), mixed into the LM's probability of every character of a reading,
``(1 − m) P_LM + m P_cache``, with a fixed share ``m = μ`` or one that grows with the cache's count n of the context,
``m = μ n / (n + β)``; the engine's 64 best readings of each later word rescored with it (their score less ``lmWeight
· log P_LM`` plus ``lmWeight · log`` of the mixture). Tuning writers only: the settings a profile would ship are
chosen here.

``language``: how well each language model of the models on the Latin network explains a writer's first K words
(their text only, no ink): nats per character, each word from the start of a text and its end as a space, what
``DigitalInkRecognizer.languageFit(of:)`` computes. For every held-out writer with at least 60 words (tuning and
reported), the model's own fit, the best other one and the margin between them: what
``suggestedRecognizer``'s margin (1.0) was set from.

Prints pooled word accuracy and the relative change of the word error rate; ``Docs/personalization.md``,
"Decoder-aware adaptation", reports both.
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import shutil
import tempfile

from inkrec_training import data, engine, lm as lmmod, splits
from inkrec_training.families.latin.evaluate_adaptation import POOL, held_out_writers, tuning_writer
from inkrec_training.paths import ROOT

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5)


def writers(tuning: bool) -> dict:
    """The reported writers (``tuning`` false) or the six tuning ones, each with at least 60 words."""
    if not tuning:
        return held_out_writers("words", 60)
    from inkrec_training.families.latin.adaptation_prototype import tuning_writers
    return tuning_writers()


def model_copy(model: str, tmp: str, weight: float) -> str:
    """A copy of ``model`` (and of the network folder it names) whose LM weight is ``weight``."""
    with open(os.path.join(model, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    out = os.path.join(tmp, f"w{weight}", os.path.basename(model))
    os.makedirs(out, exist_ok=True)
    weights = os.path.normpath(os.path.join(model, cfg["network"]["weights"]))
    shutil.copy(weights, os.path.join(out, "weights.safetensors"))
    shutil.copy(os.path.join(model, cfg["decoder"]["languageModel"]), os.path.join(out, "lm.bin"))
    cfg["network"]["weights"], cfg["decoder"]["languageModel"] = "weights.safetensors", "lm.bin"
    cfg["decoder"]["lmWeight"] = weight
    with open(os.path.join(out, "config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, ensure_ascii=False)
    return out


def lm_weight(model: str) -> None:
    ws = writers(tuning=False)
    items = [it for v in ws.values() for it in v]
    inkrec = engine.binary()
    tmp = tempfile.mkdtemp(prefix="inkrec-lmweight-")
    read = {w: engine.best_texts(engine.recognize_items(inkrec, model_copy(model, tmp, w), items, ["--no-segments"]))
            for w in WEIGHTS}
    def right(w, its):
        return sum(read[w].get(it.id) == it.label for it in its)
    n = sum(len(v) - POOL for v in ws.values())
    base = sum(right(1.0, v[POOL:]) for v in ws.values())
    for K in (20, 50):
        chosen = sum(right(max(WEIGHTS, key=lambda w: (right(w, v[:K]), w == 1.0)), v[POOL:]) for v in ws.values())
        print(f"K={K}: the shipped weight {100 * base / n:.2f}%, the writer's own {100 * chosen / n:.2f}% "
              f"(WER {100 * ((n - chosen) / (n - base) - 1):+.1f}%), {n} words")


class Cache:
    """Character n-grams of a writer's confirmed words, Witten-Bell within the cache (``ids``: LM symbol ids)."""

    def __init__(self, texts: list[list[int]], order: int, space: int):
        self.order = order
        self.counts = [collections.defaultdict(collections.Counter) for _ in range(order)]
        for t in texts:
            x = [0] + t + [space]
            for i in range(1, len(x)):
                for n in range(min(order, i + 1)):
                    self.counts[n][tuple(x[i - n:i])][x[i]] += 1

    def probability(self, context: list[int], c: int, symbols: int) -> float:
        p = 1.0 / symbols
        for n in range(min(self.order, len(context) + 1)):
            seen = self.counts[n].get(tuple(context[len(context) - n:]))
            if not seen:
                break
            total = sum(seen.values())
            share = total / (total + len(seen))
            p = share * seen[c] / total + (1 - share) * p
        return p

    def context_count(self, context: list[int]) -> int:
        h = tuple(context[-(self.order - 1):])
        seen = self.counts[self.order - 1].get(h) if len(h) == self.order - 1 else None
        return sum(seen.values()) if seen else 0


def cache(model: str) -> None:
    with open(os.path.join(model, "config.json"), encoding="utf-8") as f:
        dec = json.load(f)["decoder"]
    ngram = lmmod.read_file(os.path.join(model, dec["languageModel"]))
    index = {ch: i + 1 for i, ch in enumerate(ngram.alphabet)}
    symbols, space, weight = len(ngram.alphabet), index[" "], dec["lmWeight"]
    memo: dict = {}

    def base(context: tuple, c: int) -> float:
        key = (context[-(ngram.order - 1):], c)
        if key not in memo:
            memo[key] = ngram.logprob(list(key[0]), c)
        return memo[key]

    def ids(text: str) -> list[int]:
        return [index[ch] for ch in text if ch in index]

    def change(text: str, cached: Cache, mu: float, beta: float | None) -> float:
        x = [0] + ids(text) + [space]
        d = 0.0
        for i in range(1, len(x)):
            p = math.exp(base(tuple(x[:i]), x[i]))
            m = mu if beta is None else mu * cached.context_count(x[:i]) / (cached.context_count(x[:i]) + beta)
            d += math.log((1 - m) * p + m * cached.probability(x[:i], x[i], symbols)) - math.log(p)
        return weight * d

    ws = writers(tuning=True)
    readings = engine.candidate_lists(engine.recognize_items(engine.binary(), model, [it for v in ws.values() for it in v[POOL:]],
                                                             ["--no-segments"], max_results=64))
    n = sum(len(v) - POOL for v in ws.values())
    for K in (20, 50):
        for order in (3, 4, 5):
            for mu, beta in ((0.1, None), (0.2, None), (0.3, None), (0.5, 2), (0.5, 5), (0.8, 5)):
                base_right = right = 0
                for v in ws.values():
                    cached = Cache([ids(it.label) for it in v[:K]], order, space)
                    for it in v[POOL:]:
                        cands = readings.get(it.id) or [("", 0.0, None)]
                        best = max(cands, key=lambda t: t[1] + change(t[0], cached, mu, beta))[0]
                        right += best == it.label
                        base_right += cands[0][0] == it.label
                share = f"μ {mu}" if beta is None else f"μ {mu} · n/(n + {beta})"
                print(f"K={K} order {order}, {share}: {100 * base_right / n:.2f}% → {100 * right / n:.2f}% "
                      f"(WER {100 * ((n - right) / (n - base_right) - 1):+.1f}%)", flush=True)


def text_fit(ngram, words: list[str], labels: set) -> float:
    """Mean −ln P per character of ``words`` under ``ngram`` as ``DigitalInkRecognizer.languageFit(of:)`` scores them:
    each word from start-of-text, then a space; characters outside the network's ``labels`` skipped; one outside the
    LM's alphabet scores the LM's unknown-symbol log-probability and starts an empty context."""
    index = {ch: i + 1 for i, ch in enumerate(ngram.alphabet)}
    nats = count = 0.0
    for w in words:
        chars = [ch for ch in w if ch in labels]
        if not chars:
            continue
        context = [0]
        for ch in chars + ([" "] if " " in labels else []):
            count += 1
            if ch not in index:
                nats -= ngram.unknown_logprob
                context = []
                continue
            nats -= ngram.logprob(context, index[ch])
            context.append(index[ch])
    return nats / count if count else math.inf


def language(model: str) -> None:
    root = os.path.dirname(os.path.normpath(model))
    with open(os.path.join(model, "config.json"), encoding="utf-8") as f:
        network = json.load(f)["network"]["weights"]
    own_weights = os.path.normpath(os.path.join(model, network))
    lms = {}
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, "config.json")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
        lm_file = (cfg.get("decoder") or {}).get("languageModel")
        if lm_file and os.path.normpath(os.path.join(root, name, cfg["network"]["weights"])) == own_weights:
            lms[cfg["identifier"]] = lmmod.read_file(os.path.join(root, name, lm_file))
    with open(os.path.join(model, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    own, labels = cfg["identifier"], set(cfg["labels"])
    print(f"{len(lms)} models on {os.path.relpath(own_weights, ROOT)}", flush=True)
    # Every held-out writer with at least 60 words, tuning ones too (text only).
    for w, items in splits.by_writer(data.load("words"), splits.is_validation_writer, 60).items():
        tuning = tuning_writer(w)
        for K in (10, 20, 50):
            words = [it.label for it in items[:K]]
            fits = {m: text_fit(ngram, words, labels) for m, ngram in lms.items()}
            best = min((m for m in fits if m != own), key=fits.get)
            margin = fits[own] - fits[best]
            print(f"{'tuning' if tuning else 'reported'} {w} K={K}: {own} {fits[own]:.2f}, best other {best} "
                  f"{fits[best]:.2f}, margin {margin:+.2f}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("probe", choices=("lm-weight", "cache", "language"))
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    args = ap.parse_args(argv)
    {"lm-weight": lm_weight, "cache": cache, "language": language}[args.probe](args.model)


if __name__ == "__main__":
    main()
