"""Which character each mark stroke of a generated Arabic-script word belongs to (``arabic.write_word_with_owners``),
and how ``families/scripts/alignment.py`` scores the engine's alignment of those strokes.

The provenance must not change the ink: training data and the committed samples come from ``arabic.write_word``,
so its strokes and its draws from the random generator are pinned here (a hash of outputs computed before the
provenance was added) and compared with ``write_word_with_owners`` for the same seeds."""
import collections
import dataclasses
import hashlib
import json
import random

import numpy as np

from inkrec_training.families.scripts import alignment
from inkrec_training.writing import arabic, writer

RULES = writer.RULES["Arab"]
WORDS = ["كتاب", "بيت", "شجرة", "لأن", "پنجره", "ٹوپی", "مسئولیت"]
SEEDS = (1, 2, 5)
# sha256 of write_word's strokes (rounded to 0.01 unit) and the next draw of its rng, for WORDS × SEEDS with
# writer heldout_writer(3 * seed): computed with the arabic.py that had no provenance.
PINNED = "8f8ae8545da01b46619116fb819c6b49dd1ec29eb6a9032bffa2a3c560f81ef9"
# Letters whose traced forms have marks (dots, hamza, madda, the small kaf stroke, gaf's bar, the small tah).
MARKED = set("أؤإئبةتثجخذزشضظغفقكنيپچژگٹڈڑیۓآ")


def _written(w: str, seed: int, owners: bool = False):
    """``w`` written by held-out writer 3·seed from ``random.Random(seed)``, and the rng's next draw."""
    rng = random.Random(seed)
    write = arabic.write_word_with_owners if owners else arabic.write_word
    got = write(w, RULES, writer.heldout_writer(3 * seed), rng)
    return got, rng.random()


def test_write_word_is_unchanged():
    h = hashlib.sha256()
    for w in WORDS:
        for seed in SEEDS:
            ink, nxt = _written(w, seed)
            for s in ink:
                h.update((np.round(s, 2) + 0.0).tobytes())
            h.update(f"{nxt:.9f}".encode())
    assert h.hexdigest() == PINNED


def test_with_owners_writes_the_same_strokes_from_the_same_draws():
    for w in WORDS + ["السلام", "ثلاثة", "يتضح", "لإظهار"]:
        for seed in SEEDS + (11, 23):
            ink, nxt = _written(w, seed)
            (strokes, owners), nxt2 = _written(w, seed, owners=True)
            assert len(strokes) == len(owners) == len(ink)
            assert all(np.array_equal(a, b) for a, b in zip(ink, strokes))
            assert nxt == nxt2


def test_each_mark_stroke_belongs_to_a_letter_with_marks_and_body_strokes_to_none():
    for w in WORDS + ["ثلاثة", "يتضح", "شيء"]:
        expected = collections.Counter(o for p in arabic.word_pieces(w) for o in p.owners)
        for seed in SEEDS:
            (_, owners), _ = _written(w, seed, owners=True)
            got = collections.Counter(o for o in owners if o is not None)
            assert got == expected, (w, seed)  # every mark written once, none lost to the body
            assert all(w[o] in MARKED for o in got), (w, owners)
            assert None in owners  # the bodies
    # as many mark strokes as the letter's traced form has marks: ب one, ت two, ث three
    assert collections.Counter(o for p in arabic.word_pieces("بتث") for o in p.owners) == {0: 1, 1: 2, 2: 3}


def test_lam_alef_marks_belong_to_the_alef():
    for w, alef in (("لأن", 1), ("لإظهار", 2)):
        owners = [o for p in arabic.word_pieces(w) for o in p.owners]
        assert alef in owners and all(w[o] != "ل" for o in owners)
    assert arabic.mark_owner("لأ", 4) == 5 and arabic.mark_owner("ب", 4) == 4


def test_marks_lie_right_to_left_in_text_order():
    """With a writer who swaps neighbouring strokes every time (so ``written_order`` must follow the swap) and
    otherwise writes tidily, the marks of earlier letters lie further right."""
    style = dataclasses.replace(writer.heldout_writer(1), swap=1.0, slant=0.0, rotation=0.0, elastic=0.0,
                                stroke_angle=0.02, stroke_shift=0.005, size_var=0.02)
    for w in ("بيت", "نتيجة", "پنجره"):
        for seed in range(6):
            strokes, owners = arabic.write_word_with_owners(w, RULES, style, random.Random(seed))
            centre = {o: np.mean([float(s[:, 0].mean()) for s, oo in zip(strokes, owners) if oo == o])
                      for o in set(owners) - {None}}
            order = sorted(centre)
            assert [centre[o] for o in order] == sorted(centre.values(), reverse=True), (w, seed, centre)


