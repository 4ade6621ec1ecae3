"""Thai ink from the committed glyph table (writing/thai.py through writing/indic.py), the committed word list and
the Thai LM's running text: no font, no HarfBuzz, no pythainlp."""
import gzip
import os
import random
import unicodedata

import numpy as np
import pytest

from inkrec_training import charset, cli, wordlists
from inkrec_training.writing import alphabets, indic, text, thai, writer

from . import indic_checks as checks

WORDS = ("ที่ การ เป็น ใน ของ มี จะ และ ไม่ ได้ ให้ ว่า ก็ แล้ว ความ เขา นี้ กับ คน ประเทศ เกี่ยวกับ เปลี่ยน ผู้ใหญ่ "
         "น้ำ สำคัญ ญี่ปุ่น กิ่ง ฐาน ต่างๆ ไทย เลือก ใช้ โดย แม่ พูด ทุ่ง ปู่ ก๊าซ เก๋ ศักดิ์สิทธิ์ กรุงเทพฯ").split()
CASE = checks.Case(thai, "th", "Thai", "thai", "ก", tuple(WORDS), heights=((-240, -95), 110), per_char=160,
                   long_word="เปลี่ยนแปลง", not_written=("\u0E48", "ก\u0E48\u0E48"), unseen_share=0.999)
LEADING = thai.LEADING


def labelled(w, seed=0, k=0):
    return checks.labelled(CASE, w, seed=seed, k=k)


# ---------------------------------------------------------------------------------------------- words

def test_word_file_loads_and_is_thai_only():
    assert os.path.getsize(thai.WORDS) < 400_000
    with gzip.open(thai.WORDS, "rt", encoding="utf-8") as f:
        head = f.readline()
    assert "tnc_freq.txt" in head and "CC0" in head
    got = wordlists.top_words("th", 30000)
    assert len(got) == 30000 and len({w for w, _ in got}) == 30000
    freqs = [f for _, f in got]
    assert all(f > 0 for f in freqs) and freqs == sorted(freqs, reverse=True) and sum(freqs) < 1
    for w, _ in got:
        assert w == unicodedata.normalize("NFC", w) and alphabets.writes("th", w), w
        assert all(alphabets.script_of(c) == "Thai" for c in w), w
    assert [w for w, _ in got[:5]] == ["ที่", "การ", "เป็น", "ใน", "ของ"]
    ws, fs = text.words("th", 2000)
    assert len(ws) == 2000 and ws[:3] == ["ที่", "การ", "เป็น"]
    with pytest.raises(LookupError):
        wordlists.top_words("th", 30001)


def test_word_list_answers_thai_even_from_a_saved_file(tmp_path):
    import json
    import lzma
    path = tmp_path / "words.json.xz"
    with lzma.open(path, "wt", encoding="utf-8") as f:
        json.dump({"en": {"n": 1, "words": [["the", 0.05]]}}, f)
    wordlists.use(str(path))
    try:
        assert wordlists.top_words("th", 3)[0][0] == "ที่"
    finally:
        wordlists.use(None)


# ------------------------------------------------------------------------------------------- the table

def test_data_loads_and_names_traced_glyphs():
    d = checks.table(CASE, shapes=4000, glyphs=90)
    assert os.path.getsize(thai.DATA) < 1_000_000
    assert d["head_band"] is None and "Looped" in d["source"]
    g = d["glyphs"]
    assert g["uni0E01"]["body"] and not g["uni0E01"]["top"]            # ก
    assert g["uni0E40"]["body"] and not g["uni0E40"]["pre"]            # เ: a glyph of its own, left of the consonant
    assert g["uni0E48"]["top"] and not g["uni0E48"]["body"]            # ่
    assert g["uni0E34"]["top"] and g["uni0E38"]["below"]               # ิ above, ุ below
    assert g["uni0E4D"]["top"] and g["uni0E32"]["body"]                # ำ: the nikhahit above, า


def test_syllables():
    assert thai.syllables("เกี่ยว") == ["เกี่", "ย", "ว"]
    assert thai.syllables("ประเทศ") == ["ป", "ร", "ะ", "เท", "ศ"]
    assert thai.syllables("น้ำ") == ["น้ำ"]
    assert thai.syllables("ผู้ใหญ่") == ["ผู้", "ให", "ญ่"]
    assert thai.syllables("ศักดิ์สิทธิ์") == ["ศั", "ก", "ดิ์", "สิ", "ท", "ธิ์"]
    assert thai.syllables("ต่างๆ") == ["ต่", "า", "ง", "ๆ"]


