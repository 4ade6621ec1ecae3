#!/usr/bin/env python3
"""The INKLM2 character LM of Thai (``th``): running text without spaces between words.

    python3 -m inkrec_training scripts lm thai --out Training/work/lm/th.bin --report Training/work/lm/report-th.jsonl

Thai writes no space between the words of a phrase; a space ends a phrase or a sentence. The running text
(``ThaiTextModel``) is therefore modelled as the CJK text is (``lm/cjk.py``): words drawn by frequency and
written **without spaces** inside a phrase, phrases separated by one space, with numbers (ASCII digits, a few
in Thai digits ๐–๙, mostly with a space on either side: ปี 2567, 100 บาท, 10.30 น.) and, at a low rate, ASCII
Latin words (OK, iPhone) between spaces. Word n-grams inside one word are counted exactly from the frequency
list, those across words on a sampled corpus (``CJKTextModel.counts``).

* **Words**: the Thai National Corpus word frequencies of PyThaiNLP's ``tnc_freq.txt`` (CC0 1.0), the 30,000
  most frequent words in Thai letters that the checkout holds (``writing/data/thai_words.tsv.gz``,
  ``writing.thai``); wordfreq has no Thai. Latin words: wordfreq's English list (data CC BY-SA 4.0).
* **Alphabet**: printable ASCII, the Thai letters, vowels, marks, ๆ ฯ, the Thai digits and ฿
  (``charset.THAI`` less the Latin letters beyond ASCII), 181 symbols, so order 6 keys fit 48 bits.
* **Size**: pruned to ``--max-bytes`` (2 MB) and quantized to 8-bit codes (``lm_v2.fit_to_size``, as
  ``latin lm --language``); the report gives bits per character on held-out text of the same generative
  model (``--seed`` + 1) for a nearly unpruned reference, the pruned float model and the written file.

A ``th`` model's decoder reads the LM across the boundary of two written words with no separator between them
(the engine's ``contextSeparator: ""``, as ``ja`` / ``zh``), since a line's words are written joined.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import time
from typing import Optional, Sequence

import numpy as np

from inkrec_training import charset
from inkrec_training.lm import build_cjk
from inkrec_training.lm import cjk as lm_cjk
from inkrec_training.lm import inklm2 as lm_v2
from inkrec_training.lm import ngram as lm
from inkrec_training.paths import TRAINING

THAI_DIGITS = "๐๑๒๓๔๕๖๗๘๙"
PUNCTUATION = "\u201c\u201d"          # “ ” (the rest of Thai text's punctuation is ASCII: . , ? ! ( ) " -)
# between two phrases: a space mostly; rarely punctuation and a space
PHRASE_SEPS = ((" ", 0.93), (", ", 0.02), (". ", 0.01), ("? ", 0.008), ("! ", 0.004), (" (", 0.005), (") ", 0.005),
               (' \u201c', 0.004), ('\u201d ', 0.004), (' "', 0.002), ('" ', 0.002), (" - ", 0.004))
ENDS = (("", 0.86), (".", 0.04), ("?", 0.05), ("!", 0.03), ("\u201d", 0.01), (")", 0.01))
# words that follow a number (a counter or unit), with a space (100 บาท) or joined (5คน)
COUNTERS = ("บาท", "คน", "ปี", "วัน", "เดือน", "ครั้ง", "ชั่วโมง", "นาที", "กิโลเมตร", "เมตร", "ล้าน", "พัน", "แสน", "หมื่น",
            "ตัว", "ชิ้น", "อัน", "หลัง", "แห่ง", "ข้อ", "เล่ม", "ราย", "ประเทศ", "จังหวัด")
BEFORE_NUMBER = ("ปี", "พ.ศ.", "ที่", "วันที่", "เวลา", "จำนวน", "ราคา", "อายุ", "เลขที่", "ข้อ", "ครั้งที่", "ค.ศ.")


def alphabet() -> list[str]:
    """The LM's symbols: printable ASCII, the Thai letters and marks, Thai digits, ฿, “ ”."""
    thai = [c for c in charset.THAI if "\u0E00" <= c <= "\u0E7F"]
    return lm_cjk.ASCII + thai + list(PUNCTUATION)


def latin_words(n: int = 3000) -> tuple[list[str], list[float]]:
    """wordfreq's most frequent English words of ASCII letters (1-15), with their frequencies."""
    from inkrec_training import wordlists
    got = [(w, f) for w, f in wordlists.top_words("en", n) if re.fullmatch(r"[a-z]{1,15}", w) and f > 0]
    return [w for w, _ in got], [f for _, f in got]


