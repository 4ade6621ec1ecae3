"""The per-language LM builder's pieces: alphabets, vocabularies, the generative text's elision and
quotes, the vectorised bits per character and the INKLM2 size estimate."""
import math
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import languages as lm_languages
from inkrec_training.lm import inklm2 as lm_v2


@pytest.fixture(autouse=True)
def western_alphabet():
    yield
    lm.use_alphabet(charset.WESTERN)


@pytest.mark.parametrize("code", sorted(lm_languages.LANGUAGES))
def test_alphabets(code):
    a = lm_languages.alphabet(code)
    chars = charset.SETS[charset.for_language(code)]
    assert set(a) <= set(chars) and len(a) == len(set(a)) < 256
    assert set(lm_languages.ASCII) <= set(a)
    lang = lm_languages.LANGUAGES[code]
    assert set(lang.letters) <= set(a)
    assert {lm_languages.upper(code, c) for c in lang.letters if len(lm_languages.upper(code, c)) == 1} <= set(a)
    assert set("".join(lang.quotes).strip()) <= set(a)
    assert [chars.index(c) for c in a] == sorted(chars.index(c) for c in a)


def test_language_specifics():
    assert "\u00df" in lm_languages.alphabet("de") and "\u00df" not in lm_languages.alphabet("de", no_eszett=True)
    assert {"\u201e", "\u201c"} <= set(lm_languages.alphabet("de"))
    assert {"\u00ab", "\u00bb"} <= set(lm_languages.alphabet("fr"))
    assert "\u0142" in lm_languages.alphabet("pl") and "\u0142" not in lm_languages.alphabet("cs")
    assert lm_languages.upper("tr", "istanbul ılık") == "\u0130STANBUL ILIK"
    assert lm_languages.upper("de", "istanbul") == "ISTANBUL"
    assert [lm_languages.restore_eszett(w) for w in ("strasse", "heissen", "dass", "muss", "masse", "grösste")] == \
        ["stra\u00dfe", "hei\u00dfen", "dass", "muss", "masse", "gr\u00f6\u00dfte"]


def test_vietnamese_alphabet_holds_every_letter_with_its_tones():
    import unicodedata
    a = set(lm_languages.alphabet("vi"))
    for vowel in "aăâeêioôơuưy":
        for tone in ("", "\u0300", "\u0301", "\u0309", "\u0303", "\u0323"):
            c = unicodedata.normalize("NFC", vowel + tone)
            assert c in a and c.upper() in a, c
    assert {"đ", "Đ"} <= a
    assert not set(lm_languages.alphabet("vi")) - set(charset.VIETNAMESE)
    assert "ơ" not in lm_languages.alphabet("fr")


def test_romanian_comma_letters_and_french_elision():
    words, _ = lm_languages.vocabulary("ro", 3000)
    assert "și" in words and not any("\u015f" in w or "\u0163" in w for w in words)
    words, freqs = lm_languages.vocabulary("fr", 3000)
    assert "l'" in words and "l\u2019" in words and "l" not in words
    f = dict(zip(words, freqs))
    assert f["l\u2019"] == pytest.approx(f["l'"] * 0.3 / 0.7)


def test_elided_words_join_the_next_word():
    lm.use_alphabet(lm_languages.alphabet("fr"))
    seps, ends = lm_languages.separators("fr", lm.RunningTextModel.SEPS, lm.RunningTextModel.ENDS)
    model = lm.RunningTextModel(["l'", "homme", "est", "là"], [3, 2, 2, 1], seed=5, seps=seps, ends=ends,
                                english_i=False, decimal_comma=True, currency="\u20ac")
    text = model.sample_corpus(5000, np.random.default_rng(1))[0]
    assert "l'homme" in text or "l'est" in text
    assert "l' " not in text and "L' " not in text
    assert "\u00ab " in text or " \u00bb" in text
    counts = model.counts(4, 1e4, sample_tokens=5000, chunk_tokens=5000)
    built = lm.build(counts, lm.prune_thresholds(counts, 5000))
    p = lambda ctx, c: math.exp(built.logprob([0] + lm.encode(ctx), lm.INDEX[c]))
    assert p("est l'", "h") > 0.1 and p("est l'", " ") < 0.01


def test_vectorised_bits_per_char_matches_the_scalar_lookup():
    lm.use_alphabet(sorted(set("the cat sat on a mat")))
    texts = [("the cat sat on the mat", 1.0), ("a cat", 2.0)]
    model = lm.build_from_texts(texts, 3)
    held = "\0the mat\0a cat sat"
    nats = model.score_ids(lm.encode("the mat"), [0]) + model.score_ids(lm.encode("a cat sat"), [0])
    assert lm.bits_per_char_text(model, held) == pytest.approx(-nats / 16 / math.log(2), rel=1e-6)


def test_size_estimate_is_an_upper_bound():
    lm.use_alphabet(lm_languages.alphabet("en"))
    words = ["the", "of", "and", "argument", "document", "hello", "world", "don't"]
    model = lm.RunningTextModel(words, [50, 30, 28, 2, 2, 3, 3, 4], seed=3)
    counts = model.counts(5, 1e5, sample_tokens=20_000, chunk_tokens=10_000)
    th = lm.prune_thresholds(counts, 3000)
    built = lm.quantize(lm.build(counts, th))
    kept = lm.kept_per_order(counts, 5, th)
    assert kept == [len(t) for t in built.tables]
    est = lm_v2.estimate_size(kept, lm.NUM_SYMBOLS, sum(1 + len(c.encode()) for c in lm.ALPHABET))
    assert len(lm_v2.to_bytes(built)) <= est
