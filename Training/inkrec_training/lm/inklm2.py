"""INKLM2: the compact character LM file with its own alphabet (``Training/LM_FORMAT.md``).

::

    magic        8 bytes  b"INKLM2\\0\\0"
    order N      UInt32   1..7
    symbols S    UInt32   2..65535 (0 = BOS)
    unknownLogP  Float32  log-probability of a symbol the LM does not know (finite, <= 0)
    alphabet     S-1 times: UInt8 byte length L (>= 1), L bytes of UTF-8 (symbols 1..S-1, distinct)
    N tables, n = 1..N:
        count_n   UInt32   (n = 1: exactly S, the symbols 0..S-1 in order, BOS included)
        lpWidth   UInt8    1 or 2: bytes per log-probability code
        boWidth   UInt8    0, 1 or 2: bytes per backoff code (0: every backoff is 0)
        reserved  UInt16   0
        lp codebook: UInt32 K (1..256^lpWidth), K Float32 (finite, <= 1e-4)
        bo codebook (boWidth > 0): UInt32 K (1..256^boWidth), K Float32 (finite)
        n >= 2: count_{n-1} LEB128 child counts (entries of table n-1 in order; sum = count_n)
        n >= 2: count_n symbols, 1 byte each if S <= 256 else 2 (UInt16): within one parent ascending, >= 1
        count_n log-probability codes (lpWidth bytes)
        count_n backoff codes (boWidth bytes)

Table n's entries are the children of table n-1's entries, parent by parent: the trie of the n-grams.
"""
from __future__ import annotations

import struct

import numpy as np

from inkrec_training.lm import ngram as _lm

MAGIC = b"INKLM2\0\0"
MAX_SYMBOLS = 65_535


def _leb128(values: np.ndarray) -> bytes:
    v = np.asarray(values, dtype=np.int64)
    if len(v) and (v.min() < 0 or v.max() >= 1 << 21):
        raise ValueError("child counts must lie in 0..2^21-1")
    b0 = (v & 0x7F) | ((v >= 1 << 7) << 7)
    b1 = ((v >> 7) & 0x7F) | ((v >= 1 << 14) << 7)
    b2 = v >> 14
    stacked = np.stack([b0, b1, b2], axis=1).astype(np.uint8)
    keep = np.stack([np.ones(len(v), bool), v >= 1 << 7, v >= 1 << 14], axis=1)
    return stacked[keep].tobytes()


def _codes(values: np.ndarray, book: np.ndarray, width: int) -> bytes:
    pos = np.searchsorted(book, values.astype(np.float32))
    pos = np.minimum(pos, len(book) - 1)
    if not np.all(book[pos] == values.astype(np.float32)):
        raise ValueError("a value is not in its codebook")
    return pos.astype("<u1" if width == 1 else "<u2").tobytes()


def _book(values: np.ndarray, what: str) -> tuple[np.ndarray, int]:
    book = np.unique(np.asarray(values, dtype=np.float32))
    if len(book) > 65536:
        raise ValueError(f"{len(book)} distinct {what} values: quantize the model first (lm.quantize)")
    return book, (1 if len(book) <= 256 else 2)


