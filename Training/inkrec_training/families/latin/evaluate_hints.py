#!/usr/bin/env python3
"""Recognition hints and confidence, measured with the Swift engine (`inkrec recognize --batch`).

    python3 -m inkrec_training latin evaluate hints vocabulary   # a vocabulary of the test words: word accuracy
    python3 -m inkrec_training latin evaluate hints digits       # a digits charset on held-out digit strings
    python3 -m inkrec_training latin evaluate hints confidence --fit --write-config   # fit on tuning words, store
    python3 -m inkrec_training latin evaluate hints confidence --fit --fit-set non-reported --write-config   # (en-US 2.1.0)
    python3 -m inkrec_training latin evaluate hints confidence   # calibration on the reported words: ECE, table
    python3 -m inkrec_training latin evaluate hints alignment    # strokes of composed words assigned to their letter
    python3 -m inkrec_training latin evaluate hints postcontext  # words cut out of held-out lines: with the text after them
    python3 -m inkrec_training latin evaluate hints fixture      # the confidence golden fixture the Swift tests read
    python3 -m inkrec_training latin evaluate hints card         # all reported figures into Models/en-US/MODEL_CARD.md

Data: held-out UNIPEN writers (`splits.is_validation_writer`), shuffled with seed 0 as in latin evaluate:
the first 2,000 words are the *reported* set, the next 600 (and the 150 tuning lines) the *tuning*
set. Weights and the calibration are chosen on the tuning set only; the reported set is only measured.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import tempfile

import numpy as np

from inkrec_training.paths import ROOT
from inkrec_training import data
from inkrec_training import engine
from inkrec_training.engine import best_texts, candidate_lists, ink_object, recognize_file, recognize_items, write_jsonl
from inkrec_training.engine import binary as inkrec_binary
from inkrec_training.families.latin.evaluate import held_out_lines
from inkrec_training import splits
from inkrec_training import cards

MODEL = os.path.join(ROOT, "Models", "en-US")
DIGIT_CHARSET = "0123456789-/:.,"


def word_sets():
    """(reported words, tuning words, tuning lines, every held-out word in the shuffled order): the slices
    of latin evaluate."""
    words = [it for it in data.load("words") if splits.is_validation_writer(it.writer)]
    reported, tuning, rest = splits.held_out_word_slices(words)
    _, tuning_lines, _ = held_out_lines()
    return reported, tuning, tuning_lines, reported + tuning + rest


def run(binary, items, extra, max_results=1, model=MODEL):
    """{id: [(text, score, confidence)]} from the engine for `items`."""
    return candidate_lists(recognize_items(binary, model, items, extra, max_results))


def accuracy(items, res):
    return sum(bool(res.get(it.id)) and res[it.id][0][0] == it.label for it in items) / max(1, len(items))


def vocabulary(args, binary):
    report, tune, _, _ = word_sets()
    with tempfile.TemporaryDirectory() as tmp:
        def vocab_file(items, name):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write("\n".join(sorted({it.label for it in items})) + "\n")
            return path
        tune_vocab, report_vocab = vocab_file(tune, "tune.txt"), vocab_file(report, "report.txt")
        base_t = accuracy(tune, run(binary, tune, []))
        print(f"tuning words ({len(tune)}): no vocabulary {100 * base_t:.1f}%", flush=True)
        best = (base_t, None)
        for w in [float(x) for x in args.weights.split(",")]:
            a = accuracy(tune, run(binary, tune, ["--vocabulary", tune_vocab, "--vocabulary-weight", str(w)]))
            print(f"  weight {w}: {100 * a:.1f}%", flush=True)
            best = max(best, (a, w), key=lambda t: t[0])
        # An open vocabulary: half of the tuning words' labels in it, half not (how an app's list of
        # names meets ordinary words): the default weight must help the first without hurting the second.
        labels = sorted({it.label for it in tune})
        inside = set(random.Random(2).sample(labels, len(labels) // 2))
        half_vocab = os.path.join(tmp, "half.txt")
        with open(half_vocab, "w") as f:
            f.write("\n".join(sorted(inside)) + "\n")
        ins, outs = [it for it in tune if it.label in inside], [it for it in tune if it.label not in inside]
        plain = run(binary, tune, [])
        print(f"tuning, open vocabulary (half the labels): no vocabulary: in {100 * accuracy(ins, plain):.1f}%, "
              f"out {100 * accuracy(outs, plain):.1f}%", flush=True)
        for wt in [float(x) for x in args.weights.split(",")]:
            r = run(binary, tune, ["--vocabulary", half_vocab, "--vocabulary-weight", str(wt)])
            print(f"  weight {wt}: in {100 * accuracy(ins, r):.1f}%, out {100 * accuracy(outs, r):.1f}%, "
                  f"all {100 * accuracy(tune, r):.1f}%", flush=True)
        w = args.weight if args.weight is not None else best[1]
        base_run = run(binary, report, [])
        base = accuracy(report, base_run)
        default = accuracy(report, run(binary, report, ["--vocabulary", report_vocab]))
        boosted = accuracy(report, run(binary, report, ["--vocabulary", report_vocab, "--vocabulary-weight", str(w)]))
        strict = accuracy(report, run(binary, report, ["--vocabulary", report_vocab, "--strict"]))
        n_vocab = len({it.label for it in report})
        print(f"reported words ({len(report)}), a vocabulary of their {n_vocab} distinct labels: "
              f"no vocabulary {100 * base:.1f}%, boosted with the default weight {100 * default:.1f}%, "
              f"boosted with weight {w} (best closed-list weight on tuning) {100 * boosted:.1f}%, strict {100 * strict:.1f}%")
        labels = sorted({it.label for it in report})
        inside = set(random.Random(2).sample(labels, len(labels) // 2))
        with open(half_vocab, "w") as f:
            f.write("\n".join(sorted(inside)) + "\n")
        ins, outs = [it for it in report if it.label in inside], [it for it in report if it.label not in inside]
        r = run(binary, report, ["--vocabulary", half_vocab])
        print(f"reported words, open vocabulary (half of the labels), default weight: in the vocabulary "
              f"{100 * accuracy(ins, base_run):.1f}% -> {100 * accuracy(ins, r):.1f}%, not in it "
              f"{100 * accuracy(outs, base_run):.1f}% -> {100 * accuracy(outs, r):.1f}%")


def digits(args, binary):
    _, _, _, words = word_sets()
    items = [it for it in words if it.label and all(c in DIGIT_CHARSET for c in it.label) and any(c.isdigit() for c in it.label)]
    base = accuracy(items, run(binary, items, []))
    masked = accuracy(items, run(binary, items, ["--charset", DIGIT_CHARSET]))
    print(f"held-out digit strings ({len(items)}): no charset {100 * base:.1f}%, charset {DIGIT_CHARSET!r} {100 * masked:.1f}%")


def apply(scores, lengths, params):
    """The engine's confidences (ConfidenceCalibration.swift) for one ink's final hypotheses."""
    s = np.asarray([-np.inf if v is None else v for v in scores], dtype=np.float64)  # null: not finite
    t = params["temperature"] if params else 1.0
    z = (s - s.max()) / t
    logq = z - np.log(np.exp(z).sum())
    if not params:
        return np.exp(logq)
    x = params["bias"] + params["logProbabilityWeight"] * logq + params["lengthWeight"] * np.log1p(np.asarray(lengths, dtype=np.float64))
    return 1 / (1 + np.exp(-x))


def calibration_rows(items, res, top=10):
    """Rows for the fit: the first `top` candidates of each ink, each with the scores of all of its
    ink's final hypotheses (the softmax runs over all of them, as in the engine)."""
    rows = []  # (scores of the ink's n-best, index, length feature, correct)
    for it in items:
        cands = res.get(it.id) or []
        scores = [c[1] for c in cands]
        for i, c in enumerate(cands[:top]):
            if c[1] is None:
                continue
            rows.append((scores, i, math.log1p(len(c[0])), c[0] == it.label))
    return rows


