"""inkrec_training.views, the reference of the engine's view rescoring: its CTC log-likelihood is the sum over
alignments (brute force) and torch.ctc_loss's negative, and it reproduces the golden fixture that the Swift
tests (ViewRescoringTests) check too; the rescoring keeps the order where the views agree."""
import itertools
import json
import math
import os

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import views
from inkrec_training.features import ink_features  # noqa: E402

FIXTURE = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures", "ctc-likelihood.json")


def collapse(path):
    out, prev = [], None
    for s in path:
        if s != prev and s != 0:
            out.append(s)
        prev = s
    return out


def test_log_likelihood_is_the_sum_over_alignments():
    rng = np.random.default_rng(3)
    t, c = 5, 4
    lp = torch.log_softmax(torch.tensor(rng.normal(size=(t, c))), -1).numpy()
    for cand in [[], [1], [1, 1], [2, 3], [3, 2, 1], [1, 1, 1], [1, 2, 3, 1, 2, 3]]:  # the last two cannot fit
        total = sum(math.exp(sum(lp[i, s] for i, s in enumerate(path)))
                    for path in itertools.product(range(c), repeat=t) if collapse(path) == cand)
        got = views.ctc_log_likelihood(lp, cand)
        if total == 0.0:
            assert got == -math.inf, cand
        else:
            assert abs(got - math.log(total)) < 1e-9, (cand, got, math.log(total))


def test_log_likelihood_is_minus_torch_ctc_loss_on_long_outputs():
    rng = np.random.default_rng(5)
    for t, c, n in [(200, 80, 40), (400, 30, 150), (50, 10, 25)]:
        lp = torch.log_softmax(torch.tensor(rng.normal(0, 4, size=(t, c))), -1)
        labels = rng.integers(1, c, size=n).tolist()
        loss = F.ctc_loss(lp[:, None, :], torch.tensor([labels]), torch.tensor([t]), torch.tensor([n]),
                          blank=0, reduction="none")
        assert abs(views.ctc_log_likelihood(lp.numpy(), labels) + float(loss[0])) < 1e-6 * max(1.0, float(loss[0]))


def test_bad_labels_and_empty_outputs():
    lp = np.log(np.full((3, 4), 0.25))
    assert views.ctc_log_likelihood(lp, [0]) == -math.inf  # the blank is not a label
    assert views.ctc_log_likelihood(lp, [4]) == -math.inf  # outside the classes
    assert views.ctc_log_likelihood(np.zeros((0, 4)), []) == 0.0
    assert views.ctc_log_likelihood(np.zeros((0, 4)), [1]) == -math.inf
    assert abs(views.ctc_log_likelihood(lp, []) - 3 * math.log(0.25)) < 1e-12


def test_golden_fixture():
    with open(FIXTURE) as f:
        golden = json.load(f)
    n = 0
    for out in golden["outputs"]:
        lp = np.asarray(out["logProbs"], dtype=np.float32)
        for case in out["cases"]:
            got = views.ctc_log_likelihood(lp, case["labels"])
            want = case["logLikelihood"]
            if want is None:
                assert got == -math.inf, (out["name"], case["labels"])
            else:
                assert abs(got - want) < 1e-6 * max(1.0, abs(want)), (out["name"], case["labels"], got, want)
                n += 1
    assert n >= 20
    r = golden["rescoring"]
    as32 = lambda m: np.asarray(m, dtype=np.float32)  # noqa: E731
    got = views.adjustments(r["candidates"], as32(r["original"]), [as32(v) for v in r["views"]], r["weight"])
    np.testing.assert_allclose(got, r["adjustments"], atol=1e-9)
    assert r["adjustments"][-1] == 0.0  # a candidate holding the blank has no path: unchanged
    # one candidate has no path in the shorter view: its mean is over the two others
    assert any(views.ctc_log_likelihood(as32(r["views"][0]), c) == -math.inf for c in r["candidates"][:-1])
    ink = [[[p["x"], p["y"]] for p in s["points"]] for s in golden["stretch"]["ink"]["strokes"]]
    for v in golden["stretch"]["views"]:
        np.testing.assert_allclose(ink_features(views.stretched(ink, v["factor"]), scheme="resampled-v2"),
                                   np.asarray(v["features"]), atol=1e-5)


