#!/usr/bin/env python3
"""Train the recognizer network with CTC, within a time budget, with resumable checkpoints.

    python3 -m inkrec_training latin train --run runs/en --minutes 90            # train (resumes if runs/en/last.pt exists)
    python3 -m inkrec_training latin train --run runs/en --minutes 30 --hidden 96 --layers 3

Validation (greedy CER and word accuracy on held-out writers' words) is printed at every checkpoint.
On a lent GPU machine, ``Training/gpu/gpu_once.sh latin SECONDS …`` runs it in one call from the folder that
``latin data`` writes (``--data``, ``--wordlists``, ``--boxes``), with ``--deadline`` and ``--out16``;
``latin train sweep`` trains several sizes on the same batches with these options.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import time

import torch
import torch.nn as nn

PROCESS_START = time.time()

from inkrec_training import charset, data, gpu_run, wordlists
from inkrec_training.features import ink_features, FEATURE_DIM  # noqa: E402
from inkrec_training.model import InkRecNet, using_weights, widen_hidden  # noqa: E402
from inkrec_training.metrics import greedy_decode, edit_distance  # noqa: E402
from inkrec_training import splits
from inkrec_training.trainer import Trainer, seed_all, warmup_cosine, write_history


def collate(samples):
    lengths = torch.tensor([len(f) for f, _ in samples], dtype=torch.long)
    x = torch.zeros(len(samples), int(lengths.max()), FEATURE_DIM)
    for i, (f, _) in enumerate(samples):
        x[i, : len(f)] = torch.from_numpy(f)
    targets = [torch.tensor(charset.encode(l), dtype=torch.long) for _, l in samples]
    target_lengths = torch.tensor([len(t) for t in targets], dtype=torch.long)
    return x, lengths, torch.cat(targets), target_lengths


def batches(stream: data.TrainingStream, frames_per_batch: int, pool: int = 512):
    """Length-bucketed batches of about ``frames_per_batch`` feature frames (collated in the caller)."""
    while True:
        samples = []
        while len(samples) < pool:
            f, l = stream.sample()
            if len(f) >= 2 and (len(f) + 1) // 2 >= len(l) + 1 and len(f) <= 1400:
                samples.append((f, l))
        samples.sort(key=lambda s: len(s[0]))
        groups, cur = [], []
        for s in samples:
            if cur and (len(cur) + 1) * len(s[0]) > frames_per_batch:
                groups.append(cur)
                cur = []
            cur.append(s)
        if cur:
            groups.append(cur)
        stream.rng.shuffle(groups)
        for g in groups:
            yield g


def _producer(stream, frames_per_batch, queue):
    torch.set_num_threads(1)
    for g in batches(stream, frames_per_batch):
        queue.put(g)


def batch_source(stream, frames_per_batch, workers):
    """Yields collated batches; with ``workers`` > 0, ink augmentation and features run in that many
    forked processes (each with its own seed), so the network's thread is not kept waiting."""
    if workers <= 0:
        for g in batches(stream, frames_per_batch):
            yield collate(g)
        return
    import multiprocessing as mp
    ctx = mp.get_context("fork")
    queue = ctx.Queue(maxsize=16)
    procs = []
    for w in range(workers):
        stream.rng.seed(stream.seed * 1000 + w)
        p = ctx.Process(target=_producer, args=(stream, frames_per_batch, queue), daemon=True)
        p.start()
        procs.append(p)
    try:
        while True:
            yield collate(queue.get())
    finally:
        for p in procs:
            p.terminate()


def validate(model, val_items, max_items=1500, device="cpu"):
    model.eval()
    errs = chars = words_ok = 0
    items = val_items[:max_items]
    with torch.no_grad():
        for i in range(0, len(items), 64):
            chunk = items[i: i + 64]
            feats = [ink_features(it.strokes) for it in chunk]
            x, lengths, _, _ = collate([(f, "") for f in feats])
            lp, out_len = model(x.to(device), lengths)
            lp = lp.cpu()
            for j, it in enumerate(chunk):
                hyp = greedy_decode(lp[j, : out_len[j]].numpy())
                e = edit_distance(hyp, it.label)
                errs += e
                chars += len(it.label)
                words_ok += hyp == it.label
    model.train()
    return errs / max(chars, 1), words_ok / max(len(items), 1)


