"""Character n-gram language model: the decoder's prior over the recognizer's character set.

Symbols are the indices of the current alphabet (``use_alphabet``; by default the western charset, so
1..165 are its characters in ``charset.INDEX`` order), 0 is BOS, the start of the text. BOS only ever
appears as the first symbol of a context; it is never predicted. Keys pack symbols in ``BITS`` bits
(8 up to 256 symbols). This module writes INKLM1 (below); ``inklm2`` writes and reads INKLM2, the
compact format with its own alphabet (``inkrec_training.lm.write_v2``, ``quantize``; ``inkrec_training.lm.read_file`` reads both).

Model
-----
Interpolated Witten-Bell of order N over (possibly fractional) n-gram counts, with count pruning.
For an n-gram ``h c`` (history h of n-1 symbols, predicted symbol c)::

    P(c | h) = (c(h c) + T(h) * P(c | h')) / (C(h) + T(h))

where C(h) = sum_c c(h c), T(h) = sum_c min(1, c(h c)) (the number of distinct continuations, each
counting at most its own weight, so that fractional counts work), and h' is h without its oldest
symbol. The unigram level interpolates with the uniform distribution over the 165 characters, so
every character has a unigram entry and lookups always end. P(c | h') above is the *stored model's*
lookup (below), so the stored probabilities are fully interpolated. After pruning, each kept
context h gets the backoff weight that renormalises its distribution exactly::

    bow(h) = (1 - sum_{kept c} P(c | h)) / (1 - sum_{kept c} P_lower(c | h'))

where P_lower is again the stored model's lookup for the shorter context.

Binary format ``lm.bin`` (little-endian; also described in ``Training/LM_FORMAT.md``)
--------------------------------------------------------------------------------
::

    magic     8 bytes   b"INKLM1\\0\\0"
    order N   UInt32
    symbols S UInt32    166 (ids 0..165, 0 = BOS)
    for n = 1..N:
        count_n UInt32
        count_n entries, sorted ascending by key, 16 bytes each:
            key        UInt64   sum_i s_i * 256^(n-i)  (base-256 digits, predicted symbol lowest)
            logProb    Float32  natural log of P(s_n | s_1..s_{n-1})
            logBackoff Float32  natural log of bow(s_1..s_n) as a context; 0 if never a context

Table 1 holds exactly the 165 characters (no entry for BOS). Table 2 holds every bigram (BOS, c)
for c in 1..165, so the bare start-of-text context never needs a backoff weight of its own.
An n-gram whose first symbol is BOS has a key below 256^(n-1) (its leading digit is 0); within one
table keys are still unique.

Lookup of log P(c | context), context = the last (up to) N-1 symbols::

    acc = 0
    for n = min(len(ctx), N-1) + 1 down to 1:
        h = ctx[-(n-1):]   (empty for n = 1)
        if key(h + c) in table n: return acc + logProb
        acc += logBackoff of key(h) in table n-1   (0 if absent)
    (n = 1 always hits: every character has a unigram)

``score_text(text, pre_context)`` starts from the context [0] + ids(pre_context[-20:]).
"""
from __future__ import annotations

import math
import struct
from typing import Iterable, Optional, Sequence

import numpy as np

from inkrec_training import charset

MAGIC = b"INKLM1\0\0"
BOS = 0
ENTRY = np.dtype([("key", "<u8"), ("logProb", "<f4"), ("logBackoff", "<f4")])
PRE_CONTEXT_CHARS = 20

# The alphabet being built (``use_alphabet``): symbols 1..NUM_CHARS are its characters, 0 is BOS. The
# default is the western charset (the INKLM1 en-US model's class order). Code in this module reads
# these globals at call time.
ALPHABET: list[str] = []
INDEX: dict[str, int] = {}
NUM_SYMBOLS = 0
NUM_CHARS = 0
BITS = 8  # bits per symbol in an n-gram key: 8 up to 256 symbols (INKLM1's base-256 keys), else more
_TO_ID: dict[int, str] = {}


def key_bits(num_symbols: int) -> int:
    """Bits per symbol in a key for ``num_symbols`` symbols (BOS included): 8 up to 256, else the
    bit length of the largest id (the Swift reader uses the same rule)."""
    return 8 if num_symbols <= 256 else (num_symbols - 1).bit_length()


def use_alphabet(chars: Sequence[str]) -> None:
    """Make ``chars`` (distinct, in symbol order) the alphabet that counting and building use."""
    global ALPHABET, INDEX, NUM_SYMBOLS, NUM_CHARS, BITS, _TO_ID
    chars = list(chars)
    if len(set(chars)) != len(chars) or not chars or len(chars) > 65_534:
        raise ValueError("an alphabet holds 1..65534 distinct symbols")
    ALPHABET = chars
    INDEX = {c: i + 1 for i, c in enumerate(chars)}
    NUM_SYMBOLS = len(chars) + 1
    NUM_CHARS = len(chars)
    BITS = key_bits(NUM_SYMBOLS)
    # str.translate table: character -> chr(id) (text.encode then gives the ids)
    _TO_ID = {ord(c): chr(i) for c, i in INDEX.items()}


use_alphabet(charset.WESTERN)


def covers(text: str) -> bool:
    """Whether every character of ``text`` is in the current alphabet."""
    return all(c in INDEX for c in text)


def encode(text: str) -> list[int]:
    """Symbol ids of the characters of ``text``; characters outside the alphabet are skipped."""
    return [INDEX[c] for c in text if c in INDEX]


def ngram_key(symbols: Sequence[int], bits: Optional[int] = None) -> int:
    b = BITS if bits is None else bits
    k = 0
    for s in symbols:
        k = (k << b) | int(s)
    return k