def fit(rows, steps=3000):
    """Fit temperature T and the logistic weights (bias, a: log-softmax_T, b: log-length) on the
    log-loss (PyTorch, L-BFGS, full batch)."""
    import torch
    K = max(len(r[0]) for r in rows)
    S = torch.full((len(rows), K), -1e9)
    for k, r in enumerate(rows):
        S[k, : len(r[0])] = torch.tensor([-1e9 if v is None else v for v in r[0]])  # null: not finite
    idx = torch.tensor([r[1] for r in rows])
    L = torch.tensor([r[2] for r in rows], dtype=torch.float32)
    y = torch.tensor([float(r[3]) for r in rows])
    logT = torch.zeros(1, requires_grad=True)
    w = torch.zeros(3, requires_grad=True)
    opt = torch.optim.LBFGS([logT, w], max_iter=steps, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        lsm = torch.log_softmax(S / logT.exp(), dim=1).gather(1, idx[:, None])[:, 0]
        z = w[0] + w[1] * lsm + w[2] * L
        loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
        loss.backward()
        return loss

    opt.step(closure)
    w = w.detach()
    return {"temperature": float(logT.detach().exp()), "bias": float(w[0]), "logProbabilityWeight": float(w[1]),
            "lengthWeight": float(w[2])}


def ece(conf, correct, bins=10):
    conf, correct = np.asarray(conf), np.asarray(correct, dtype=float)
    table, total = [], 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        m = (conf >= lo) & ((conf < hi) if b < bins - 1 else (conf <= hi))
        if m.sum():
            gap = abs(conf[m].mean() - correct[m].mean())
            total += m.sum() / len(conf) * gap
            table.append((lo, hi, int(m.sum()), float(conf[m].mean()), float(correct[m].mean())))
    return total, table


def confidence(args, binary):
    report, tune, tune_lines, every = word_sets()
    if args.fit:
        if args.fit_set == "non-reported":  # + the monitoring slices: seven times the words, three times the lines
            monitoring = every[len(report) + len(tune):]  # word_sets(): reported, then tuning, then monitoring
            tune, tune_lines = tune + monitoring, tune_lines + held_out_lines()[2]
        beam = json.load(open(os.path.join(MODEL, "config.json")))["decoder"]["beamWidth"]
        rows = calibration_rows(tune, run(binary, tune, [], max_results=beam))
        rows += calibration_rows(tune_lines, run(binary, tune_lines, [], max_results=beam))
        params = fit(rows)
        print("fit on", len(tune), "words and", len(tune_lines), f"lines ({args.fit_set}):", json.dumps(params), flush=True)
        if args.write_config:
            path = os.path.join(MODEL, "config.json")
            with open(path) as f:
                cfg = json.load(f)
            cfg["decoder"]["confidence"] = {k: round(v, 6) for k, v in params.items()}
            with open(path, "w") as f:
                json.dump(cfg, f, indent=1, ensure_ascii=False)
                f.write("\n")
            print("wrote", path)
        if not args.write_config:
            return
    res = run(binary, report, [], max_results=5)
    top_conf = [res[it.id][0][2] for it in report if res.get(it.id)]
    top_ok = [res[it.id][0][0] == it.label for it in report if res.get(it.id)]
    e1, table = ece(top_conf, top_ok)
    all_conf = [c[2] for it in report for c in res.get(it.id) or []]
    all_ok = [c[0] == it.label for it in report for c in res.get(it.id) or []]
    e5, _ = ece(all_conf, all_ok)
    print(f"reported words ({len(report)}): ECE of the best candidate {e1:.4f}, of all top-5 candidates {e5:.4f}; "
          f"accuracy {100 * np.mean(top_ok):.1f}%, mean confidence {np.mean(top_conf):.3f}")
    lines, _, _ = held_out_lines()  # latin evaluate's reported lines
    lres = run(binary, lines, [], max_results=1)
    lconf = [lres[it.id][0][2] for it in lines if lres.get(it.id)]
    lok = [lres[it.id][0][0] == it.label for it in lines if lres.get(it.id)]
    el, _ = ece(lconf, lok)
    print(f"reported lines ({len(lines)}): ECE of the best candidate {el:.4f}; exactly right {100 * np.mean(lok):.1f}%, "
          f"mean confidence {np.mean(lconf):.3f}")
    print("| confidence | candidates | mean confidence | exactly right |")
    print("|---|---|---|---|")
    for lo, hi, n, c, a in table:
        print(f"| {lo:.1f}–{hi:.1f} | {n} | {c:.3f} | {a:.3f} |")


def alignment(args, binary):
    """Words composed from isolated characters of held-out writers (the true letter of every stroke is
    known): the share of strokes whose points mostly go to their own letter, over the words read
    correctly. Writers are split in two by a stable hash: `--alignment-set tuning` for developing the
    method, `reported` for the figures."""
    from inkrec_training import compose
    chars = [it for it in data.load("chars") if splits.is_validation_writer(it.writer) and len(it.label) == 1]
    by_writer = compose.writer_characters(chars)
    def half(w):
        return splits.writer_half(w, "align")
    writers = sorted(w for w in by_writer if half(w) == args.alignment_set)
    _, _, _, words = word_sets()
    vocab = sorted({it.label for it in words if it.label.isalpha() and 2 <= len(it.label) <= 10})
    rng = random.Random(1)
    items, truth = [], {}
    for w in writers:
        xh = compose.x_height(by_writer[w])
        options = [v for v in vocab if all(c in by_writer[w] for c in v)]
        for k in range(min(args.alignment_words, len(options))):
            word = rng.choice(options)
            delay = rng.random() < 0.5
            strokes, owners, delayed = compose.compose_word(word, by_writer[w], rng, delay=delay, xh=xh)
            item = data.Item(f"{w}#{k}", w, word, strokes, "word")
            items.append(item)
            truth[item.id] = (owners, delayed, [len(s) for s in strokes])
    if args.write_fixture:  # a few words with delayed marks, for the Swift tests
        chosen = [it for it in items if any(truth[it.id][1])][: args.write_fixture]
        os.makedirs(os.path.dirname(ALIGNMENT_FIXTURE), exist_ok=True)
        with open(ALIGNMENT_FIXTURE, "w") as f:
            for it in chosen:
                f.write(json.dumps({"id": it.id, "label": it.label, "owners": truth[it.id][0], "delayed": truth[it.id][1],
                                    "strokes": [{"points": [{"x": round(float(p[0]), 2), "y": round(float(p[1]), 2)} for p in st]}
                                                for st in it.strokes]}) + "\n")
        print("wrote", len(chosen), "words to", ALIGNMENT_FIXTURE)
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "composed.jsonl")
        write_jsonl(items, path)
        for d in recognize_file(binary, MODEL, path)[0]:
            res[d["id"]] = (d.get("candidates") or [None])[0]
        if args.save_composed:
            import shutil
            shutil.copy(path, args.save_composed)
    read = ok = ok_late = n_late = total = 0
    for it in items:
        c = res.get(it.id)
        if not c or c["text"] != it.label:
            continue
        read += 1
        owners, delayed, sizes = truth[it.id]
        got = [[0] * len(it.label) for _ in owners]  # points of each stroke per letter
        for ci, ch in enumerate(c["characters"]):
            for span in ch["strokes"]:
                got[span["stroke"]][ci] += span["points"][1] - span["points"][0]
        for s, (owner, late) in enumerate(zip(owners, delayed)):
            right = max(range(len(it.label)), key=lambda ci: got[s][ci]) == owner and got[s][owner] > 0
            if not right and args.show_errors:
                guess = max(range(len(it.label)), key=lambda ci: got[s][ci])
                print(f"  {it.id} {it.label!r}: stroke {s} ({sizes[s]} points{', delayed' if late else ''}) of "
                      f"{it.label[owner]!r} #{owner} went to {it.label[guess]!r} #{guess}")
            total += 1
            ok += right
            if late:
                n_late += 1
                ok_late += right
    print(f"{args.alignment_set} writers ({len(writers)}): {len(items)} composed words, {read} read correctly "
          f"({100 * read / max(1, len(items)):.1f}%); strokes assigned to their letter: {ok}/{total} = "
          f"{100 * ok / max(1, total):.1f}%; delayed strokes (dots and bars written after the word): "
          f"{ok_late}/{n_late} = {100 * ok_late / max(1, n_late):.1f}%")