def initial_weights(path: str, model) -> dict:
    """The state of ``model`` from an exported weights file (float, or 8-bit as ``export_latin`` and
    ``quantize_model`` write it: dequantized) or from a run's float16 copy (``--out16``: ``ema16.pt``,
    ``live16.pt``), widened to the model's units (``model.widen_hidden``: a 3 x 96 network computing the
    same as a 3 x 128 one) and its head grown to the model's classes (``grow_head``)."""
    if path.endswith(".pt"):
        saved = torch.load(path, weights_only=False, map_location="cpu")["model"]
        weights = {k: v.float() for k, v in saved.items()}
    else:
        from safetensors.torch import load_file
        from inkrec_training.quantize import dequantize_state
        weights = dequantize_state(load_file(path))
    weights = widen_hidden(weights, model.hidden, model.num_layers, model.reduce_after)
    return grow_head(weights, model)


def grow_head(weights: dict, model) -> dict:
    """Exported weights for ``model``, whose head may have more classes than theirs (a western network
    grown to the latin set: the classes are a prefix). A new class starts as a copy of its base letter's
    row (``accents.decompose``: ą from a; a Cyrillic or Greek letter from the Latin letter written alike,
    ``writing.homoglyphs``: т from m) with its bias lowered by 2, else of the mean row."""
    from inkrec_training import accents
    from inkrec_training.writing import homoglyphs
    w, b = weights["head.weight"], weights["head.bias"]
    n = model.head.weight.shape[0]
    if w.shape[0] == n:
        return weights
    if w.shape[0] > n:
        raise SystemExit(f"the weights have {w.shape[0]} classes, the model {n}")
    nw = torch.zeros(n, w.shape[1])
    nb = torch.zeros(n)
    nw[: w.shape[0]], nb[: w.shape[0]] = w, b
    for k in range(w.shape[0], n):
        c = charset.CHARACTERS[k - 1]
        d = accents.decompose(c)
        alike = homoglyphs.HOMOGLYPHS.get(homoglyphs.base_of(c) or "", (None,))[0]
        base = charset.INDEX.get(d[0]) if d else (charset.INDEX.get(alike) if alike else None)
        if base is not None and base < w.shape[0]:
            nw[k], nb[k] = w[base], b[base] - 2.0
        else:
            nw[k], nb[k] = w[1:].mean(0), b[1:].mean() - 2.0
    weights = dict(weights)
    weights["head.weight"], weights["head.bias"] = nw, nb
    return weights