def ids_array(text: str) -> np.ndarray:
    """Fast encoding of a text made only of alphabet characters (and chr(0) for BOS) to ids."""
    t = text.translate(_TO_ID)
    if NUM_SYMBOLS <= 256:
        return np.frombuffer(t.encode("latin-1"), dtype=np.uint8)
    return np.frombuffer(t.encode("utf-32-le"), dtype="<u4")


# --------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------

class NgramCounts:
    """Fractional n-gram counts per order, accumulated in chunks and merged on demand."""

    def __init__(self, order: int):
        self.order = order
        self._chunks: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {n: [] for n in range(1, order + 1)}

    def add(self, n: int, keys: np.ndarray, weights: np.ndarray) -> None:
        if len(keys) == 0:
            return
        keys = np.asarray(keys, dtype=np.int64)
        weights = np.broadcast_to(np.asarray(weights, dtype=np.float64), keys.shape)
        u, inv = np.unique(keys, return_inverse=True)
        self._chunks[n].append((u, np.bincount(inv, weights=weights, minlength=len(u))))
        if len(self._chunks[n]) > 16:
            self._chunks[n] = [self.get(n)]

    def get(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        ch = self._chunks[n]
        if not ch:
            return np.zeros(0, np.int64), np.zeros(0, np.float64)
        if len(ch) > 1:
            keys = np.concatenate([k for k, _ in ch])
            w = np.concatenate([c for _, c in ch])
            u, inv = np.unique(keys, return_inverse=True)
            ch[:] = [(u, np.bincount(inv, weights=w, minlength=len(u)))]
        return ch[0]

    def merge(self, other: "NgramCounts", scale: float = 1.0) -> None:
        for n in range(1, self.order + 1):
            k, c = other.get(n)
            self.add(n, k, c * scale)

    def add_windows(self, flat: np.ndarray, seg: np.ndarray, weights: np.ndarray,
                    ok=None, min_n: int = 1) -> None:
        """Count every window of ``flat`` lying inside one segment (``seg`` ids, non-decreasing).

        Window weight is ``weights[seg[start]]``. ``ok(n, start_idx)`` may return a boolean mask
        to keep only some windows of length n (start_idx: their start positions in flat).
        Windows predicting BOS (the 1-gram BOS) are never counted."""
        flat = flat.astype(np.int64)
        L = len(flat)
        for n in range(min_n, self.order + 1):
            m = L - n + 1
            if m <= 0:
                break
            keys = flat[:m].copy()
            for j in range(1, n):
                keys = (keys << BITS) | flat[j:j + m]
            idx = np.arange(m)
            valid = seg[:m] == seg[n - 1:n - 1 + m]
            if n == 1:
                valid &= flat[:m] != BOS
            if ok is not None:
                valid &= ok(n, idx)
            sel = np.nonzero(valid)[0]
            self.add(n, keys[sel], weights[seg[sel]])

    def add_texts(self, texts: Iterable[tuple[str, float]], bos: bool = True) -> None:
        """Count all n-grams of each text (preceded by BOS) with the given weight."""
        parts, segs, ws = [], [], []
        for i, (t, w) in enumerate(texts):
            ids = encode(t)
            arr = np.asarray(([BOS] if bos else []) + ids, dtype=np.int64)
            parts.append(arr)
            segs.append(np.full(len(arr), i, dtype=np.int64))
            ws.append(w)
        if not parts:
            return
        self.add_windows(np.concatenate(parts), np.concatenate(segs), np.asarray(ws, dtype=np.float64))

    def total_types(self) -> int:
        return sum(len(self.get(n)[0]) for n in range(1, self.order + 1))


# --------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------

class CharNgramLM:
    def __init__(self, order: int, tables: list[np.ndarray], num_symbols: Optional[int] = None,
                 alphabet: Optional[Sequence[str]] = None, unknown_logprob: float = -30.0):
        self.order = order
        self.num_symbols = NUM_SYMBOLS if num_symbols is None else num_symbols
        self.bits = key_bits(self.num_symbols)
        self.tables = tables  # tables[n-1]: structured array of ENTRY, sorted by key
        # INKLM2: the text of symbols 1..num_symbols-1; None for INKLM1 (symbols are class indices)
        self.alphabet = list(alphabet) if alphabet is not None else None
        self.unknown_logprob = unknown_logprob  # of a symbol the model does not know
        self._dicts: Optional[list[dict]] = None

    # ---- file I/O ------------------------------------------------------------------------
    def save(self, path: str) -> None:
        with open(path, "wb") as f:
            f.write(MAGIC)
            f.write(struct.pack("<II", self.order, self.num_symbols))
            for t in self.tables:
                f.write(struct.pack("<I", len(t)))
                f.write(np.ascontiguousarray(t, dtype=ENTRY).tobytes())

    def to_bytes(self) -> bytes:
        out = [MAGIC, struct.pack("<II", self.order, self.num_symbols)]
        for t in self.tables:
            out.append(struct.pack("<I", len(t)))
            out.append(np.ascontiguousarray(t, dtype=ENTRY).tobytes())
        return b"".join(out)

    @classmethod
    def from_bytes(cls, data: bytes) -> "CharNgramLM":
        """An INKLM1 file's model (``inkrec_training.lm.read_bytes`` reads either format)."""
        if data[:8] != MAGIC:
            raise ValueError("not an INKLM1 file")
        order, symbols = struct.unpack_from("<II", data, 8)
        pos = 16
        tables = []
        for _ in range(order):
            (count,) = struct.unpack_from("<I", data, pos)
            pos += 4
            t = np.frombuffer(data, dtype=ENTRY, count=count, offset=pos).copy()
            pos += count * ENTRY.itemsize
            if count > 1 and not np.all(t["key"][1:] > t["key"][:-1]):
                raise ValueError("keys not sorted")
            tables.append(t)
        if pos != len(data):
            raise ValueError(f"{len(data) - pos} unexpected trailing bytes")
        return cls(order, tables, symbols, alphabet=None)

    def num_entries(self) -> int:
        return sum(len(t) for t in self.tables)

    def file_size(self) -> int:
        return 16 + sum(4 + len(t) * ENTRY.itemsize for t in self.tables)

    # ---- scalar lookup (the reference the Swift reader mirrors) ----------------------------
    def _tables_as_dicts(self) -> list[dict]:
        if self._dicts is None:
            self._dicts = [dict(zip(t["key"].tolist(), zip(t["logProb"].astype(np.float64).tolist(),
                                                            t["logBackoff"].astype(np.float64).tolist())))
                           for t in self.tables]
        return self._dicts

    def logprob(self, context_ids: Sequence[int], char_id: int) -> float:
        """Natural-log P(char_id | context_ids) by the backoff lookup described in the docstring."""
        d = self._tables_as_dicts()
        ctx = list(context_ids)[-(self.order - 1):] if self.order > 1 else []
        acc = 0.0
        for n in range(len(ctx) + 1, 0, -1):
            h = ctx[len(ctx) - (n - 1):] if n > 1 else []
            e = d[n - 1].get(ngram_key(h + [char_id], self.bits))
            if e is not None:
                return acc + e[0]
            if n > 1:
                b = d[n - 2].get(ngram_key(h, self.bits))
                if b is not None:
                    acc += b[1]
        raise KeyError(f"symbol {char_id} has no unigram")

    def trace(self, context_ids: Sequence[int], char_id: int) -> tuple[float, int, list[float]]:
        """Like ``logprob``, also returning the order of the n-gram found and the backoff weights added."""
        d = self._tables_as_dicts()
        ctx = list(context_ids)[-(self.order - 1):] if self.order > 1 else []
        acc, bows = 0.0, []
        for n in range(len(ctx) + 1, 0, -1):
            h = ctx[len(ctx) - (n - 1):] if n > 1 else []
            e = d[n - 1].get(ngram_key(h + [char_id], self.bits))
            if e is not None:
                return acc + e[0], n, bows
            if n > 1:
                b = d[n - 2].get(ngram_key(h, self.bits))
                bows.append(b[1] if b is not None else 0.0)
                acc += bows[-1]
        raise KeyError(f"symbol {char_id} has no unigram")

    def score_ids(self, ids: Sequence[int], context: Sequence[int]) -> float:
        ctx = list(context)
        total = 0.0
        for c in ids:
            total += self.logprob(ctx, c)
            ctx.append(c)
            if len(ctx) > 64:
                ctx = ctx[-32:]
        return total

    def score_text(self, text: str, pre_context: str = "") -> float:
        """Sum of natural-log probabilities of the characters of ``text`` (outside-charset ones skipped),
        starting from the context [BOS] + ids(pre_context[-20:])."""
        return self.score_ids(encode(text), [BOS] + encode(pre_context[-PRE_CONTEXT_CHARS:]))

    # ---- vectorised lookup (used while building) --------------------------------------------
    def logprob_keys(self, n: int, keys: np.ndarray) -> np.ndarray:
        """log P for n-gram keys of order n (context = the n-1 higher digits), by backoff."""
        keys = np.asarray(keys, dtype=np.int64)
        out = np.zeros(len(keys), dtype=np.float64)
        pending = np.arange(len(keys))
        cur = keys.copy()
        for m in range(n, 0, -1):
            tk = self.tables[m - 1]["key"].astype(np.int64)
            pos = np.minimum(np.searchsorted(tk, cur), max(len(tk) - 1, 0))
            found = (tk[pos] == cur) if len(tk) else np.zeros(len(cur), bool)
            out[pending[found]] += self.tables[m - 1]["logProb"][pos[found]]
            nf = ~found
            pending, cur = pending[nf], cur[nf]
            if len(cur) == 0:
                break
            if m == 1:
                raise KeyError("symbols without a unigram")
            ctx = cur >> self.bits
            if m >= 2:
                ck = self.tables[m - 2]["key"].astype(np.int64)
                p2 = np.minimum(np.searchsorted(ck, ctx), len(ck) - 1)
                f2 = ck[p2] == ctx
                out[pending[f2]] += self.tables[m - 2]["logBackoff"][p2[f2]]
            cur = cur & ((1 << (self.bits * (m - 1))) - 1)
        return out


def _isin_sorted(values: np.ndarray, sorted_ref: np.ndarray) -> np.ndarray:
    if len(sorted_ref) == 0:
        return np.zeros(len(values), bool)
    pos = np.minimum(np.searchsorted(sorted_ref, values), len(sorted_ref) - 1)
    return sorted_ref[pos] == values


def _kept_masks(counts: NgramCounts, order: int, min_count: Sequence[float]) -> list[np.ndarray]:
    """Per order n >= 2, which counted n-grams survive pruning: count >= min_count[n] and the context is kept.
    All (BOS, c) bigrams are always kept (they are added separately)."""
    masks = []
    kept_prev = np.arange(NUM_SYMBOLS, dtype=np.int64)  # unigram keys (contexts for n = 2), BOS included
    for n in range(2, order + 1):
        k, c = counts.get(n)
        m = (c >= min_count[n]) & _isin_sorted(k >> BITS, kept_prev)
        if n == 2:
            m |= (k >> BITS) == BOS
            kept_prev = np.union1d(k[m], np.arange(1, NUM_SYMBOLS, dtype=np.int64))
        else:
            kept_prev = k[m]
        masks.append(m)
    return masks


def count_kept(counts: NgramCounts, order: int, min_count: Sequence[float]) -> int:
    return NUM_CHARS + sum(int(m.sum()) + (NUM_CHARS if i == 0 else 0)
                           for i, m in enumerate(_kept_masks(counts, order, min_count)))


def build(counts: NgramCounts, min_count: Optional[Sequence[float]] = None,
          unigram_floor: float = 0.0) -> CharNgramLM:
    """Interpolated Witten-Bell from ``counts``, pruned to n-grams with count >= min_count[n] (n >= 2).

    ``unigram_floor``: the unigram distribution is mixed with the uniform one so that every character
    has at least this probability (Witten-Bell alone gives unseen characters T/(C+T)/165, which is
    vanishingly small for large counts)."""
    order = counts.order
    if min_count is None:
        min_count = [0.0] * (order + 1)
    # unigrams: Witten-Bell against the uniform distribution over the 165 characters
    k1, c1 = counts.get(1)
    cu = np.zeros(NUM_SYMBOLS)
    np.add.at(cu, k1, c1)
    cu[BOS] = 0.0
    C, T = cu[1:].sum(), np.minimum(cu[1:], 1.0).sum()
    p1 = (cu[1:] + T / NUM_CHARS) / (C + T) if C > 0 else np.full(NUM_CHARS, 1.0 / NUM_CHARS)
    lam = min(max(unigram_floor, 0.0) * NUM_CHARS, 1.0)
    p1 = (1.0 - lam) * p1 + lam / NUM_CHARS
    t1 = np.zeros(NUM_CHARS, dtype=ENTRY)
    t1["key"] = np.arange(1, NUM_SYMBOLS)
    t1["logProb"] = np.log(p1)
    lm = CharNgramLM(order, [t1], NUM_SYMBOLS, alphabet=ALPHABET, unknown_logprob=float(np.log(p1.min())))
    masks = _kept_masks(counts, order, min_count)
    for n in range(2, order + 1):
        k, c = counts.get(n)
        h = k >> BITS
        uh, inv = np.unique(h, return_inverse=True)
        Ch = np.bincount(inv, weights=c, minlength=len(uh))
        Th = np.bincount(inv, weights=np.minimum(c, 1.0), minlength=len(uh))
        keep = masks[n - 2]
        kk, ck, ik = k[keep], c[keep], inv[keep]
        Chk, Thk = Ch[ik], Th[ik]
        if n == 2:  # complete the start-of-text distribution: every (BOS, c) bigram is stored
            have = set(kk[(kk >> BITS) == BOS].tolist())
            extra = np.asarray([x for x in range(1, NUM_SYMBOLS) if x not in have], dtype=np.int64)
            if len(extra):
                bos_pos = np.searchsorted(uh, BOS)
                has_bos = bos_pos < len(uh) and uh[bos_pos] == BOS
                cb, tb = (Ch[bos_pos], Th[bos_pos]) if has_bos else (0.0, 0.0)
                kk = np.concatenate([kk, extra])
                ck = np.concatenate([ck, np.zeros(len(extra))])
                Chk = np.concatenate([Chk, np.full(len(extra), cb)])
                Thk = np.concatenate([Thk, np.full(len(extra), tb)])
            o = np.argsort(kk)
            kk, ck, Chk, Thk = kk[o], ck[o], Chk[o], Thk[o]
        low_keys = kk & ((1 << (BITS * (n - 1))) - 1)
        plow = np.exp(lm.logprob_keys(n - 1, low_keys))
        denom = Chk + Thk
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(denom > 0, (ck + Thk * plow) / np.where(denom > 0, denom, 1.0), plow)
        tn = np.zeros(len(kk), dtype=ENTRY)
        tn["key"] = kk
        tn["logProb"] = np.minimum(np.log(p), 0.0)
        set_backoffs(lm, tn)
        lm.tables.append(tn)
    lm._dicts = None
    return lm


def set_backoffs(lm: "CharNgramLM", tn: np.ndarray) -> None:
    """Backoff weights of the contexts of table n (``tn``, not yet appended: the entries of table n-1,
    ``lm.tables[-1]``), from its float32-rounded values, so that every context's distribution sums to 1.
    A context whose continuations are all missing gets 0 (it never needs one). The BOS context (not
    in an INKLM1 table 1) is skipped: its bigrams are complete."""
    n = len(lm.tables) + 1
    bits = lm.bits
    kk = tn["key"].astype(np.int64)
    low_keys = kk & ((1 << (bits * (n - 1))) - 1)
    p32 = np.exp(tn["logProb"].astype(np.float64))
    plow32 = np.exp(lm.logprob_keys(n - 1, low_keys))
    hk = kk >> bits
    uc, cinv = np.unique(hk, return_inverse=True)
    sp = np.bincount(cinv, weights=p32, minlength=len(uc))
    sl = np.bincount(cinv, weights=plow32, minlength=len(uc))
    num = np.maximum(1.0 - sp, 1e-12)
    den = np.maximum(1.0 - sl, 1e-12)
    prev = lm.tables[n - 2]
    pk = prev["key"].astype(np.int64)
    if n == 2 and not np.any(pk == BOS):
        nb = uc != BOS
        uc, num, den = uc[nb], num[nb], den[nb]
    pos = np.searchsorted(pk, uc)
    assert np.all(pk[np.minimum(pos, len(pk) - 1)] == uc), "context missing from the lower table"
    prev["logBackoff"][pos] = np.log(num) - np.log(den)
    lm._dicts = None


def _codebook(values: np.ndarray, levels: int, pin_zero: bool = False, iterations: int = 25,
              weighted: bool = False) -> np.ndarray:
    """At most ``levels`` values approximating ``values`` (1-D k-means from quantile starts; 0 kept
    exactly when ``pin_zero``). Values with no more distinct entries than ``levels`` are kept exactly.
    ``weighted`` (log-probabilities): each value weighs sqrt(p) + 0.01, so that the likely values, which
    hold a context's mass, get the finer steps (plain k-means left P(u | q) = 0.70 rounded to 0.92)."""
    v = np.asarray(values, dtype=np.float64)
    u = np.unique(v.astype(np.float32)).astype(np.float64)
    if len(u) <= levels:
        return u
    w = np.sqrt(np.exp(v)) + 0.01 if weighted else np.ones(len(v))
    free = levels - (1 if pin_zero else 0)
    o = np.argsort(v)
    cw = np.cumsum(w[o])
    c = np.unique(v[o][np.minimum(np.searchsorted(cw / cw[-1], (np.arange(free) + 0.5) / free), len(v) - 1)])
    for _ in range(iterations):
        order = np.sort(c)
        edges = (order[1:] + order[:-1]) / 2
        idx = np.searchsorted(edges, v)
        sums = np.bincount(idx, weights=v * w, minlength=len(order))
        cnt = np.bincount(idx, weights=w, minlength=len(order))
        c = np.where(cnt > 0, sums / np.maximum(cnt, 1e-300), order)
    if pin_zero:
        c = np.concatenate([c, [0.0]])
    return np.unique(c.astype(np.float32)).astype(np.float64)


def _nearest(values: np.ndarray, book: np.ndarray) -> np.ndarray:
    """Each value replaced by its nearest codebook value."""
    book = np.sort(book)
    if len(book) == 1:
        return np.full(len(values), book[0])
    idx = np.searchsorted((book[1:] + book[:-1]) / 2, values)
    return book[idx]


def quantize(model: "CharNgramLM", lp_levels: int = 256, bo_levels: int = 256) -> "CharNgramLM":
    """A copy of ``model`` whose values per order take at most ``lp_levels`` / ``bo_levels`` values
    (INKLM2 writes them as 1-byte codes for 256, 2-byte for up to 65536), each value rounded to the
    nearest value of its order's codebook (1-D k-means; a backoff of exactly 0 stays 0). Unigrams keep
    up to 65536 values.

    The backoff weights are the float model's, rounded like the rest: recomputing them from the rounded
    probabilities would turn a context whose kept continuations hold nearly all of its mass into one
    with a vanishing backoff (the rounding error exceeding the mass left), so that every character it
    backs off for gets almost no probability. Rounded independently, a context's distribution sums to 1
    within the rounding error (about 0.1% at 256 levels)."""
    tables = [t.copy() for t in model.tables]
    for n, t in enumerate(tables, start=1):
        lp = t["logProb"].astype(np.float64)
        levels = 65536 if n == 1 else (lp_levels[n - 1] if isinstance(lp_levels, (list, tuple)) else lp_levels)
        t["logProb"] = np.minimum(_nearest(lp, _codebook(lp, levels, weighted=True)), 0.0)
        bo = t["logBackoff"].astype(np.float64)
        t["logBackoff"] = _nearest(bo, _codebook(bo, bo_levels, pin_zero=True)) if np.any(bo != 0) else 0.0
    return CharNgramLM(model.order, tables, model.num_symbols, model.alphabet, model.unknown_logprob)


def build_from_texts(texts: Iterable[tuple[str, float]], order: int,
                     min_count: Optional[Sequence[float]] = None) -> CharNgramLM:
    counts = NgramCounts(order)
    counts.add_texts(texts)
    return build(counts, min_count)


def kept_per_order(counts: NgramCounts, order: int, min_count: Sequence[float]) -> list[int]:
    """Entries per order (1..order) that ``build`` keeps with these thresholds (table 1: the characters;
    table 2 includes every (BOS, c) bigram)."""
    masks = _kept_masks(counts, order, min_count)
    kept = [NUM_CHARS]
    for i, m in enumerate(masks):
        k = counts.get(i + 2)[0][m]
        extra = NUM_CHARS - int(np.sum((k >> BITS) == BOS)) if i == 0 else 0
        kept.append(int(m.sum()) + extra)
    return kept


def prune_to_size(counts: NgramCounts, max_size: float, size_of, growth: float = 1.0,
                  bigram_cap: float = 1.0) -> list[float]:
    """Like ``prune_thresholds``, with a size budget: the smallest threshold for which
    ``size_of(kept_per_order(...))`` is at most ``max_size``. The bigram threshold (theta / 4) is at most
    ``bigram_cap`` (a large alphabet's bigrams alone may exceed the budget at 1)."""
    order = counts.order

    def th(theta):
        return [0.0, 0.0, min(theta / 4.0, bigram_cap)] + [theta * growth ** (n - 3) for n in range(3, order + 1)]

    def size(theta):
        return size_of(kept_per_order(counts, order, th(theta)))

    lo, hi = -6.0, 12.0
    if size(10 ** lo) <= max_size:
        return th(10 ** lo)
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if size(10 ** mid) > max_size:
            lo = mid
        else:
            hi = mid
    return th(10 ** hi)


def bits_per_char_text(model: "CharNgramLM", text: str) -> float:
    """Bits per character of ``text`` (alphabet characters, chr(0) starting each text) under ``model``,
    each character predicted from the symbols before it since its text's start (BOS included)."""
    ids = ids_array(text).astype(np.int64)
    is_bos = ids == BOS
    start = np.maximum.accumulate(np.where(is_bos, np.arange(len(ids)), 0))
    pos = np.nonzero(~is_bos)[0]
    n_of = np.minimum(model.order, pos - start[pos] + 1)
    nats = 0.0
    for n in range(1, model.order + 1):
        p = pos[n_of == n]
        if len(p) == 0:
            continue
        keys = np.zeros(len(p), np.int64)
        for j in range(n - 1, -1, -1):
            keys = (keys << model.bits) | ids[p - j]
        nats += float(model.logprob_keys(n, keys).sum())
    return -nats / len(pos) / math.log(2)


def normalization(model: "CharNgramLM", text: str, samples: int = 3000, seed: int = 0) -> dict:
    """How far the distributions sum from 1 at ``samples`` random positions of ``text`` (as in
    ``bits_per_char_text``): mean, 99th percentile and largest |Σ_c P(c | context) − 1|, and the mean
    log2 Σ: what a normalised model's bits per character would add to ``bits_per_char_text``."""
    ids = ids_array(text).astype(np.int64)
    is_bos = ids == BOS
    start = np.maximum.accumulate(np.where(is_bos, np.arange(len(ids)), 0))
    pos = np.random.default_rng(seed).choice(np.nonzero(~is_bos)[0], size=samples)
    syms = np.arange(1, model.num_symbols, dtype=np.int64)
    sums = []
    for p in pos:
        n = min(model.order, p - start[p] + 1)
        k = 0
        for j in range(n - 1, 0, -1):
            k = (k << model.bits) | int(ids[p - j])
        sums.append(np.exp(model.logprob_keys(n, (k << model.bits) | syms)).sum())
    d = np.abs(np.asarray(sums) - 1)
    return {"mean": round(float(d.mean()), 5), "p99": round(float(np.quantile(d, 0.99)), 5),
            "max": round(float(d.max()), 5), "mean_log2_sum": round(float(np.mean(np.log2(sums))), 5)}


def prune_thresholds(counts: NgramCounts, max_entries: int, growth: float = 1.0) -> list[float]:
    """Smallest count threshold theta (for orders >= 3: theta * growth^(n-3); bigrams: theta / 4, at
    most 1) keeping at most ``max_entries`` entries; found by bisection on log(theta)."""
    order = counts.order

    def th(theta):
        return [0.0, 0.0, min(theta / 4.0, 1.0)] + [theta * growth ** (n - 3) for n in range(3, order + 1)]

    lo, hi = -6.0, 12.0
    if count_kept(counts, order, th(10 ** lo)) <= max_entries:
        return th(10 ** lo)
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        if count_kept(counts, order, th(10 ** mid)) > max_entries:
            lo = mid
        else:
            hi = mid
    return th(10 ** hi)


# --------------------------------------------------------------------------------------------
# English running text from a word-frequency list
# --------------------------------------------------------------------------------------------

CASES = ("lower", "Capitalized", "UPPER")


def word_variants(w: str, upper=str.upper, english_i: bool = True) -> tuple[str, str, str]:
    """(lower, Capitalized, UPPER) forms (``upper``: the language's uppercasing); with ``english_i``,
    'i' and its contractions are always capitalised."""
    cap = upper(w[:1]) + w[1:]
    low = cap if english_i and (w == "i" or w.startswith("i'") or w.startswith("i\u2019")) else w
    up = upper(w)
    if not covers(up):
        up = cap if covers(cap) else w
    if not covers(cap):
        cap = w
    return low, cap, up


class RunningTextModel:
    """A generative model of English running text built from word frequencies.

    Texts start at BOS and hold a geometric number of tokens (mean ``mean_tokens``). A token is a
    word drawn by frequency (``number_rate``: a number instead). Tokens are separated by a space,
    or by punctuation followed by a space (comma, period, ...), or a hyphen. The first word, and
    words after . ? !, are mostly Capitalized; others mostly lowercase; a few texts are ALL CAPS.
    A text may end with . ? or !.

    Counts are exact in expectation for every n-gram lying within one word and the character just
    before and just after it (the " word " windows), computed from the full frequency list; the
    n-grams that cross between tokens are counted on a sampled corpus of ``sample_tokens`` tokens.
    """

    SEPS = ((" ", 0.855), (", ", 0.06), (". ", 0.045), ("? ", 0.006), ("! ", 0.005), (": ", 0.004),
            ("; ", 0.002), (" - ", 0.003), ("-", 0.012), (" & ", 0.001), ("/", 0.002), (" (", 0.0025),
            (") ", 0.0025), (' "', 0.002), ('" ', 0.0015), ('," ', 0.0005), ('." ', 0.0005), ("... ", 0.001))
    ENDS = (("", 0.70), (".", 0.24), ("?", 0.03), ("!", 0.02), (")", 0.004), (":", 0.004), ('"', 0.002))
    SENTENCE_END = {". ", "? ", "! "}
    CASE_START = (0.37, 0.58, 0.05)       # lower, Capitalized, UPPER for a text's first word (latin lm: --case-start)
    CASE_SENTENCE = (0.12, 0.85, 0.03)    # after . ? !
    CASE_MID = (0.86, 0.12, 0.02)
    CAPS_TEXT_RATE = 0.04

    def __init__(self, words: Sequence[str], freqs: Sequence[float], mean_tokens: float = 4.0,
                 number_rate: float = 0.015, seed: int = 1234, case_start: Sequence[float] | None = None,
                 seps: Sequence[tuple[str, float]] | None = None, ends: Sequence[tuple[str, float]] | None = None,
                 upper=str.upper, english_i: bool = True, case_mid: Sequence[float] | None = None,
                 decimal_comma: bool = False, currency: str = "$"):
        """``seps`` / ``ends``: (string, weight) separators and text endings instead of the English ones.
        A word ending in an apostrophe (French "l'") is elided: the next word follows it directly.
        ``upper``: the language's uppercasing; ``english_i``: 'i' is always capitalised;
        ``case_mid``: (lower, Capitalized, UPPER) shares inside a sentence; ``decimal_comma``: numbers
        as 3,14 and 1.000; ``currency``: the sign of prices."""
        self.words = list(words)
        self.SEPS = tuple(seps) if seps is not None else self.SEPS
        self.ENDS = tuple(ends) if ends is not None else self.ENDS
        if case_mid is not None:
            self.CASE_MID = tuple(float(x) for x in case_mid)
        self.decimal_comma = decimal_comma
        self.currency = currency
        self.elided = np.asarray([w.endswith("'") or w.endswith("\u2019") for w in self.words], dtype=bool)
        if case_start is not None:  # (lower, Capitalized, UPPER) shares for a text's first word
            assert len(case_start) == 3 and min(case_start) >= 0 and sum(case_start) > 0, case_start
            self.CASE_START = tuple(float(x) for x in case_start)  # used relative to their sum
        f = np.asarray(freqs, dtype=np.float64)
        self.freqs = f / f.sum()
        self.variants = [word_variants(w, upper, english_i) for w in self.words]
        self.mean_tokens = mean_tokens
        self.number_rate = number_rate
        self.seed = seed

    # -- sampled corpus -----------------------------------------------------------------
    def _number(self, rng: np.random.Generator) -> str:
        r = rng.random()
        def digits(k, lead=True):
            s = "".join(str(d) for d in rng.integers(0, 10, size=k))
            return (str(rng.integers(1, 10)) + s[1:]) if (lead and k > 1) else s
        k = int(rng.choice([1, 2, 3, 4, 5, 6, 7], p=[0.28, 0.30, 0.15, 0.17, 0.05, 0.03, 0.02]))
        if k == 4 and rng.random() < 0.6:
            s = ("19" if rng.random() < 0.5 else "20") + digits(2, False)
        else:
            s = digits(k)
        if self.decimal_comma:
            if r < 0.05:
                return s + " " + self.currency
            if r < 0.18 and r >= 0.13:
                return digits(1) + "," + digits(int(rng.integers(1, 3)), False)
            if 0.18 <= r < 0.21:
                return digits(int(rng.integers(1, 4))) + "." + digits(3, False)
        if r < 0.05:
            return (self.currency + s) if len(self.currency) == 1 else (self.currency + " " + s)
        if r < 0.09:
            return s + "%"
        if r < 0.13:
            return f"{rng.integers(1, 13)}:{digits(2, False)}"
        if r < 0.18:
            return digits(1) + "." + digits(int(rng.integers(1, 3)), False)
        if r < 0.21:
            return digits(int(rng.integers(1, 4))) + "," + digits(3, False)
        if r < 0.24:
            return f"{digits(3)}-{digits(4, False)}"
        if r < 0.26:
            return "#" + s
        return s

    def sample_corpus(self, n_tokens: int, rng: np.random.Generator):
        """Returns (text with chr(0) as BOS, word starts, word ends, category counts dict, n_word_tokens)."""
        seps = [s for s, _ in self.SEPS]
        sep_p = np.asarray([p for _, p in self.SEPS]); sep_p /= sep_p.sum()
        ends = [s for s, _ in self.ENDS]
        end_p = np.asarray([p for _, p in self.ENDS]); end_p /= end_p.sum()
        widx = rng.choice(len(self.words), size=n_tokens, p=self.freqs)
        is_num = rng.random(n_tokens) < self.number_rate
        sep_i = rng.choice(len(seps), size=n_tokens, p=sep_p)
        end_i = rng.choice(len(ends), size=n_tokens, p=end_p)
        u_case = rng.random(n_tokens)
        stop = rng.random(n_tokens) < 1.0 / self.mean_tokens
        caps_text = rng.random(n_tokens) < self.CAPS_TEXT_RATE
        cum = {k: np.cumsum(v) for k, v in (("s", self.CASE_START), ("e", self.CASE_SENTENCE), ("m", self.CASE_MID))}
        pieces: list[str] = []
        starts: list[int] = []
        ends_pos: list[int] = []
        cats: dict[tuple[str, int, str], int] = {}
        pos = 0
        i = 0
        n_words = 0
        while i < n_tokens:
            pieces.append("\0")
            pos += 1
            prev = "\0"
            caps = bool(caps_text[i])
            last_word = None  # (L, case) of the word awaiting its right neighbour
            state = "s"
            while True:
                elide = False
                if is_num[i]:
                    tok = self._number(rng)
                else:
                    case = 2 if caps else int(np.searchsorted(cum[state], u_case[i] * cum[state][-1], side="right"))
                    case = min(case, 2)
                    tok = self.variants[widx[i]][case]
                    elide = bool(self.elided[widx[i]])
                    if not elide:  # an elided word ("l'") is counted on the sample only
                        starts.append(pos)
                        ends_pos.append(pos + len(tok))
                        last_word = (prev, case)
                        n_words += 1
                pieces.append(tok)
                pos += len(tok)
                prev = tok[-1]
                i += 1
                if elide and i < n_tokens:  # the next word follows directly, mostly in lowercase
                    state = "m"
                    continue
                if stop[i - 1] or i >= n_tokens:
                    e = ends[end_i[i - 1]]
                    if last_word is not None:
                        key = last_word + (e[:1] or "END",)
                        cats[key] = cats.get(key, 0) + 1
                    if e:
                        pieces.append(e)
                        pos += len(e)
                    break
                s = seps[sep_i[i - 1]]
                if last_word is not None:
                    key = last_word + (s[0],)
                    cats[key] = cats.get(key, 0) + 1
                    last_word = None
                pieces.append(s)
                pos += len(s)
                prev = s[-1]
                state = "e" if s in self.SENTENCE_END else "m"
        return "".join(pieces), np.asarray(starts), np.asarray(ends_pos), cats, n_words

    # -- counting -----------------------------------------------------------------------
    def counts(self, order: int, scale: float, sample_tokens: int = 2_000_000,
               chunk_tokens: int = 500_000, min_rel_weight: float = 1e-11) -> NgramCounts:
        """Expected n-gram counts of ``scale`` tokens of running text. Exactly counted word forms whose
        expected count is below ``min_rel_weight * scale`` are left out (they would be pruned anyway)."""
        rng = np.random.default_rng(self.seed)
        out = NgramCounts(order)
        cats: dict = {}
        n_words_total = 0
        done = 0
        per_token = scale / sample_tokens
        while done < sample_tokens:
            n = min(chunk_tokens, sample_tokens - done)
            text, st, en, cat, nw = self.sample_corpus(n, rng)
            for k, v in cat.items():
                cats[k] = cats.get(k, 0) + v
            n_words_total += nw
            done += n
            flat = ids_array(text).astype(np.int64)
            L = len(flat)
            inside = np.zeros(L + 1, np.int64)
            np.add.at(inside, st, 1)
            np.add.at(inside, en, -1)
            wordnum = np.cumsum(np.bincount(st, minlength=L + 1)[:L])
            inside = np.cumsum(inside)[:L] > 0
            seg = np.cumsum(flat == BOS)

            def nonlocal_windows(nn, idx, inside=inside, wordnum=wordnum, L=L):
                # a window is "local" (counted exactly elsewhere) if it lies within one word plus one
                # character on each side and contains at least one character of the word
                if nn == 1:
                    return ~inside[idx]
                if nn == 2:
                    return ~(inside[idx] | inside[idx + 1])
                a, b = idx + 1, idx + nn - 2
                return ~(inside[a] & inside[b] & (wordnum[a] == wordnum[b]))

            out.add_windows(flat, seg, np.full(seg[-1] + 1, per_token), ok=nonlocal_windows)
        # exact part: local windows of every word, weighted by frequency and by the empirical
        # distribution of (left char, case, right char) categories of the sampler
        total = sum(cats.values())
        word_mass = scale * n_words_total / sample_tokens
        self._add_local(out, order, {k: v / total for k, v in cats.items()}, word_mass, min_rel_weight * scale)
        return out

    def _add_local(self, out: NgramCounts, order: int, pi: dict, word_mass: float, min_weight: float):
        f = np.where(self.elided, 0.0, self.freqs)
        f = f / f.sum() * word_mass
        nw = len(self.words)
        p_case = np.zeros(3)
        p_lc: dict[tuple[str, int], float] = {}
        p_cr: dict[tuple[int, str], float] = {}
        for (l, c, r), p in pi.items():
            p_case[c] += p
            p_lc[(l, c)] = p_lc.get((l, c), 0.0) + p
            p_cr[(c, r)] = p_cr.get((c, r), 0.0) + p

        def add_strings(strings: list[str], weights: np.ndarray, mode: str):
            sel = np.nonzero(weights >= min_weight)[0]
            if len(sel) == 0:
                return
            strs = [strings[i] for i in sel]
            w = weights[sel]
            lens = np.asarray([len(s) for s in strs])
            flat = ids_array("".join(strs)).astype(np.int64)
            seg = np.repeat(np.arange(len(strs)), lens)
            starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
            ends = starts + lens
            if mode == "all":
                ok = None
            elif mode == "left":   # windows starting at the first char, at least 2 long
                ok = lambda n, idx: (idx == starts[seg[idx]]) & (n >= 2)
            elif mode == "right":  # windows ending at the last char, at least 2 long
                ok = lambda n, idx: (idx + n == ends[seg[np.minimum(idx, len(seg) - 1)]]) & (n >= 2)
            else:                  # the whole string only
                ok = lambda n, idx: (idx == starts[seg[idx]]) & (idx + n == ends[seg[np.minimum(idx, len(seg) - 1)]])
            out.add_windows(flat, seg, w, ok=ok)

        K = order - 1
        for c in range(3):
            forms = [v[c] for v in self.variants]
            # windows inside the word
            add_strings(forms, f * p_case[c], "all")
            # windows touching the left neighbour character only
            for (l, cc), p in p_lc.items():
                if cc != c:
                    continue
                add_strings([l + s[:K] for s in forms], f * p, "left")
            for (cc, r), p in p_cr.items():
                if cc != c or r == "END":
                    continue
                add_strings([s[-K:] + r for s in forms], f * p, "right")
            short = [i for i in range(nw) if len(forms[i]) + 2 <= order]
            for (l, cc, r), p in pi.items():
                if cc != c or r == "END":
                    continue
                add_strings([l + forms[i] + r for i in short], f[short] * p, "whole")
