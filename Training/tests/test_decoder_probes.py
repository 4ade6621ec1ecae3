"""The decoder-adaptation probes (issue 41): the cache LM of a writer's words is a distribution."""
import pytest

from inkrec_training.families.latin.decoder_probes import Cache


def test_the_cache_gives_a_distribution_that_favours_what_it_saw():
    symbols, space = 6, 5
    cache = Cache([[1, 2, 3], [1, 2, 4]], order=3, space=space)
    for context in ([0], [0, 1], [0, 1, 2], [3, 3]):
        total = sum(cache.probability(context, c, symbols) for c in range(1, symbols + 1))
        assert total == pytest.approx(1.0)
    assert cache.probability([0, 1], 2, symbols) > 0.5  # "1 2" twice in two words
    assert cache.probability([0, 1, 2], 3, symbols) == pytest.approx(cache.probability([0, 1, 2], 4, symbols))
    assert cache.context_count([0, 1]) == 2 and cache.context_count([4, 4]) == 0


def test_text_fit_scores_each_word_and_its_end_as_the_swift_side_does():
    from types import SimpleNamespace
    import math
    from inkrec_training.families.latin.decoder_probes import text_fit
    calls = []

    def logprob(context, c):
        calls.append((tuple(context), c))
        return -1.0

    lm = SimpleNamespace(alphabet=["a", "b", " "], logprob=logprob, unknown_logprob=-30.0)
    labels = {"a", "b", "c", " "}
    # "ab": a, b, then the space as its end; "漢" is outside the labels (skipped: the word scores nothing).
    assert text_fit(lm, ["ab", "漢"], labels) == pytest.approx(1.0)
    assert calls == [((0,), 1), ((0, 1), 2), ((0, 1, 2), 3)]
    # "c" is a label the LM does not know: its unknown log-probability, and the context starts empty.
    calls.clear()
    assert text_fit(lm, ["ca"], labels) == pytest.approx((30 + 1 + 1) / 3)
    assert calls == [((), 1), ((1,), 3)]
    assert text_fit(lm, ["漢"], labels) == math.inf
