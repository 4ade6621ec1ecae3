"""The CJK LM builder's pieces (inkrec_training/lm/cjk.py, cjk lm): alphabets (Traditional vs
Simplified, kana), running text without spaces, exact in-word counts, a small INKLM2 build that reads
back within its budget, the golden fixture the Swift test reads, and the built LMs where present."""
import json
import math
import os
import re

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import cjk as lm_cjk
from inkrec_training.lm import inklm2 as lm_v2
from inkrec_training.lm import read_bytes as read_lm_bytes

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")
CJK = r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]"


@pytest.fixture(autouse=True)
def western_alphabet():
    yield
    lm.use_alphabet(charset.WESTERN)


@pytest.fixture(scope="module")
def vocabs():
    # the 40,000 most frequent tokens: enough for the common characters, quick to convert
    return {code: lm_cjk.vocabulary(code, 40_000) for code in lm_cjk.LANGUAGES}


def test_traditional_and_simplified_alphabets(vocabs):
    hant = set(lm_cjk.alphabet(vocabs["zh-Hant"]).symbols)
    hans = set(lm_cjk.alphabet(vocabs["zh-Hans"]).symbols)
    assert {"\u9019", "\u5011", "\u570b", "\u8aaa", "\u500b"} <= hant           # 這 們 國 說 個
    assert not {"\u8fd9", "\u4eec", "\u56fd", "\u8bf4", "\u4e2a"} & hant       # 这 们 国 说 个
    assert {"\u8fd9", "\u4eec", "\u56fd", "\u8bf4", "\u4e2a"} <= hans
    assert not {"\u9019", "\u5011", "\u570b", "\u8aaa"} & hans
    # s2twp: Taiwan forms and phrases
    assert lm_cjk.convert_words(["\u8fd9\u91cc", "\u8f6f\u4ef6", "\u5934\u53d1", "\u53d1\u73b0"], "s2twp") == \
        ["\u9019\u88e1", "\u8edf\u9ad4", "\u982d\u9aee", "\u767c\u73fe"]                # 這裡 軟體 頭髮 發現
    for a in (hant, hans):
        assert set(lm_cjk.ASCII) <= a and set("\uff0c\u3002\u3001\uff01\uff1f\u201c\u201d\u300a\u300b") <= a


def test_japanese_alphabet(vocabs):
    a = lm_cjk.alphabet(vocabs["ja"])
    s = set(a.symbols)
    assert set(lm_cjk.HIRAGANA) <= s and set(lm_cjk.KATAKANA) <= s
    assert set("\u65e5\u672c\u8a9e\u4eba\u6f22\u5b57\u3005") <= s                  # 日本語人漢字々
    assert set("\u3002\u3001\u300c\u300d\u300e\u300f\u30fb\u301c") <= s
    assert len(a.symbols) == len(s) <= 8000


def test_coverage_and_unknown_mass(vocabs):
    v = vocabs["zh-Hans"]
    small, large = lm_cjk.alphabet(v, 0.99), lm_cjk.alphabet(v, 0.999)
    assert len(small.han) < len(large.han)
    assert small.coverage >= 0.99 and large.coverage >= 0.999
    assert large.oov_share < small.oov_share <= 0.01 + 1e-9
    assert large.unknown_logprob() < small.unknown_logprob() < 0
    # an unknown character is less likely than the rarest known one
    rarest = min(v.han_mass[c] for c in large.han) / sum(f * len(w) for w, f in zip(v.words, v.freqs))
    assert large.unknown_logprob() < math.log(rarest)
    capped = lm_cjk.alphabet(v, 0.9999, max_symbols=1000)
    assert len(capped.symbols) == 1000 and capped.coverage < 0.9999


@pytest.mark.parametrize("code", sorted(lm_cjk.LANGUAGES))
def test_running_text(vocabs, code):
    a = lm_cjk.alphabet(vocabs[code])
    lm.use_alphabet(a.symbols)
    model = lm_cjk.text_model(code, vocabs[code], a.symbols, seed=3)
    text = model.sample_corpus(20_000, np.random.default_rng(5))[0]
    assert lm.covers(text.replace("\0", ""))
    assert not re.search(CJK + " |" + " " + CJK, text), "a space beside a CJK character"
    assert not re.search(r"[^\x00-\x7f] | [^\x00-\x7f]", text)
    spaces = [m.start() for m in re.finditer(" ", text)]
    assert all(text[i - 1].isalnum() and text[i + 1].isalnum() for i in spaces)  # only between ASCII tokens
    assert len(spaces) < 0.01 * len(text)
    lang = lm_cjk.LANGUAGES[code]
    assert text.count("\u3002") > 0.005 * len(text) and re.search(r"[0-9]", text) and re.search(r"[A-Za-z]{2}", text)
    assert ("\u3001" if code == "ja" else "\uff0c") in text
    for o, c, _ in lang.spans:  # pairs close inside their text, after they open
        for t in text.split("\0"):
            assert t.count(o) == t.count(c) and (o not in t or t.index(o) < t.rindex(c))
    if code == "zh-Hant":
        assert "\u300c" in text and "\u8fd9" not in text and "\u5011" in text
    texts = text.split("\0")[1:]
    lengths = np.asarray([len(t) for t in texts])
    assert 5 < lengths.mean() < 40 and (lengths <= 3).mean() > 0.05


