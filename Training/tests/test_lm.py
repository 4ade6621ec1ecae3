"""The character LM: lm.py must reproduce the golden fixture the Swift reader is tested against, and
every context's distribution over the 165 characters must sum to 1."""
import json
import math
import os
import struct

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import read_file as read_lm_file, read_bytes as read_lm_bytes

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")
REAL_LM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Models", "en-US", "lm.bin")  # the shipped one


@pytest.fixture(scope="module")
def golden():
    with open(os.path.join(FIXTURES, "lm-golden.json"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def small(golden):
    return read_lm_file(os.path.join(FIXTURES, golden["file"]))


def total_probability(model, context):
    return sum(math.exp(model.logprob(context, c)) for c in range(1, lm.NUM_SYMBOLS))


def test_header_and_layout(golden, small):
    with open(os.path.join(FIXTURES, golden["file"]), "rb") as f:
        data = f.read()
    assert data[:8] == b"INKLM1\0\0"
    assert struct.unpack_from("<II", data, 8) == (golden["order"], golden["symbols"]) == (4, 166)
    assert [len(t) for t in small.tables] == golden["entries"]
    assert len(data) == 16 + sum(4 + 16 * n for n in golden["entries"])
    assert small.to_bytes() == data
    # table 1: exactly the 165 characters; table 2: every (BOS, c) bigram
    assert small.tables[0]["key"].tolist() == list(range(1, 166))
    assert set(range(1, 166)) <= set(small.tables[1]["key"].tolist())
    for t in small.tables:
        assert np.all(np.diff(t["key"].astype(np.int64)) > 0)
        assert np.all(t["logProb"] <= 0) and np.all(np.isfinite(t["logBackoff"]))


def test_golden_queries(golden, small):
    assert len(golden["queries"]) >= 20
    orders = set()
    for q in golden["queries"]:
        assert q["context"] == ([0] if q["context"][:1] == [0] else []) + lm.encode(q["contextText"])
        assert q["char"] == charset.INDEX[q["charText"]]
        lp, found, bows = small.trace(q["context"], q["char"])
        assert lp == pytest.approx(q["logProb"], abs=1e-6), q
        assert small.logprob(q["context"], q["char"]) == pytest.approx(lp, abs=1e-12)
        assert found == q["foundOrder"] and bows == pytest.approx(q["backoffs"], abs=1e-6), q
        orders.add(found)
    assert orders == {1, 2, 3, 4}
    assert any(any(b != 0 for b in q["backoffs"]) for q in golden["queries"])
    for s in golden["scoreText"]:
        assert small.score_text(s["text"], s["preContext"]) == pytest.approx(s["logProb"], abs=1e-5)


def test_golden_is_reproducible(golden, small):
    texts = [(t["text"], t["weight"]) for t in golden["texts"]]
    rebuilt = lm.build_from_texts(texts, golden["order"], golden["minCount"])
    for a, b in zip(rebuilt.tables, small.tables):
        assert a["key"].tolist() == b["key"].tolist()
        np.testing.assert_allclose(a["logProb"], b["logProb"], atol=1e-6)
        np.testing.assert_allclose(a["logBackoff"], b["logBackoff"], atol=1e-6)


@pytest.mark.parametrize("text", ["", "t", "the", "the c", "hello wor", "xyz", "cat", "sat on the ", "55", "é"])
def test_small_distributions_sum_to_one(small, text):
    for ctx in ([0] + lm.encode(text), lm.encode(text)):
        assert total_probability(small, ctx) == pytest.approx(1.0, abs=1e-4)


def test_vectorised_lookup_matches_scalar(small):
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, small.order + 1))
        syms = [int(x) for x in rng.choice([1, 66, 70, 73, 77, 80, 85, 68, 83], size=n)]
        if n > 1 and rng.random() < 0.3:
            syms[0] = 0
        key = lm.ngram_key(syms)
        assert small.logprob_keys(n, np.array([key]))[0] == pytest.approx(small.logprob(syms[:-1], syms[-1]), abs=1e-9)


