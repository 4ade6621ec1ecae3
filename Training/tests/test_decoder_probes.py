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