def test_counts_inside_words_are_exact():
    words = ["\u4e2d\u56fd", "\u4eba", "\u4e2d\u56fd\u4eba"]
    lm.use_alphabet(lm_cjk.ASCII + list(lm_cjk.ZH_PUNCT) + list("\u4e2d\u56fd\u4eba\u5e74\u6708\u65e5"))
    model = lm_cjk.CJKTextModel("zh-Hans", words, [3.0, 2.0, 1.0], seed=1, number_rate=0.0, latin_rate=0.0)
    tokens = 50_000
    counts = model.counts(3, 1e4, sample_tokens=tokens, chunk_tokens=tokens)
    _, starts, _ = model.sample_corpus(tokens, np.random.default_rng(model.seed))
    k2, c2 = counts.get(2)
    key = lambda s: lm.ngram_key([lm.INDEX[x] for x in s])
    got = dict(zip(k2.tolist(), c2.tolist()))
    word_tokens = len(starts) / tokens * 1e4      # script-word tokens per 10,000 tokens of text
    # 中国 lies inside 中国 and 中国人 only: its count is exactly their expected number
    assert got[key("\u4e2d\u56fd")] == pytest.approx(word_tokens * (3 + 1) / 6, rel=1e-9)
    # 人中 only across words, sampled: at most P(…人) * P(中…) per token (fewer: texts end, punctuation)
    across = got[key("\u4eba\u4e2d")] / (word_tokens * 3 / 6 * 4 / 6)
    assert 0.5 < across < 0.86
    assert key("\u56fd\u56fd") not in got


def test_small_build_reads_back_within_budget(vocabs):
    code = "zh-Hant"
    a = lm_cjk.alphabet(vocabs[code], 0.999)
    lm.use_alphabet(a.symbols)
    assert lm.NUM_SYMBOLS > 256 and lm.BITS > 8
    model = lm_cjk.text_model(code, vocabs[code], a.symbols, seed=2)
    counts = model.counts(3, 3e5, sample_tokens=150_000, chunk_tokens=150_000)
    budget = 400_000
    _, pruned, blob = lm_v2.fit_to_size(counts, budget, 1.5, 1e-8, unknown_logprob=a.unknown_logprob(),
                                        bigram_cap=math.inf)
    assert len(blob) <= budget
    back = lm_v2.from_bytes(blob)
    assert lm_v2.to_bytes(back) == blob
    assert back.alphabet == a.symbols and back.order == 3
    assert back.unknown_logprob == pytest.approx(a.unknown_logprob(), abs=1e-6)
    i = {c: n + 1 for n, c in enumerate(back.alphabet)}
    p = lambda ctx, c: math.exp(back.logprob([lm.BOS] + [i[x] for x in ctx], i[c]))
    assert p("\u6211", "\u5011") > 0.05                       # 我們
    assert p("\u6211", "\u5011") > 20 * p("\u6211", "\u9f8d")  # 我龍
    for ctx in ("", "\u6211", "\u4e2d\u570b"):
        total = sum(math.exp(back.logprob([lm.BOS] + [i[x] for x in ctx], s)) for s in range(1, back.num_symbols))
        assert total == pytest.approx(1.0, abs=0.05)


def test_golden_fixture_for_the_swift_reader():
    with open(os.path.join(FIXTURES, "lm2-cjk-golden.json"), encoding="utf-8") as f:
        g = json.load(f)
    with open(os.path.join(FIXTURES, g["file"]), "rb") as f:
        data = f.read()
    assert len(data) == g["bytes"] < 200_000
    model = read_lm_bytes(data)
    assert model.num_symbols == g["symbols"] > 4096 and model.bits == 13 and model.order == g["order"] == 4
    assert set(g["alphabetHas"]) <= set(model.alphabet) and not set(g["alphabetLacks"]) & set(model.alphabet)
    bound = lm_v2.BoundLM(model, g["labels"])
    for q in g["queries"]:
        got = bound.logprob(bound.context(q["context"], q["bos"]), q["char"])
        assert got == pytest.approx(q["logProb"], abs=1e-6), q
        assert (got == model.unknown_logprob) == (not q["known"])
    cls = {t: n + 1 for n, t in enumerate(g["labels"])}
    for s in g["scoreText"]:
        got = bound.score([cls[c] for c in s["text"] if c in cls], [cls[c] for c in s["preContext"][-20:] if c in cls])
        assert got == pytest.approx(s["logProb"], abs=1e-5)