def training_stream(args, step: int) -> tuple[data.TrainingStream, list, list]:
    """The training mix of ``args`` (``add_training_arguments``) from ``step`` on, the held-out writers' words
    watched while training (neither reported nor tuning words) and, with ``--languages``, 600 composed
    accented words of held-out writers."""
    t0 = time.time()
    words_tr, words_val = splits.split(data.load("words", args.data))
    texts_tr, _ = splits.split(data.load("text", args.data))
    chars_tr, _ = splits.split(data.load("chars", args.data, limit=60000))
    # Watched during training: held-out words that are neither reported nor tuned on (latin evaluate's
    # first 2,600); runs before 2026-11-25 watched the first 1,500 reported words instead.
    _, _, words_val = splits.held_out_word_slices(words_val)
    print(f"data: {len(words_tr)} words, {len(texts_tr)} lines, {len(chars_tr)} chars for training; "
          f"{len(words_val)} validation words, none of them reported or tuning words ({time.time() - t0:.0f}s)", flush=True)
    warmup = max(0, args.warmup_steps - step) * 40  # about 40 inks per batch early on
    rest = (1.0 - args.mix_words) / 0.5
    mix = (("word", args.mix_words - args.synthetic), ("line", 0.2 * rest), ("text", 0.15 * rest), ("char", 0.15 * rest),
           ("hershey", args.synthetic))
    lang_val = []
    sources = None
    if args.languages:
        from inkrec_training import align, languages
        langs = languages.LANGUAGES if args.languages == "all" else args.languages.split(",")
        t1 = time.time()
        if args.boxes:
            boxes = align.load_boxes(args.boxes)
        else:
            boxes = align.letter_boxes(align.load_reference_model(args.align_with), words_tr)
        sources = languages.LanguageSources(words_tr, chars_tr, boxes, langs)
        print(f"languages: {len(langs)}; {len(boxes)} of {len(words_tr)} training words aligned for marks; "
              f"{len(sources.writers)} writers' characters ({time.time() - t1:.0f}s)", flush=True)
        chars_all = data.load("chars", args.data)
        val_sources = languages.LanguageSources([], [c for c in chars_all if splits.is_validation_writer(c.writer)], {}, langs)
        vr = random.Random(12345)
        while len(lang_val) < 600:
            got = val_sources.composed_word(vr, lang=langs[len(lang_val) % len(langs)])
            if got is not None:
                lang_val.append(data.Item(f"lv{len(lang_val)}", "", got[1], got[0], "word"))
        m = args.mix_languages
        mix = tuple((k, v * (1 - m)) for k, v in mix) + (("accent", 0.4 * m), ("composed", 0.25 * m), ("langhershey", 0.35 * m))
    scripts = None
    if args.scripts:
        from inkrec_training.writing.training import ScriptSources
        langs = args.scripts.split(",")
        t1 = time.time()
        labels = "syllables" if args.charset == "hangul-syllables" else "jamo"
        scripts = ScriptSources(langs, chars_tr, forms="training" if args.hold_out_forms else "all", labels=labels)
        scripts.embedded_share = args.embedded_share  # right-to-left scripts only (ScriptSources.line)
        held = ScriptSources(langs, heldout=True, labels=labels)
        vr = random.Random(54321)
        while len(lang_val) < 600:
            got = held.word(vr, lang=langs[len(lang_val) % len(langs)])
            if got is not None:
                lang_val.append(data.Item(f"sv{len(lang_val)}", "", got[1], got[0], "word"))
        print(f"scripts: {langs}; {len(scripts.writers)} writers' real letters; 600 generated held-out words "
              f"watched ({time.time() - t1:.0f}s)", flush=True)
        m = args.mix_scripts
        real = 0.1 if scripts.writers else 0.0  # Korean has no real-letter words
        mix = tuple((k, v * (1 - m)) for k, v in mix) + (("script_word", (0.7 - real) * m), ("script_line", 0.3 * m),
                                                         ("script_real", real * m))
    stream = data.TrainingStream(words_tr, texts_tr, chars_tr, seed=args.seed + step, mix=mix, warmup_samples=warmup)
    stream.languages = sources
    stream.scripts = scripts
    stream.warp_share = args.warp
    return stream, words_val, lang_val


def learning_rate(args, state: dict) -> float:
    """200 steps of linear warm-up, then a cosine from ``--lr`` down to 5% of it over the budget (counted
    from ``state["schedule_start"]``): ``trainer.warmup_cosine``."""
    return warmup_cosine(args.lr, state, warmup_steps=200, floor=0.05)


def validation_entry(model, ema, words_val, lang_val, state: dict, device, label: str = "") -> dict:
    """Greedy figures of the live weights (and of ``ema``) on the held-out words, and of the live weights
    on the composed accented words, printed and returned as a history entry."""
    cer, wacc = validate(model, words_val, device=device)
    entry = {"step": state["step"], "minutes": state["elapsed"] / 60, "cer": cer, "word_acc": wacc}
    print(f"== {label}step {state['step']} val greedy CER {cer:.4f} word acc {wacc:.4f}", flush=True)
    if ema is not None:
        with using_weights(model, ema):
            entry["ema_cer"], entry["ema_word_acc"] = validate(model, words_val, device=device)
        print(f"== {label}step {state['step']} EMA weights: val greedy CER {entry['ema_cer']:.4f} "
              f"word acc {entry['ema_word_acc']:.4f}", flush=True)
    if lang_val:
        entry["lang_cer"], entry["lang_word_acc"] = validate(model, lang_val, device=device)
        print(f"== {label}step {state['step']} composed accented words (held-out writers): greedy CER "
              f"{entry['lang_cer']:.4f} word acc {entry['lang_word_acc']:.4f}", flush=True)
    return entry


