"""The Cyrillic network's training and evaluation ink (writing/training.py), its character set, its LMs'
vocabularies and the start of its training (the head grown from the Latin letters written alike)."""
import random

import numpy as np
import pytest
import torch

from inkrec_training import charset
from inkrec_training.writing import alphabets, cyrillic, writer
from inkrec_training.writing.training import ScriptSources, capitalized

LANGS = ["ru", "uk", "bg", "mk", "sr"]


@pytest.fixture(scope="module")
def train_src():
    return ScriptSources(LANGS)


def test_cyrillic_set_extends_latin_and_writes_every_alphabet():
    c = charset.CYRILLIC
    assert c[: len(charset.LATIN)] == charset.LATIN and len(set(c)) == len(c) == 353
    for code in LANGS:
        assert set(alphabets.letters(code)) <= set(c), code
        assert charset.for_language(code) == "cyrillic"
    assert charset.for_language("sh") == "latin" and charset.for_language("vi") == "vietnamese"


def test_generated_words_and_lines_are_labelled_in_the_set(train_src):
    rng = random.Random(7)
    seen_space = False
    for _ in range(40):
        for got in (train_src.word(rng), train_src.line(rng)):
            strokes, label = got
            assert label and all(ch in charset.CYRILLIC for ch in label), label
            assert all(isinstance(s, np.ndarray) and s.shape[1] == 2 and len(s) >= 2 for s in strokes)
            seen_space |= " " in label
    assert seen_space


def test_a_line_goes_left_to_right_word_by_word(train_src):
    rng = random.Random(3)
    strokes, label = train_src.line(rng)
    assert len(label.split(" ")) >= 2
    xs = [float(s[:, 0].mean()) for s in strokes]
    # the last stroke lies right of the first (the words follow each other along the line)
    assert xs[-1] > xs[0] + 100


def test_heldout_sources_use_heldout_writers_and_the_forms_asked_for():
    held = ScriptSources(["ru"], heldout=True)
    tuning = ScriptSources(["ru"], heldout=True, writer_ids=(100_000, 200_000))
    rng = random.Random(1)
    styles = [held._style(rng) for _ in range(50)]
    train_styles = {writer.Style.for_writer(i) for i in range(200)}
    assert not set(styles) & train_styles
    assert {tuning._style(random.Random(k)) for k in range(20)}.isdisjoint(set(styles))
    # forms="heldout" writes the held-out variant of each letter; "training" never does; "all" does sometimes
    print_i = cyrillic.letter("и", "heldout")[0][0]

    sources = {forms: ScriptSources(["ru"], heldout=True, forms=forms) for forms in ("heldout", "training", "all")}

    def is_print_i(forms, seed):
        got = sources[forms].letters("и", random.Random(seed), heldout=forms == "heldout", hold_out_forms=forms == "training")
        return got[0][0][0].shape == print_i.shape and np.allclose(got[0][0][0], print_i)
    assert all(is_print_i("heldout", k) for k in range(10))
    assert not any(is_print_i("training", k) for k in range(30))
    assert any(is_print_i("all", k) for k in range(30)) and not all(is_print_i("all", k) for k in range(30))
    with pytest.raises(ValueError):
        ScriptSources(["ru"], forms="some")


def test_capitalized_shares():
    rng = random.Random(0)
    forms = [capitalized("мир", rng) for _ in range(4000)]
    assert 0.12 < forms.count("Мир") / 4000 < 0.18 and 0.015 < forms.count("МИР") / 4000 < 0.045


def test_real_letter_words_from_one_writers_letters():
    from inkrec_training import data
    if not data.available("chars"):
        pytest.skip("UNIPEN is not beside the repository (../shared/data): no real letters to compose from")
    chars = data.load("chars", limit=20000)
    src = ScriptSources(["ru"], chars)
    assert src.writers
    rng = random.Random(5)
    strokes, word = src.real_word(rng)
    from inkrec_training.writing import homoglyphs
    assert homoglyphs.composable(word) and strokes


def test_serbian_lm_words_are_cyrillic():
    from inkrec_training.lm import languages as lm_languages
    words, freqs = lm_languages.vocabulary("sr", 2000)
    assert "је" in words and len(words) == len(freqs) > 1000
    assert all(alphabets.script_of(ch) == "Cyrl" for w in words[:500] for ch in w if ch.isalpha())


