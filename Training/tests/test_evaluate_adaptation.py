"""The writer-adaptation evaluation (issue 41): how lines are scored, what ``inkrec adapt`` prints."""
from types import SimpleNamespace

import pytest

import numpy as np

from inkrec_training.data import Item
from inkrec_training.families.latin.evaluate_adaptation import composed_lines, parse_adapt, score_lines, seeds_summary


def test_lines_count_word_edits_and_character_edits():
    items = [SimpleNamespace(id="a", label="the quick fox"), SimpleNamespace(id="b", label="over it")]
    hyps = {"a": "the quack fox", "b": "over it too"}
    werr, words, cerr, chars = score_lines(items, hyps)
    assert (werr, words) == (2, 5)  # one word substituted, one inserted
    assert (cerr, chars) == (1 + 4, 13 + 7)
    # A line not read at all counts every word and character as an error.
    assert score_lines(items[:1], {}) == (3, 3, 13, 13)


def test_adapt_output_gives_learning_time_and_suggested_model():
    learned = "/tmp/p.bin: learned from 50 pairs in 1.23 s (50 in all); 218716 bytes; active\n"
    other = ("language: the confirmed texts read as de (2.16 nats per character), not en-US (4.00): "
             "recognize with --model-directory /x/Models/de and this profile\n")
    same = "language: en-US fits the confirmed texts (1.84 nats per character over 281 characters); no other of the 26 models on its network fits them clearly better\n"
    assert parse_adapt(learned + other) == (1.23, "/x/Models/de")
    assert parse_adapt(learned + same) == (1.23, None)
    with pytest.raises(RuntimeError):  # no language line: inkrec was not asked, or its output changed
        parse_adapt(learned)


@pytest.mark.parametrize("setting, option, value", [("SEED", "--seed", 7),
                                                     ("CHECK_STEPS", "--check-steps", 0)])  # 0 is a setting: no check
def test_adapt_passes_a_setting_only_when_it_is_set(monkeypatch, tmp_path, setting, option, value):
    from inkrec_training.families.latin import evaluate_adaptation as ea
    calls = []
    monkeypatch.setattr(ea.subprocess, "run", lambda argv, **kw: calls.append(argv) or SimpleNamespace(stderr=""))
    monkeypatch.setattr(ea.engine, "ink_object", lambda it, text: {"strokes": [], "text": text})
    items = [SimpleNamespace(label="hello")]
    ea.adapt("inkrec", "/m", items, str(tmp_path / "p.jsonl"), str(tmp_path / "o.bin"))
    monkeypatch.setattr(ea, setting, value)
    ea.adapt("inkrec", "/m", items, str(tmp_path / "p.jsonl"), str(tmp_path / "o.bin"))
    assert option not in calls[0]
    assert calls[1][calls[1].index(option) + 1] == str(value)


def test_adapt_follows_the_language_when_asked(monkeypatch, tmp_path):
    from inkrec_training.families.latin import evaluate_adaptation as ea
    calls = []
    out = ("o.bin: learned from 1 pairs in 0.50 s (1 in all); 218732 bytes; active\n"
           "language: the confirmed texts read as de (2.16 nats per character), not en-US (4.00): "
           "recognize with --model-directory /x/Models/de and this profile\n")
    monkeypatch.setattr(ea.subprocess, "run", lambda argv, **kw: calls.append(argv) or SimpleNamespace(stderr=out))
    monkeypatch.setattr(ea.engine, "ink_object", lambda it, text: {"strokes": [], "text": text})
    items = [SimpleNamespace(label="hallo")]
    assert ea.adapt("inkrec", "/m", items, str(tmp_path / "p.jsonl"), str(tmp_path / "o.bin"), follow=True) == (0.5, "/x/Models/de")
    assert "--follow-language" in calls[0] and "--suggest-language" not in calls[0]
    ea.adapt("inkrec", "/m", items, str(tmp_path / "p.jsonl"), str(tmp_path / "o.bin"), suggest=True)
    assert "--suggest-language" in calls[1] and "--follow-language" not in calls[1]


def test_composed_lines_are_the_words_in_order_side_by_side_and_the_same_each_run():
    def word(i, label):
        s = np.array([[0.0, 0.0], [10.0, 20.0], [20.0, 0.0]]) + np.array([100.0 * i, 7.0 * i])
        return Item(id=f"w{i}", writer="x", label=label, strokes=[s, s + 1.0], kind="words")
    words = [word(i, l) for i, l in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])]
    lines = composed_lines("x", words)
    assert [it.label for it in lines] == ["one two three four", "five six seven eight"]  # "nine" alone is left out
    assert all(len(it.strokes) == 8 for it in lines)  # every stroke of its four words
    first = lines[0].strokes
    # Each word keeps its shape, moved as a whole, and starts right of the word before it.
    for k in range(4):
        assert np.allclose(first[2 * k] - first[2 * k][0], words[k].strokes[0] - words[k].strokes[0][0])
    assert all(first[2 * k + 2][:, 0].min() > first[2 * k][:, 0].max() for k in range(3))
    again = composed_lines("x", words)
    assert all(np.array_equal(a, b) for la, lb in zip(lines, again) for a, b in zip(la.strokes, lb.strokes))


