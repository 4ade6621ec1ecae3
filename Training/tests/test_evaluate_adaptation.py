"""The writer-adaptation evaluation (issue 41): how lines are scored."""
from types import SimpleNamespace

from inkrec_training.families.latin.evaluate_adaptation import score_lines


def test_lines_count_word_edits_and_character_edits():
    items = [SimpleNamespace(id="a", label="the quick fox"), SimpleNamespace(id="b", label="over it")]
    hyps = {"a": "the quack fox", "b": "over it too"}
    werr, words, cerr, chars = score_lines(items, hyps)
    assert (werr, words) == (2, 5)  # one word substituted, one inserted
    assert (cerr, chars) == (1 + 4, 13 + 7)
    # A line not read at all counts every word and character as an error.
    assert score_lines(items[:1], {}) == (3, 3, 13, 13)