def test_stacked_tone_mark_stands_above_its_vowel():
    """HarfBuzz lowers the raised tone mark onto the vowel (``thai._raise_stacked`` undoes it): the tone mark's ink
    is wholly above the vowel's."""
    for s in ("กิ่", "กี้", "กั้", "ปิ่", "เกี่", "ที่", "ตั้"):
        got = thai.SCRIPT.shaped(s)
        assert got is not None, s
        d = indic.data(thai.DATA)["glyphs"]
        pieces = {}
        for name, x, y in got:
            ys = [-p[1] / 1000 / thai.BODY_TOP + y for st in d[name]["top"] for p in st]
            if ys:
                pieces[name] = (min(ys), max(ys))
        vowel = [v for n, v in pieces.items() if not n.startswith(("uni0E48", "uni0E49"))]
        tone = [v for n, v in pieces.items() if n.startswith(("uni0E48", "uni0E49"))]
        assert vowel and tone, s
        assert tone[0][0] > vowel[0][1] - 0.02, (s, pieces)


def test_frequent_and_unseen_words_covered():
    ws = [w for w, _ in wordlists.top_words("th", 30000)]
    assert not [w for w in WORDS if not thai.covers(w)]
    assert sum(map(thai.covers, ws[:20000])) / 20000 > 0.9995
    tail = ws[20000:]
    assert sum(map(thai.covers, tail)) / len(tail) > CASE.unseen_share   # 99.98%: 2 typos (ที่่ ให้้)


def test_every_letter_is_in_the_charset_and_alphabet():
    cs = charset.SETS["thai"]
    assert len(set(cs)) == len(cs) == 344 and cs[:len(charset.LATIN)] == charset.LATIN
    assert set(thai.LETTERS) | {thai.BAHT} <= set(cs) and "\u0E3F" in cs
    assert charset.for_language("th") == "thai"
    assert alphabets.SCRIPTS["th"] == "Thai" and alphabets.script_of("ก") == "Thai"
    assert set(alphabets.ALPHABETS["th"]) == set(thai.WORD_LETTERS)
    assert writer.RULES["Thai"].script == "Thai"


def test_commands_resolve():
    assert cli.resolve(["scripts", "data", "thai-glyphs"])[0].module == "writing.thai"
    assert cli.resolve(["scripts", "data", "thai-words", "--tnc", "x"])[0].module == "writing.thai"
    assert cli.resolve(["scripts", "lm", "thai"])[0].module == "lm.thai"


# -------------------------------------------------------------------------------------------- writing

def test_leading_vowel_written_before_its_consonant():
    checked = 0
    for w in ("เกี่ยวกับ", "แล้ว", "โดย", "ใช้", "ไทย", "เปลี่ยน", "เลือก", "แม่", "ไม่"):
        for seed in range(4):
            strokes, labels = labelled(w, seed=seed, k=seed)
            for j, s in enumerate(thai.syllables(w)):
                if s[0] not in LEADING:
                    continue
                body = [i for i, l in enumerate(labels) if l == f"body:{j}"]
                assert len(body) >= 2, (w, s, labels)
                first = strokes[body[0]]
                rest = np.concatenate([strokes[i][:, 0] for i in body[1:]])
                # the first stroke written is the leading vowel: left of the consonant, and before it in time
                assert float(np.median(first[:, 0])) < float(rest.min()) + 15, (w, s)
                assert float(first[-1, 2]) <= float(strokes[body[1]][0, 2])
                checked += 1
    assert checked == 36


def test_marks_after_their_consonant():
    """Every mark above and below after its cluster's body (in time too); those above, above one x-height."""
    seen_top = seen_below = 0
    for w in WORDS:
        for seed in range(3):
            strokes, labels = labelled(w, seed=seed, k=seed)
            assert "head" not in labels and not any(l.startswith("pre") for l in labels)
            seen_top += len(checks.tops_after_their_syllable(w, strokes, labels))
            for i, l in enumerate(labels):
                if l.startswith("below:"):
                    j = l.split(":")[1]
                    own = [k for k, m in enumerate(labels) if m == f"body:{j}"]
                    assert own and i > max(own) and float(strokes[i][0, 2]) > float(strokes[max(own)][-1, 2])
                    assert float(np.median(strokes[i][:, 1])) > 0, (w, l)   # under the baseline
                    seen_below += 1
    assert seen_top >= 100 and seen_below >= 10