def postcontext(args, binary):
    """Words cut out of the 300 reported held-out lines, read with the line's text before them as the
    pre-context, and with the text after them as the post-context too. The cut: the line is aligned to
    its own text (a strict vocabulary of that one text makes it the candidate, with its segments), and
    a middle word takes the strokes whose points mostly belong to it."""
    lines, _, _ = held_out_lines()
    words, skipped = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for it in lines:
            vocab = os.path.join(tmp, "one.txt")
            with open(vocab, "w") as f:
                f.write(it.label + "\n")
            path = os.path.join(tmp, "line.jsonl")
            write_jsonl([it], path)
            cands = recognize_file(binary, MODEL, path, ["--vocabulary", vocab, "--strict"])[0][0].get("candidates") or []
            ws = cands[0].get("words", []) if cands and cands[0]["text"] == it.label else []
            if len(ws) < 3:
                skipped += 1
                continue
            k = len(ws) // 2
            chars = cands[0]["characters"]
            owner = {}
            for wi, w in enumerate(ws):
                for ci in range(w["characters"][0], w["characters"][1]):
                    for span in chars[ci]["strokes"]:
                        owner.setdefault(span["stroke"], {}).setdefault(wi, 0)
                        owner[span["stroke"]][wi] += span["points"][1] - span["points"][0]
            strokes = [st for si, st in enumerate(it.strokes) if si in owner and max(owner[si], key=owner[si].get) == k]
            text = it.label
            start = sum(len(w["text"]) + 1 for w in ws[:k])  # words are separated by single spaces
            pre, post = text[:start], text[start + len(ws[k]["text"]):]
            words.append((data.Item(f"{it.id}#w{k}", it.writer, ws[k]["text"], strokes, "word"), pre, post))
    def read(with_post):
        ok = 0
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "w.jsonl")
            with open(path, "w") as f:
                for item, pre, post in words:
                    f.write(json.dumps(ink_object(item, preContext=pre)) + "\n")
            # The post-context is a command-line option, not a field of the ink file: one run per word.
            if not with_post:
                got = best_texts(recognize_file(binary, MODEL, path)[0])
            else:
                got = {}
                for item, pre, post in words:
                    p1 = os.path.join(tmp, "one.json")
                    with open(p1, "w") as f:
                        json.dump(ink_object(item, preContext=pre), f)
                    out, _ = engine.run(binary, ["recognize", "--model-directory", MODEL, p1, "--max-results", "1",
                                                 "--format", "json", "--post-context", post])
                    got[item.id] = (json.loads(out).get("candidates") or [{"text": ""}])[0]["text"]
        for item, pre, post in words:
            ok += got.get(item.id, "").strip() == item.label
        return ok / max(1, len(words))
    a, b = read(False), read(True)
    print(f"words cut from the reported held-out lines ({len(words)}; {skipped} lines not aligned or shorter than 3 words): "
          f"with the pre-context {100 * a:.1f}%, with pre- and post-context {100 * b:.1f}%")


