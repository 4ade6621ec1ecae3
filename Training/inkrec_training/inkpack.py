"""A compact form of the UNIPEN JSON Lines files, for machines that the 148 MB of ``*.jsonl.gz`` cannot
travel to (a lent GPU machine takes 64 MiB with the checkout; ``python3 -m inkrec_training latin data``).

``{kind}.inkpack.xz`` holds, LZMA-compressed: the magic ``INKPACK1``, the byte length of a JSON header
(8 bytes, little endian), the header ``{"items": [[id, writer, label, quality, [points per stroke]], …]}``,
then every point's x and y as int32 differences from the point before it (across strokes and items; the
first from (0, 0)), all the x differences first, then all the y differences. Timestamps are dropped
(``data.load`` never reads them); empty strokes are dropped (``data.load`` skips them too). Coordinates
must be integers, as UNIPEN's are: ``write`` refuses any other, so that ``read`` gives back exactly what
the JSON Lines file held.
"""
from __future__ import annotations

import gzip
import json
import lzma
import struct
from typing import Iterable, Iterator

import numpy as np

MAGIC = b"INKPACK1"


def records_of_jsonl(path: str) -> Iterator[dict]:
    """The records of a UNIPEN ``*.jsonl.gz`` file (``id``, ``writer``, ``label``, ``quality``, ``strokes``)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def write(path: str, records: Iterable[dict]) -> int:
    """Writes ``records`` (as ``records_of_jsonl`` gives them) to ``path``; returns how many."""
    items, xs, ys = [], [], []
    for d in records:
        counts = []
        for s in d["strokes"]:
            if not s:
                continue
            a = np.asarray([p[:2] for p in s])
            if not np.issubdtype(a.dtype, np.integer):
                if not np.all(a == np.round(a)):
                    raise ValueError(f"{d['id']}: coordinates are not integers")
                a = a.astype(np.int64)
            counts.append(len(a))
            xs.append(a[:, 0])
            ys.append(a[:, 1])
        items.append([d["id"], d["writer"], d["label"], d.get("quality"), counts])
    x = np.concatenate(xs).astype(np.int64) if xs else np.zeros(0, np.int64)
    y = np.concatenate(ys).astype(np.int64) if ys else np.zeros(0, np.int64)
    dx, dy = np.diff(x, prepend=0), np.diff(y, prepend=0)
    if len(x) and max(np.abs(dx).max(), np.abs(dy).max()) >= 2**31:
        raise ValueError("a point moves by more than an int32 from the one before it")
    header = json.dumps({"items": items}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    with lzma.open(path, "wb", preset=6) as f:
        f.write(MAGIC + struct.pack("<Q", len(header)) + header)
        f.write(dx.astype("<i4").tobytes())
        f.write(dy.astype("<i4").tobytes())
    return len(items)


def read(path: str) -> Iterator[dict]:
    """The records of ``path``: ``id``, ``writer``, ``label``, ``quality``, ``strokes`` (a list of (n, 2)
    int64 arrays, without empty strokes)."""
    with lzma.open(path, "rb") as f:
        blob = f.read()
    if blob[:8] != MAGIC:
        raise ValueError(f"{path}: not an INKPACK1 file")
    (n,) = struct.unpack("<Q", blob[8:16])
    items = json.loads(blob[16: 16 + n].decode("utf-8"))["items"]
    body = np.frombuffer(blob, dtype="<i4", offset=16 + n)
    total = sum(sum(c) for *_, c in items)
    if len(body) != 2 * total:
        raise ValueError(f"{path}: {len(body)} coordinates for {total} points")
    xy = np.stack([np.cumsum(body[:total], dtype=np.int64), np.cumsum(body[total:], dtype=np.int64)], axis=1)
    at = 0
    for ident, writer, label, quality, counts in items:
        strokes = []
        for c in counts:
            strokes.append(xy[at: at + c])
            at += c
        yield {"id": ident, "writer": writer, "label": label, "quality": quality, "strokes": strokes}
