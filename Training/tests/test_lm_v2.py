"""INKLM2: lm_v2 reads back what it writes, reproduces the golden fixture the Swift reader is tested
against, rejects malformed files, and quantization keeps distributions close to 1."""
import json
import math
import os
import struct

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset
from inkrec_training.lm import ngram as lm
from inkrec_training.lm import inklm2 as lm_v2
from inkrec_training.lm import read_bytes as read_lm_bytes

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")


@pytest.fixture(scope="module")
def golden():
    with open(os.path.join(FIXTURES, "lm2-golden.json"), encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(autouse=True)
def western_alphabet():
    yield
    lm.use_alphabet(charset.WESTERN)


def load(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        data = f.read()
    return data, read_lm_bytes(data)


def test_golden_queries(golden):
    assert len(golden["models"]) == 2
    for m in golden["models"]:
        data, model = load(m["file"])
        assert data[:8] == b"INKLM2\0\0" and len(data) == m["bytes"]
        assert struct.unpack_from("<II", data, 8) == (m["order"], m["symbols"])
        assert "".join(model.alphabet) == m["alphabet"]
        assert model.unknown_logprob == pytest.approx(m["unknownLogProb"], abs=1e-6)
        assert lm_v2.to_bytes(model) == data  # the reader keeps everything the writer needs
        bound = lm_v2.BoundLM(model, m["labels"])
        unknown_hits = 0
        for q in m["queries"]:
            got = bound.logprob(bound.context(q["context"], q["bos"]), q["char"])
            assert got == pytest.approx(q["logProb"], abs=1e-6), q
            unknown_hits += got == model.unknown_logprob
        assert unknown_hits >= 1
        for s in m["scoreText"]:
            cls = {t: i + 1 for i, t in enumerate(m["labels"])}
            got = bound.score([cls[c] for c in s["text"] if c in cls], [cls[c] for c in s["preContext"][-20:] if c in cls])
            assert got == pytest.approx(s["logProb"], abs=1e-5)


def test_latin_fixture_uses_wide_symbols(golden):
    m = golden["models"][1]
    _, model = load(m["file"])
    assert model.num_symbols == 261 and model.bits == 9
    assert max(int(t["key"].max()) for t in model.tables[1:]) >= 1 << 16  # 9-bit digits


@pytest.mark.parametrize("levels", [(65536, 65536), (256, 256), (32, 16)])
def test_round_trip_and_quantized_sums(levels):
    lm.use_alphabet(sorted(set("the cat sat on the mat. hello world, The Dog!")))
    texts = [("the cat sat on the mat.", 1.0), ("The Dog sat on the cat", 2.0), ("hello world, hello!", 1.0)]
    built = lm.build_from_texts(texts, 4)
    q = lm.quantize(built, *levels)
    data = lm_v2.to_bytes(q)
    back = read_lm_bytes(data)
    for text in ["", "the c", "hello", "zzz", "Dog s"]:
        ctx = [0] + lm.encode(text)
        exact = [math.exp(built.logprob(ctx, c)) for c in range(1, lm.NUM_SYMBOLS)]
        got = [math.exp(back.logprob(ctx, c)) for c in range(1, lm.NUM_SYMBOLS)]
        tol = 1e-4 if levels[0] > 256 else 0.08
        assert sum(got) == pytest.approx(1.0, abs=tol), text
        if levels[0] > 256:
            np.testing.assert_allclose(got, exact, rtol=1e-5)
    assert len(data) < len(built.to_bytes())


def test_malformed_files_raise(golden):
    data, _ = load(golden["models"][0]["file"])
    bad = [data[:-1], data + b"\0", data[:8] + struct.pack("<I", 9) + data[12:], b"INKLM2\0\0"]
    for b in bad:
        with pytest.raises((ValueError, struct.error, UnicodeDecodeError)):
            read_lm_bytes(b)
