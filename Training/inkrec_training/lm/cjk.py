"""Character LMs of Japanese and Chinese (``ja``, ``zh-Hans``, ``zh-Hant``): alphabet and running text.

The running text is modelled from wordfreq's ``ja`` and ``zh`` word frequencies (code Apache-2.0, data
CC BY-SA 4.0) as a handwriting recognizer sees it: words drawn by frequency and written **without
spaces**, the language's own (full-width) punctuation between them, quotation and bracket pairs around a
few words, numbers in ASCII digits (mostly with a counter: 2019年, 3个, 100円) and, at a low rate, ASCII
Latin words (OK, CD, iPhone). wordfreq's Chinese list is "oversimplified" (Traditional characters folded
to Simplified); ``zh-Hant`` converts every word with OpenCC's ``s2twp`` (Simplified to Traditional,
Taiwan standard, with Taiwan phrases: 這裡, 軟體; data Apache-2.0, package
``opencc-python-reimplemented``).

``alphabet(vocab)``: printable ASCII, the language's punctuation, kana (ja), and the Han characters that
carry ``coverage`` (99.99%) of the Han characters' mass in the word list, at most ``max_symbols`` symbols
in all. Words holding another Han character are left out of the text: their characters' mass is the
``oov_share``, and ``unknown_logprob`` spreads it evenly over the distinct Han characters left out (the
log-probability the engine gives a class the LM does not know).

``CJKTextModel.counts`` counts n-grams lying inside one word exactly from the frequency list and the
n-grams across words (and punctuation, numbers, Latin words, BOS) on a sampled corpus, as
``lm.RunningTextModel`` does for the Latin languages.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from inkrec_training.lm import ngram as lm

ASCII = [chr(c) for c in range(32, 127)]
HIRAGANA = [chr(c) for c in range(0x3041, 0x3097)] + ["\u309d", "\u309e"]          # ぁ..ゖ ゝ ゞ
KATAKANA = [chr(c) for c in range(0x30A1, 0x30FB)] + ["\u30fc", "\u30fd", "\u30fe"]  # ァ..ヺ ー ヽ ヾ
# Characters that write words like Han characters do: 々 (repeat), 〆, 〇 (zero in 二〇二〇).
HAN_LIKE = "\u3005\u3006\u3007"
# Full-width punctuation with an ASCII look-alike, written in ASCII for ``ascii_punctuation`` of its uses.
ASCII_FORMS = {"\uff0c": ",", "\uff01": "!", "\uff1f": "?", "\uff1a": ":", "\uff1b": ";", "\uff08": "(",
               "\uff09": ")", "\uff5e": "~"}


def is_han(c: str) -> bool:
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF
            or 0x20000 <= o <= 0x3FFFF or c in HAN_LIKE)


@dataclass(frozen=True)
class CJKLanguage:
    name: str
    wordfreq: str                          # wordfreq's language code
    opencc: Optional[str]                  # OpenCC conversion applied to each word
    letters: str                           # always in the alphabet besides ASCII and Han (kana)
    punctuation: str                       # the running text's punctuation (in the alphabet)
    seps: tuple                            # (string, weight) between two tokens ("" most of the time)
    ends: tuple                            # (string, weight) at the end of a text
    spans: tuple                           # (open, close, rate): a pair around a few tokens, opened at a token with this rate
    counters: tuple                        # words after a number (2019年, 3个)
    word_chars: str = ""                   # more characters words may hold (kana, ー)
    # (pattern, followers): a word matching the pattern (a word, or "~" + its ending) is followed
    # directly by one of the (follower, weight) strings, FOLLOW_RATE of the time (ja: wordfreq's MeCab
    # tokens split inflections, なっ|た, まし|た, ませ|ん, which independent draws would not rejoin)
    follow: tuple = ()
    notes: str = ""


ZH_PUNCT = "\uff0c\u3002\u3001\uff01\uff1f\uff1a\uff1b\u201c\u201d\u2018\u2019\uff08\uff09\u300a\u300b\u2026\u2014\u00b7"
ZH_SEPS = (("", 0.85), ("\uff0c", 0.085), ("\u3002", 0.025), ("\u3001", 0.012), ("\uff1f", 0.004), ("\uff01", 0.004),
           ("\uff1a", 0.005), ("\uff1b", 0.003), ("\u2026\u2026", 0.0015), ("\u2014\u2014", 0.001), ("\u00b7", 0.0005))
ZH_ENDS = (("", 0.62), ("\u3002", 0.28), ("\uff1f", 0.05), ("\uff01", 0.03), ("\u2026\u2026", 0.01), ("\uff1a", 0.01))
ZH_COUNTERS = ("\u4e2a", "\u5e74", "\u6708", "\u65e5", "\u53f7", "\u5143", "\u4eba", "\u5c81", "\u6b21", "\u4e07", "\u4ebf",
               "\u5929", "\u70b9", "\u5206", "\u7c73", "\u516c\u91cc", "\u591a", "\u540d", "\u5bb6", "\u4ef6", "\u6761",
               "\u5f20", "\u672c", "\u5757", "\u500d", "\u5c4a", "\u5206\u949f", "\u5c0f\u65f6", "\u5468", "\u5c42")
JA_PUNCT = "\u3002\u3001\u300c\u300d\u300e\u300f\uff08\uff09\uff01\uff1f\u30fb\u30fc\u2026\u301c"

LANGUAGES: dict[str, CJKLanguage] = {
    "ja": CJKLanguage(
        "Japanese", "ja", None, "".join(HIRAGANA + KATAKANA) + "\u3005\u3006", JA_PUNCT,
        seps=(("", 0.874), ("\u3001", 0.065), ("\u3002", 0.03), ("\uff01", 0.006), ("\uff1f", 0.005),
              ("\u30fb", 0.003), ("\u2026", 0.003), ("\u301c", 0.002)),
        ends=(("", 0.6), ("\u3002", 0.28), ("\uff01", 0.045), ("\uff1f", 0.04), ("\u2026", 0.025), ("\u301c", 0.01)),
        spans=(("\u300c", "\u300d", 0.016), ("\u300e", "\u300f", 0.002), ("\uff08", "\uff09", 0.005)),
        counters=("\u5e74", "\u6708", "\u65e5", "\u5186", "\u4eba", "\u6642", "\u5206", "\u56de", "\u500b", "\u6b73",
                  "\u4e07", "\u4ef6", "\u3064", "\u672c", "\u679a", "\u756a", "\u5ea6", "\u4f4d", "\u5104", "\u79d2",
                  "\u30f6\u6708", "\u6642\u9593", "\u4e07\u5186", "\u9031\u9593", "\u968e", "\u53f7"),
        word_chars="".join(HIRAGANA + KATAKANA),
        follow=(("~\u3063", (("\u3066", 0.45), ("\u305f", 0.4), ("\u3066\u308b", 0.05), ("\u305f\u3089", 0.05),
                             ("\u3061\u3083", 0.03), ("\u305f\u308a", 0.02))),                  # ~っ: て た てる たら ちゃ たり
                ("\u307e\u3057", (("\u305f", 0.75), ("\u3066", 0.1), ("\u3087\u3046", 0.15))),  # まし: た て ょう
                ("\u3067\u3057", (("\u305f", 0.9), ("\u3066", 0.1))),                             # でし: た て
                ("\u307e\u305b", (("\u3093", 1.0),)),                                             # ませ: ん
                ("\u3067\u3057\u3087", (("\u3046", 1.0),)), ("\u307e\u3057\u3087", (("\u3046", 1.0),)),  # でしょ ましょ: う
                ("\u3060\u308d", (("\u3046", 1.0),)), ("\u3054\u3056\u3044", (("\u307e\u3059", 1.0),)))),  # だろ: う; ござい: ます
    "zh-Hans": CJKLanguage(
        "Chinese (Simplified)", "zh", None, "", ZH_PUNCT + "\u3007", ZH_SEPS, ZH_ENDS,
        spans=(("\u201c", "\u201d", 0.015), ("\u300a", "\u300b", 0.004), ("\uff08", "\uff09", 0.005),
               ("\u2018", "\u2019", 0.001)),
        counters=ZH_COUNTERS),
    "zh-Hant": CJKLanguage(
        "Chinese (Traditional, Taiwan)", "zh", "s2twp", "",
        ZH_PUNCT + "\u300c\u300d\u300e\u300f\u3008\u3009\u3007", ZH_SEPS, ZH_ENDS,
        spans=(("\u300c", "\u300d", 0.011), ("\u201c", "\u201d", 0.004), ("\u300a", "\u300b", 0.003),
               ("\u3008", "\u3009", 0.001), ("\uff08", "\uff09", 0.005), ("\u300e", "\u300f", 0.001)),
        counters=ZH_COUNTERS,
        notes="OpenCC s2twp: Taiwan forms and phrases (這裡 not 這裏, 軟體 not 軟件); quotes mostly 「」"),
}


def opencc_converter(conversion: str):
    import opencc  # opencc-python-reimplemented (Apache-2.0): OpenCC's dictionaries in pure Python
    return opencc.OpenCC(conversion)


def convert_words(words: Sequence[str], conversion: str) -> list[str]:
    """``words`` converted by OpenCC (``s2twp``): each word as a whole, so that its phrase entries apply
    (头发 → 頭髮, 发现 → 發現); one simplified word gets one traditional form."""
    out = opencc_converter(conversion).convert("\n".join(words)).split("\n")
    if len(out) != len(words):
        raise ValueError("OpenCC changed the number of words")
    return out


@dataclass
class Vocabulary:
    """The wordfreq words of one language, split into those written in its script (``words``: Han
    characters and, for ja, kana) and ASCII Latin words (``latin``), with their frequencies."""
    code: str
    words: list[str]
    freqs: np.ndarray
    latin: list[str]
    latin_freqs: np.ndarray
    skipped_share: float                   # frequency share of tokens neither (digits, other scripts, symbols)
    han_mass: dict[str, float] = field(default_factory=dict)


def vocabulary(code: str, n: Optional[int] = None) -> Vocabulary:
    """The ``n`` (all, by default) most frequent wordfreq words of ``code``'s list, its script words
    converted for ``zh-Hant``. Tokens with digits are left out (wordfreq writes every digit as 0; the
    text model makes its own numbers), and so are tokens of other scripts or symbols."""
    import wordfreq
    lang = LANGUAGES[code]
    freq = wordfreq.get_frequency_dict(lang.wordfreq)
    items = sorted(freq.items(), key=lambda x: (-x[1], x[0]))
    if n is not None:
        items = items[:n]
    script = set(lang.word_chars)
    words, freqs, latin, latin_freqs, skipped = [], [], [], [], 0.0
    for w, f in items:
        w = unicodedata.normalize("NFC", w)
        if re.fullmatch(r"[a-z]{1,15}", w):
            latin.append(w)
            latin_freqs.append(f)
        elif w and all(is_han(c) or c in script for c in w):
            words.append(w)
            freqs.append(f)
        else:
            skipped += f
    if lang.opencc:
        merged: dict[str, float] = {}
        for w, f in zip(convert_words(words, lang.opencc), freqs):
            merged[w] = merged.get(w, 0.0) + f
        words, freqs = list(merged), list(merged.values())
    total = sum(freqs) + sum(latin_freqs) + skipped
    v = Vocabulary(code, words, np.asarray(freqs, np.float64), latin, np.asarray(latin_freqs, np.float64),
                   skipped / total)
    mass: dict[str, float] = {}
    for w, f in zip(words, freqs):
        for c in w:
            if is_han(c):
                mass[c] = mass.get(c, 0.0) + f
    v.han_mass = mass
    return v


@dataclass
class Alphabet:
    symbols: list[str]                     # the LM's alphabet, in symbol order
    han: list[str]                         # its Han characters, most frequent first
    coverage: float                        # their share of the Han characters' mass
    oov_chars: int                         # Han characters of the word list left out
    oov_share: float                       # share of the script words' characters left out with them

    def unknown_logprob(self) -> float:
        """The log-probability of a character the LM does not know: the left-out mass shared evenly by
        the left-out Han characters."""
        if self.oov_chars == 0 or self.oov_share <= 0:
            return -30.0
        return float(np.float32(math.log(self.oov_share / self.oov_chars)))


def alphabet(vocab: Vocabulary, coverage: float = 0.9999, max_symbols: int = 8000) -> Alphabet:
    """Printable ASCII, the language's punctuation and letters, then the Han characters by descending
    mass until they carry ``coverage`` of it (at most ``max_symbols`` symbols in all)."""
    lang = LANGUAGES[vocab.code]
    fixed: list[str] = []
    for c in ASCII + list(lang.punctuation) + list(lang.letters):
        if c not in fixed:
            fixed.append(c)
    ranked = sorted(vocab.han_mass.items(), key=lambda x: (-x[1], x[0]))
    total = sum(f for _, f in ranked)
    han, acc = [], sum(f for c, f in ranked if c in fixed)  # (々 〆 〇 are letters or punctuation)
    for c, f in ranked:
        if c in fixed:
            continue
        if acc >= coverage * total or len(fixed) + len(han) >= max_symbols:
            break
        han.append(c)
        acc += f
    keep = set(han) | set(fixed)
    chars = sum(f * len(w) for w, f in zip(vocab.words, vocab.freqs))
    oov = sum(f * sum(1 for c in w if c not in keep) for w, f in zip(vocab.words, vocab.freqs))
    return Alphabet(fixed + han, han, acc / total if total else 1.0, sum(1 for c in vocab.han_mass if c not in keep),
                    oov / chars if chars else 0.0)


def covered(vocab: Vocabulary, symbols: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """The script words all of whose characters are in ``symbols``, with their frequencies."""
    s = set(symbols)
    keep = [i for i, w in enumerate(vocab.words) if all(c in s for c in w)]
    return [vocab.words[i] for i in keep], vocab.freqs[keep]


def _split_ascii(items, share: float):
    """(string, weight) items with each full-width punctuation mark that has an ASCII look-alike also
    written in ASCII for ``share`` of its weight."""
    out = []
    for s, w in items:
        a = "".join(ASCII_FORMS.get(c, c) for c in s)
        if a != s and share > 0:
            out += [(s, w * (1 - share)), (a, w * share)]
        else:
            out.append((s, w))
    return out


class RunningText:
    """Running text as a sampler writes it: its pieces and the ``[start, stop)`` offsets of the word tokens
    whose inner n-grams ``CJKTextModel.counts`` counts exactly (their sampled counts are dropped)."""

    def __init__(self):
        self.pieces: list[str] = []
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.pos = 0

    def put(self, s: str) -> None:
        if s:
            self.pieces.append(s)
            self.pos += len(s)

    def mark_word(self, length: int) -> None:
        """The next ``length`` characters put are a word token."""
        self.starts.append(self.pos)
        self.stops.append(self.pos + length)

    def word(self, w: str) -> None:
        self.mark_word(len(w))
        self.put(w)

    def result(self) -> tuple[str, np.ndarray, np.ndarray]:
        return "".join(self.pieces), np.asarray(self.starts, np.int64), np.asarray(self.stops, np.int64)


class CJKTextModel:
    """Running text of a CJK language without spaces, from word frequencies.

    A text starts at BOS; its number of tokens is geometric with a mean drawn from ``lengths``
    ((share, mean tokens): short notes and sentences). A token is a script word drawn by frequency
    (``freq_power``), or with ``number_rate`` a number (mostly followed by a counter word), or with
    ``latin_rate`` an ASCII word (drawn by wordfreq frequency: short ones mostly UPPER, OK, CD; longer
    ones lower or Capitalized). A word matching one of the language's ``follow`` rules is followed
    directly by one of its followers (ja: なっ → なった, まし → ました). Between tokens: the language's
    separators (mostly nothing); an ASCII token after an ASCII token gets a space (iPhone 14). At a
    token, a quotation or bracket pair may open around the next tokens (``SPAN_MEAN``). The text ends
    with one of the language's endings. ``ascii_punctuation``: share of the full-width marks with an
    ASCII look-alike (！？：；，（）) written in ASCII."""

    LENGTHS = ((0.35, 2.5), (0.65, 11.0))
    FOLLOW_RATE = 0.9
    SPAN_MEAN, SPAN_MAX = 2.0, 6  # tokens inside a quotation or bracket pair: geometric, at most 6

    def _set_tokens(self, words: Sequence[str], freqs: Sequence[float], freq_power: float, latin: Sequence[str],
                    latin_freqs: Sequence[float], number_rate: float, latin_rate: float) -> None:
        """The script's words drawn ∝ frequency**freq_power, and the Latin words the alphabet writes (both cases)
        with their frequencies; no Latin tokens when none is left."""
        self.words = list(words)
        f = np.asarray(freqs, np.float64) ** freq_power
        self.freqs = f / f.sum()
        keep = [i for i, w in enumerate(latin) if lm.covers(w.upper()) and lm.covers(w)]
        self.latin = [latin[i] for i in keep]
        lf = np.asarray(latin_freqs, np.float64)[keep] if keep else np.zeros(0)
        self.latin_freqs = lf / lf.sum() if len(lf) else lf
        self.latin_rate = latin_rate if len(self.latin) else 0.0
        self.number_rate = number_rate

    def __init__(self, code: str, words: Sequence[str], freqs: Sequence[float], latin: Sequence[str] = (),
                 latin_freqs: Sequence[float] = (), seed: int = 1234, freq_power: float = 1.0,
                 number_rate: float = 0.02, latin_rate: float = 0.01, ascii_punctuation: float = 0.1,
                 lengths: Optional[Sequence[tuple[float, float]]] = None):
        lang = LANGUAGES[code]
        self.code = code
        self._set_tokens(words, freqs, freq_power, latin, latin_freqs, number_rate, latin_rate)
        self.seps = _split_ascii(lang.seps, ascii_punctuation)
        self.ends = _split_ascii(lang.ends, ascii_punctuation)
        spans = []
        for o, c, r in lang.spans:
            for (o2, w), (c2, _) in zip(_split_ascii([(o, r)], ascii_punctuation), _split_ascii([(c, r)], ascii_punctuation)):
                spans.append((o2, c2, w))
        self.spans = spans
        counters = list(lang.counters) + ["\u53f7"]  # 号: the day of a Chinese date (3月5号)
        if lang.opencc:
            counters = convert_words(counters, lang.opencc)
        self.counters = [c for c in counters[:-1] if lm.covers(c)]
        self.hao = counters[-1] if lm.covers(counters[-1]) else "\u65e5"
        self.lengths = tuple(lengths) if lengths is not None else self.LENGTHS
        # per word, which follow rule it matches (-1: none); the rules' followers and their cumulative weights
        self.follow = [([f for f, _ in fs], np.cumsum([w for _, w in fs]) / sum(w for _, w in fs))
                       for _, fs in lang.follow]
        exact = {p: i for i, (p, _) in enumerate(lang.follow) if not p.startswith("~")}
        endings = [(p[1:], i) for i, (p, _) in enumerate(lang.follow) if p.startswith("~")]
        self.rule = np.full(len(self.words), -1, np.int64)
        for j, w in enumerate(self.words):
            if w in exact:
                self.rule[j] = exact[w]
            else:
                for e, i in endings:
                    if w.endswith(e) and len(w) > len(e):
                        self.rule[j] = i
                        break
        self.seed = seed
        bad = [s for s, _ in self.seps + self.ends if not lm.covers(s)] + [o + c for o, c, _ in self.spans if not lm.covers(o + c)]
        if bad:
            raise ValueError(f"punctuation outside the alphabet: {bad}")

    # -- tokens ------------------------------------------------------------------------------
    def _number(self, rng: np.random.Generator) -> str:
        def digits(k: int, lead: bool = True) -> str:
            s = "".join(str(d) for d in rng.integers(0, 10, size=k))
            return (str(rng.integers(1, 10)) + s[1:]) if lead and k > 1 else s
        r = rng.random()
        ja = self.code == "ja"
        year, month, day = "\u5e74", "\u6708", "\u65e5"
        if r < 0.12:
            s = ("19" if rng.random() < 0.4 else "20") + digits(2, False) + year
            if rng.random() < 0.4:
                s += f"{rng.integers(1, 13)}{month}"
            return s
        if r < 0.22:
            return f"{rng.integers(1, 13)}{month}{rng.integers(1, 32)}{day if ja or rng.random() < 0.7 else self.hao}"
        if r < 0.28:
            return f"{rng.integers(0, 24)}:{digits(2, False)}"
        if r < 0.34:
            return digits(int(rng.integers(1, 3))) + "%"
        if r < 0.40:
            return digits(int(rng.integers(1, 3))) + "." + digits(int(rng.integers(1, 3)), False)
        if r < 0.44:
            return digits(int(rng.integers(1, 4))) + "," + digits(3, False) + (("\u5186" if ja else "\u5143") if rng.random() < 0.5 else "")
        k = int(rng.choice([1, 2, 3, 4, 5], p=[0.38, 0.32, 0.17, 0.1, 0.03]))
        s = digits(k)
        if self.counters and rng.random() < 0.6:
            s += self.counters[int(rng.integers(0, len(self.counters)))]
        return s

    def _latin(self, i: int, u: float) -> str:
        w = self.latin[i]
        if len(w) <= 3:
            return w.upper() if u < 0.5 else (w if u < 0.8 else w[:1].upper() + w[1:])
        return w if u < 0.45 else (w[:1].upper() + w[1:] if u < 0.9 else w.upper())

    # -- sampled corpus ------------------------------------------------------------------------
    def sample_corpus(self, n_tokens: int, rng: np.random.Generator):
        """(text with chr(0) before each text, start and end offsets of the script-word tokens)."""
        seps = [s for s, _ in self.seps]
        sep_p = np.asarray([p for _, p in self.seps]); sep_p /= sep_p.sum()
        ends = [s for s, _ in self.ends]
        end_p = np.asarray([p for _, p in self.ends]); end_p /= end_p.sum()
        span_cum = np.cumsum([w for _, _, w in self.spans])
        widx = rng.choice(len(self.words), size=n_tokens, p=self.freqs)
        kind_u = rng.random(n_tokens)
        lidx = rng.choice(len(self.latin), size=n_tokens, p=self.latin_freqs) if self.latin_rate else None
        sep_i = rng.choice(len(seps), size=n_tokens, p=sep_p)
        end_i = rng.choice(len(ends), size=n_tokens, p=end_p)
        u_case = rng.random(n_tokens)
        u_span = rng.random(n_tokens)
        u_stop = rng.random(n_tokens)
        u_follow = rng.random(n_tokens)
        shares = np.asarray([s for s, _ in self.lengths]); shares /= shares.sum()
        means = np.asarray([m for _, m in self.lengths])
        text = RunningText()
        put, i = text.put, 0
        while i < n_tokens:
            put("\0")
            stop_p = 1.0 / means[int(rng.choice(len(means), p=shares))]
            last = "\0"
            span: Optional[list] = None  # [close, tokens left]
            while True:
                if span is None and len(span_cum) and u_span[i] < span_cum[-1]:
                    o, c, _ = self.spans[int(np.searchsorted(span_cum, u_span[i], side="right"))]
                    put(o)
                    last = o[-1]
                    span = [c, min(int(rng.geometric(1.0 / self.SPAN_MEAN)), self.SPAN_MAX)]
                if kind_u[i] < self.number_rate:
                    tok, script = self._number(rng), False
                elif kind_u[i] < self.number_rate + self.latin_rate:
                    tok, script = self._latin(int(lidx[i]), u_case[i]), False
                else:
                    tok, script = self.words[widx[i]], True
                if last.isascii() and last.isalnum() and tok[0].isascii() and tok[0].isalnum():
                    put(" ")
                if script:
                    text.mark_word(len(tok))
                    r = self.rule[widx[i]]
                    if r >= 0 and u_follow[i] < self.FOLLOW_RATE:  # (its n-grams are counted on the sample)
                        followers, cum = self.follow[r]
                        tok += followers[int(np.searchsorted(cum, u_follow[i] / self.FOLLOW_RATE, side="right"))]
                put(tok)
                last = tok[-1]
                i += 1
                end = u_stop[i - 1] < stop_p or i >= n_tokens
                if span is not None:
                    span[1] -= 1
                    if span[1] <= 0 or end:
                        put(span[0])
                        last = span[0][-1]
                        span = None
                if end:
                    put(ends[end_i[i - 1]])
                    break
                s = seps[sep_i[i - 1]]
                if s:
                    put(s)
                    last = s[-1]
        return text.result()

    # -- counting ------------------------------------------------------------------------------
    def counts(self, order: int, scale: float, sample_tokens: int = 8_000_000,
               chunk_tokens: int = 500_000) -> lm.NgramCounts:
        """Expected n-gram counts of ``scale`` tokens of text: those inside one script word exactly from
        the word frequencies, the others on ``sample_tokens`` sampled tokens."""
        rng = np.random.default_rng(self.seed)
        out = lm.NgramCounts(order)
        per_token = scale / sample_tokens
        done, word_tokens = 0, 0
        while done < sample_tokens:
            n = min(chunk_tokens, sample_tokens - done)
            text, st, en = self.sample_corpus(n, rng)
            done += n
            word_tokens += len(st)
            flat = lm.ids_array(text).astype(np.int64)
            if flat.max() >= lm.NUM_SYMBOLS:
                raise ValueError(f"the text holds characters outside the alphabet: {sorted(set(text) - set(lm.INDEX) - {chr(0)})}")
            L = len(flat)
            wid = np.full(L + 1, -1, np.int64)
            cover = np.zeros(L + 1, np.int64)
            np.add.at(cover, st, 1)
            np.add.at(cover, en, -1)
            inside = np.cumsum(cover)[:L] > 0
            num = np.cumsum(np.bincount(st, minlength=L + 1)[:L])
            wid[:L] = np.where(inside, num, -1)
            seg = np.cumsum(flat == lm.BOS)

            def across(nn, idx, wid=wid):  # windows not inside one script word (those are counted exactly)
                return (wid[idx] < 0) | (wid[idx] != wid[idx + nn - 1])

            out.add_windows(flat, seg, np.full(seg[-1] + 1, per_token), ok=across)
        # exact part: every window inside a word, weighted by the word's expected count
        w = self.freqs * (scale * word_tokens / sample_tokens)
        lens = np.asarray([len(x) for x in self.words])
        flat = lm.ids_array("".join(self.words)).astype(np.int64)
        out.add_windows(flat, np.repeat(np.arange(len(self.words)), lens), w)
        return out


def text_model(code: str, vocab: Vocabulary, symbols: Sequence[str], **kw) -> CJKTextModel:
    """The text model of ``code`` over the words ``symbols`` covers (``lm.use_alphabet(symbols)`` first)."""
    words, freqs = covered(vocab, symbols)
    return CJKTextModel(code, words, freqs, vocab.latin, vocab.latin_freqs, **kw)