def add_training_arguments(ap: argparse.ArgumentParser) -> None:
    """The options of the training mix, the schedule and the machine (shared with ``latin train sweep``)."""
    ap.add_argument("--minutes", type=float, default=60.0, help="training time budget (wall clock)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--frames", type=int, default=5000, help="feature frames per batch")
    ap.add_argument("--threads", type=int, default=1, help="torch threads for the network")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda on a GPU machine")
    ap.add_argument("--workers", type=int, default=1, help="processes that make batches (0: in the training loop)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--synthetic", type=float, default=0.1,
                    help="share of synthetic Hershey-font ink in the mix (taken from the real words' share)")
    ap.add_argument("--warmup-steps", type=int, default=1500, help="steps of short inks first (curriculum)")
    ap.add_argument("--warp", type=float, default=0.0,
                    help="share of training inks given data.warp's smooth elastic warp and per-stroke jitter "
                         "before the usual affine augmentation (0: none, as before 2026-11-26)")
    ap.add_argument("--checkpoint-minutes", type=float, default=10.0)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--ema", type=float, default=0.999,
                    help="decay of an exponential moving average of the weights, kept beside them, validated and "
                         "saved as the checkpoint's \"ema\" (what latin export english exports); 0: none")
    ap.add_argument("--mix-words", type=float, default=0.5,
                    help="share of real words plus synthetic ink (the rest: 0.2 synthetic lines, 0.15 real lines, "
                         "0.15 characters, scaled to fill 1 - this share)")
    ap.add_argument("--charset", default="western", choices=sorted(charset.SETS),
                    help="the output character set (inkrec_training/charset.py)")
    ap.add_argument("--languages", default="",
                    help="comma-separated wordfreq codes (or 'all') whose composed accented ink joins the mix "
                         "(inkrec_training/languages.py); needs --charset latin (vi: vietnamese)")
    ap.add_argument("--mix-languages", type=float, default=0.45,
                    help="share of composed accented ink with --languages: 40%% real words with drawn marks, "
                         "25%% words composed from isolated characters, 35%% Hershey text (taken from the others)")
    ap.add_argument("--scripts", default="",
                    help="comma-separated languages of one script the kit draws (e.g. ru,uk,bg,mk,sr with --charset "
                         "cyrillic) whose generated words and lines (writing/training.py) join the mix; the composed "
                         "figures watched while training are then generated held-out words of these languages")
    ap.add_argument("--hold-out-forms", action="store_true",
                    help="with --scripts, never train on the held-out drawn form of a letter written several ways "
                         "(writing.cyrillic.HELDOUT_VARIANT): an experiment on unseen letter forms; the shipped "
                         "network sees every form")
    ap.add_argument("--embedded-share", type=float, default=0.25,
                    help="with --scripts of a right-to-left script: the share of generated lines that hold a number "
                         "or a Latin word written left to right (writing.training.embedded_token); runs before "
                         "2026-11-29 had none")
    ap.add_argument("--mix-scripts", type=float, default=0.6,
                    help="share of the script's ink with --scripts: 60%% generated words, 30%% generated lines, 10%% "
                         "words composed from real UNIPEN letters of the same form (taken from the others)")
    ap.add_argument("--align-with", default="Models/en-US",
                    help="the network that locates letters in real words for drawing marks (forced alignment)")
    ap.add_argument("--boxes", help="the training words' letter boxes saved by latin data (instead of "
                                    "aligning them with --align-with at the start)")
    ap.add_argument("--wordlists", help="wordfreq's lists saved by latin data (for a machine without wordfreq)")
    gpu_run.add_arguments(ap)