FIXTURE = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures", "confidence.json")
ALIGNMENT_FIXTURE = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures", "alignment", "composed.jsonl")


def fixture_cases():
    """Cases for the confidence golden fixture: hand-made scores (a null one, a tie), with the shipped
    calibration and without one."""
    with open(os.path.join(MODEL, "config.json")) as f:
        shipped = json.load(f)["decoder"]["confidence"]
    other = {"temperature": 0.5, "bias": -1.25, "logProbabilityWeight": 1.5, "lengthWeight": -0.2}
    inputs = [([-4.15, -6.79, -8.2, -9.85], [5, 6, 4, 6]), ([-10.0, -10.0], [3, 3]), ([-1.0], [1]),
              ([-192.3, -197.2, None, -209.9], [40, 41, 39, 40]), ([3.3, -10.9, -15.4], [5, 5, 5])]
    cases = []
    for scores, lengths in inputs:
        for cal in (shipped, other, None):
            cases.append({"scores": scores, "lengths": lengths, "calibration": cal,
                          "expected": [round(float(v), 7) for v in apply(scores, lengths, cal)]})
    return cases


def fixture(args, binary):
    with open(FIXTURE, "w") as f:
        json.dump({"cases": fixture_cases()}, f, indent=1)
        f.write("\n")
    print("wrote", FIXTURE)


