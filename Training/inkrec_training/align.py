"""Letters located in real words: CTC forced alignment of a word's label with a trained network.

``letter_boxes(model, items)`` runs the network (PyTorch, the exported en-US weights) over UNIPEN
words and aligns each label with the Viterbi path of CTC (blank, label, blank, …). A letter owns the
feature points from the midpoint between the previous letter's last frame and its own first frame to
the midpoint between its last frame and the next letter's first (an output frame covers the two
feature points it stacks), and its box is the extent of those points (feature points are the ink's
resampled points, so the box is in the ink's own coordinates). Words whose greedy reading is more than
one edit away from their label are skipped: their alignment is not trusted.

The boxes place diacritics (``accents.py``); the composed ink keeps the real word's strokes.
"""
from __future__ import annotations

import numpy as np
import torch

from .features import ink_features, line_height, resample_stroke, STEPS_PER_LINE_HEIGHT
from .metrics import edit_distance, greedy_decode
from . import charset


def resampled_points(strokes: list) -> tuple[np.ndarray, np.ndarray]:
    """The feature points of ``ink_features`` (no writing area) and the stroke index of each."""
    allp = np.concatenate(strokes, axis=0)
    widths = [float(a[:, 0].max() - a[:, 0].min()) for a in strokes]
    h = line_height(allp[:, 0], allp[:, 1], None, widths)
    s = h / STEPS_PER_LINE_HEIGHT
    pts, owner = [], []
    for k, a in enumerate(strokes):
        r = resample_stroke(a, s)
        pts.append(r)
        owner.append(np.full(len(r), k))
    return np.concatenate(pts), np.concatenate(owner)


def viterbi(lp: np.ndarray, target: list[int], blank: int = 0) -> list[tuple[int, int]] | None:
    """First and last frame of every target symbol on the best CTC path, or None if none exists."""
    T, L = lp.shape[0], len(target)
    S = 2 * L + 1
    ext = np.full(S, blank)
    ext[1::2] = target
    neg = -1e30
    score = np.full(S, neg)
    score[0] = lp[0, blank]
    if S > 1:
        score[1] = lp[0, ext[1]]
    back = np.zeros((T, S), dtype=np.int8)
    skip_ok = np.zeros(S, dtype=bool)
    skip_ok[3::2] = ext[3::2] != ext[1:-2:2]
    for t in range(1, T):
        s1 = np.concatenate([[neg], score[:-1]])
        s2 = np.concatenate([[neg, neg], score[:-2]])
        s2 = np.where(skip_ok, s2, neg)
        stack = np.stack([score, s1, s2])
        arg = stack.argmax(axis=0)
        back[t] = arg
        score = stack[arg, np.arange(S)] + lp[t, ext]
    end = S - 1 if S == 1 or score[S - 1] >= score[S - 2] else S - 2
    if score[end] <= neg / 2:
        return None
    spans: dict[int, list[int]] = {}
    s = end
    for t in range(T - 1, -1, -1):
        if s % 2 == 1:
            spans.setdefault(s // 2, []).append(t)
        s -= int(back[t, s]) if t > 0 else 0
    if len(spans) != L:
        return None
    return [(min(spans[i]), max(spans[i])) for i in range(L)]


def letter_boxes(model, items, batch: int = 64, max_edits: int = 1):
    """{(item id, label): (boxes (L, 4) float32 of x0, x1, top, bottom; last stroke index of each letter (L,))}."""
    out = {}
    model.eval()
    with torch.no_grad():
        for i in range(0, len(items), batch):
            chunk = items[i: i + batch]
            feats = [ink_features(it.strokes) for it in chunk]
            lengths = torch.tensor([len(f) for f in feats])
            x = torch.zeros(len(chunk), int(lengths.max()), 4)
            for j, f in enumerate(feats):
                x[j, : len(f)] = torch.from_numpy(f)
            lp, out_len = model(x, lengths)
            for j, it in enumerate(chunk):
                lpj = lp[j, : out_len[j]].numpy()
                if edit_distance(greedy_decode(lpj), it.label) > max_edits:
                    continue
                spans = viterbi(lpj, charset.encode(it.label))
                if spans is None:
                    continue
                pts, owner = resampled_points(it.strokes)
                n = len(pts)
                bounds = [0]
                for k in range(1, len(spans)):
                    bounds.append((spans[k - 1][1] + spans[k][0] + 1) // 2)
                bounds.append(out_len[j].item())
                boxes = np.zeros((len(spans), 4), dtype=np.float32)
                last = np.zeros(len(spans), dtype=np.int32)
                ok = True
                for k in range(len(spans)):
                    a, b = 2 * bounds[k], min(2 * bounds[k + 1], n)
                    if b <= a:
                        ok = False
                        break
                    p = pts[a:b]
                    boxes[k] = (p[:, 0].min(), p[:, 0].max(), p[:, 1].min(), p[:, 1].max())
                    last[k] = owner[b - 1]
                if ok:  # keyed by id and label: UNIPEN reuses some ids for other items
                    out[(it.id, it.label)] = (boxes, last)
    return out


def save_boxes(boxes: dict, path: str) -> None:
    """``letter_boxes``' answer to ``path`` (LZMA-compressed pickle, written whole or not at all)."""
    import lzma
    import os
    import pickle
    with lzma.open(path + ".incomplete", "wb") as f:
        pickle.dump({k: (np.asarray(b, np.float32), np.asarray(last, np.int32)) for k, (b, last) in boxes.items()}, f,
                    protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(path + ".incomplete", path)


def load_boxes(path: str) -> dict:
    """What ``save_boxes`` wrote."""
    import lzma
    import pickle
    with lzma.open(path, "rb") as f:
        return pickle.load(f)


def load_reference_model(path: str):
    """The network of an exported model as an ``InkRecNet`` in float32 (``model.load_exported``): ``path`` is a
    model directory (``Models/en-US``: the weights its ``config.json`` names, since 2.0.0 the shared Latin
    network's) or a weights file read with the ``config.json`` beside it."""
    import os
    from .model import load_exported
    if os.path.isdir(path):
        return load_exported(path)[0]
    return load_exported(os.path.dirname(path), path)[0]
