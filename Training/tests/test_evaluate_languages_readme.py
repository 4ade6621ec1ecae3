"""evaluate_languages.write_readme_table: the README's generated language table is replaced between its two
markers, and what follows the end marker (the Japanese and Chinese paragraph) is kept; without an end marker
the table runs to the next section, as before."""
import argparse
import os

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin import evaluate_languages


def result(model: str) -> dict:
    return {"model": model, "word_acc": 0.875, "cer": 0.031, "accented_cer": 0.1, "accented_letters": 20,
            "writers": 11, "words": 200}


def write(tmp_path, monkeypatch, readme: str) -> str:
    (tmp_path / "Models" / "de").mkdir(parents=True)
    (tmp_path / "Models" / "de" / "lm.bin").write_bytes(b"x" * 1_500_000)
    (tmp_path / "README.md").write_text(readme, encoding="utf-8")
    monkeypatch.setattr(evaluate_languages, "ROOT", str(tmp_path))
    evaluate_languages.write_readme_table({"de": result("Models/de")}, argparse.Namespace(words=200))
    return (tmp_path / "README.md").read_text(encoding="utf-8")


def test_the_table_between_the_markers_is_replaced_and_what_follows_is_kept(tmp_path, monkeypatch):
    text = write(tmp_path, monkeypatch, "# T\n\nintro\n\n<!-- languages-table -->\n| old | row |\n\nold note\n"
                 "<!-- /languages-table -->\n\n**Japanese and Chinese** stay.\n\n## Pages\n")
    assert "| old | row |" not in text and "old note" not in text
    assert "| `de` | German | — | 1.50 MB | 87.5% | 3.1% | 10.0% of 20 |" in text
    assert text.count("<!-- /languages-table -->") == 1
    assert text.endswith("<!-- /languages-table -->\n\n**Japanese and Chinese** stay.\n\n## Pages\n")
    assert text.startswith("# T\n\nintro\n\n<!-- languages-table -->\n| model |")


def test_without_an_end_marker_the_table_runs_to_the_next_section(tmp_path, monkeypatch):
    text = write(tmp_path, monkeypatch, "<!-- languages-table -->\n| old | row |\n\n## Pages\n")
    assert "| old | row |" not in text and "| `de` | German |" in text
    assert text.endswith("<!-- /languages-table -->\n\n## Pages\n")


def test_rows_of_models_not_evaluated_stay_and_the_rows_are_sorted(tmp_path, monkeypatch):
    text = write(tmp_path, monkeypatch, "<!-- languages-table -->\n| model | h |\n| --- | --- |\n"
                 "| `vi` | Vietnamese | — | 1.99 MB | 80.0% | 5.0% | 9.0% of 300 |\n"
                 "| `de` | German | — | 2.00 MB | 1.0% | 99.0% | 99.0% of 1 |\n\nnote\n<!-- /languages-table -->\n")
    assert "| `vi` | Vietnamese | — | 1.99 MB | 80.0% | 5.0% | 9.0% of 300 |" in text  # kept as it was
    assert "99.0%" not in text  # de's old row replaced
    assert text.index("| `de` | German | — | 1.50 MB") < text.index("| `vi` |")