CARD_BEGIN = "<!-- hints: written by python3 -m inkrec_training latin evaluate hints card -->"
CARD_END = "<!-- /hints -->"


def card(args, binary):
    """Runs the reported figures (confidence, vocabulary, digits, alignment) and writes them as a section
    of the model card, before "## Status" (latin evaluate --card keeps the section)."""
    import contextlib
    import io
    out = {}
    for name, fn in (("confidence", confidence), ("vocabulary", vocabulary), ("digits", digits), ("postcontext", postcontext),
                     ("alignment", alignment)):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            fn(args, binary)
        out[name] = buf.getvalue().strip()
        print(out[name], flush=True)
    conf_lines = out["confidence"].splitlines()
    section = f"""{CARD_BEGIN}
## Confidence, hints and alignment

All figures from the Swift engine on held-out writers (`python3 -m inkrec_training latin evaluate hints card`);
the calibration and the weights were chosen on the tuning slices (600 words and 150 lines, disjoint
from the reported 2,000 words). The alignment figures come from **composed** ink: words put together
from isolated UNIPEN letters of held-out writers.

**Confidence** (`decoder.confidence` in `config.json`, fitted with `latin evaluate hints confidence --fit`):

{conf_lines[0]}

{conf_lines[1]}

Reliability of the best candidate's confidence on the 2,000 words (the figure an app acts on):

""" + "\n".join(conf_lines[2:]) + f"""

**Vocabulary and character set** (the vocabulary's tuning output first):

```
{out["vocabulary"]}
{out["digits"]}
```

**Post-context** (the text after the insertion point):

```
{out["postcontext"]}
```

**Alignment** (composed words, reported half of the held-out writers; see Docs/alignment.md):

```
{out["alignment"]}
```
{CARD_END}
"""
    path = os.path.join(MODEL, "MODEL_CARD.md")
    cards.write_section(path, CARD_BEGIN, CARD_END, section, before="## Status")
    from inkrec_training.export import write_manifest  # the card is one of the model's files
    write_manifest(os.path.dirname(MODEL))
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["vocabulary", "digits", "confidence", "alignment", "fixture", "card", "postcontext"])
    ap.add_argument("--alignment-set", choices=["tuning", "reported"], default="reported")
    ap.add_argument("--alignment-words", type=int, default=120, help="composed words per writer")
    ap.add_argument("--write-fixture", type=int, default=0, help="alignment: write this many composed words with delayed marks to the test fixture")
    ap.add_argument("--show-errors", action="store_true", help="alignment: print every stroke assigned wrongly")
    ap.add_argument("--save-composed", help="alignment: keep the composed inks (JSON Lines) here")
    ap.add_argument("--weights", default="0.5,1,1.5,2,3", help="vocabulary weights tried on the tuning words")
    ap.add_argument("--weight", type=float, help="the vocabulary weight for the reported figures (default: best on tuning)")
    ap.add_argument("--fit", action="store_true", help="confidence: fit on the tuning set")
    ap.add_argument("--fit-set", choices=["tuning", "non-reported"], default="tuning",
                    help="confidence: fit on the tuning slices (600 words, 150 lines) or on every held-out word and "
                         "line that is not reported (4,206 words, 453 lines)")
    ap.add_argument("--write-config", action="store_true", help="confidence: store the fit in Models/en-US/config.json")
    args = ap.parse_args()
    binary = None if args.what == "fixture" else inkrec_binary()
    {"vocabulary": vocabulary, "digits": digits, "confidence": confidence, "alignment": alignment,
     "fixture": fixture, "card": card, "postcontext": postcontext}[args.what](args, binary)


if __name__ == "__main__":
    main()
