"""The drawn cursive Hebrew letters (inkrec_training/writing/hebrew.py) and right-to-left writing in the kit:
coverage of the alphabet, where letters sit on the lines (descenders of the final forms, ל's ascender), the
variants and held-out split, and words and lines written right to left by the writer model (the first letter
and the first word rightmost, the strokes in writing order)."""
import dataclasses
import random

import numpy as np
import pytest

from inkrec_training import charset
from inkrec_training.writing import alphabets, hebrew, training, writer

DESCENDERS = "ךןףץק"


def test_every_letter_of_the_alphabet_is_drawn_and_nothing_else():
    assert set(hebrew.LETTERS) == set(alphabets.ALPHABETS["he"])
    assert len(hebrew.LETTERS) == 27
    assert alphabets.SCRIPTS["he"] == "Hebr" and alphabets.script_of("ש") == "Hebr"
    assert hebrew.letter("a") is None and hebrew.letter("\u05b7") is None  # Latin and a vowel point: not drawn


@pytest.mark.parametrize("c", list(hebrew.LETTERS))
def test_letters_sit_on_the_lines(c):
    for v in range(len(hebrew.TEMPLATES[c])):
        strokes, marks = hebrew.letter(c, v)
        assert marks == ()
        p = np.concatenate(strokes)
        assert np.isfinite(p).all() and -0.1 <= p[:, 0].min() <= 0.1, (c, v)  # left edge near 0
        top, bottom = p[:, 1].min(), p[:, 1].max()
        if c in DESCENDERS:
            assert bottom >= 0.4, (c, v)
        elif c == "י":
            assert -0.75 <= bottom <= -0.45  # a tick hanging from the x-height
        else:
            assert -0.15 <= bottom <= 0.12, (c, v)  # on the baseline
        if c == "ל":
            assert top <= -1.45  # the ascender
        elif c not in "אגטםצףץז":  # letters whose top may rise a little above the x-height
            assert top >= -1.06, (c, v)


def test_final_forms_differ_from_their_letters():
    for base, final in hebrew.FINALS.items():
        a, b = np.concatenate(hebrew.letter(base, 0)[0]), np.concatenate(hebrew.letter(final, 0)[0])
        assert a.shape != b.shape or not np.allclose(a, b), (base, final)


def test_held_out_variant_is_the_last_and_training_can_leave_it_out():
    assert set(hebrew.HELDOUT_VARIANT) == {c for c, v in hebrew.TEMPLATES.items() if len(v) >= 2}
    for c, h in hebrew.HELDOUT_VARIANT.items():
        assert h not in hebrew.training_variants(c)
        assert h in hebrew.training_variants(c, hold_out_forms=False)
    with pytest.raises(IndexError):
        hebrew.letter("ב", 9)


def test_a_word_is_written_right_to_left_in_writing_order():
    assert writer.RULES["Hebr"].writing == "rtl" and writer.RULES["Latn"].writing == "ltr"
    rules = dataclasses.replace(writer.RULES["Hebr"], letter_join=0.0)
    rng = random.Random(5)
    style = dataclasses.replace(writer.heldout_writer(3), join=0.0)
    # ו and ס: one stroke each, not joined here, so the first stroke is the first letter.
    for _ in range(5):
        got = writer.write_word(hebrew.word("וס", rng), rules, style, rng)
        assert len(got) == 2
        first, last = got[0], got[-1]
        assert first[:, 0].mean() > last[:, 0].mean()  # the first letter is to the right
        assert first[-1, 2] <= last[0, 2]               # and written first
    # the same letters through the Latin rules go left to right
    got = writer.write_word(hebrew.word("וס", rng), dataclasses.replace(rules, writing="ltr"), style, rng)
    assert got[0][:, 0].mean() < got[-1][:, 0].mean()


def test_generated_lines_run_right_to_left():
    src = training.ScriptSources(["he"], heldout=True)
    rng = random.Random(11)
    checked = 0
    while checked < 5:
        got = src.line(rng, keep_time=True)
        if got is None:
            continue
        strokes, text = got
        assert all(c in charset.HEBREW or c == " " for c in text)
        order = sorted(strokes, key=lambda s: s[0, 2])
        # the first stroke written is right of the last letter stroke written before any punctuation
        body = [s for s in order if np.ptp(s[:, 1]) > 10 or np.ptp(s[:, 0]) > 10]
        assert body[0][:, 0].mean() > body[-1][:, 0].mean()
        checked += 1


def test_hebrew_character_set_and_language():
    assert charset.for_language("he") == "hebrew"
    s = charset.SETS["hebrew"]
    assert s[:len(charset.LATIN)] == charset.LATIN  # the Latin network's classes stay first
    assert set(hebrew.LETTERS) <= set(s) and "\u20aa" in s and "\u05f4" in s
    assert not any(0x0591 <= ord(c) <= 0x05C7 and c != "\u05be" for c in s)  # no points or cantillation
