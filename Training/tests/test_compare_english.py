"""compare_english: the words it reads are the held-out writers' tuning and monitoring slices, never the
reported ones, and its accuracy counts exact readings."""
import os
import sys
from types import SimpleNamespace

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from compare_english import accuracy, non_reported_words  # noqa: E402
from inkrec_training import data  # noqa: E402


def test_accuracy_counts_exact_readings():
    items = [SimpleNamespace(id="a", label="the"), SimpleNamespace(id="b", label="The"), SimpleNamespace(id="c", label="x")]
    assert accuracy({"a": "the", "b": "the"}, items) == pytest.approx(100 / 3)
    assert accuracy({}, []) == 0.0


def test_slices_are_not_the_reported_words():
    words = [it for it in data.load("words") if data.is_validation_writer(it.writer)]
    reported, _, _ = data.held_out_word_slices(words)
    tuning, monitoring = non_reported_words()
    ids = {it.id for it in reported}
    assert len(tuning) == 600 and len(monitoring) == 3606
    assert not ids & {it.id for it in tuning + monitoring}