def set_up(args) -> None:
    """What every run of ``add_training_arguments``' options starts with: the character set, the word lists,
    torch's threads, the seeds and the run's folder."""
    charset.select(args.charset)
    wordlists.use(args.wordlists)
    torch.set_num_threads(args.threads)
    seed_all(args.seed)
    os.makedirs(args.run, exist_ok=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="Training/runs/en")
    ap.add_argument("--hidden", type=int, default=96)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--reduce-after", type=int, default=1)
    ap.add_argument("--restart-schedule", action="store_true",
                    help="on resuming, run a fresh cosine learning-rate schedule over this budget (from --lr down "
                         "to 5%% of it) instead of going on with the run's schedule")
    ap.add_argument("--init-from", help="start a new run from exported weights (a model directory's "
                    "weights.safetensors, e.g. Models/latn-bilstm96x3/weights.safetensors; 8-bit files are dequantized) "
                    "instead of random ones")
    ap.add_argument("--distil-from", default="",
                    help="comma-separated exported model directories (e.g. Models/en-US,Models/de) whose mean "
                         "per-frame distribution the network also learns, on the items whose label they can write "
                         "(inkrec_training/distil.py)")
    ap.add_argument("--distil-weight", type=float, default=1.0, help="weight of the distillation loss beside CTC")
    add_training_arguments(ap)
    args = ap.parse_args()
    set_up(args)
    ckpt_path = os.path.join(args.run, "last.pt")

    model = InkRecNet(FEATURE_DIM, args.hidden, args.layers, charset.NUM_CLASSES, args.reduce_after)
    model.init_forget_gate_bias()
    if args.init_from and not os.path.exists(ckpt_path):
        model.load_state_dict(initial_weights(args.init_from, model))
        print(f"initialized from {args.init_from}", flush=True)
    trainer = Trainer(model, args.lr)
    ck = trainer.resume(ckpt_path)
    trainer.set_budget(args.minutes * 60.0)
    state = trainer.state
    if ck is not None:
        if args.restart_schedule:
            state["schedule_start"] = state["elapsed"]
        random.setstate(ck["py_rng"])
        torch.set_rng_state(ck["torch_rng"])
        print(f"resumed at step {state['step']}, {state['elapsed'] / 60:.1f} min trained", flush=True)
    if args.ema > 0:  # float32 copy of every tensor; restarted from the weights when the checkpoint has none
        saved = ck.get("ema") if ck is not None else None
        trainer.start_ema(args.ema, saved, steps_key="ema_steps")
        state["ema_steps"] = state.get("ema_steps", 0) if saved is not None else 0
    device = torch.device(args.device)
    trainer.to(device)  # the optimizer's state and the moving average follow the parameters
    ema = trainer.ema
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model: {model.config()} params={n_params}", flush=True)

    teacher = None
    if args.distil_from:
        from inkrec_training.distil import Teacher
        teacher = Teacher(args.distil_from.split(","), charset.CHARACTERS, args.reduce_after, device)
        print(f"distilling from {args.distil_from} (weight {args.distil_weight:g}) on labels of "
              f"{int(teacher.covered.sum()) - 1} characters", flush=True)
    stream, words_val, lang_val = training_stream(args, state["step"])

    ctc = nn.CTCLoss(blank=charset.BLANK, zero_infinity=True)
    trainer.fit_deadline(args.deadline, time.time() - PROCESS_START)
    counts = {"fresh": 0, "replayed": 0}
    losses, kd_losses = [], []

    def checkpoint():
        state["history"].append(validation_entry(model, ema, words_val, lang_val, state, device))
        extra = {"py_rng": random.getstate(), "torch_rng": torch.get_rng_state()}
        if ema is not None:
            extra["ema"] = {k: v.cpu() for k, v in ema.items()}
        trainer.save(ckpt_path, **extra)
        # export.checkpoint_weights and export_latin.py read these like last.pt ("ema" is absent: "model" is it)
        meta = {"config": model.config(), "state": {k: v for k, v in state.items()}, "charset": args.charset}
        gpu_run.save16(args.out16, ema, model.state_dict(), meta, state["history"])

    with contextlib.closing(gpu_run.replay(batch_source(stream, args.frames, args.workers), args.replay, args.seed,
                                           counts)) as batches:  # closing stops replay's reading thread
        for x, lengths, targets, target_lengths in trainer.run(batches, learning_rate=lambda st: learning_rate(args, st),
                                                               checkpoint=checkpoint,
                                                               checkpoint_minutes=args.checkpoint_minutes):
            x = x.to(device)
            lp, out_len = model(x, lengths)
            loss = ctc(lp.transpose(0, 1), targets.to(device), out_len, target_lengths)
            if teacher is not None:
                kd = teacher.loss(lp, teacher.log_probs(x, lengths), out_len,
                                  teacher.item_mask(targets, target_lengths))
                kd_losses.append(kd.detach())
                loss = loss + args.distil_weight * kd
            trainer.step(loss)
            losses.append(loss.detach())
            if state["step"] % 50 == 0:  # one synchronization with the device in 50 steps
                mean = torch.stack(losses).float().mean().item()
                losses = []
                replayed = f"; batches fresh {counts['fresh']} replayed {counts['replayed']}" if args.replay > 1 else ""
                distilled = f" (distillation {torch.stack(kd_losses).float().mean().item():.3f})" if kd_losses else ""
                kd_losses = []
                print(f"step {state['step']} {state['elapsed'] / 60:.1f}min loss {mean:.3f}{distilled} lr {trainer.lr:.2e}"
                      f"{replayed}", flush=True)
    write_history(args.run, state["history"])

if __name__ == "__main__":
    main()
