"""The Arabic-script letters of the kit (inkrec_training/writing/arabic.py): joining classes and contextual forms
against Unicode's presentation forms, lam-alef, connected pieces, the traced centre lines (body on the baseline,
dots apart), and words written right to left with their marks after the body; labels stay in logical order."""
import random

import numpy as np
import pytest

from inkrec_training import charset
from inkrec_training.writing import alphabets, arabic, training, writer


def test_joining_classes():
    assert {c: arabic.joining(c) for c in "ادذرزوةء"} == {
        "ا": "right", "د": "right", "ذ": "right", "ر": "right", "ز": "right", "و": "right", "ة": "right", "ء": "none"}
    assert all(arabic.joining(c) == "dual" for c in "بتجسعفكلمنهيپچگکی")


def test_contextual_forms_follow_the_neighbours():
    assert [f for _, f, _ in arabic.forms("بيت")] == ["initial", "medial", "final"]
    # alef does not join the letter after it: ب after it stands alone
    assert [f for _, f, _ in arabic.forms("كتاب")] == ["initial", "medial", "final", "isolated"]
    assert [f for _, f, _ in arabic.forms("دار")] == ["isolated", "isolated", "isolated"]  # none joins the next
    assert [f for _, f, _ in arabic.forms("جدار")] == ["initial", "final", "isolated", "isolated"]
    got = arabic.forms("بيت")
    assert [p for _, _, p in got] == ["\uFE91", "\uFEF4", "\uFE96"]  # BEH INITIAL, YEH MEDIAL, TEH FINAL
    with pytest.raises(ValueError):
        arabic.presentation_form("ب", "middle")


def test_lam_alef_is_one_glyph():
    assert arabic.forms("لا") == [("لا", "isolated", "\uFEFB")]
    got = arabic.forms("سلام")
    assert [(t, f) for t, f, _ in got] == [("س", "initial"), ("لا", "final"), ("م", "isolated")]
    assert got[1][2] == "\uFEFC"
    assert "".join(t for t, _, _ in got) == "سلام"  # the glyphs still spell the text


def test_pieces_end_where_the_joining_stops():
    assert [["".join(t for t, _, _ in p)] for p in arabic.pieces("كتاب")] == [["كتا"], ["ب"]]
    assert len(arabic.pieces("السلام")) == 3  # ا | لسلا | م


def test_every_form_the_alphabets_need_is_traced_with_its_body_on_the_baseline():
    needed = {p for c in arabic.LETTERS for f in arabic.FORM_NAMES if (p := arabic.presentation_form(c, f))}
    needed |= {p for pair in arabic.LAM_ALEF.values() for p in pair}
    for p in needed:
        adv, body, marks = arabic.glyph(p)
        assert adv > 0 and body, hex(ord(p))
        pts = np.concatenate(body)
        assert np.isfinite(pts).all()
        assert pts[:, 1].max() >= -0.25, hex(ord(p))  # the rasm reaches the baseline (y down, baseline 0)
    # dots are marks, apart from the body: ب one below, ت two above, ث three above
    assert [len(arabic.glyph(p)[2]) for p in "\uFE8F\uFE95\uFE99"] == [1, 2, 3]
    assert np.concatenate(arabic.glyph("\uFE8F")[2])[:, 1].min() > 0  # ب's dot below the baseline
    assert np.concatenate(arabic.glyph("\uFE95")[2])[:, 1].max() < 0  # ت's dots above it


def test_a_word_is_written_right_to_left_with_its_dots_after_the_body():
    rng = random.Random(3)
    for k in range(8):
        ink = arabic.write_word("كتاب", writer.RULES["Arab"], writer.heldout_writer(k), rng)
        assert ink and all(np.isfinite(s).all() for s in ink)
        times = [float(s[0, 2]) for s in ink]
        assert times == sorted(times)  # strokes come in writing order
        first_piece_x = float(ink[0][:, 0].mean())
        assert first_piece_x > float(np.concatenate(ink)[:, 0].mean())  # the word starts at its right
        # the last stroke is a dot (ب's below or ت's above): short, off the body's baseline band
        last = ink[-1]
        assert np.ptp(last[:, 0]) < 40 and np.ptp(last[:, 1]) < 40


def test_the_three_languages_generate_with_labels_in_logical_order():
    assert charset.for_language("ar") == charset.for_language("fa") == charset.for_language("ur") == "arabic"
    assert set(arabic.LETTERS) == set(charset.ARABIC_LETTERS) and "٣" in charset.ARABIC and "۳" in charset.ARABIC
    assert {alphabets.SCRIPTS[c] for c in ("ar", "fa", "ur")} == {"Arab"}
    src = training.ScriptSources(["ar", "fa", "ur"], heldout=True)
    rng = random.Random(7)
    for lang in ("ar", "fa", "ur"):
        strokes, text = src.word(rng, lang=lang)
        assert strokes and text and alphabets.writes(lang, text)
        assert not any(0xFB50 <= ord(c) <= 0xFEFF for c in text)  # never presentation forms
    strokes, text = src.line(rng, lang="ar")
    assert " " in text and len(strokes) >= 2