def test_written_order_follows_a_swap_without_drawing():
    style = dataclasses.replace(writer.heldout_writer(2), swap=1.0)
    parts = [np.column_stack([np.linspace(0, 1, n), np.full(n, 0.1 * n)]) for n in (5, 2, 7, 3, 4)]
    for seed in range(20):
        rng = random.Random(seed)
        state = rng.getstate()
        order = arabic.written_order(parts, style, rng, (0.5, -0.5))
        assert rng.getstate() == state  # nothing drawn
        assert sorted(order) == list(range(len(parts))) and order != list(range(len(parts)))  # one swap
        written = writer.char_strokes(parts, style, rng, centre=(0.5, -0.5), join_reach=0.0)
        assert [len(s) for s in written] == [len(parts[k]) for k in order]


# ------------------------------------------------------------------------------------------- scoring

def _segments(*characters):
    """A candidate's characters from (text, [(stroke, first point, end point), …])."""
    return [{"text": t, "strokes": [{"stroke": s, "points": [a, b]} for s, a, b in spans]} for t, spans in characters]


def test_scoring_counts_the_marks_of_words_read_right():
    # بيت: strokes 0, 1 bodies; 2 ب's dot; 3, 4 ي's dots; 5, 6 ت's dots.
    word = alignment.MarkWord("w", "ar", "بيت", [], [None, None, 0, 1, 1, 2, 2])
    right = {"candidates": [{"text": "بيت", "characters": _segments(
        ("ب", [(0, 0, 10), (2, 0, 1)]),
        ("ي", [(1, 0, 5), (3, 0, 1), (6, 0, 1)]),        # ت's dot 6 went to ي
        ("ت", [(1, 5, 9), (4, 0, 3), (5, 0, 1)]),        # ي's dot 4 went to ت
    )}]}
    assert alignment.word_marks(word, right) == [(0, 0), (1, 1), (1, 2), (2, 2), (2, 1)]
    misread = {"candidates": [{"text": "بنت", "characters": []}]}
    assert alignment.word_marks(word, misread) is None and alignment.word_marks(word, {}) is None
    r = alignment.summarize([word, dataclasses.replace(word, id="x")], {"w": right, "x": misread})
    assert (r["words"], r["read_right"], r["mark_strokes"], r["assigned_right"]) == (2, 1, 5, 3)
    assert r["share"] == 0.6
    assert {(c["mark_of"], c["went_to"], c["count"]) for c in r["confusions"]} == {("ي", "ت", 1), ("ت", "ي", 1)}
    total = alignment.merged([r, r])
    assert total["mark_strokes"] == 10 and total["share"] == 0.6 and total["confusions"][0]["count"] == 2


def test_a_stroke_goes_to_the_character_holding_most_of_it():
    characters = _segments(("ب", [(0, 0, 3)]), ("ي", [(0, 3, 10)]), ("ت", []))
    assert alignment.holder(characters, 0) == 1
    assert alignment.holder(characters, 7) is None
    word = alignment.MarkWord("w", "ar", "بيت", [], [None, None, None, None, None, None, None, 2])
    r = alignment.summarize([word], {"w": {"candidates": [{"text": "بيت", "characters": characters}]}})
    assert r["confusions"] == [{"mark_of": "ت", "went_to": alignment.NONE, "count": 1}]
    # a character of two code points (a letter and a mark) shifts the indices of the ones after it
    assert alignment.character_starts(_segments(("بّ", []), ("ت", []))) == [0, 2]


def test_the_batch_file_has_the_strokes_and_the_label(tmp_path):
    words = alignment.mark_words("ar", 3, seed=5)
    assert len(words) == 3 and all(any(o is not None for o in w.owners) for w in words)
    path = tmp_path / "b.jsonl"
    alignment.write_batch(words, str(path))
    lines = [json.loads(l) for l in path.read_text(encoding="utf-8").splitlines()]
    assert [l["id"] for l in lines] == [w.id for w in words] and lines[0]["label"] == words[0].label
    assert len(lines[0]["strokes"]) == len(words[0].owners) and len(lines[0]["strokes"][0][0]) == 2