def test_rescoring_keeps_the_order_where_views_agree_and_moves_it_where_they_do_not():
    rng = np.random.default_rng(9)
    original = torch.log_softmax(torch.tensor(rng.normal(0, 2, size=(12, 5))), -1).numpy()
    cands = [[1, 2], [3], [2, 4, 1]]
    texts, scores = ["ab", "c", "bda"], [-1.0, -2.0, -3.0]
    same_texts, same_scores = views.rescored(texts, scores, cands, original, [original, original], 1.0)
    assert same_texts == texts and np.allclose(same_scores, scores)
    # a view in which only "c" (class 3) is likely: "c" overtakes "ab" at weight 1, not at weight 0
    view = np.log(np.full((12, 5), 1e-4))
    view[:, 0], view[5, 3] = math.log(1 - 4e-4), math.log(1 - 4e-4)
    moved, _ = views.rescored(texts, scores, cands, original, [view, view], 1.0)
    assert moved[0] == "c"
    assert views.rescored(texts, scores, cands, original, [view, view], 0.0)[0] == texts
    # only the best `top` move
    _, kept = views.rescored(texts, scores, cands, original, [view, view], 1.0, top=1)
    assert sorted(kept)[:2] == [-3.0, -2.0]
    # the margin: "ab" leads "c" by 1, so a margin of 1 or less keeps the order and the scores, more moves it
    for margin, first in [(0.5, "ab"), (1.0, "ab"), (1.5, "c"), (None, "c")]:
        got, got_scores = views.rescored(texts, scores, cands, original, [view, view], 1.0, margin=margin)
        assert got[0] == first, margin
        if first == "ab":
            assert got == texts and np.allclose(got_scores, scores)
    # a view's own beam: "c" is not among the original's candidates; the view proposes it with a language-model
    # part of -0.5 (its beam score less its likelihood there), so it joins at -0.5 + its likelihood under the
    # original, and moves by the rule with the others; a text already present ("ab") does not join twice
    # (an original that finds every class equally likely, so that "c" is possible there; each score its
    # likelihood plus a language-model part, as a beam's scores are)
    flat = np.log(np.full((12, 5), 0.2))
    lv = views.ctc_log_likelihood(view, [3])
    beam = [views.ctc_log_likelihood(flat, [1, 2]) - 1.0, views.ctc_log_likelihood(flat, [2, 4, 1]) - 3.0]
    got, got_scores = views.rescored(["ab", "bda"], beam, [[1, 2], [2, 4, 1]], flat, [view, view], 1.0,
                                     view_beams=[(["c", "ab"], [lv - 0.5, -7.0], [[3], [1, 2]]), ([], [], [])])
    assert got[0] == "c" and sorted(got) == ["ab", "bda", "c"]
    l0 = views.ctc_log_likelihood(flat, [3])
    want_c = -0.5 + l0 + views.adjustments([[3]], flat, [view, view], 1.0)[0]
    assert np.isclose(got_scores[0], want_c)
    # a proposal that the original kept below its best `top` is moved from there, not added again
    below, below_scores = views.rescored(["ab", "bda", "c"], beam + [views.ctc_log_likelihood(flat, [3]) - 9.0],
                                         [[1, 2], [2, 4, 1], [3]], flat, [view, view], 1.0, top=2,
                                         view_beams=[(["c"], [lv - 0.5], [[3]])])
    assert sorted(below) == ["ab", "bda", "c"]
    c_moved = views.ctc_log_likelihood(flat, [3]) - 9.0 + views.adjustments([[3]], flat, [view, view], 1.0)[0]
    assert np.isclose(below_scores[below.index("c")], c_moved)
    # without view beams, nothing joins
    assert sorted(views.rescored(["ab", "bda"], beam, [[1, 2], [2, 4, 1]], flat, [view, view], 1.0)[0]) == ["ab", "bda"]
    # a single candidate is never moved
    one, one_score = views.rescored(texts[:1], scores[:1], cands[:1], original, [view, view], 1.0)
    assert one == ["ab"] and np.allclose(one_score, [-1.0])


def test_stretched_scales_x_only():
    strokes = [np.array([[1.0, 2.0, 0.5], [3.0, 4.0, 0.7]]), np.array([[-2.0, 1.0, 0.9]])]
    out = views.stretched(strokes, 1.5)
    assert np.allclose(out[0], [[1.5, 2.0, 0.5], [4.5, 4.0, 0.7]])
    assert np.allclose(out[1], [[-3.0, 1.0, 0.9]])
    assert np.allclose(strokes[0], [[1.0, 2.0, 0.5], [3.0, 4.0, 0.7]])  # the input is not changed
