#!/usr/bin/env python3
"""Trains the shared CJK network (ja, zh-Hans, zh-Hant) on generated ink (``inkrec_training/cjk.py``).

    python3 -m inkrec_training cjk data                 # glyph cache, character set check, word lists
    python3 -m inkrec_training cjk train --run Training/runs/cjk1 --minutes 20 --device cuda --workers 14

``--prepare`` needs KanjiVG (``pip install kanjivg``), wordfreq and OpenCC (``opencc-python-reimplemented``)
and writes ``Training/work/cjk/`` (glyphs.npz, words-<lang>.tsv); training needs only those files, numpy
and torch, so that folder can travel to a GPU machine alone. Checkpoints go to ``<run>/last.pt`` (resumable)
and the exportable weights (EMA, float32) to ``<run>/weights.pt``; with ``--out16 DIR`` also float16 EMA and live
weights (``ema16.pt``, ``live16.pt``) and ``history.json`` at each checkpoint, what a GPU lease brings back
(``Training/gpu/cjk_gpu.sh once``, where ``--deadline`` ends the run in time for its last validation and saving).

Mix: ``--char-share`` (50%) of the batches hold single characters (80% uniform over the character set, 20% by
text frequency), the others lines (60% running text of one of the three languages, 5–15 characters; 40%
2–12 uniformly drawn characters); every ink by a training writer (``cjk.train_writer``). Each worker makes a pool of samples of one kind, sorts it by length and
cuts it into batches of at most ``--frames`` padded frames. Validation: held-out writers (``cjk.heldout_writer``): 2,000
single characters uniform over the set (greedy top-1) and 300 text lines (greedy CER).
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import multiprocessing as mp
import os
import random
import time

import numpy as np

from inkrec_training import cjk, cjk_charset, cjk_glyphs, features, gpu_run
from inkrec_training.metrics import edit_distance, greedy_ids  # noqa: E402
from inkrec_training.paths import TRAINING

PROCESS_START = time.time()
WORK = os.path.join(TRAINING, "work", "cjk")
LANGS = ("zh-Hans", "zh-Hant", "ja")
STEPS = cjk_charset.STEPS_PER_LINE_HEIGHT


def prepare(work: str) -> None:
    os.makedirs(work, exist_ok=True)
    gpath = os.path.join(work, "glyphs.npz")
    if not os.path.exists(gpath):
        cjk_glyphs.build_cache(gpath)
    cache = cjk_glyphs.load_cache(gpath)
    have = set(cache["train"]) | set(cjk.ASCII)
    missing = [c for c in cjk_charset.CHARACTERS if c not in have]
    if missing:
        raise SystemExit(f"{len(missing)} characters of cjk_charset.txt have no glyph: {''.join(missing[:50])}")
    import wordfreq
    import opencc
    conv = opencc.OpenCC("s2twp")
    index = set(cjk_charset.CHARACTERS)
    for lang in LANGS:
        freqs = wordfreq.get_frequency_dict("zh" if lang.startswith("zh") else "ja")
        rows: dict[str, float] = {}
        for w, f in freqs.items():
            if lang == "zh-Hant":
                w = conv.convert(w)
            if w and all(c in index for c in w) and not w.isascii():
                rows[w] = rows.get(w, 0.0) + f
        top = sorted(rows.items(), key=lambda kv: -kv[1])[:30000]
        with gzip.open(os.path.join(work, f"words-{lang}.tsv.gz"), "wt", encoding="utf-8") as f:
            for w, fr in top:
                f.write(f"{w}\t{fr:.6g}\n")
        print(f"{lang}: {len(top)} words")


def load_words(work: str):
    out = {}
    for lang in LANGS:
        words, weights = [], []
        for line in gzip.open(os.path.join(work, f"words-{lang}.tsv.gz"), "rt", encoding="utf-8"):
            w, f = line.rstrip("\n").split("\t")
            words.append(w)
            weights.append(float(f) ** 0.7)  # flatter than the text: rarer words seen more
        out[lang] = (words, list(np.cumsum(weights)))
    return out


class Source:
    """Everything a worker needs to make samples."""

    def __init__(self, work: str):
        cache = cjk_glyphs.load_cache(os.path.join(work, "glyphs.npz"))
        self.gen = cjk.Generator(cache["train"], cache["heldout_variants"])
        self.words = load_words(work)
        self.han = [c for c in cjk_charset.CHARACTERS if c not in cjk.ASCII]
        self.freq_chars = {lang: "".join(w for w in ws[:20000]) for lang, (ws, _) in self.words.items()}

    def char(self, rng: random.Random) -> str:
        """One character: 80% uniform over the set, 20% by text frequency."""
        if rng.random() < 0.8:
            return rng.choice(self.han)
        return rng.choice(self.freq_chars[rng.choice(LANGS)])

    def line(self, rng: random.Random) -> str:
        """A line: 60% running text of one of the languages (5-15 characters), 40% 2-12 uniform characters."""
        if rng.random() < 0.6:
            lang = rng.choice(LANGS)
            words, cum = self.words[lang]
            return cjk.sample_line(words, cum, lang, rng)
        return "".join(rng.choice(self.han) for _ in range(rng.randint(2, 12)))

    def sample(self, rng: random.Random, style: cjk.Style, text: str):
        ink = self.gen.write(text, style, rng)
        if ink is None:
            return None
        x = features.ink_features_vectorized(ink, STEPS)
        return x, cjk_charset.encode(text)


_SRC = None


def _worker_init(work: str, seed: int, char_share: float = 0.5):
    global _SRC
    _SRC = Source(work)
    _SRC.char_share = char_share
    random.seed(seed + os.getpid())


def _make_batches(args):
    """Batches of one kind (single characters, or lines) from one pool of samples sorted by length, each
    holding at most ``padded`` frames once padded: little padding, and batches of single characters are
    short sequences that the recurrent layers run through quickly."""
    seed, padded = args
    rng = random.Random(seed)
    chars = rng.random() < _SRC.char_share
    samples = []
    total = 0
    while total < 4 * padded:
        text = _SRC.char(rng) if chars else _SRC.line(rng)
        got = _SRC.sample(rng, cjk.train_writer(rng), text)
        if got is None:
            continue
        x, y = got
        if len(x) == 0 or len(y) == 0 or (len(x) + 1) // 2 < 2 * len(y):
            continue
        samples.append((x, y))
        total += len(x)
    samples.sort(key=lambda s: len(s[0]))
    out, cur = [], []
    for s in samples:
        if cur and len(s[0]) * (len(cur) + 1) > padded:
            out.append(pack([a for a, _ in cur], [b for _, b in cur]))
            cur = []
        cur.append(s)
    if cur:
        out.append(pack([a for a, _ in cur], [b for _, b in cur]))
    rng.shuffle(out)
    return out


def pack(xs, ys):
    lengths = np.array([len(x) for x in xs], dtype=np.int64)
    x = np.zeros((len(xs), lengths.max(), features.FEATURE_DIM), dtype=np.float32)
    for i, a in enumerate(xs):
        x[i, :len(a)] = a
    targets = np.concatenate([np.asarray(y, dtype=np.int64) for y in ys])
    return x, lengths, targets, np.array([len(y) for y in ys], dtype=np.int64)


def validation_set(work: str, chars: int, lines: int, seed: int = 4242):
    """Held-out writers' single characters (uniform over the set) and text lines."""
    src = Source(work)
    rng = random.Random(seed)
    out = {"chars": [], "lines": []}
    i = 0
    while len(out["chars"]) < chars:
        c = rng.choice(src.han)
        got = src.sample(rng, cjk.heldout_writer(i), c)
        i += 1
        if got:
            out["chars"].append((got[0], got[1], c))
    while len(out["lines"]) < lines:
        lang = LANGS[len(out["lines"]) % 3]
        words, cum = src.words[lang]
        t = cjk.sample_line(words, cum, lang, rng)
        got = src.sample(rng, cjk.heldout_writer(i), t)
        i += 1
        if got:
            out["lines"].append((got[0], got[1], t))
    return out