def test_head_grows_cyrillic_letters_from_the_latin_letter_written_alike():
    from inkrec_training.families.latin import train
    from inkrec_training.features import FEATURE_DIM
    from inkrec_training.model import InkRecNet
    torch.manual_seed(3)
    charset.select("latin")
    try:
        source = InkRecNet(FEATURE_DIM, 16, 2, charset.NUM_CLASSES, 1).state_dict()
        charset.select("cyrillic")
        model = InkRecNet(FEATURE_DIM, 16, 2, charset.NUM_CLASSES, 1)
        grown = train.grow_head({k: v.clone() for k, v in source.items()}, model)
        w, b = grown["head.weight"], grown["head.bias"]
        m, te = charset.INDEX["m"], charset.INDEX["т"]
        assert torch.equal(w[te], source["head.weight"][m]) and b[te] == source["head.bias"][m] - 2.0
        zhe = charset.INDEX["ж"]  # written like no Latin letter: the mean row
        assert torch.allclose(w[zhe], source["head.weight"][1:].mean(0))
        assert w.shape[0] == len(charset.CYRILLIC) + 1
    finally:
        charset.select("western")


def test_greek_set_and_generated_greek_words_of_the_greek_network():
    from inkrec_training.writing import greek
    g = charset.GREEK
    assert g[: len(charset.LATIN)] == charset.LATIN and len(set(g)) == len(g)
    # every class the Greek network adds has ink to learn from
    assert [c for c in g[len(charset.LATIN):] if greek.letter(c) is None] == []
    assert set(alphabets.letters("el")) <= set(g) and "ς" in g and charset.for_language("el") == "greek"
    src = ScriptSources(["el"])
    rng = random.Random(2)
    for _ in range(20):
        strokes, label = src.word(rng)
        assert all(ch in g for ch in label) and strokes
    with pytest.raises(ValueError):
        ScriptSources(["ru", "el"])  # one script at a time


def test_hangul_sets_and_jamo_labels_round_trip():
    assert len(charset.HANGUL) == len(charset.LATIN) + 67 and charset.HANGUL[: len(charset.LATIN)] == charset.LATIN
    assert len(charset.HANGUL_SYLLABLES) == len(charset.LATIN) + 2350
    assert charset.for_language("ko") == "hangul"
    for c in ("가", "각", "힣", "뷁", "똠"):  # 똠 and 뷁 are not in KS X 1001, the jamo set writes them anyway
        labels = charset.hangul_labels(c)
        assert all(j in charset.HANGUL_JAMO_CHARS for j in labels) and len(labels) in (2, 3)
        assert charset.hangul_text(labels) == c
    assert "뷁" not in charset.HANGUL_SYLLABLES and "가" in charset.HANGUL_SYLLABLES
    assert charset.hangul_labels("한국 OK 12.")[-7:] == " OK 12."
    # a final consonant without its syllable stays a jamo (nothing is invented)
    assert charset.hangul_text("\u11a8\u1100") == "\u11a8\u1100"


def test_korean_particles_take_the_form_of_the_syllable_before():
    from inkrec_training.writing import text
    assert text.korean_attach("책", "를") == "책을" and text.korean_attach("학교", "을") == "학교를"
    assert text.korean_attach("사람", "가") == "사람이" and text.korean_attach("나무", "이") == "나무가"
    assert text.korean_attach("서울", "으로") == "서울로" and text.korean_attach("집", "로") == "집으로"
    assert text.korean_attach("친구", "과") == "친구와" and text.korean_attach("친구", "에서") == "친구에서"


def test_korean_words_and_lines_in_jamo_or_syllables():
    jamo = ScriptSources(["ko"], heldout=True)
    syl = ScriptSources(["ko"], heldout=True, labels="syllables")
    charset.select("hangul")
    try:
        for src, form in ((jamo, "jamo"), (syl, "syllables")):
            rng = random.Random(3)
            for _ in range(20):
                strokes, label = src.word(rng)
                assert strokes and all(s.shape[1] == 2 for s in strokes)
                if form == "jamo":
                    charset.encode(label)  # every label character is in the jamo set
                    assert all(0x1100 <= ord(c) <= 0x11FF for c in label)
                else:
                    assert all(alphabets.is_hangul_syllable(c) for c in label)
            strokes, label = src.line(rng)
            assert " " in label and len(strokes) > 4
        with pytest.raises(ValueError):
            ScriptSources(["ko"], labels="letters")
    finally:
        charset.select("western")