def test_seeds_summary_gives_each_seeds_words_gained_their_mean_and_spread():
    def run(changes):  # episodes of 100 words each, changes in word accuracy
        return {"words_gained": round(100 * sum(changes)), "wer_relative_change": -sum(changes) / 10,
                "worse_than_2_points": sum(c < -0.02 for c in changes)}
    out = seeds_summary({41: run([0.05, -0.03]), 1: run([0.10, 0.01]), 2: run([-0.04, 0.0])})
    assert out["words_gained"] == {"41": 2, "1": 11, "2": -4}
    assert out["mean_words_gained"] == pytest.approx(3.0)
    assert out["spread_words"] == 15
    assert out["worse_than_2_points"] == {"41": 1, "1": 0, "2": 1}
    assert out["mean_wer_relative_change"] == pytest.approx((-0.002 - 0.011 + 0.004) / 3)


def _row(words, base, k, suggested=None):
    """A per-writer row as ``evaluate`` writes it: accuracies without a profile and with each K's."""
    row = {"words": words, "base": base}
    for K, acc in zip((10, 20, 50), k):
        row[f"k{K}"] = acc
        row[f"suggested{K}"] = suggested
    return row


def test_own_language_summary_leaves_out_the_writers_another_model_was_suggested_for():
    from inkrec_training.families.latin.evaluate_adaptation import own_language_summary
    rows = {"a": _row(20, 0.80, (0.80, 0.85, 0.90)),            # 4 errors → 3 → 2
            "b": _row(30, 0.90, (0.90, 0.90, 0.8666666666666667)),  # 3 → 3 → 4: one word lost at K = 50
            "de": _row(50, 0.20, (0.20, 0.20, 0.20), suggested="de")}
    # A suggestion at one K is enough to leave a writer out.
    rows["x"] = {**_row(10, 0.5, (0.5, 0.5, 0.5)), "suggested20": "fr"}
    out = own_language_summary(rows, (10, 20, 50))
    assert out["writers"] == ["a", "b"]
    assert (out["words"], out["base_word_errors"]) == (50, 7)
    assert out["k20"]["word_errors"] == 6 and out["k50"]["word_errors"] == 6
    assert out["k20"]["wer_relative_change"] == pytest.approx(-1 / 7)
    assert out["k50"]["worst_writer_change"] == pytest.approx(-1 / 30)
    assert out["k10"]["wer_relative_change"] == 0.0


def test_reported_seeds_summary_gives_each_seeds_figures_and_their_range():
    from inkrec_training.families.latin.evaluate_adaptation import reported_seeds_summary, seeds_table

    def run(k50, worst50, own50, cross):
        pooled = {f"{n}{K}": {"wer_relative_change": v, "worst_writer_change": 0.0}
                  for n, K, v in (("k", 50, k50), ("k", 20, -0.05), ("langprof", 50, -0.3), ("langprof", 20, -0.27))}
        pooled["k50"]["worst_writer_change"] = worst50
        return {"pooled": pooled, "own_language": {"k50": {"wer_relative_change": own50}, "k20": {"wer_relative_change": -0.1}},
                "cross_writer": {"mean_change": cross}}
    out = reported_seeds_summary({41: run(-0.088, -0.013, -0.175, -0.0109), 1: run(-0.102, -1 / 30, -0.201, -0.0158)})
    assert out["seeds"] == ["41", "1"]
    assert out["per_seed"]["1"]["worst50"] == pytest.approx(-3.333, abs=1e-3)  # points
    assert out["range"]["k50"] == [-0.102, -0.088]
    assert out["range"]["own50"] == [-0.201, -0.175]
    assert out["range"]["cross_writer"] == pytest.approx([-1.58, -1.09])
    table = seeds_table(out).splitlines()
    assert len(table) == 4 and table[2].startswith("| 41 | -8.8% | -5.0% | -30.0% |")
    assert table[3].endswith("| -3.3 | +0.0 | -1.6 |")


def test_seeds_are_comma_separated_integers_each_once():
    import argparse
    from inkrec_training.families.latin.evaluate_adaptation import seed_list
    assert seed_list("41,1,2") == [41, 1, 2]
    for bad in ("41,,2", "x", "1,1"):
        with pytest.raises(argparse.ArgumentTypeError):
            seed_list(bad)


@pytest.mark.parametrize("extra", [["--seed", "3"], ["--picture", "p.svg"], ["--lines-only"]])
def test_seeds_without_tuning_refuse_what_goes_with_one_run(capsys, extra):
    from inkrec_training.families.latin.evaluate_adaptation import main
    with pytest.raises(SystemExit) as e:
        main(["--inkrec", "/nonexistent/inkrec", "--seeds", "41,1", *extra])
    assert e.value.code == 2
    assert "--seeds runs the words protocol once per seed" in capsys.readouterr().err


def test_pair_counts_need_20_and_50_and_a_pool_that_holds_them(capsys):
    import argparse
    from inkrec_training.families.latin.evaluate_adaptation import k_list, main
    assert k_list("20,50,100") == (20, 50, 100)
    for bad in ("10,50", "50,20", "0,20,50", "20,20,50", "a"):
        with pytest.raises(argparse.ArgumentTypeError):
            k_list(bad)
    with pytest.raises(SystemExit):
        main(["--inkrec", "/nonexistent/inkrec", "--ks", "20,50,100"])  # the default pool is 50
    assert "--ks 100 is more than --pool 50" in capsys.readouterr().err