def evaluate(model, val, device) -> dict:
    import torch
    model.eval()
    res = {}
    with torch.no_grad():
        for key in ("chars", "lines"):
            items = val[key]
            errs = chars = correct = 0
            for k in range(0, len(items), 256):
                chunk = items[k:k + 256]
                x, lengths, _, _ = pack([a for a, _, _ in chunk], [b for _, b, _ in chunk])
                lp, out_len = model(torch.from_numpy(x).to(device), torch.from_numpy(lengths))
                lp = lp.float().cpu().numpy()
                for j, (_, y, _) in enumerate(chunk):
                    hyp = greedy_ids(lp[j, :int(out_len[j])], cjk_charset.BLANK)
                    errs += edit_distance(hyp, list(y))
                    chars += len(y)
                    correct += hyp == list(y)
            res[key] = {"cer": errs / max(chars, 1), "exact": correct / max(len(items), 1)}
    model.train()
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prepare", action="store_true")
    ap.add_argument("--work", default=WORK)
    ap.add_argument("--run", default="Training/runs/cjk")
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--hidden", type=int, default=160)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--frames", type=int, default=60000, help="feature frames per batch, padding included")
    ap.add_argument("--char-share", type=float, default=0.5, help="share of batches of single characters")
    ap.add_argument("--amp", action="store_true", help="bfloat16 autocast for the network on CUDA (the loss in float32)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ema", type=float, default=0.999)
    ap.add_argument("--val-chars", type=int, default=2000)
    ap.add_argument("--val-lines", type=int, default=300)
    ap.add_argument("--checkpoint-minutes", type=float, default=4.0)
    ap.add_argument("--init-from", help="weights of an earlier run (fresh optimizer): weights.pt, a float16 copy "
                                        "(ema16.pt), or a shipped 8-bit weights.safetensors (dequantized)")
    gpu_run.add_arguments(ap)
    args = ap.parse_args()
    if args.prepare:
        prepare(args.work)
        return

    import torch
    import torch.nn as nn
    from inkrec_training.model import InkRecNet, using_weights
    from inkrec_training.trainer import Trainer, warmup_cosine, write_history

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    os.makedirs(args.run, exist_ok=True)
    device = torch.device(args.device)
    t0 = time.time()
    val = validation_set(args.work, args.val_chars, args.val_lines)
    print(f"validation: {len(val['chars'])} characters, {len(val['lines'])} lines of held-out writers "
          f"({time.time() - t0:.0f}s); classes {cjk_charset.NUM_CLASSES}", flush=True)

    model = InkRecNet(features.FEATURE_DIM, args.hidden, args.layers, cjk_charset.NUM_CLASSES, 1)
    model.init_forget_gate_bias()
    ckpt_path = os.path.join(args.run, "last.pt")
    trainer = Trainer(model, args.lr)
    ck = trainer.resume(ckpt_path)
    state = trainer.state
    if ck is not None:
        print(f"resumed at step {state['step']}", flush=True)
    elif args.init_from:
        if args.init_from.endswith(".safetensors"):  # a shipped 8-bit network, e.g. Models/cjk-bilstm192x3/
            from safetensors.torch import load_file
            from inkrec_training.quantize import dequantize_state
            model.load_state_dict(dequantize_state(load_file(args.init_from)))
        else:
            w = torch.load(args.init_from, map_location="cpu")
            model.load_state_dict(w["model"] if "model" in w else w)
        print(f"initialized from {args.init_from}", flush=True)
    trainer.set_budget(args.minutes * 60)
    state["schedule_start"] = state["elapsed"]
    # the checkpoint's moving average, else the weights; its updates are counted by state["step"]
    trainer.start_ema(args.ema, ck.get("ema") if ck is not None else None)
    trainer.to(device)
    ema = trainer.ema
    print(f"model: {model.config()} params={sum(p.numel() for p in model.parameters())}", flush=True)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)

    feature_meta = {"scheme": features.SCHEME_V2, "stepsPerLineHeight": STEPS}

    def save():
        trainer.save(ckpt_path, ema={k: v.cpu() for k, v in ema.items()}, charset="cjk", features=feature_meta)
        torch.save({"model": {k: v.cpu() for k, v in ema.items()}, "config": model.config(), "state": state,
                    "charset": "cjk", "features": feature_meta}, os.path.join(args.run, "weights.pt"))

    def validate_ema():
        with using_weights(model, ema):
            return evaluate(model, val, device)

    ctx = mp.get_context("fork")
    pool = ctx.Pool(args.workers, initializer=_worker_init, initargs=(args.work, args.seed, args.char_share)) if args.workers else None
    if pool is None:
        _worker_init(args.work, args.seed, args.char_share)
    base_seed = args.seed * 1_000_003 + state["step"] * 7

    def batches():
        k = 0
        if pool is None:
            while True:
                yield from _make_batches((base_seed + k, args.frames))
                k += 1
        for group in pool.imap(_make_batches, ((base_seed + j, args.frames) for j in range(10 ** 9)), chunksize=1):
            yield from group

    counts = {"fresh": 0, "replayed": 0}
    trainer.fit_deadline(args.deadline, time.time() - PROCESS_START)

    def save16():
        meta = {"config": model.config(), "features": feature_meta, "charset": "cjk", "history": state["history"],
                "step": state["step"]}
        gpu_run.save16(args.out16, ema, model.state_dict(), meta, state["history"])

    def checkpoint():
        n = state["step"]
        r = validate_ema()
        entry = {"step": n, "minutes": state["elapsed"] / 60, **counts, **{f"{k}_{m}": v[m] for k, v in r.items() for m in v}}
        print(f"== step {n} EMA held-out writers: characters top-1 {r['chars']['exact']:.4f} (CER "
              f"{r['chars']['cer']:.4f}), lines CER {r['lines']['cer']:.4f}", flush=True)
        state["history"].append(entry)
        save()
        save16()

    losses = []
    with contextlib.closing(gpu_run.replay(batches(), args.replay, args.seed, counts)) as fed:  # stops its thread
        for x, lengths, targets, tlens in trainer.run(
                fed,
                learning_rate=lambda st: warmup_cosine(args.lr, st, warmup_steps=300, floor=0.03),
                checkpoint=checkpoint, checkpoint_minutes=args.checkpoint_minutes):
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=args.amp):
                lp, out_len = model(torch.from_numpy(x).to(device, non_blocking=True), torch.from_numpy(lengths))
            loss = ctc(lp.transpose(0, 1).float(), torch.from_numpy(targets).to(device), out_len, torch.from_numpy(tlens))
            trainer.step(loss)
            n = state["step"]
            losses.append(loss.detach())
            if n % 50 == 0:
                mean = torch.stack(losses).float().mean().item()  # one synchronization in 50 steps
                losses = []
                print(f"step {n} {state['elapsed'] / 60:.1f}min loss {mean:.3f} lr {trainer.lr:.2e} "
                      f"batch {len(lengths)} inks; batches fresh {counts['fresh']} replayed {counts['replayed']}",
                      flush=True)
    if pool is not None:
        pool.terminate()
    write_history(args.run, state["history"])

if __name__ == "__main__":
    main()
