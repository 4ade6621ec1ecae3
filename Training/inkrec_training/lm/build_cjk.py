#!/usr/bin/env python3
"""Build the INKLM2 character LM of Japanese or Chinese (``ja``, ``zh-Hans``, ``zh-Hant``).

    python3 -m inkrec_training cjk lm --language zh-Hant --out Training/work/lm/zh-Hant.bin \\
        --report Training/work/lm/report-cjk.jsonl
    python3 -m inkrec_training cjk lm --language ja --order 3 --tradeoff 2000000,3000000 ...
    python3 -m inkrec_training cjk lm --golden Tests/DigitalInkTests/Fixtures   # the Swift test's small LM

Text: wordfreq's ``ja`` / ``zh`` word frequencies (code Apache-2.0, data CC BY-SA 4.0), ``zh-Hant``
converted by OpenCC ``s2twp`` (opencc-python-reimplemented, Apache-2.0), written as running text
without spaces, with the language's punctuation, numbers and a few Latin words
(``inkrec_training/lm/cjk.py``). The alphabet holds printable ASCII, the punctuation, kana (ja) and the
Han characters carrying ``--coverage`` of the Han text; the rest's mass is the unknown-symbol
log-probability. The model is pruned to ``--max-bytes`` (4.5 MB) and quantized to 8-bit codes
(``lm_v2.fit_to_size``, as ``latin lm --language``); the report gives bits per character on held-out
text of the same generative model (``--seed`` + 1) for a nearly unpruned reference, the pruned float
model and the written file, and, with ``--tradeoff``, for other budgets from the same counts.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time
from typing import Optional

import numpy as np

from inkrec_training import charset
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import cjk as lm_cjk
from inkrec_training.lm import inklm2 as lm_v2
from inkrec_training.paths import TRAINING
from inkrec_training.lm import read_file as read_lm_file, read_bytes as read_lm_bytes

# P(c | context) rows printed in the report: a glance at what the model learnt.
SANITY = {
    "ja": [("\u307e", "\u3059"), ("\u3067\u3057", "\u305f"), ("\u65e5\u672c", "\u8a9e"), ("\u3042\u308a\u304c\u3068", "\u3046"), ("\u3053\u3093\u306b\u3061", "\u306f")],
    "zh-Hans": [("\u6211", "\u4eec"), ("\u4e2d", "\u56fd"), ("\u8c22\u8c22", "\u4f60"), ("\u7535", "\u8111"), ("2019", "\u5e74")],
    "zh-Hant": [("\u6211", "\u5011"), ("\u4e2d", "\u570b"), ("\u8b1d\u8b1d", "\u4f60"), ("\u96fb", "\u8166"), ("2019", "\u5e74")],
}


def prepare(args):
    """(vocabulary, alphabet, text model) of ``args.language``, with the alphabet in use."""
    vocab = lm_cjk.vocabulary(args.language, args.vocab)
    alpha = lm_cjk.alphabet(vocab, args.coverage, args.max_symbols)
    lm.use_alphabet(alpha.symbols)
    return vocab, alpha


def text_model(args, vocab, alpha, seed):
    return lm_cjk.text_model(args.language, vocab, alpha.symbols, seed=seed, freq_power=args.freq_power,
                             number_rate=args.number_rate, latin_rate=args.latin_rate,
                             ascii_punctuation=args.ascii_punctuation)


def build(args):
    t0 = time.time()
    vocab, alpha = prepare(args)
    if args.order * lm.BITS > 64:
        raise SystemExit(f"order {args.order} with {lm.NUM_SYMBOLS} symbols needs {args.order * lm.BITS} key bits (at most 64)")
    text = text_model(args, vocab, alpha, args.seed)
    print(f"{args.language}: {lm.NUM_CHARS} characters ({len(alpha.han)} Han, coverage {alpha.coverage:.5f}), "
          f"{len(text.words)} words, {len(text.latin)} Latin words", flush=True)
    counts = text.counts(args.order, args.scale, sample_tokens=args.sample_tokens)
    t_counts = time.time() - t0
    held = text_model(args, vocab, alpha, args.seed + 1).sample_corpus(args.heldout_tokens, np.random.default_rng(args.seed + 1))[0]
    unknown = alpha.unknown_logprob()
    types = counts.total_types()
    print(f"counted in {t_counts:.0f} s", flush=True)
    ref = lm.build(counts, lm.prune_thresholds(counts, args.reference_entries, args.growth), unigram_floor=args.unigram_floor)
    print(f"{types} n-grams; reference built ({time.time() - t0:.0f} s)", flush=True)
    th, pruned, blob = lm_v2.fit_to_size(counts, args.max_bytes, args.growth, args.unigram_floor, args.lp_bits,
                                         args.bo_bits, unknown_logprob=unknown, bigram_cap=math.inf)
    print(f"pruned and written ({time.time() - t0:.0f} s)", flush=True)
    rows, bpc = write_measured(blob, args.out, held, ref, pruned)
    final = rows["quantized"]
    tradeoff = []
    for b in [int(x) for x in args.tradeoff.split(",") if x]:
        _, p, bl = lm_v2.fit_to_size(counts, b, args.growth, args.unigram_floor, args.lp_bits, args.bo_bits, unknown,
                                     bigram_cap=math.inf)
        q = read_lm_bytes(bl)
        tradeoff.append({"max_bytes": b, "bytes": len(bl), "entries": q.num_entries(),
                         "per_order": [len(t) for t in q.tables],
                         "bpc_pruned": round(lm.bits_per_char_text(p, held), 4),
                         "bpc_quantized": round(lm.bits_per_char_text(q, held), 4)})
        print(json.dumps(tradeoff[-1]), flush=True)
    index = {c: i + 1 for i, c in enumerate(final.alphabet)}
    sanity = {f"P({c}|{ctx})": round(math.exp(final.logprob([lm.BOS] + [index[x] for x in ctx], index[c])), 4)
              for ctx, c in SANITY[args.language]}
    report = {
        "language": args.language, "file": args.out, "bytes": len(blob), "order": args.order,
        "symbols": lm.NUM_SYMBOLS, "han": len(alpha.han), "coverage": round(alpha.coverage, 6),
        "oov_chars": alpha.oov_chars, "oov_share": float(f"{alpha.oov_share:.4g}"), "unknown_logprob": round(unknown, 4),
        "words": len(text.words), "latin_words": len(text.latin), "counted_ngrams": types,
        "entries": {k: m.num_entries() for k, m in rows.items()}, "per_order": [len(t) for t in final.tables],
        "thresholds": [round(x, 4) for x in th[2:]], "heldout_chars": int(np.sum(lm.ids_array(held) != 0)),
        "bpc_heldout": bpc, "tradeoff": tradeoff,
        "normalization": lm.normalization(final, held, samples=args.normalization_samples),
        "sanity": sanity, "seconds": {"counts": round(t_counts, 1), "total": round(time.time() - t0, 1)},
    }
    return finish_report(report, args.report)


# The Swift test's fixture: a small zh-Hant LM with the full zh-Hant alphabet (> 4096 symbols: 13-bit keys).
GOLDEN_QUERIES = [  # (context text, BOS first?, predicted character)
    ("", True, "\u6211"), ("\u6211", True, "\u5011"), ("\u6211\u5011", True, "\u7684"), ("\u4e2d", True, "\u570b"),
    ("\u4eca\u5929", False, "\u662f"), ("\u8b1d\u8b1d", True, "\u4f60"), ("\u4f60\u597d", True, "\uff0c"),
    ("\u96fb", False, "\u8166"), ("", True, "\u300c"), ("2019", True, "\u5e74"), ("OK", True, "\u3002"),
    ("\u6211", True, "\u4eec"), ("\u4eec", True, "\u7684"), ("\u9019\u88e1", True, "\u6709"),
    ("\u53f0\u7063", False, "\u7684"), ("\u6211\u4eec\u7684", True, "\u4eba"), ("\u7684", True, "\u9f98"),
    ("\u9f98", True, "\u7684"), ("\u4e00\u500b", True, "\u4eba"), ("\u5b78\u6821", False, "\u88e1"),
]


def golden(fixtures_dir: str, args):
    args.language = "zh-Hant"
    vocab, alpha = prepare(args)
    text = text_model(args, vocab, alpha, args.seed)
    counts = text.counts(4, 2e5, sample_tokens=200_000, chunk_tokens=200_000)

    def written(log_theta):  # bigrams pruned too (lm.prune_to_size keeps every bigram counted once)
        theta = 10 ** log_theta
        m = lm.build(counts, [0.0, 0.0, theta, theta * 1.5, theta * 2.25], unigram_floor=args.unigram_floor)
        m.unknown_logprob = alpha.unknown_logprob()
        return lm_v2.to_bytes(lm.quantize(m))

    lo, hi = 0.0, 4.0
    for _ in range(12):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if len(written(mid)) <= 175_000 else (mid, hi)
    blob = written(hi)
    path = os.path.join(fixtures_dir, "lm2-cjk.bin")
    with open(path, "wb") as f:
        f.write(blob)
    model = read_lm_file(path)
    # a pretend network: every 3rd alphabet symbol in reverse order, the queries' characters, and a few
    # the LM does not know (Simplified 们 and 们's neighbours, a kana, a rare Han character)
    known = set(model.alphabet)
    wanted = {c for ctx, _, ch in GOLDEN_QUERIES for c in ctx + ch}
    labels = [c for c in reversed(model.alphabet[::3]) if c not in wanted]
    labels += sorted(wanted) + [c for c in ("\u3042", "\u9f98", "\u4eec") if c not in wanted]
    assert any(c not in known for c in labels)
    bound = lm_v2.BoundLM(model, labels)
    cls = {t: i + 1 for i, t in enumerate(labels)}
    queries = []
    for ctx_text, bos, ch in GOLDEN_QUERIES:
        ctx = [cls[c] for c in ctx_text]
        queries.append({"contextText": ctx_text, "bos": bos, "context": ctx, "charText": ch, "char": cls[ch],
                        "known": ch in known, "logProb": round(bound.logprob(bound.context(ctx, bos), cls[ch]), 7)})
    scored = []
    for t, pre in (("\u6211\u5011\u4eca\u5929\u53bb\u5b78\u6821\u3002", ""), ("\u570b\u7684\u4eba", "\u4e2d"),
                   ("\u4f60\u597d\uff0c\u6211\u662fOK\u7684", "\u300c"), ("\u6211\u4eec\u7684\u4eba", "x" * 30)):
        scored.append({"text": t, "preContext": pre,
                       "logProb": round(bound.score([cls[c] for c in t if c in cls],
                                                    [cls[c] for c in pre[-lm.PRE_CONTEXT_CHARS:] if c in cls]), 6)})
    doc = {"description": "A small zh-Hant INKLM2 LM (python3 -m inkrec_training cjk lm --golden): the full zh-Hant alphabet "
                          "(more than 4,096 symbols, so 13-bit keys and 2-byte symbols), order 4, pruned to 175 kB. "
                          "'labels' are a pretend network's classes 1..len(labels); 'context' and 'char' are class ids, "
                          "the context preceded by BOS where 'bos'. A class whose label is not in the LM's alphabet "
                          "('known' false) scores unknownLogProb and empties the context. logProb: natural log; "
                          "compare within 1e-4. scoreText: sums over the text from [BOS] + the last 20 characters of "
                          "preContext (characters outside the labels skipped).",
           "file": "lm2-cjk.bin", "order": model.order, "symbols": model.num_symbols, "bytes": len(blob),
           "unknownLogProb": round(model.unknown_logprob, 7), "entries": [len(t) for t in model.tables],
           "alphabetHas": ["\u9019", "\u5011", "\u570b", "\u300c", "\uff0c", "A", "7"],
           "alphabetLacks": ["\u8fd9", "\u4eec", "\u56fd", "\u3042"],
           "labels": labels, "queries": queries, "scoreText": scored}
    with open(os.path.join(fixtures_dir, "lm2-cjk-golden.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({len(blob)} bytes, {model.num_symbols} symbols, entries {doc['entries']}) and lm2-cjk-golden.json")
    lm.use_alphabet(charset.WESTERN)



def write_measured(blob: bytes, out: str, held: str, ref, pruned):
    """Writes the INKLM2 ``blob`` to ``out`` and reads it back; returns the reference, the pruned and the written
    (``"quantized"``) model by name, and the bits per character of each on the held-out text ``held`` (shared
    with ``lm.thai``)."""
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(blob)
    rows = {"reference": ref, "pruned": pruned, "quantized": read_lm_file(out)}
    return rows, {k: round(lm.bits_per_char_text(m, held), 4) for k, m in rows.items()}


def finish_report(report: dict, path: Optional[str]) -> dict:
    """Prints the build's figures, appends them as one JSON line to ``path`` when given, and gives the engine's
    Latin alphabet back to the n-gram module (shared with ``lm.thai``)."""
    print(json.dumps(report, ensure_ascii=False))
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(report, ensure_ascii=False) + "\n")
    lm.use_alphabet(charset.WESTERN)
    return report


def add_counting_arguments(ap, sample_tokens: int, unigram_floor: float) -> None:
    """The options of counting, pruning and measuring a text model's LM, shared with ``lm.thai``."""
    ap.add_argument("--scale", type=float, default=4e6, help="tokens of text the counts stand for")
    ap.add_argument("--sample-tokens", type=int, default=sample_tokens, help="sampled tokens for the n-grams across words")
    ap.add_argument("--growth", type=float, default=1.5, help="pruning threshold factor per order above 3")
    ap.add_argument("--unigram-floor", type=float, default=unigram_floor, help="minimum unigram probability of any symbol")
    ap.add_argument("--lp-bits", type=int, default=8, choices=(8, 16))
    ap.add_argument("--bo-bits", type=int, default=8, choices=(8, 16))
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--heldout-tokens", type=int, default=100_000, help="tokens of held-out text (seed + 1)")
    ap.add_argument("--reference-entries", type=int, default=3_000_000,
                    help="the 'before pruning' reference keeps at most this many n-grams")

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--language", choices=sorted(lm_cjk.LANGUAGES))
    ap.add_argument("--out", help="default Training/work/lm/<language>.bin")
    ap.add_argument("--golden", metavar="DIR", help="write the Swift test's small zh-Hant LM and its queries to DIR")
    ap.add_argument("--order", type=int, default=4)
    ap.add_argument("--max-bytes", type=int, default=4_500_000, help="file size budget")
    ap.add_argument("--tradeoff", default="", help="more budgets (bytes, comma-separated) measured from the same counts")
    ap.add_argument("--report", metavar="JSON", help="append the measured figures as one JSON line to this file")
    ap.add_argument("--coverage", type=float, default=0.9999, help="share of the Han characters' mass the alphabet holds")
    ap.add_argument("--max-symbols", type=int, default=8000, help="alphabet size limit")
    ap.add_argument("--vocab", type=int, default=None, help="only the N most frequent wordfreq tokens (default all)")
    ap.add_argument("--freq-power", type=float, default=1.0, help="words drawn with probability proportional to frequency**power")
    ap.add_argument("--number-rate", type=float, default=0.02, help="share of tokens that are numbers")
    ap.add_argument("--latin-rate", type=float, default=0.01, help="share of tokens that are ASCII Latin words")
    ap.add_argument("--ascii-punctuation", type=float, default=0.1,
                    help="share of ！？：；，（） written in their ASCII forms")
    add_counting_arguments(ap, sample_tokens=8_000_000, unigram_floor=1e-8)
    ap.add_argument("--normalization-samples", type=int, default=300,
                    help="held-out positions at which the sum of P(c | context) over the alphabet is measured")
    args = ap.parse_args()
    if args.golden:
        golden(args.golden, args)
        return
    if not args.language:
        ap.error("--language is required")
    if not args.out:
        args.out = os.path.join(TRAINING, "work", "lm", f"{args.language}.bin")
    build(args)


if __name__ == "__main__":
    main()