def to_bytes(model: "_lm.CharNgramLM") -> bytes:
    """The INKLM2 bytes of ``model`` (its ``alphabet`` must be set). Values are stored exactly, each
    order's distinct values forming its codebooks: quantize first (``lm.quantize``) for 1-byte codes."""
    if model.alphabet is None:
        raise ValueError("an INKLM2 model needs an alphabet")
    S = model.num_symbols
    if len(model.alphabet) != S - 1 or not 2 <= S <= MAX_SYMBOLS or not 1 <= model.order <= 7:
        raise ValueError("alphabet, symbol count or order out of range")
    bits = model.bits
    if model.order * bits > 64:
        raise ValueError(f"order {model.order} with {S} symbols needs more than 64 key bits")
    unknown = float(model.unknown_logprob)
    out = [MAGIC, struct.pack("<IIf", model.order, S, unknown)]
    for text in model.alphabet:
        b = text.encode("utf-8")
        if not 1 <= len(b) <= 255:
            raise ValueError(f"symbol {text!r} is empty or longer than 255 bytes")
        out.append(struct.pack("<B", len(b)) + b)
    # table 1 over all S symbols: BOS (key 0) first, if the model has no entry of its own for it
    t1 = model.tables[0]
    if len(t1) == S - 1:
        bos = np.zeros(1, dtype=_lm.ENTRY)
        bos["logProb"] = unknown
        t1 = np.concatenate([bos, t1])
    if t1["key"].tolist() != list(range(S)):
        raise ValueError("table 1 must hold every symbol")
    tables = [t1] + list(model.tables[1:])
    sym_dtype = "<u1" if S <= 256 else "<u2"
    for n, t in enumerate(tables, start=1):
        lp_book, lp_w = _book(t["logProb"], "log-probability")
        bo = t["logBackoff"]
        bo_book, bo_w = _book(bo, "backoff") if np.any(bo != 0) else (np.zeros(0, np.float32), 0)
        out.append(struct.pack("<IBBH", len(t), lp_w, bo_w, 0))
        out.append(struct.pack("<I", len(lp_book)) + lp_book.astype("<f4").tobytes())
        if bo_w:
            out.append(struct.pack("<I", len(bo_book)) + bo_book.astype("<f4").tobytes())
        if n >= 2:
            keys = t["key"].astype(np.uint64)
            parents = tables[n - 2]["key"].astype(np.uint64)
            pk = keys >> np.uint64(bits)
            pos = np.searchsorted(parents, pk)
            if not np.all(parents[np.minimum(pos, len(parents) - 1)] == pk):
                raise ValueError(f"order {n}: an n-gram whose context is not stored")
            out.append(_leb128(np.bincount(pos, minlength=len(parents))))
            out.append((keys & np.uint64((1 << bits) - 1)).astype(sym_dtype).tobytes())
        out.append(_codes(t["logProb"], lp_book, lp_w))
        if bo_w:
            out.append(_codes(bo, bo_book, bo_w))
    return b"".join(out)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ValueError(f"truncated at byte {self.pos}")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def unpack(self, fmt: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))

    def array(self, count: int, dtype: str) -> np.ndarray:
        return np.frombuffer(self.take(count * np.dtype(dtype).itemsize), dtype=dtype)

    def varints(self, count: int) -> np.ndarray:
        out = np.zeros(count, np.int64)
        for i in range(count):
            v = 0
            for j in range(4):
                if j == 3:
                    raise ValueError("a child count longer than 3 bytes")
                b = self.take(1)[0]
                v |= (b & 0x7F) << (7 * j)
                if not b & 0x80:
                    break
            out[i] = v
        return out


def from_bytes(data: bytes) -> "_lm.CharNgramLM":
    """Read INKLM2 bytes, with the checks the Swift reader makes (ValueError on a malformed file)."""
    r = _Reader(data)
    if r.take(8) != MAGIC:
        raise ValueError("not an INKLM2 file")
    order, S, unknown = r.unpack("<IIf")
    if not 1 <= order <= 7 or not 2 <= S <= MAX_SYMBOLS:
        raise ValueError("order or symbol count out of range")
    bits = _lm.key_bits(S)
    if order * bits > 64:
        raise ValueError("too many key bits")
    if not np.isfinite(unknown) or unknown > 0:
        raise ValueError("bad unknown-symbol log-probability")
    alphabet = []
    for _ in range(S - 1):
        (length,) = r.unpack("<B")
        alphabet.append(r.take(length).decode("utf-8"))
        if length == 0:
            raise ValueError("empty symbol")
    if len(set(alphabet)) != len(alphabet):
        raise ValueError("a symbol appears twice")
    tables = []
    for n in range(1, order + 1):
        count, lp_w, bo_w, reserved = r.unpack("<IBBH")
        if lp_w not in (1, 2) or bo_w not in (0, 1, 2) or reserved or (n == 1 and count != S):
            raise ValueError(f"order {n}: bad header")
        books = []
        for w in (lp_w, bo_w):
            if w == 0:
                books.append(np.zeros(1, np.float32))
                continue
            (k,) = r.unpack("<I")
            if not 1 <= k <= 256 ** w:
                raise ValueError(f"order {n}: codebook size {k}")
            b = r.array(k, "<f4")
            if not np.all(np.isfinite(b)):
                raise ValueError(f"order {n}: non-finite codebook value")
            books.append(b)
        if np.any(books[0] > 1e-4):
            raise ValueError(f"order {n}: positive log-probability")
        if n == 1:
            keys = np.arange(S, dtype=np.uint64)
        else:
            parents = tables[-1]["key"]
            kids = r.varints(len(parents))
            if kids.sum() != count or np.any(kids >= S):
                raise ValueError(f"order {n}: child counts do not match")
            syms = r.array(count, "<u1" if S <= 256 else "<u2").astype(np.int64)
            group = np.repeat(np.arange(len(parents)), kids)
            if np.any(syms < 1) or np.any(syms >= S) or np.any((np.diff(syms) <= 0) & (np.diff(group) == 0)):
                raise ValueError(f"order {n}: symbols out of range or not ascending")
            keys = (parents[group] << np.uint64(bits)) | syms.astype(np.uint64)
        t = np.zeros(count, dtype=_lm.ENTRY)
        t["key"] = keys
        for field, w, book in (("logProb", lp_w, books[0]), ("logBackoff", bo_w, books[1])):
            if w == 0:
                continue
            codes = r.array(count, "<u1" if w == 1 else "<u2").astype(np.int64)
            if len(codes) and codes.max() >= len(book):
                raise ValueError(f"order {n}: a code outside its codebook")
            t[field] = book[codes]
        tables.append(t)
    if r.pos != len(data):
        raise ValueError(f"{len(data) - r.pos} unexpected trailing bytes")
    return _lm.CharNgramLM(order, tables, S, alphabet=alphabet, unknown_logprob=float(unknown))


