"""``scripts evaluate models``: the decoder sweep's choice among ties, and the README table's lines column."""
from inkrec_training.families.scripts import evaluate


def _tried(grid: dict) -> list:
    """(key, row, column, entry) of a grid {(row, column): key}."""
    return [(key, i, j, {"lmWeight": i, "insertionBonus": j}) for (i, j), key in sorted(grid.items())]


def test_a_single_best_pair_is_taken_wherever_it_is():
    grid = {(i, j): (0.9, -0.02) for i in range(3) for j in range(3)}
    grid[(0, 2)] = (0.95, -0.01)  # at the grid's corner
    assert evaluate.middle_of_best(_tried(grid)) == {"lmWeight": 0, "insertionBonus": 2}


def test_ties_take_the_middle_of_the_plateau_not_the_first_pair():
    grid = {(i, j): (0.98, -0.001) for i in range(5) for j in range(5)}
    for i in range(1, 5):
        for j in range(5):
            grid[(i, j)] = (1.0, 0.0)  # rows 1-4 tie; row 0 is worse
    got = evaluate.middle_of_best(_tried(grid))
    assert got == {"lmWeight": 2, "insertionBonus": 2}  # mean position (2.5, 2): nearest, earliest of equals
    first = max(_tried(grid), key=lambda t: t[0])[3]  # what a plain max would take: the first of the ties
    assert first == {"lmWeight": 1, "insertionBonus": 0}


def test_a_lower_cer_breaks_an_accuracy_tie_before_the_middle_does():
    grid = {(0, 0): (1.0, -0.001), (1, 1): (1.0, 0.0), (2, 2): (1.0, -0.001)}
    assert evaluate.middle_of_best(_tried(grid)) == {"lmWeight": 1, "insertionBonus": 1}


def test_readme_rows_without_lines_get_an_empty_lines_cell(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    readme.write_text(f"x\n{evaluate.TABLE_BEGIN}\n| model | … |\n| --- |\n"
                      "| `ru` | Russian | — | 2.00 MB | 100.0% | 0.0% | 85.5% | 4.1% |\n"
                      f"\nnote\n{evaluate.TABLE_END}\n", encoding="utf-8")
    monkeypatch.setattr(evaluate, "ROOT", str(tmp_path))
    model = tmp_path / "Models" / "th"
    model.mkdir(parents=True)
    (model / "lm.bin").write_bytes(b"\0" * 1_961_263)
    r = {"identifier": "th", "model": "Models/th",
         "generated": {"word_acc": 0.97, "cer": 0.005}, "real_letters": None, "lines": {"cer": 0.012}}

    class Args:
        words = 200
    evaluate.write_readme_table({"th": r}, Args())
    text = readme.read_text(encoding="utf-8")
    assert "| `ru` | Russian | — | 2.00 MB | 100.0% | 0.0% | 85.5% | 4.1% | — |" in text
    assert "| `th` | Thai | — | 1.96 MB | 97.0% | 0.5% | — | — | 1.2% |" in text
    assert "generated lines CER" in text


def test_score_counts_character_edits_over_every_wrong_reading():
    from inkrec_training import data
    items = [data.Item(f"l{k}", "", ref, [], "line") for k, ref in enumerate(["กขค", "กขค", "abcd", "ok"])]
    hyps = {"l0": "กฃค", "l1": "กฃค", "l2": "abd", "l3": "ok"}
    r = evaluate.score(items, hyps)
    assert r["word_acc"] == 0.25
    assert {"ref": "ข", "hyp": "ฃ", "count": 2} in r["edits"]
    assert {"ref": "c", "hyp": "", "count": 1} in r["edits"]
    assert "→ (nothing) (1)" in evaluate._edits(r)


def test_a_pruning_is_acceptable_only_where_the_tuning_figures_hold():
    from inkrec_training.families.scripts.pruning import acceptable
    before = {"generated": {"word_acc": 0.965, "cer": 0.008}, "lines": {"cer": 0.0095}}
    same = {"generated": {"word_acc": 0.965, "cer": 0.008}, "lines": {"cer": 0.0095}}
    assert acceptable(before, same, 0.1)
    assert not acceptable(before, {**same, "generated": {"word_acc": 0.96, "cer": 0.008}}, 0.1)  # a word fewer
    assert not acceptable(before, {**same, "lines": {"cer": 0.0095 + 0.0013}}, 0.1)  # Tamil's 0.17% -> 0.30%
    assert acceptable(before, {**same, "lines": {"cer": 0.0095 + 0.0009}}, 0.1)
    assert acceptable({"generated": before["generated"], "lines": None}, {"generated": before["generated"], "lines": None}, 0.1)
