#!/usr/bin/env python3
"""Writer adaptation (issue 41) measured through the engine: ``inkrec adapt`` and ``inkrec recognize --profile``.

    python3 -m inkrec_training latin evaluate adaptation                 # en-US, K = 10, 20, 50
    python3 -m inkrec_training latin evaluate adaptation --json /tmp/adapt.json
    python3 -m inkrec_training latin evaluate adaptation --adapt head    # the output layer alone
    python3 -m inkrec_training latin evaluate adaptation --tuning 50     # the tuning writers only, in windows
    python3 -m inkrec_training latin evaluate adaptation --seed 1        # profiles of another seed (inkrec adapt --seed)
    python3 -m inkrec_training latin evaluate adaptation --seeds 41,1,2  # each seed in turn, then a table of their figures
    python3 -m inkrec_training latin evaluate adaptation --pool 100 --ks 20,50,100 --min-words 160  # more pairs
    python3 -m inkrec_training latin evaluate adaptation --check-steps 0 # profiles without their check (inkrec adapt --check-steps)

Protocol: every held-out UNIPEN writer (``splits.is_validation_writer``) with at least ``--min-words`` (60) English
words, in the data's order (their writing order). A profile learns from the writer's first K words (``inkrec adapt
--minimum-pairs 0``); the words after the first 50 (``--pool``) are read with and without it, so every K is scored on
the same words. Reported: word accuracy and CER pooled over the words and per writer, and the cross-writer cost (each
writer's K = 50 profile applied to the next writer's words). Lines, for the held-out writers with at least
``--min-lines`` (40) lines of text: a profile learns from the first K = 5, 10, 20 lines and the lines after the
20th are read; word error rate (word-level edits) and CER. Composed lines, for every writer: the words read,
four at a time laid out as a line (``composed_lines``, composed ink), read without a profile and with each K's
profile learned from words. Beside the profile, the other adaptation the
library has: the K words as a user dictionary (``--vocabulary``, boosted as hints are), alone (``dictK``) and
with the profile (``bothK``); and the writer's language: where ``inkrec adapt --suggest-language`` names another
model of the network, the words read through it alone (``langK``), with the profile (``langprofK``) and with the
profile and the dictionary (``langallK``); elsewhere those are the en-US figures. The profile alone is also pooled over the
writers of the model's language (``own_language``: those no other model was suggested for at any K), whom the
language cannot help. Six writers (``tuning_writer``: a stable hash) chose the
learning settings (``LearningSettings`` in Swift, on a PyTorch prototype) and are left out of every figure;
``--tuning K`` measures a change on them alone (``tuning_windows``).
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import zlib

from inkrec_training import data, engine, splits
from inkrec_training.engine import best_texts, recognize_file
from inkrec_training.metrics import edit_distance
from inkrec_training.paths import ROOT

KS = (10, 20, 50)
POOL = 50  # the first POOL words may be learned from; the rest are read
LINE_KS = (5, 10, 20)
LINE_POOL = 20  # lines: the first LINE_POOL lines may be learned from; the rest are read


def tuning_writer(writer: str) -> bool:
    """The six writers the learning settings were chosen on (never reported)."""
    return splits.bucket(writer, "adapt41") % 5 == 0


def held_out_writers(kind: str, minimum: int) -> dict:
    """Held-out writers with at least ``minimum`` items of UNIPEN's ``kind`` (in the data's order), the tuning
    writers left out."""
    return splits.by_writer(data.load(kind), lambda w: splits.is_validation_writer(w) and not tuning_writer(w), minimum)


def writers_words(min_words: int) -> dict:
    return held_out_writers("words", min_words)


def writers_lines(min_lines: int) -> dict:
    """Held-out writers with at least ``min_lines`` lines of text (UNIPEN's ``text``)."""
    return held_out_writers("text", min_lines)


def score_lines(items, hyps: dict) -> tuple[int, int, int, int]:
    """(word errors, words, character errors, characters): the word error rate counts word-level edits."""
    werr = words = cerr = chars = 0
    for it in items:
        h = hyps.get(it.id, "")
        werr += edit_distance(h.split(), it.label.split())
        words += len(it.label.split())
        cerr += edit_distance(h, it.label)
        chars += len(it.label)
    return werr, words, cerr, chars


def read_lines(inkrec: str, model: str, lines, tmp: str, runs, row: dict, pooled: dict) -> None:
    """Reads ``lines`` with each ``(name, profile or None)`` of ``runs``: each run's WER and CER into ``row[name]``,
    its counts (``score_lines``) added to ``pooled[name]``."""
    for name, prof in runs:
        got = score_lines(lines, read(inkrec, model, lines, os.path.join(tmp, "t.jsonl"), prof))
        row[name] = {"wer": got[0] / max(got[1], 1), "cer": got[2] / max(got[3], 1)}
        p = pooled[name]
        for i in range(4):
            p[i] += got[i]


def lines_summary(pooled: dict, ks) -> dict:
    """Pooled WER and CER of each run in ``pooled`` (``read_lines``), and each ``k{K}``'s WER change relative to
    ``base``'s."""
    summary = {k: {"wer": v[0] / v[1], "cer": v[2] / v[3], "words": v[1]} for k, v in pooled.items()}
    for K in ks:
        s = summary[f"k{K}"]
        s["wer_relative_change"] = (s["wer"] - summary["base"]["wer"]) / summary["base"]["wer"]
    return summary


def evaluate_lines(inkrec: str, model: str, writers: dict, tmp: str) -> dict:
    """The lines protocol: a profile learns from a writer's first K lines (``LINE_KS``) and the lines after the
    first ``LINE_POOL`` are read with and without it. Word error rate (word-level edits) and CER, per writer and
    pooled."""
    rows, pooled = {}, collections.defaultdict(lambda: [0, 0, 0, 0])
    for n, (w, items) in enumerate(writers.items()):
        test = items[LINE_POOL:]
        row = {"lines": len(test)}
        runs = [("base", None)]
        for K in LINE_KS:
            prof = os.path.join(tmp, f"lines{n}-k{K}.bin")
            adapt(inkrec, model, items[:K], os.path.join(tmp, "p.jsonl"), prof)
            runs.append((f"k{K}", prof))
        read_lines(inkrec, model, test, tmp, runs, row, pooled)
        rows[w] = row
        print(f"{w}: {len(test)} lines, WER {100 * row['base']['wer']:.1f}% → " +
              ", ".join(f"K={K} {100 * row[f'k{K}']['wer']:.1f}%" for K in LINE_KS), file=sys.stderr)
    return {"writers": len(rows), "pooled": lines_summary(pooled, LINE_KS), "per_writer": rows}


#: words per composed line (``composed_lines``)
COMPOSED_WORDS = 4


def composed_lines(writer: str, words) -> list:
    """A writer's ``words`` (in their order) laid out as lines of ``COMPOSED_WORDS`` consecutive words each
    (``data.synthetic_line``: the words' own ink side by side on a jittered baseline, the spaces drawn at random;
    the same lines on every run, from a seed of the writer's name), a shorter last group left out. Composed ink:
    what a profile learned from words does to the same writer's words read as lines, for every writer, where few
    writers have real lines."""
    rng = random.Random(zlib.crc32(writer.encode()))
    out = []
    for i in range(0, len(words) - COMPOSED_WORDS + 1, COMPOSED_WORDS):
        strokes, label = data.synthetic_line(words[i:i + COMPOSED_WORDS], rng)
        out.append(dataclasses.replace(words[i], id=f"{words[i].id}+{COMPOSED_WORDS}", label=label, strokes=strokes, kind="composed"))
    return out


def score(items, hyps: dict) -> tuple[int, int, int]:
    ok = errs = chars = 0
    for it in items:
        h = hyps.get(it.id, "")
        ok += h == it.label
        errs += edit_distance(h, it.label)
        chars += len(it.label)
    return ok, errs, chars


#: what ``inkrec adapt`` changes (``--adapt``): None for its default (every weight where it fits)
ADAPT: str | None = None
#: the seed of the profiles (``inkrec adapt --seed``): None for the library's own
SEED: int | None = None
#: Adam steps of the changes the profiles' check learns (``inkrec adapt --check-steps``; 0: no check): None for the
#: library's own
CHECK_STEPS: int | None = None


def adapt(inkrec: str, model: str, items, path: str, out: str, suggest: bool = False, follow: bool = False):
    """``inkrec adapt`` on ``items`` (their labels as the texts) into ``out``; its wall time in seconds. With
    ``suggest`` (``--suggest-language``): (the time ``inkrec`` prints for learning itself, the model folder it
    suggests reading the writer with or None); with ``follow`` (``--follow-language``) the profile's check also reads
    through that model."""
    with open(path, "w") as f:
        for it in items:
            f.write(json.dumps(engine.ink_object(it, text=it.label)) + "\n")
    t = time.time()
    run = subprocess.run([inkrec, "adapt", "--model-directory", model, "--pairs", path, "--output", out, "--minimum-pairs", "0"]
                         + (["--adapt", ADAPT] if ADAPT else []) + (["--seed", str(SEED)] if SEED is not None else [])
                         + (["--check-steps", str(CHECK_STEPS)] if CHECK_STEPS is not None else [])
                         + (["--follow-language"] if follow else ["--suggest-language"] if suggest else []),
                         check=True, capture_output=True, text=True)
    if not (suggest or follow):
        return time.time() - t
    return parse_adapt(run.stderr)


def parse_adapt(stderr: str):
    """(learning seconds, suggested model folder or None) from what ``inkrec adapt --suggest-language`` prints."""
    learned = re.search(r"learned from \d+ pairs in ([0-9.]+) s", stderr)
    suggested = re.search(r"recognize with --model-directory (.+) and this profile", stderr)
    if not learned or "language:" not in stderr:
        raise RuntimeError(f"unexpected output of inkrec adapt: {stderr!r}")
    return float(learned.group(1)), suggested.group(1) if suggested else None


def read(inkrec: str, model: str, items, path: str, profile: str | None, vocabulary: str | None = None) -> dict:
    engine.write_jsonl(items, path)
    extra = ["--no-segments"] + (["--profile", profile] if profile else []) + (["--vocabulary", vocabulary] if vocabulary else [])
    return best_texts(recognize_file(inkrec, model, path, extra)[0])


def tuning_windows(inkrec: str, model: str, K: int, tmp: str, windows: int = 4) -> dict:
    """The tuning protocol (the six tuning writers only, never reported): each writer's words in windows of K (from
    the first, at most ``windows``), a profile learned from each window and the writer's other words read with and
    without it. More episodes than one window per writer: pooled WER change, how many episodes got better and worse,
    the worst one."""
    writers = splits.by_writer(data.load("words"), lambda w: splits.is_validation_writer(w) and tuning_writer(w), 60)
    base_right = right = words = 0
    episodes = []
    for w, items in writers.items():
        for start in list(range(0, len(items) - K - 9, K))[:windows]:
            test = items[:start] + items[start + K:]
            prof = os.path.join(tmp, "tuning.bin")
            adapt(inkrec, model, items[start:start + K], os.path.join(tmp, "p.jsonl"), prof)
            b = score(test, read(inkrec, model, test, os.path.join(tmp, "t.jsonl"), None))[0]
            a = score(test, read(inkrec, model, test, os.path.join(tmp, "t.jsonl"), prof))[0]
            base_right, right, words = base_right + b, right + a, words + len(test)
            episodes.append({"writer": w, "start": start, "words": len(test), "change": (a - b) / len(test)})
            print(f"{w} words {start}…{start + K - 1}: {100 * b / len(test):.1f}% → {100 * a / len(test):.1f}%", file=sys.stderr)
    return {"K": K, "episodes": len(episodes), "base": base_right / words, "adapted": right / words,
            "words_gained": right - base_right,
            "wer_relative_change": ((words - right) - (words - base_right)) / (words - base_right),
            "better": sum(e["change"] > 0 for e in episodes), "worse": sum(e["change"] < 0 for e in episodes),
            "worse_than_2_points": sum(e["change"] < -0.02 for e in episodes),
            "worst": min(episodes, key=lambda e: e["change"]), "per_episode": episodes}


def seeds_summary(runs: dict) -> dict:
    """The tuning protocol run with several seeds (``--seeds``): each seed's words gained (``tuning_windows``' words
    read right with the profiles minus without) and WER change, their mean and their spread (max − min of words
    gained). The seed sets each profile's start and the order of its pairs; a setting is better than another on the
    tuning writers only by more than that spread."""
    gained = {str(s): o["words_gained"] for s, o in runs.items()}
    changes = {str(s): o["wer_relative_change"] for s, o in runs.items()}
    return {"seeds": list(gained), "words_gained": gained, "wer_relative_change": changes,
            "mean_words_gained": sum(gained.values()) / len(gained),
            "mean_wer_relative_change": sum(changes.values()) / len(changes),
            "spread_words": max(gained.values()) - min(gained.values()),
            "worse_than_2_points": {str(s): o["worse_than_2_points"] for s, o in runs.items()}}


def own_language_summary(rows: dict, ks) -> dict:
    """The profile alone, pooled over the writers of the model's own language: those for whom ``inkrec adapt
    --suggest-language`` named no other model at any K (``suggested{K}`` of ``rows``, the per-writer rows). A writer
    of another language gains most from being read through that language's model, which the profile alone does not
    do, so this is the figure a profile is judged by where that does not happen. Word errors counted from each row's
    accuracy and words; each K of ``ks`` (the run's, which ``--ks`` sets) its WER change relative to no profile and
    the worst writer's change in points."""
    own = [w for w, r in rows.items() if not any(r.get(f"suggested{K}") for K in ks)]
    errors = lambda key: sum(round((1 - rows[w][key]) * rows[w]["words"]) for w in own)
    base = errors("base")
    out = {"writers": own, "words": sum(rows[w]["words"] for w in own), "base_word_errors": base}
    for K in ks:
        e = errors(f"k{K}")
        out[f"k{K}"] = {"word_errors": e, "wer_relative_change": (e - base) / base if base else 0.0,
                        "worst_writer_change": min((rows[w][f"k{K}"] - rows[w]["base"] for w in own), default=0.0)}
    return out


#: the figures ``reported_seeds_summary`` gives for each seed: (name, what it is)
SEED_FIGURES = (("k50", "profile, K = 50"), ("k20", "profile, K = 20"),
                ("langprof50", "language and profile, K = 50"), ("langprof20", "language and profile, K = 20"),
                ("own50", "writers of the model's language, K = 50"), ("own20", "writers of the model's language, K = 20"),
                ("worst50", "worst writer, K = 50 (points)"), ("worst20", "worst writer, K = 20 (points)"),
                ("cross_writer", "cross-writer (points)"))


def reported_seeds_summary(outs: dict) -> dict:
    """The reported protocol run with several seeds (``--seeds`` without ``--tuning``): for each seed, the pooled WER
    change of the profile and of the language with the profile at K = 50 and 20, the same of the profile for the
    writers of the model's language (``own_language_summary``), the worst writer's change and the cross-writer cost
    (both in points of word accuracy); and each figure's lowest and highest over the seeds. The bars of issue 41 hold
    for a setting only where they hold with every seed."""
    per = {}
    for seed, o in outs.items():
        p, own = o["pooled"], o["own_language"]
        per[str(seed)] = {"k50": p["k50"]["wer_relative_change"], "k20": p["k20"]["wer_relative_change"],
                          "langprof50": p["langprof50"]["wer_relative_change"],
                          "langprof20": p["langprof20"]["wer_relative_change"],
                          "own50": own["k50"]["wer_relative_change"], "own20": own["k20"]["wer_relative_change"],
                          "worst50": 100 * p["k50"]["worst_writer_change"], "worst20": 100 * p["k20"]["worst_writer_change"],
                          "cross_writer": 100 * o["cross_writer"]["mean_change"]}
    names = [n for n, _ in SEED_FIGURES]
    return {"seeds": list(per), "per_seed": per,
            "range": {n: [min(v[n] for v in per.values()), max(v[n] for v in per.values())] for n in names}}


def seeds_table(summary: dict) -> str:
    """``reported_seeds_summary`` as a Markdown table: a row per seed, WER changes in percent, the rest in points."""
    head = "| seed | " + " | ".join(t for _, t in SEED_FIGURES) + " |"
    rule = "| --- |" + " ---: |" * len(SEED_FIGURES)
    rows = []
    for seed, v in summary["per_seed"].items():
        cells = [f"{100 * v[n]:+.1f}%" if not n.startswith(("worst", "cross")) else f"{v[n]:+.1f}" for n, _ in SEED_FIGURES]
        rows.append(f"| {seed} | " + " | ".join(cells) + " |")
    return "\n".join([head, rule] + rows)


def integers(text: str) -> list[int]:
    """Comma-separated integers (``seed_list``, ``k_list``), or the error argparse prints."""
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not comma-separated integers: {text!r}") from None


def seed_list(text: str) -> list[int]:
    """``--seeds``: comma-separated integers, at least one, none twice."""
    seeds = integers(text)
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed given twice: {text!r}")
    return seeds


def k_list(text: str) -> tuple[int, ...]:
    """``--ks``: comma-separated pair counts, each at least 1, in increasing order, 20 and 50 among them (the issue's
    bars; the cross-writer cost and the picture use the K = 50 profile)."""
    ks = tuple(integers(text))
    if min(ks) < 1 or list(ks) != sorted(set(ks)) or not {20, 50} <= set(ks):
        raise argparse.ArgumentTypeError(f"need increasing counts of at least 1, 20 and 50 among them: {text!r}")
    return ks


def main(argv=None):
    global ADAPT, SEED, CHECK_STEPS, POOL, KS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--min-words", type=int, default=60)
    ap.add_argument("--min-lines", type=int, default=40)
    ap.add_argument("--lines-only", action="store_true", help="only the lines protocol")
    ap.add_argument("--adapt", choices=("network", "head"), help="what the profiles change (inkrec adapt --adapt)")
    ap.add_argument("--inkrec", default=None)
    ap.add_argument("--seed", type=int, help="the profiles' seed (inkrec adapt --seed): how much a figure owes to one seed")
    ap.add_argument("--check-steps", type=int, help="Adam steps of the changes the profiles' check learns "
                                                    "(inkrec adapt --check-steps; 0: no check, every profile applies)")
    ap.add_argument("--json")
    ap.add_argument("--picture", help="an SVG of words of the writer the K = 50 profile helped most: read wrong "
                                      "before and right after, and any it broke (Docs/personalization/writer.svg)")
    ap.add_argument("--tuning", type=int, metavar="K",
                    help="only the tuning protocol: the six tuning writers' words in windows of K (tuning_windows)")
    ap.add_argument("--windows", type=int, default=4,
                    help="with --tuning: at most this many windows of K words per writer (default 4; the long writers "
                         "sta:hpb0-etb and sta:hpb0-kaj have 10 at K = 50)")
    ap.add_argument("--seeds", type=seed_list, help="run the protocol with each of these seeds (comma-separated, e.g. 41,1,2): with "
                                    "--tuning their mean and spread (seeds_summary), else a table of each seed's "
                                    "figures (reported_seeds_summary)")
    ap.add_argument("--pool", type=int, default=POOL,
                    help=f"the first POOL words of each writer may be learned from and the rest are read (default {POOL}; "
                         "with a larger pool raise --min-words too, e.g. --pool 100 --min-words 160)")
    ap.add_argument("--ks", type=k_list, default=KS,
                    help="the pairs each profile learns from, each at most --pool (default 10,20,50; 20 and 50 needed)")
    args = ap.parse_args(argv)
    if max(args.ks) > args.pool:
        ap.error(f"--ks {max(args.ks)} is more than --pool {args.pool}: a profile would learn from words it reads")
    if args.seeds and not args.tuning:
        for other in ("seed", "picture", "lines_only"):
            if getattr(args, other):
                ap.error(f"--seeds runs the words protocol once per seed; --{other.replace('_', '-')} goes with one run")
    POOL, KS = args.pool, args.ks
    ADAPT = args.adapt
    SEED = args.seed
    CHECK_STEPS = args.check_steps
    inkrec = args.inkrec or engine.binary()
    tmp = tempfile.mkdtemp(prefix="inkrec-adapt-")
    if args.tuning and args.seeds:
        runs = {}
        for seed in args.seeds:
            SEED = seed
            runs[seed] = tuning_windows(inkrec, args.model, args.tuning, tmp, args.windows)
        out = seeds_summary(runs)
        print(json.dumps(out, indent=1))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"K": args.tuning, **out, "runs": {str(k): v for k, v in runs.items()}}, f, indent=1)
        return
    if args.tuning:
        out = tuning_windows(inkrec, args.model, args.tuning, tmp, args.windows)
        print(json.dumps({k: v for k, v in out.items() if k != "per_episode"}, indent=1))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
        return
    if args.lines_only:
        lines = evaluate_lines_of(inkrec, args.model, args.min_lines, tmp)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"model": os.path.relpath(args.model, ROOT), "lines": lines}, f, indent=1)
        return
    if args.seeds:
        outs = {}
        for seed in args.seeds:
            SEED = seed
            print(f"seed {seed}", file=sys.stderr)
            outs[seed], _ = evaluate(inkrec, args, tmp)
            report(outs[seed])
        summary = reported_seeds_summary(outs)
        print(seeds_table(summary))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({**summary, "runs": {str(k): v for k, v in outs.items()}}, f, indent=1)
        return
    out, changed = evaluate(inkrec, args, tmp)
    report(out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    if args.picture:
        picture(args.picture, changed)


def evaluate_lines_of(inkrec: str, model: str, min_lines: int, tmp: str) -> dict:
    """``evaluate_lines`` on the held-out writers with at least ``min_lines`` lines; prints its pooled figures."""
    line_writers = writers_lines(min_lines)
    print(f"lines: {len(line_writers)} writers, {sum(len(v) - LINE_POOL for v in line_writers.values())} lines read",
          file=sys.stderr)
    lines = evaluate_lines(inkrec, model, line_writers, tmp)
    print(json.dumps({"lines": {k: lines[k] for k in ("writers", "pooled")}}, indent=1))
    return lines


def evaluate(inkrec: str, args, tmp: str) -> tuple[dict, dict]:
    """The reported protocol (lines, words, composed lines, cross-writer) with the profiles of ``SEED``: its
    figures, and for each writer the K = 50 profile's changed readings (for ``picture``)."""
    lines = evaluate_lines_of(inkrec, args.model, args.min_lines, tmp)
    writers = writers_words(args.min_words)
    names = list(writers)
    print(f"{len(names)} writers, {sum(len(v) - POOL for v in writers.values())} words read", file=sys.stderr)
    rows, pooled, learn_s = {}, collections.defaultdict(lambda: [0, 0, 0, 0]), []
    profiles, changed, results = {}, {}, {}
    composed, composed_rows = collections.defaultdict(lambda: [0, 0, 0, 0]), {}

    def add(name: str, got: tuple, words: int) -> None:
        p = pooled[name]
        p[0] += got[0]; p[1] += got[1]; p[2] += got[2]; p[3] += words

    for n, w in enumerate(names):
        items = writers[w]
        test = items[POOL:]
        before = read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), None)
        base = score(test, before)
        row = {"words": len(test), "base": base[0] / len(test), "base_cer": base[1] / base[2]}
        for K in KS:
            prof = os.path.join(tmp, f"writer{n}-k{K}.bin")
            secs, suggested = adapt(inkrec, args.model, items[:K], os.path.join(tmp, "p.jsonl"), prof, suggest=True)
            if K == 50:
                learn_s.append(secs)
                profiles[w] = prof
            after = read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), prof)
            got = results["profile"] = score(test, after)
            if K == 50:
                changed[w] = [(it, before.get(it.id, ""), after.get(it.id, "")) for it in test
                              if (before.get(it.id) == it.label) != (after.get(it.id) == it.label)]
            row[f"k{K}"] = got[0] / len(test)
            row[f"k{K}_cer"] = got[1] / got[2]
            add(f"k{K}", got, len(test))
            # The other method: the words learned from as a user dictionary (the hints' vocabulary, boosted),
            # alone and with the profile.
            vocab = os.path.join(tmp, "vocabulary.txt")
            with open(vocab, "w") as f:
                f.write("\n".join(sorted({it.label for it in items[:K]})) + "\n")
            for name, use in (("dict", None), ("both", prof)):
                got = score(test, read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), use, vocab))
                row[f"{name}{K}"] = got[0] / len(test)
                add(f"{name}{K}", got, len(test))
                results[name] = got
            # The third: an app that follows `inkrec adapt --suggest-language` (another model of the same network
            # whose LM fits the K texts clearly better) reads the writer with that model, alone, with the profile,
            # and with the profile and the dictionary. Where nothing is suggested the app reads as before. Its profile
            # is checked through the model it follows (`--follow-language`, `WriterProfile.recheck(through:)`).
            row[f"suggested{K}"] = os.path.basename(suggested) if suggested else None
            followed = prof
            if suggested:
                followed = os.path.join(tmp, f"writer{n}-k{K}-followed.bin")
                adapt(inkrec, args.model, items[:K], os.path.join(tmp, "p.jsonl"), followed, follow=True)
            for name, use, voc, same in (("lang", None, None, base), ("langprof", followed, None, results["profile"]),
                                         ("langall", followed, vocab, results["both"])):
                got = score(test, read(inkrec, suggested, test, os.path.join(tmp, "t.jsonl"), use, voc)) if suggested else same
                row[f"{name}{K}"] = got[0] / len(test)
                add(f"{name}{K}", got, len(test))
        p = pooled["base"]
        p[0] += base[0]; p[1] += base[1]; p[2] += base[2]; p[3] += len(test)
        rows[w] = row
        # The same words composed into lines, read without a profile and with each K's (learned from words).
        lines_w = composed_lines(w, test)
        crow = {"lines": len(lines_w)}
        read_lines(inkrec, args.model, lines_w, tmp,
                   [("base", None)] + [(f"k{K}", os.path.join(tmp, f"writer{n}-k{K}.bin")) for K in KS], crow, composed)
        composed_rows[w] = crow
        print(f"{w}: {len(test)} words, {100 * row['base']:.1f}% → " +
              ", ".join(f"K={K} {100 * row[f'k{K}']:.1f}%" for K in KS), file=sys.stderr)
    cross = []
    for i, w in enumerate(names):
        other = names[(i + 1) % len(names)]
        test = writers[other][POOL:]
        got = score(test, read(inkrec, args.model, test, os.path.join(tmp, "t.jsonl"), profiles[w]))
        cross.append({"profile_of": w, "applied_to": other, "change": got[0] / len(test) - rows[other]["base"]})
    summary = {k if isinstance(k, str) else f"k{k}": {"word_acc": v[0] / v[3], "wer": 1 - v[0] / v[3], "cer": v[1] / v[2], "words": v[3]}
               for k, v in pooled.items()}
    for K in KS:
        for name in ("k", "dict", "both", "lang", "langprof", "langall"):
            s = summary[f"{name}{K}"]
            s["wer_relative_change"] = (s["wer"] - summary["base"]["wer"]) / summary["base"]["wer"]
            s["worst_writer_change"] = min(r[f"{name}{K}"] - r["base"] for r in rows.values())
        summary[f"k{K}"]["writers_suggested"] = {w: r[f"suggested{K}"] for w, r in rows.items() if r[f"suggested{K}"]}
    composed_summary = lines_summary(composed, KS)
    for K in KS:
        composed_summary[f"k{K}"]["worst_writer_change"] = max(r[f"k{K}"]["wer"] - r["base"]["wer"] for r in composed_rows.values())
    out = {"model": os.path.relpath(args.model, ROOT), "adapt": ADAPT or "default", "seed": SEED, "check_steps": CHECK_STEPS, "writers": len(names), "pooled": summary, "per_writer": rows,
           "composed_lines": {"words_per_line": COMPOSED_WORDS, "pooled": composed_summary, "per_writer": composed_rows},
           "cross_writer": {"mean_change": sum(c["change"] for c in cross) / len(cross),
                            "worst_change": min(c["change"] for c in cross), "pairs": cross},
           "learn_seconds_k50": {"median": sorted(learn_s)[len(learn_s) // 2], "max": max(learn_s)}, "lines": lines,
           "own_language": own_language_summary(rows, KS), "pool": POOL}
    return out, changed


def report(out: dict) -> None:
    """Prints the pooled figures of ``evaluate``'s ``out``."""
    print(json.dumps({k: out[k] for k in ("writers", "pooled", "learn_seconds_k50")}, indent=1))
    composed_summary = out["composed_lines"]["pooled"]
    print("composed lines (profiles learned from words): WER " + f"{100 * composed_summary['base']['wer']:.2f}% → " +
          ", ".join(f"K={K} {100 * composed_summary[f'k{K}']['wer']:.2f}% "
                    f"(worst writer {100 * composed_summary[f'k{K}']['worst_writer_change']:+.1f} pts of WER)" for K in KS))
    print(f"cross-writer: mean {100 * out['cross_writer']['mean_change']:+.2f} pts, worst "
          f"{100 * out['cross_writer']['worst_change']:+.1f}")
    own = out["own_language"]
    print(f"writers of the model's language ({len(own['writers'])}, {own['base_word_errors']} word errors without a "
          "profile): " + ", ".join(f"K={K} {100 * own[f'k{K}']['wer_relative_change']:+.1f}% (worst writer "
                                   f"{100 * own[f'k{K}']['worst_writer_change']:+.1f} pts)" for K in KS))


def picture(path: str, changed: dict) -> None:
    """Words of the writer with the largest net gain at K = 50: up to 8 fixed (read wrong before, right after)
    and up to 4 broken, each labelled with both readings."""
    import html
    from inkrec_training.figures import Grid, write_ink_grid
    def net(w):
        fixed = sum(1 for it, b, a in changed[w] if a == it.label)
        return fixed - (len(changed[w]) - fixed)
    w = max(sorted(changed), key=net)
    fixed = [c for c in changed[w] if c[2] == c[0].label][:8]
    broken = [c for c in changed[w] if c[1] == c[0].label][:4]
    cells = [(html.escape(f"{b or '∅'} → {a or '∅'}"), it.strokes) for it, b, a in fixed + broken]
    write_ink_grid(path, cells, Grid(cols=4, cell_w=230, cell_h=120),
                   colour=lambda i, k, s: "#1a7f37" if i < len(fixed) else "#b42318")
    print(f"{path}: writer {w}, {len(fixed)} fixed (green), {len(broken)} broken (red)", file=sys.stderr)


if __name__ == "__main__":
    main()