def file_size(model: "_lm.CharNgramLM") -> int:
    return len(to_bytes(model))


def estimate_size(entries: list[int], num_symbols: int, alphabet_bytes: int, lp_width: int = 1,
                  bo_width: int = 1) -> int:
    """An upper-bound estimate of the INKLM2 size of a model with ``entries`` per order (table 1 without
    BOS), its values quantized to ``lp_width`` / ``bo_width``-byte codes: every child count taken as
    one byte plus one byte for each parent of table 1 (they may have more than 127 children)."""
    order = len(entries)
    sym = 1 if num_symbols <= 256 else 2
    size = 24 + alphabet_bytes + num_symbols * (2 + 2) + 2 * 12 + 2 * 4 * 65536 * 0
    for n in range(1, order + 1):
        size += 12 + 4 * 256 ** lp_width + (4 * 256 ** bo_width if n < order else 0)
        if n >= 2:
            parents = entries[n - 2] + (1 if n == 2 else 0)
            size += parents * (2 if n == 2 else 1) + entries[n - 1] * (sym + lp_width + (bo_width if n < order else 0))
    return size


def fit_to_size(counts: "_lm.NgramCounts", max_bytes: int, growth: float, unigram_floor: float,
                lp_bits: int = 8, bo_bits: int = 8, unknown_logprob: "float | None" = None, attempts: int = 6,
                bigram_cap: float = 1.0):
    """Prune ``counts`` (the current ``lm`` alphabet's) until the quantized INKLM2 file fits ``max_bytes``:
    thresholds from ``lm.prune_to_size`` on the ``estimate_size`` budget, the model built, quantized to
    ``lp_bits`` / ``bo_bits``-bit codes and written, and the budget shrunk while the file is too large.
    ``unknown_logprob`` replaces the built model's (its smallest unigram log-probability); ``bigram_cap``:
    see ``lm.prune_to_size``.
    Returns (thresholds, pruned float model, INKLM2 bytes)."""
    alphabet_bytes = sum(1 + len(c.encode()) for c in _lm.ALPHABET)
    lp_w, bo_w = lp_bits // 8, bo_bits // 8

    def size_of(kept):
        return estimate_size(kept, _lm.NUM_SYMBOLS, alphabet_bytes, lp_w, bo_w)

    budget = float(max_bytes)
    for _ in range(attempts):
        th = _lm.prune_to_size(counts, budget, size_of, growth, bigram_cap)
        pruned = _lm.build(counts, th, unigram_floor=unigram_floor)
        if unknown_logprob is not None:
            pruned.unknown_logprob = float(np.float32(unknown_logprob))
        blob = to_bytes(_lm.quantize(pruned, 2 ** lp_bits, 2 ** bo_bits))
        if len(blob) <= max_bytes:
            return th, pruned, blob
        budget *= max_bytes / len(blob) * 0.998
    raise ValueError(f"could not fit {max_bytes} bytes")


class BoundLM:
    """An INKLM2 model scoring a network's classes, as the Swift engine does after
    ``CharacterNgramModel.bound(toLabels:)``: class i (1..len(labels)) is the symbol whose text is
    ``labels[i-1]``; a class the alphabet lacks scores ``unknown_logprob`` and empties the context
    (no BOS either), so that what follows backs off to the characters after it."""

    def __init__(self, model: "_lm.CharNgramLM", labels):
        index = {t: i + 1 for i, t in enumerate(model.alphabet)}
        self.model = model
        self.symbol = [-1] + [index.get(t, -1) for t in labels]

    def context(self, classes, bos: bool = True) -> list[int]:
        ctx = [_lm.BOS] if bos else []
        for c in classes:
            s = self.symbol[c] if 0 < c < len(self.symbol) else -1
            ctx = [] if s < 0 else ctx + [s]
        return ctx

    def logprob(self, ctx: list[int], cls: int) -> float:
        s = self.symbol[cls] if 0 < cls < len(self.symbol) else -1
        return self.model.unknown_logprob if s < 0 else self.model.logprob(ctx, s)

    def score(self, classes, pre_classes) -> float:
        """Sum over ``classes`` from the context [BOS] + ``pre_classes``."""
        ctx, total = self.context(pre_classes), 0.0
        for c in classes:
            total += self.logprob(ctx, c)
            s = self.symbol[c] if 0 < c < len(self.symbol) else -1
            ctx = [] if s < 0 else (ctx + [s])[-32:]
        return total
