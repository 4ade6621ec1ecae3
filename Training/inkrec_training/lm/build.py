#!/usr/bin/env python3
"""Build the character n-gram language model (the decoder's prior) as ``lm.bin``.

    python3 -m inkrec_training latin lm --out Training/work/lm.bin          # the shipped LM (a few minutes)
    python3 -m inkrec_training latin lm --golden Tests/DigitalInkTests/Fixtures   # the small test fixtures
    python3 -m inkrec_training latin lm --language de --out Training/work/lm/de.bin  # INKLM2, <= 2 MB
    python3 -m inkrec_training latin lm --format v2 --out Training/work/lm/en-unipen.bin  # the English text, INKLM2

With ``--language CODE`` (any of ``inkrec_training/lm_languages.LANGUAGES``) the running text is modelled
from that language's wordfreq frequencies, in its own alphabet (ASCII, its letters, its punctuation),
written as INKLM2, pruned and quantized to ``--max-bytes`` (2 MB); the report gives bits per character
on a held-out sample of the same generative text (another seed) before pruning, after pruning and
after quantization (and, for en, on the UNIPEN validation writers' labels).

Text: English running text modelled from wordfreq (code Apache-2.0, data CC BY-SA 4.0) word
frequencies (see ``RunningTextModel`` in inkrec_training/lm/ngram.py), plus the labels of the UNIPEN
training writers' words and free-text items (UNIPEN train_r01_v07, International Unipen Foundation,
CC BY 4.0), which bring digits, punctuation and capitals. Labels of validation writers
(``splits.is_validation_writer``) are never used for building; they are the held-out text on which
bits per character are reported. The format is described in Training/LM_FORMAT.md.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import math
import os
import sys
import time

import numpy as np

from inkrec_training import charset, data
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import languages as lm_languages
from inkrec_training.lm import inklm2 as lm_v2
from inkrec_training.paths import TRAINING
from inkrec_training.lm import read_file as read_lm_file, write_v2 as write_lm_v2
from inkrec_training import splits

# The small golden LM the Swift reader is tested against (Tests/DigitalInkTests/Fixtures).
GOLDEN_ORDER = 4
GOLDEN_MIN_COUNT = [0.0, 0.0, 0.0, 2.0, 2.0]
GOLDEN_TEXTS = [
    ("the cat sat on the mat.", 1.0),
    ("The dog sat on the log, and the cat sat on the dog.", 1.0),
    ("hello world, hello there", 2.0),
    ("Call 555-0123 at 10:30.", 0.5),
    ("A quick brown fox jumps over the lazy dog!", 1.5),
]
GOLDEN_QUERIES = [  # (context text, BOS first?, predicted char)
    ("", True, "t"), ("", True, "T"), ("", True, "z"), ("", False, "e"), ("t", True, "h"),
    ("th", True, "e"), ("the", True, " "), ("the ", True, "c"), ("the c", True, "a"),
    ("the cat", True, " "), ("sat on the ", False, "m"), ("hello", True, " "), ("hello ", True, "w"),
    ("hello wor", True, "l"), ("xyz", True, "a"), ("qqq", False, "q"), ("lazy", False, " "),
    ("55", True, "5"), ("10:3", False, "0"), ("dog", True, "!"), ("dog", True, "\u00e9"),
    ("zzz the", False, " "), ("cat", True, "s"), ("the", False, "l"), ("sat", False, "h"), ("on t", False, "o"),
]


def read_labels(path: str):
    """(id, writer, label, quality) of every item, reading only the JSON before the strokes."""
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            i = line.find(',"strokes":')
            d = json.loads(line[:i] + "}" if i > 0 else line)
            out.append((d["id"], d["writer"], d["label"], d.get("quality")))
    return out


def clean_label(label: str) -> str:
    """Whitespace collapsed; words holding characters outside the charset dropped."""
    return " ".join(w for w in label.split() if charset.covers(w))


def unipen_labels(data_dir: str):
    train, held = [], []
    for kind in ("words", "text"):
        for _id, writer, label, quality in read_labels(os.path.join(data_dir, "unipen", f"{kind}.jsonl.gz")):
            if quality == "BAD":
                continue
            t = clean_label(label)
            if not t:
                continue
            (held if splits.is_validation_writer(writer) else train).append(t)
    return train, held


def english_vocab(n: int):
    import wordfreq
    words, freqs = [], []
    for w in wordfreq.top_n_list("en", n):
        if not charset.covers(w) or any(ch.isdigit() for ch in w) or "." in w or "_" in w:
            continue  # digits are smashed to 0 by wordfreq; numbers come from the number model
        f = wordfreq.word_frequency(w, "en")
        if f > 0:
            words.append(w)
            freqs.append(f)
    return words, freqs


def unipen_texts(labels, share: float, text_chars: float, cap: int = 4):
    """Each distinct label weighted by min(repeats, cap), scaled to ``share`` of ``text_chars``."""
    cnt = collections.Counter(labels)
    mass = sum(min(c, cap) * (len(t) + 1) for t, c in cnt.items())
    w = share * text_chars / mass
    return [(t, w * min(c, cap)) for t, c in sorted(cnt.items())]


def bits_per_char(model: lm.CharNgramLM, labels) -> float:
    nats, chars = 0.0, 0
    for t in labels:
        ids = lm.encode(t)
        nats += model.score_ids(ids, [lm.BOS])
        chars += len(ids)
    return -nats / chars / math.log(2)


def sanity(model: lm.CharNgramLM):
    def p(ctx, c):
        return math.exp(model.logprob([lm.BOS] + lm.encode(ctx), charset.INDEX[c]))
    rows = [("hello", " "), ("hel", " "), ("arg", "u"), ("arg", "n"), ("argum", "e"), ("argun", "e"),
            ("docum", "e"), ("hello worl", "d"), ("th", "e"), ("q", "u"), ("Hello", ","), ("1", "9"),
            ("(555) 123", "-")]
    return [(ctx, c, p(ctx, c)) for ctx, c in rows]


def golden(fixtures_dir: str):
    model = lm.build_from_texts(GOLDEN_TEXTS, GOLDEN_ORDER, GOLDEN_MIN_COUNT)
    os.makedirs(fixtures_dir, exist_ok=True)
    model.save(os.path.join(fixtures_dir, "lm-small.bin"))
    model = read_lm_file(os.path.join(fixtures_dir, "lm-small.bin"))
    queries = []
    for ctx_text, bos, ch in GOLDEN_QUERIES:
        ctx = ([lm.BOS] if bos else []) + lm.encode(ctx_text)
        c = charset.INDEX[ch]
        lp, hit, bows = model.trace(ctx, c)
        queries.append({"contextText": ctx_text, "context": ctx, "char": c, "charText": ch,
                        "logProb": round(lp, 7), "foundOrder": hit, "backoffs": [round(b, 7) for b in bows]})
    scored = [{"text": t, "preContext": pc, "logProb": round(model.score_text(t, pc), 6)}
              for t, pc in (("hello world", ""), ("world", "hello "), ("The cat.", ""), ("dog", "x" * 30 + "the "))]
    doc = {
        "description": "Small character LM for the Swift reader test: built by python3 -m inkrec_training latin lm --golden "
                       "from 'texts' (each preceded by BOS, with its weight), order 4, n-grams of order 3 and 4 "
                       "with count < 2 pruned. logProb: natural log, summed in float64 from the file's float32 "
                       "values; compare within 1e-4. foundOrder: the order of the n-gram the lookup ended on; "
                       "backoffs: the log backoff weights it added on the way (0 where the context is absent). "
                       "scoreText: sums over the text's characters from the context [0] + the last 20 "
                       "characters of preContext.",
        "file": "lm-small.bin",
        "order": GOLDEN_ORDER,
        "symbols": lm.NUM_SYMBOLS,
        "minCount": GOLDEN_MIN_COUNT,
        "texts": [{"text": t, "weight": w} for t, w in GOLDEN_TEXTS],
        "entries": [len(t) for t in model.tables],
        "queries": queries,
        "scoreText": scored,
    }
    lines = ["{"]
    items = list(doc.items())
    for i, (k, v) in enumerate(items):
        sep = "," if i < len(items) - 1 else ""
        if isinstance(v, list) and v and isinstance(v[0], dict):
            body = ",\n".join("  " + json.dumps(x, ensure_ascii=False) for x in v)
            lines.append(f" {json.dumps(k)}: [\n{body}\n ]{sep}")
        else:
            lines.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{sep}")
    lines.append("}")
    with open(os.path.join(fixtures_dir, "lm-golden.json"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {fixtures_dir}/lm-small.bin ({model.file_size()} bytes, entries {doc['entries']}) and lm-golden.json "
          f"({len(queries)} queries)")


# The small INKLM2 fixtures: (file, alphabet, extra texts, order, log-prob levels, backoff levels, labels).
GOLDEN2_EXTRA = [("Grüße aus Łódź, „cytat“ – część.", 1.0), ("Ölçü ığdır şiş, İzmir’de.", 1.0), ("déjà vu « ça »", 0.5)]
GOLDEN2_QUERIES = [  # (context text, BOS first?, predicted char)
    ("", True, "t"), ("", True, "T"), ("t", True, "h"), ("th", True, "e"), ("the ", True, "c"),
    ("the c", True, "a"), ("hello", True, " "), ("hello wor", True, "l"), ("sat on the ", False, "m"),
    ("xyz", True, "a"), ("qqq", False, "q"), ("dog", True, "!"), ("dog", True, "\u00e9"), ("10:3", False, "0"),
    ("Gr", True, "\u00fc"), ("Gr\u00fc", True, "\u00df"), ("\u0141\u00f3d", True, "\u017a"), (", ", True, "\u201e"),
    ("\u0131\u011fd", False, "\u0131"), ("Q", True, "u"), ("aQ", True, "t"), ("the Q", True, "c"), ("cat", True, "Q"),
    ("c", True, "\u0460"), ("\u0460 th", True, "e"), ("\u0460", True, "t"),
]


def golden_v2(fixtures_dir: str):
    """``lm2-small.bin`` (an alphabet of the texts' own characters, < 256 symbols, coarse codebooks),
    ``lm2-latin.bin`` (the 260-character latin set: 2-byte symbols, 9-bit keys) and ``lm2-golden.json``:
    per model the labels of a pretend network (in an order of their own, some unknown to the LM) and
    the expected log-probabilities of class contexts, as the Swift engine computes them once bound."""
    from inkrec_training.lm import inklm2 as lm_v2
    texts = GOLDEN_TEXTS + GOLDEN2_EXTRA
    chars = sorted({c for t, _ in texts for c in t})
    specs = [
        ("lm2-small.bin", chars, 4, 32, 16, list(reversed(charset.WESTERN)) + ["\u0141", "\u201e", "\u017a", "\u0131", "\u0460"]),
        ("lm2-latin.bin", charset.LATIN, 3, 256, 256, charset.LATIN[::2] + charset.LATIN[1::2] + ["\u0460"]),
    ]
    models = []
    for file, alphabet, order, lp_levels, bo_levels, labels in specs:
        lm.use_alphabet(alphabet)
        built = lm.build_from_texts(texts, order, [0.0, 0.0, 0.0] + [2.0] * (order - 2))
        q = lm.quantize(built, lp_levels, bo_levels)
        path = os.path.join(fixtures_dir, file)
        write_lm_v2(q, path)
        model = read_lm_file(path)
        bound = lm_v2.BoundLM(model, labels)
        cls = {t: i + 1 for i, t in enumerate(labels)}
        queries = []
        for ctx_text, bos, ch in GOLDEN2_QUERIES:
            ctx = [cls[c] for c in ctx_text if c in cls]
            queries.append({"contextText": ctx_text, "bos": bos, "context": ctx, "charText": ch, "char": cls[ch],
                            "logProb": round(bound.logprob(bound.context(ctx, bos), cls[ch]), 7)})
        scored = []
        for text, pre in (("hello world", ""), ("world", "hello "), ("część", "Grüße "), ("Q the", "x"), ("dog", "x" * 30 + "the ")):
            scored.append({"text": text, "preContext": pre,
                           "logProb": round(bound.score([cls[c] for c in text if c in cls],
                                                        [cls[c] for c in pre[-lm.PRE_CONTEXT_CHARS:] if c in cls]), 6)})
        models.append({"file": file, "order": order, "symbols": model.num_symbols, "bytes": os.path.getsize(path),
                       "unknownLogProb": round(model.unknown_logprob, 7), "alphabet": "".join(model.alphabet),
                       "labels": labels, "queries": queries, "scoreText": scored})
        print(f"wrote {path} ({os.path.getsize(path)} bytes, {model.num_symbols} symbols, entries "
              f"{[len(t) for t in model.tables]})")
    lm.use_alphabet(charset.WESTERN)
    doc = {"description": "Small INKLM2 character LMs for the Swift reader test: built by python3 -m inkrec_training latin lm --golden "
                          "from its texts, quantized, read back by lm_v2. Each model is bound to 'labels' (a pretend "
                          "network's classes 1..len(labels)); 'context' and 'char' are class ids (context characters "
                          "outside the labels skipped), the context preceded by BOS where 'bos'. A class whose label "
                          "is not in the LM's alphabet scores unknownLogProb and empties the context. logProb: "
                          "natural log; compare within 1e-4. scoreText: sums over the text from [BOS] + the last 20 "
                          "characters of preContext.",
           "models": models}
    with open(os.path.join(fixtures_dir, "lm2-golden.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(TRAINING, "work", "lm.bin"))
    ap.add_argument("--golden", metavar="DIR", help="write the small golden LM fixture to DIR and exit")
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--order", type=int, default=6)
    ap.add_argument("--vocab", type=int, default=100_000, help="wordfreq words")
    ap.add_argument("--freq-power", type=float, default=0.8,
                    help="words are drawn with probability proportional to frequency**power (<1 flattens)")
    ap.add_argument("--scale", type=float, default=1e6,
                    help="tokens of running text the counts stand for (sets Witten-Bell's confidence)")
    ap.add_argument("--unipen-share", type=float, default=0.15,
                    help="weight of the UNIPEN training labels, as a fraction of the running-text characters")
    ap.add_argument("--sample-tokens", type=int, default=2_000_000, help="sampled tokens for cross-word n-grams")
    ap.add_argument("--max-bytes", type=int, default=7_800_000, help="file size budget (count pruning)")
    ap.add_argument("--growth", type=float, default=1.5,
                    help="pruning threshold factor per order above 3 (prune higher orders harder)")
    ap.add_argument("--unigram-floor", type=float, default=1e-5, help="minimum unigram probability of any character")
    ap.add_argument("--case-start", default="0.75,0.19,0.06",
                    help="shares of lowercase, Capitalized and UPPER forms for the first word of a text (the case "
                         "the LM expects of ink written with no pre-context); the default is their share among the "
                         "first words of the UNIPEN training writers' words and lines")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--language", choices=sorted(lm_languages.LANGUAGES),
                    help="build the INKLM2 LM of this wordfreq language (see the module docstring)")
    ap.add_argument("--format", choices=("v1", "v2"), default=None,
                    help="INKLM1 (default without --language) or INKLM2 (default and only choice with it)")
    ap.add_argument("--no-eszett", action="store_true", help="ß written ss (de-CH)")
    ap.add_argument("--lp-bits", type=int, default=8, choices=(8, 16), help="INKLM2 log-probability code bits")
    ap.add_argument("--bo-bits", type=int, default=8, choices=(8, 16), help="INKLM2 backoff code bits")
    ap.add_argument("--own-quotes", type=float, default=0.7,
                    help="share of quotations in the language's own marks (the rest in ASCII \")")
    ap.add_argument("--typographic-apostrophe", type=float, default=0.3, help="share of apostrophes written ’")
    ap.add_argument("--heldout-tokens", type=int, default=100_000,
                    help="tokens of held-out generative text (seed + 1) for bits per character")
    ap.add_argument("--reference-entries", type=int, default=3_000_000,
                    help="the 'before pruning' reference keeps at most this many n-grams (all, if fewer)")
    ap.add_argument("--report", metavar="JSON", help="append the measured figures as one JSON line to this file")
    args = ap.parse_args()
    if args.golden:
        golden(args.golden)
        golden_v2(args.golden)
        return
    if args.language or args.format == "v2":
        if args.format == "v1":
            ap.error("--language builds INKLM2 only")
        if "--max-bytes" not in sys.argv:
            args.max_bytes = 2_000_000
        build_v2(args)
        return
    t0 = time.time()
    train_labels, held_labels = unipen_labels(args.data)
    words, freqs = english_vocab(args.vocab)
    print(f"UNIPEN labels: {len(train_labels)} training, {len(held_labels)} held-out (validation writers); "
          f"wordfreq words: {len(words)}", flush=True)
    counts = build_counts(words, freqs, train_labels, args)
    max_entries = (args.max_bytes - 16 - 4 * args.order) // lm.ENTRY.itemsize
    th = lm.prune_thresholds(counts, max_entries, args.growth)
    model = lm.build(counts, th, unigram_floor=args.unigram_floor)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    model.save(args.out)
    model = read_lm_file(args.out)
    size = os.path.getsize(args.out)
    train_set = set(train_labels)
    novel = [t for t in held_labels if t not in train_set]
    print(f"order {model.order}; pruning: count >= {', '.join(f'{x:.3g}' for x in th[2:])} (orders 2..{model.order}; "
          f"counts scaled to {args.scale:g} running-text tokens); "
          f"entries per order {[len(t) for t in model.tables]} = {model.num_entries()}")
    print(f"wrote {args.out}: {size} bytes ({size / 1e6:.2f} MB)")
    print(f"held-out bits/char: {bits_per_char(model, held_labels):.3f} on {len(held_labels)} labels of validation "
          f"writers; {bits_per_char(model, novel):.3f} on the {len(novel)} of them not among training labels")
    for ctx, c, p in sanity(model):
        print(f"  P({c!r} | {ctx!r}) = {p:.4g}")
    for ctx in ["", "the", "hello ", "arg"]:
        s = sum(math.exp(model.logprob([lm.BOS] + lm.encode(ctx), c)) for c in range(1, lm.NUM_SYMBOLS))
        print(f"  sum over characters of P(c | {ctx!r}) = {s:.6f}")
    print(f"done in {time.time() - t0:.0f} s")


def text_model(args, words, freqs) -> lm.RunningTextModel:
    kw = {}
    if args.language:
        lang = lm_languages.LANGUAGES[args.language]
        seps, ends = lm_languages.separators(args.language, lm.RunningTextModel.SEPS, lm.RunningTextModel.ENDS,
                                             args.own_quotes)
        mid = (1.0 - lang.capitalized_mid - 0.02, lang.capitalized_mid, 0.02)
        currency = lang.currency if lm.covers(lang.currency) else "$"
        kw = dict(seps=seps, ends=ends, upper=lambda t: lm_languages.upper(args.language, t),
                  english_i=args.language == "en", case_mid=mid, decimal_comma=lang.decimal_comma, currency=currency)
    return lm.RunningTextModel(words, [f ** args.freq_power for f in freqs], seed=args.seed,
                               case_start=[float(x) for x in args.case_start.split(",")], **kw)


def bits_per_char_labels(model: lm.CharNgramLM, labels) -> float:
    """Bits per character of each label from BOS; a character outside the model's alphabet scores its
    unknown-symbol log-probability and empties the context (as the Swift engine does)."""
    index = {c: i + 1 for i, c in enumerate(model.alphabet)} if model.alphabet else charset.INDEX
    nats, chars = 0.0, 0
    for t in labels:
        ctx = [lm.BOS]
        for ch in t:
            s = index.get(ch)
            if s is None:
                nats += model.unknown_logprob
                ctx = []
            else:
                nats += model.logprob(ctx, s)
                ctx = (ctx + [s])[-8:]
            chars += 1
    return -nats / chars / math.log(2)


def build_v2(args):
    """INKLM2 of a wordfreq language (``--language``) or of the English builder's text (``--format v2``),
    pruned and quantized to ``--max-bytes``, with bits per character before and after."""
    t0 = time.time()
    code = args.language
    if code:
        lm.use_alphabet(lm_languages.alphabet(code, args.no_eszett))
        words, freqs = lm_languages.vocabulary(code, args.vocab, args.no_eszett, args.typographic_apostrophe)
    else:
        lm.use_alphabet(charset.WESTERN)
        words, freqs = english_vocab(args.vocab)
    train_labels, held_labels = unipen_labels(args.data) if code in (None, "en") else ([], [])
    print(f"{code or 'en (English builder)'}: {lm.NUM_CHARS} characters, {len(words)} word forms, "
          f"{len(train_labels)} UNIPEN training labels", flush=True)
    text = text_model(args, words, freqs)
    counts = text.counts(args.order, args.scale, sample_tokens=args.sample_tokens)
    if train_labels:
        text_chars = float(counts.get(1)[1].sum())
        extra = lm.NgramCounts(args.order)
        extra.add_texts(unipen_texts(train_labels, args.unipen_share, text_chars))
        counts.merge(extra)
    t_counts = time.time() - t0
    held_text = text_model(args, words, freqs).sample_corpus(args.heldout_tokens, np.random.default_rng(args.seed + 1))[0]

    # the reference: (nearly) unpruned
    types = counts.total_types()
    ref_th = lm.prune_thresholds(counts, args.reference_entries, args.growth)
    ref = lm.build(counts, ref_th, unigram_floor=args.unigram_floor)
    try:
        th, pruned, blob = lm_v2.fit_to_size(counts, args.max_bytes, args.growth, args.unigram_floor,
                                             args.lp_bits, args.bo_bits)
    except ValueError as e:
        raise SystemExit(str(e))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "wb") as f:
        f.write(blob)
    final = read_lm_file(args.out)
    rows = {"reference": ref, "pruned": pruned, "quantized": final}
    bpc = {k: round(lm.bits_per_char_text(m, held_text), 4) for k, m in rows.items()}
    report = {"language": (code + ("-CH" if args.no_eszett else "")) if code else "en-unipen", "file": args.out, "bytes": len(blob), "order": args.order,
              "symbols": lm.NUM_SYMBOLS, "words": len(words), "counted_ngrams": types,
              "entries": {k: m.num_entries() for k, m in rows.items()},
              "v1_bytes": {k: 16 + sum(4 + 16 * len(t) for t in m.tables) for k, m in (("reference", ref), ("pruned", pruned))},
              "thresholds": [round(x, 4) for x in th[2:]], "heldout_chars": int(np.sum(lm.ids_array(held_text) != 0)),
              "bpc_heldout": bpc, "seconds": {"counts": round(t_counts, 1), "total": None}}
    report["normalization"] = {k: lm.normalization(m, held_text) for k, m in (("pruned", pruned), ("quantized", final))}
    if held_labels:
        report["bpc_unipen"] = {k: round(bits_per_char_labels(m, held_labels), 4) for k, m in rows.items()}
    sums = [sum(math.exp(final.logprob([lm.BOS] + lm.encode(ctx), c)) for c in range(1, lm.NUM_SYMBOLS))
            for ctx in ("", "th", "a ", "xq")]
    report["sum_p"] = [round(x, 4) for x in sums]
    report["seconds"]["total"] = round(time.time() - t0, 1)
    print(json.dumps(report, ensure_ascii=False))
    if args.report:
        with open(args.report, "a", encoding="utf-8") as f:
            f.write(json.dumps(report, ensure_ascii=False) + "\n")
    lm.use_alphabet(charset.WESTERN)


def build_counts(words, freqs, train_labels, args) -> lm.NgramCounts:
    text = lm.RunningTextModel(words, [f ** args.freq_power for f in freqs], seed=args.seed,
                               case_start=[float(x) for x in args.case_start.split(",")])
    counts = text.counts(args.order, args.scale, sample_tokens=args.sample_tokens)
    text_chars = float(counts.get(1)[1].sum())
    extra = lm.NgramCounts(args.order)
    extra.add_texts(unipen_texts(train_labels, args.unipen_share, text_chars))
    counts.merge(extra)
    return counts


if __name__ == "__main__":
    main()
