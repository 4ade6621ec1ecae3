"""splits.held_out_word_slices: the reported, tuning and monitoring words are disjoint, and are the slices
latin evaluate and latin evaluate hints report and tune on (seed-0 shuffle, 2,000 then 600)."""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import data
from inkrec_training import splits


def items(n):
    return [data.Item(id=f"w{i}", writer=f"v{i % 7}", label="x", strokes=[], kind="words") for i in range(n)]


def test_slices_are_disjoint_and_cover_the_words():
    words = items(3000)
    before = [it.id for it in words]
    reported, tuning, monitoring = splits.held_out_word_slices(words)
    assert [it.id for it in words] == before  # not shuffled in place
    assert (len(reported), len(tuning), len(monitoring)) == (2000, 600, 400)
    ids = [{it.id for it in s} for s in (reported, tuning, monitoring)]
    assert not (ids[0] & ids[1]) and not (ids[0] & ids[2]) and not (ids[1] & ids[2])
    assert set.union(*ids) == set(before)


def test_slices_are_the_seed_0_shuffle_that_the_evaluation_has_always_used():
    words = items(2700)
    shuffled = list(words)
    random.Random(0).shuffle(shuffled)  # latin evaluate before the helper: words[:2000], words[2000:2600]
    reported, tuning, monitoring = splits.held_out_word_slices(words)
    assert reported == shuffled[:2000] and tuning == shuffled[2000:2600] and monitoring == shuffled[2600:]
    small, tune_small, rest = splits.held_out_word_slices(words, reported=100)  # latin evaluate --limit 100
    assert small == shuffled[:100] and tune_small == shuffled[100:700] and rest == shuffled[700:]


def test_train_monitors_neither_reported_nor_tuning_words():
    # latin train takes the monitoring slice of the validation split; with fewer words than the reported
    # and tuning slices together there is nothing to watch rather than a reported word.
    _, _, monitoring = splits.held_out_word_slices(items(2500))
    assert monitoring == []


def test_by_writer_keeps_writing_order_the_writers_kept_and_the_minimum():
    words = [data.Item(id=f"w{i}", writer=w, label="x", strokes=[], kind="words")
             for i, w in enumerate("abacbaddba")]
    by = splits.by_writer(words)
    assert list(by) == ["a", "b", "c", "d"]  # writers in the order of their first item
    assert [it.id for it in by["a"]] == ["w0", "w2", "w5", "w9"]  # each writer's items in writing order
    assert list(splits.by_writer(words, minimum=3)) == ["a", "b"]  # a: 4 items, b: 3, d: 2, c: 1
    assert list(splits.by_writer(words, lambda w: w != "a", minimum=2)) == ["b", "d"]
    assert splits.by_writer(words, minimum=5) == {}