class ThaiTextModel(lm_cjk.CJKTextModel):
    """Thai running text: a text (after BOS) is a geometric number of phrases (mean drawn from ``LENGTHS``), a
    phrase a geometric number of tokens (mean ``phrase_mean``) written with no space between them; phrases are
    separated by ``PHRASE_SEPS``, the text ends with one of ``ENDS``. A token is a Thai word drawn by frequency
    (``freq_power``), with ``number_rate`` a number (ASCII digits, ``thai_digits`` of them in Thai digits,
    often after a word such as ปี / ที่ and before a counter such as บาท / คน, mostly with spaces around it),
    with ``latin_rate`` an ASCII word (spaces around it). ``counts`` (exact inside words, sampled across them) is
    ``CJKTextModel``'s."""

    LENGTHS = ((0.4, 1.3), (0.6, 3.0))   # (share, mean phrases): short notes and sentences

    def __init__(self, words: Sequence[str], freqs: Sequence[float], latin: Sequence[str] = (),
                 latin_freqs: Sequence[float] = (), seed: int = 1234, freq_power: float = 1.0,
                 phrase_mean: float = 4.0, number_rate: float = 0.02, latin_rate: float = 0.006,
                 thai_digits: float = 0.1, lengths: Optional[Sequence[tuple[float, float]]] = None):
        self.code = "th"
        self._set_tokens(words, freqs, freq_power, latin, latin_freqs, number_rate, latin_rate)
        self.thai_digits = thai_digits
        self.phrase_mean = phrase_mean
        self.lengths = tuple(lengths) if lengths is not None else self.LENGTHS
        self.seed = seed
        self.seps = list(PHRASE_SEPS)
        self.ends = list(ENDS)
        bad = [s for s, _ in self.seps + self.ends if not lm.covers(s)] + [w for w in COUNTERS + BEFORE_NUMBER
                                                                           if not lm.covers(w)]
        if bad:
            raise ValueError(f"characters outside the alphabet: {bad}")

    def _number(self, rng: np.random.Generator) -> str:
        def digits(k: int, lead: bool = True) -> str:
            s = "".join(str(d) for d in rng.integers(0, 10, size=k))
            return (str(rng.integers(1, 10)) + s[1:]) if lead and k > 1 else s
        r = rng.random()
        if r < 0.15:      # a year, Buddhist (2567) or Common Era
            s = ("25" if rng.random() < 0.75 else ("19" if rng.random() < 0.4 else "20")) + digits(2, False)
        elif r < 0.25:    # a date 12/5/2567
            s = f"{rng.integers(1, 32)}/{rng.integers(1, 13)}/" + ("25" + digits(2, False) if rng.random() < 0.7
                                                                   else digits(2, False))
        elif r < 0.32:    # a time 10.30 (น.)
            s = f"{rng.integers(0, 24)}.{digits(2, False)}" + (" น." if rng.random() < 0.5 else "")
        elif r < 0.40:    # a decimal, a percentage
            s = digits(int(rng.integers(1, 3))) + "." + digits(int(rng.integers(1, 3)), False)
            s += "%" if rng.random() < 0.3 else ""
        else:             # a count: 1,500 บาท, 5 คน
            s = (digits(int(rng.integers(1, 4))) + "," + digits(3, False) if r < 0.5
                 else digits(int(rng.choice([1, 2, 3, 4, 5], p=[0.38, 0.32, 0.17, 0.1, 0.03]))))
            if rng.random() < 0.5:
                c = COUNTERS[int(rng.integers(0, len(COUNTERS)))]
                s += c if rng.random() < 0.2 else " " + c
        if rng.random() < self.thai_digits:
            s = s.translate(str.maketrans("0123456789", THAI_DIGITS))
        return s

    def sample_corpus(self, n_tokens: int, rng: np.random.Generator):
        """(text with chr(0) before each text, start and end offsets of the Thai-word tokens)."""
        seps = [s for s, _ in self.seps]
        sep_p = np.asarray([p for _, p in self.seps]); sep_p /= sep_p.sum()
        ends = [s for s, _ in self.ends]
        end_p = np.asarray([p for _, p in self.ends]); end_p /= end_p.sum()
        widx = rng.choice(len(self.words), size=n_tokens, p=self.freqs)
        kind_u = rng.random(n_tokens)
        lidx = rng.choice(len(self.latin), size=n_tokens, p=self.latin_freqs) if self.latin_rate else None
        u_case = rng.random(n_tokens)
        shares = np.asarray([s for s, _ in self.lengths]); shares /= shares.sum()
        means = np.asarray([m for _, m in self.lengths])
        text = lm_cjk.RunningText()
        put, word, i = text.put, text.word, 0

        while i < n_tokens:
            put("\0")
            phrases_left = int(rng.geometric(1.0 / means[int(rng.choice(len(means), p=shares))]))
            while True:
                n_words = int(rng.geometric(1.0 / self.phrase_mean))
                last_spaced = False   # the token before ended with a space of its own (a number, a Latin word)
                for k in range(n_words):
                    if i >= n_tokens:
                        break
                    u = kind_u[i]
                    if u < self.number_rate + self.latin_rate:
                        if u < self.number_rate:
                            tok = self._number(rng)
                            if rng.random() < 0.3:
                                tok = BEFORE_NUMBER[int(rng.integers(0, len(BEFORE_NUMBER)))] + " " + tok
                        else:
                            tok = self._latin(int(lidx[i]), u_case[i])
                        spaced = rng.random() < 0.8
                        if k > 0 and spaced and not last_spaced:
                            put(" ")
                        put(tok)
                        if k < n_words - 1 and spaced:
                            put(" ")
                        last_spaced = spaced
                    else:
                        word(self.words[widx[i]])
                        last_spaced = False
                    i += 1
                phrases_left -= 1
                if phrases_left <= 0 or i >= n_tokens:
                    put(ends[int(rng.choice(len(ends), p=end_p))])
                    break
                put(seps[int(rng.choice(len(seps), p=sep_p))])
        return text.result()


