"""compare_english: the CTC log-likelihood of a candidate equals the sum over its alignments (brute force on a
tiny output), the rescoring rule keeps the engine's order where the views agree, and a view stretches x only."""
import itertools
import math
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from compare_english import ctc_log_likelihoods, rescored, stretched  # noqa: E402


def collapse(path):
    out, prev = [], None
    for s in path:
        if s != prev and s != 0:
            out.append(s)
        prev = s
    return out


def test_ctc_log_likelihood_is_the_sum_over_alignments():
    torch.manual_seed(3)
    t, c = 5, 4
    lp = torch.log_softmax(torch.randn(t, c, dtype=torch.float64), dim=-1)
    candidates = [[1], [1, 1], [2, 3], [3, 2, 1], [1, 2, 3, 1, 2, 3]]  # the last cannot fit 5 frames
    got = ctc_log_likelihoods(lp.float(), candidates)
    for cand, value in zip(candidates, got):
        total = 0.0
        for path in itertools.product(range(c), repeat=t):
            if collapse(path) == cand:
                total += math.exp(sum(lp[i, s].item() for i, s in enumerate(path)))
        if total == 0.0:
            assert value == -math.inf
        else:
            assert abs(value - math.log(total)) < 1e-4, (cand, value, math.log(total))


def test_rescoring_keeps_the_order_where_views_agree_and_moves_it_where_they_do_not():
    scores = np.array([-1.0, -2.0, -3.0])
    same = np.array([[-5.0, -6.0, -7.0]] * 3)
    assert np.allclose(rescored(scores, same, 1.0), scores)
    # the views find the second candidate far likelier than the original did: it overtakes the first
    views = np.array([[-5.0, -6.0, -7.0], [-9.0, -3.0, -7.0], [-9.0, -3.0, -7.0]])
    new = rescored(scores, views, 1.0)
    assert int(np.argmax(new)) == 1
    assert int(np.argmax(rescored(scores, views, 0.0))) == 0
    # a candidate no view can align falls to the bottom instead of producing nan
    worst = rescored(scores, np.array([[-5.0, -6.0, -np.inf], [-5.0, -6.0, -np.inf]]), 1.0)
    assert np.all(np.isfinite(worst)) and int(np.argmin(worst)) == 2


def test_stretched_scales_x_only():
    strokes = [np.array([[1.0, 2.0, 0.5], [3.0, 4.0, 0.7]]), np.array([[-2.0, 1.0, 0.9]])]
    out = stretched(strokes, 1.5)
    assert np.allclose(out[0], [[1.5, 2.0, 0.5], [4.5, 4.0, 0.7]])
    assert np.allclose(out[1], [[-3.0, 1.0, 0.9]])
    assert np.allclose(strokes[0], [[1.0, 2.0, 0.5], [3.0, 4.0, 0.7]])  # the input is not changed
