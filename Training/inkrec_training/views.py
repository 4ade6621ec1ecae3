"""N-best rescoring with stretched views of the ink: the reference of the engine's ``ViewRescorer``.

A model whose ``config.json`` has ``decoder.viewRescoring {"stretches": [f1, …], "weight": w, "candidates": K}``
reads each ink again with every x multiplied by each factor. For each of the K best candidates, with ℓ_v its CTC
log-likelihood under view v (v = 0 the ink as written), the score becomes ``score + w · (mean_v ℓ_v − ℓ_0)``, the
mean over the views under which the candidate has a path at all; then the candidates are sorted again.

``Tests/DigitalInkTests/Fixtures/ctc-likelihood.json`` (written by ``latin data fixtures`` from ``torch.ctc_loss``)
pins this module and ``Sources/DigitalInk/Decoding/CTCLikelihood.swift`` together.
"""
from __future__ import annotations

import numpy as np


def stretched(strokes, factor: float):
    """The strokes (lists of [x, y, …] points) with every x multiplied by ``factor``, other columns kept."""
    out = []
    for s in strokes:
        a = np.array(s, dtype=np.float64).reshape(-1, np.shape(s)[1] if len(s) else 2)
        a[:, 0] *= factor
        out.append(a)
    return out


def ctc_log_likelihood(log_probs: np.ndarray, labels, blank: int = 0) -> float:
    """log P(labels | frames) under CTC from (T, C) log-probabilities: the forward recursion over
    ``b l1 b l2 … lL b`` with each frame's α scaled to sum 1 (as the Swift code computes it); ``-inf`` where no
    path of T frames emits the labels or a label is the blank or outside the classes."""
    lp = np.asarray(log_probs, dtype=np.float64)
    t_count, c = lp.shape
    labels = list(labels)
    if t_count == 0:
        return 0.0 if not labels else float("-inf")
    if not (0 <= blank < c) or any(not (0 <= x < c) or x == blank for x in labels):
        return float("-inf")
    s_count = 2 * len(labels) + 1
    z = np.full(s_count, blank)
    z[1::2] = labels
    skip = np.zeros(s_count)
    for s in range(3, s_count, 2):
        if labels[s // 2] != labels[s // 2 - 1]:
            skip[s] = 1.0
    y = np.exp(lp[:, z])  # (T, S)
    alpha = np.zeros(s_count)
    alpha[0] = y[0, 0]
    if s_count > 1:
        alpha[1] = y[0, 1]
    log_scale = 0.0
    for t in range(t_count):
        if t > 0:
            prev = alpha
            alpha = prev.copy()
            alpha[1:] += prev[:-1]
            alpha[2:] += skip[2:] * prev[:-2]
            alpha *= y[t]
        total = alpha.sum()
        if not (total > 0 and np.isfinite(total)):
            return float("-inf")
        alpha /= total
        log_scale += np.log(total)
    end = alpha[-1] + (alpha[-2] if s_count > 1 else 0.0)
    return float(log_scale + np.log(end)) if end > 0 else float("-inf")


def adjustments(candidates, original: np.ndarray, views, weight: float, blank: int = 0) -> np.ndarray:
    """What each candidate's score moves by: ``weight · (mean_v ℓ_v − ℓ_0)``, the mean over ``original`` and those
    of ``views`` (each (T_v, C)) under which the candidate has a path; 0 where ``original`` has none."""
    out = np.zeros(len(candidates))
    for i, labels in enumerate(candidates):
        l0 = ctc_log_likelihood(original, labels, blank)
        if not np.isfinite(l0):
            continue
        lls = [l0] + [v for v in (ctc_log_likelihood(view, labels, blank) for view in views) if np.isfinite(v)]
        out[i] = weight * (np.mean(lls) - l0)
    return out


def rescored(texts, scores, candidates, original, views, weight: float, top: int = 10, blank: int = 0,
             margin: "float | None" = None, view_beams=None):
    """(texts, scores) sorted best first after the ``top`` best (``scores`` order) moved by ``adjustments``;
    equal scores by text, as the engine sorts them. With ``margin`` (``viewRescoring.margin``), candidates
    whose best leads the second by at least that much are only sorted (the engine then never reads the
    views); a single candidate is never moved.

    ``view_beams`` (``viewRescoring.beamWidth``): for each of ``views``, its own beam's hypotheses as (texts,
    scores, label sequences). The ``top`` best of each (its order; views in order) whose text is not yet a
    candidate join (one the original has below its ``top`` best is moved from there instead), scored
    ``score − ℓ_view + ℓ_original`` (what the language model and bonuses gave it in that
    beam, plus its likelihood under the original; left out where either likelihood is −inf), and are moved
    by ``adjustments`` with the ``top`` best."""
    order = sorted(range(len(texts)), key=lambda i: (-scores[i], texts[i]))
    texts = [texts[i] for i in order]
    scores = np.array([scores[i] for i in order], dtype=np.float64)
    cands = [candidates[i] for i in order]
    lead = scores[0] - scores[1] if len(texts) > 1 else np.inf
    if not (np.isfinite(lead) and lead < (np.inf if margin is None else margin)):
        return texts, scores
    k = min(top, len(texts))
    rescore = list(range(k))
    index = {}
    for i, t in enumerate(texts):
        index.setdefault(t, i)
    for view, beam in zip(views, view_beams or []):
        v_texts, v_scores, v_labels = beam
        v_order = sorted(range(len(v_texts)), key=lambda i: (-v_scores[i], v_texts[i]))[:top]
        for i in v_order:
            if v_texts[i] in index:  # kept by the original's beam (below its best `top`: rescored from there)
                if index[v_texts[i]] not in rescore:
                    rescore.append(index[v_texts[i]])
                continue
            lv, l0 = ctc_log_likelihood(view, v_labels[i], blank), ctc_log_likelihood(original, v_labels[i], blank)
            if not (np.isfinite(lv) and np.isfinite(l0) and np.isfinite(v_scores[i])):
                continue
            index[v_texts[i]] = len(texts)
            rescore.append(len(texts))
            texts.append(v_texts[i])
            cands.append(v_labels[i])
            scores = np.append(scores, v_scores[i] - lv + l0)
    scores[rescore] += adjustments([cands[i] for i in rescore], original, views, weight, blank)
    final = sorted(range(len(texts)), key=lambda i: (-scores[i], texts[i]))
    return [texts[i] for i in final], scores[final]