def test_running_text_model_pruned_distributions():
    """Hybrid exact/sampled counts from a word list, pruned hard: distributions still sum to 1."""
    words = ["the", "of", "and", "argument", "document", "hello", "world", "i", "don't", "café"]
    freqs = [50, 30, 28, 2, 2, 3, 3, 10, 4, 1]
    model = lm.RunningTextModel(words, freqs, seed=3)
    counts = model.counts(5, 1e5, sample_tokens=20_000, chunk_tokens=10_000)
    extra = lm.NgramCounts(5)
    extra.add_texts([("Call 555-0123, please!", 50.0)])
    counts.merge(extra)
    th = lm.prune_thresholds(counts, 2000)
    built = lm.build(counts, th, unigram_floor=1e-5)
    assert built.num_entries() <= 2000 + 165
    loaded = read_lm_bytes(built.to_bytes())
    for text in ["", "arg", "argum", "hello ", "I don'", "the caf", "555-01", "zzzz", "Hello, w"]:
        assert total_probability(loaded, [0] + lm.encode(text)) == pytest.approx(1.0, abs=1e-4), text
    p = lambda ctx, c: math.exp(loaded.logprob([0] + lm.encode(ctx), charset.INDEX[c]))
    assert p("argu", "m") > 0.5 and p("hello", " ") > p("hel", " ")
    assert min(math.exp(v) for v in loaded.tables[0]["logProb"]) >= 1e-5 * 0.999


def test_case_of_a_texts_first_word_follows_case_start():
    """--case-start sets how the first word of a text (ink with no pre-context) is cased; later words keep
    their own shares."""
    words, freqs = ["hello", "world", "the"], [3, 3, 5]

    def start_probabilities(case_start):
        model = lm.RunningTextModel(words, freqs, seed=3, case_start=case_start)
        counts = model.counts(3, 1e4, sample_tokens=5_000, chunk_tokens=5_000)
        built = read_lm_bytes(lm.build(counts, lm.prune_thresholds(counts, 5000)).to_bytes())
        p = lambda ctx, c: math.exp(built.logprob([0] + lm.encode(ctx), charset.INDEX[c]))
        return p("", "h"), p("", "H"), p("the ", "h"), p("the ", "H")

    low_h, low_H, low_mid_h, low_mid_H = start_probabilities((1, 0, 0))
    cap_h, cap_H, cap_mid_h, cap_mid_H = start_probabilities((0, 1, 0))
    assert low_h > 10 * low_H and cap_H > 10 * cap_h
    assert low_mid_h > low_mid_H and cap_mid_h > cap_mid_H  # after the first word: mostly lowercase either way


def test_shipped_lm():
    """en-US's LM (INKLM2, quantized to 8-bit codebooks, so a context's distribution sums to 1 only
    approximately; LM_FORMAT.md measures how far): 1.4.0 order 6 pruned to 2 MB, 2.0.0 order 7 pruned to 5.5 MB
    (Benchmarks/README.md, "English: the language model, not the network")."""
    model = read_lm_file(REAL_LM)
    with open(REAL_LM, "rb") as f:
        assert f.read(8) == b"INKLM2\0\0"
    assert os.path.getsize(REAL_LM) <= 5_500_000
    assert 5 <= model.order <= 7 and list(model.alphabet) == charset.WESTERN
    for text in ["", "hello", "the argum", "(555) 12", "Zürich"]:
        assert total_probability(model, [0] + lm.encode(text)) == pytest.approx(1.0, abs=0.05), text
    p = lambda ctx, c: math.exp(model.logprob([0] + lm.encode(ctx), charset.INDEX[c]))
    assert p("hello", " ") > p("hel", " ")
    assert p("argum", "e") > p("argun", "e")
    assert model.score_text("world", "hello ") > model.score_text("wrold", "hello ")