def text_model(args, seed: int) -> ThaiTextModel:
    from inkrec_training.writing import thai
    got = [(w, f) for w, f in thai.words(args.vocab) if lm.covers(w)]
    latin, latin_f = latin_words(args.latin_vocab) if args.latin_rate > 0 else ([], [])
    return ThaiTextModel([w for w, _ in got], [f for _, f in got], latin, latin_f, seed=seed,
                         freq_power=args.freq_power, phrase_mean=args.phrase_mean, number_rate=args.number_rate,
                         latin_rate=args.latin_rate, thai_digits=args.thai_digits)


SANITY = [("ประเท", "ศ"), ("ขอบคุณ", "ค"), ("ไม่", "ได้"), ("กรุงเทพ", "ม"), ("ปี 25", "6"), ("สวัสด", "ี")]


def build(args) -> dict:
    t0 = time.time()
    lm.use_alphabet(alphabet())
    if args.order * lm.BITS > 64:
        raise SystemExit(f"order {args.order} with {lm.NUM_SYMBOLS} symbols needs {args.order * lm.BITS} key bits")
    text = text_model(args, args.seed)
    print(f"th: {lm.NUM_CHARS} characters, {len(text.words)} words, {len(text.latin)} Latin words", flush=True)
    counts = text.counts(args.order, args.scale, sample_tokens=args.sample_tokens)
    t_counts = time.time() - t0
    print(f"counted in {t_counts:.0f} s", flush=True)
    held = text_model(args, args.seed + 1).sample_corpus(args.heldout_tokens, np.random.default_rng(args.seed + 1))[0]
    ref = lm.build(counts, lm.prune_thresholds(counts, args.reference_entries, args.growth),
                   unigram_floor=args.unigram_floor)
    th, pruned, blob = lm_v2.fit_to_size(counts, args.max_bytes, args.growth, args.unigram_floor, args.lp_bits,
                                         args.bo_bits)
    rows, bpc = build_cjk.write_measured(blob, args.out, held, ref, pruned)
    final = rows["quantized"]
    index = {c: i + 1 for i, c in enumerate(final.alphabet)}

    def p(ctx: str, nxt: str) -> float:
        ids = [lm.BOS] + [index[c] for c in ctx]
        lp = 0.0
        for c in nxt:
            lp += final.logprob(ids, index[c])
            ids.append(index[c])
        return round(math.exp(lp), 4)
    inside = held.replace("\0", "")
    report = {"language": "th", "file": args.out, "bytes": len(blob), "order": args.order, "symbols": lm.NUM_SYMBOLS,
              "words": len(text.words), "latin_words": len(text.latin), "counted_ngrams": counts.total_types(),
              "entries": {k: m.num_entries() for k, m in rows.items()}, "per_order": [len(t) for t in final.tables],
              "thresholds": [round(x, 4) for x in th[2:]], "heldout_chars": int(np.sum(lm.ids_array(held) != 0)),
              "heldout_space_share": round(inside.count(" ") / max(1, len(inside)), 4),
              "bpc_heldout": bpc, "normalization": lm.normalization(final, held, samples=300),
              "sanity": {f"P({n}|{c})": p(c, n) for c, n in SANITY},
              "seconds": {"counts": round(t_counts, 1), "total": round(time.time() - t0, 1)}}
    return build_cjk.finish_report(report, args.report)


def main(argv: Optional[list[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(TRAINING, "work", "lm", "th.bin"))
    ap.add_argument("--report", metavar="JSON", help="append the measured figures as one JSON line to this file")
    ap.add_argument("--order", type=int, default=6)
    ap.add_argument("--max-bytes", type=int, default=2_000_000, help="file size budget")
    ap.add_argument("--vocab", type=int, default=30000, help="the N most frequent Thai words (at most 30,000)")
    ap.add_argument("--latin-vocab", type=int, default=3000, help="English words drawn as Latin words")
    ap.add_argument("--freq-power", type=float, default=1.0, help="words drawn with probability ∝ frequency**power")
    ap.add_argument("--phrase-mean", type=float, default=4.0, help="mean words of a phrase (written without spaces)")
    ap.add_argument("--number-rate", type=float, default=0.02, help="share of tokens that are numbers")
    ap.add_argument("--latin-rate", type=float, default=0.006, help="share of tokens that are ASCII Latin words")
    ap.add_argument("--thai-digits", type=float, default=0.1, help="share of numbers written in Thai digits")
    build_cjk.add_counting_arguments(ap, sample_tokens=4_000_000, unigram_floor=1e-6)
    build(ap.parse_args(argv))


if __name__ == "__main__":
    main()