@pytest.mark.parametrize("w", ["ที่", "กิ่ง", "ตั้ง", "เกี่ยว", "เปลี่ยน", "ญี่ปุ่น", "ศักดิ์สิทธิ์", "น้ำ", "ตื่น"])
def test_tone_mark_after_the_vowel_above(w):
    """In a cluster with a vowel sign (or nikhahit, or thanthakhat's carrier) above and a tone mark, the tone mark
    is the last of its marks above and the highest."""
    for seed in range(4):
        strokes, labels = labelled(w, seed=seed, k=seed)
        for j, s in enumerate(thai.syllables(w)):
            if not any(c in s for c in thai.TONES + "\u0E4C") or not any(c in s for c in thai.ABOVE + thai.SARA_AM):
                continue
            tops = [i for i, l in enumerate(labels) if l == f"top:{j}"]
            assert len(tops) >= 2, (w, s, labels)
            last = strokes[tops[-1]]
            others = [strokes[i] for i in tops[:-1]]
            assert all(float(last[:, 1].mean()) < float(o[:, 1].mean()) for o in others), (w, s, seed)
            assert all(float(last[0, 2]) > float(o[-1, 2]) for o in others)


def test_a_third_of_words_leave_their_marks_for_last():
    late = 0
    for seed in range(60):
        strokes, labels = labelled("ที่ตั้ง", seed=seed, k=seed % 8)
        if labels.index("top:0") > labels.index("body:1"):
            late += 1
            assert all(l.startswith("top") for l in labels[labels.index("top:0"):])
    assert 10 <= late <= 30


@pytest.mark.parametrize("k", range(8))
def test_output_finite_y_down_and_sized(k):
    rng = random.Random(k)
    w = rng.choice(WORDS)
    got = thai.write_word(w, CASE.rules, writer.heldout_writer(k), rng, unit=100.0)
    assert got is not None and all(s.ndim == 2 and s.shape[1] == 3 for s in got)
    allp = np.concatenate(got)
    assert np.isfinite(allp).all()
    assert (np.diff(np.concatenate([s[:, 2] for s in got])) >= -1e-9).all()
    (top, bottom), lowest = CASE.heights
    assert top < allp[:, 1].min() < bottom and allp[:, 1].max() < lowest, (w, allp[:, 1].min(), allp[:, 1].max())
    assert 40 < np.ptp(allp[:, 0]) < CASE.per_char * len(w) + 100


def test_deterministic_for_a_seed():
    a = thai.write_word(CASE.long_word, CASE.rules, writer.heldout_writer(5), random.Random(11))
    b = thai.write_word(CASE.long_word, CASE.rules, writer.heldout_writer(5), random.Random(11))
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_uncovered_word_gives_none():
    assert thai.write_word("abc", CASE.rules, writer.heldout_writer(0), random.Random(0)) is None
    assert not thai.covers("")
    for w in CASE.not_written:
        assert thai.word(w) is None


def test_loops_first():
    """Letters with a head loop at one end of their stroke start there (ป บ น ว ร), as Thai is written."""
    for ch in "ปบนวรอ":
        a = thai.SCRIPT.akshara(ch)
        s = a.body[0]
        assert indic._curls(s) and not indic._curls(s[::-1]), ch


# --------------------------------------------------------------------------------------------- the LM

def test_lm_running_text_has_no_spaces_inside_phrases():
    from inkrec_training.lm import ngram as lm
    from inkrec_training.lm import thai as lm_thai
    lm.use_alphabet(lm_thai.alphabet())
    try:
        assert lm.NUM_SYMBOLS <= 256 and 6 * lm.BITS <= 64
        words = [w for w, _ in wordlists.top_words("th", 3000)]
        freqs = [f for _, f in wordlists.top_words("th", 3000)]
        model = lm_thai.ThaiTextModel(words, freqs, ["ok", "iphone", "email"], [0.5, 0.3, 0.2], seed=3)
        t, st, en = model.sample_corpus(20000, np.random.default_rng(0))
        assert lm.covers(t.replace("\0", ""))
        assert all(t[a:b] in set(words) for a, b in zip(st, en))
        between = [t[b:a] for a, b in zip(st[1:], en[:-1])]
        joined = sum(g == "" for g in between)
        # most neighbouring words are written with nothing between them; a space marks a phrase's end
        assert joined / len(between) > 0.6
        assert all(g == "" or " " in g or "\0" in g or any(c.isdigit() or c.isascii() for c in g)
                   for g in between)
        inside = t.replace("\0", "")
        assert inside.count(" ") / len(inside) < 0.08
        assert "  " not in t
    finally:
        lm.use_alphabet(charset.WESTERN)
