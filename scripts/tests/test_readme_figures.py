"""scripts/readme_figures.py: README figures checked against the sources that the tools write."""
import os
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "readme_figures.py")
CARD = "reported words (2000): ECE of the best candidate 0.0456, of all top-5 candidates 0.0179; accuracy 84.4%\n"
README = ("Its expected calibration error is <!--fig card.md | reported words (2000): ECE of the best candidate-->0.0456<!--/fig--> "
          "and the accuracy <!--fig card.md | of all top-5 candidates 0.0179; accuracy-->84.4%<!--/fig-->.\n")


def run(tmp_path, readme, card=CARD, *args):
    (tmp_path / "card.md").write_text(card)
    (tmp_path / "README.md").write_text(readme)
    return subprocess.run([sys.executable, SCRIPT, "--root", str(tmp_path), "--readme", str(tmp_path / "README.md"), *args],
                          capture_output=True, text=True)


def test_agreeing_figures_pass(tmp_path):
    r = run(tmp_path, README)
    assert r.returncode == 0, r.stderr
    assert "2 figures agree" in r.stdout


def test_a_changed_figure_in_the_card_fails(tmp_path):
    r = run(tmp_path, README, CARD.replace("0.0456", "0.0470"))
    assert r.returncode == 1
    assert "'0.0456' but card.md says '0.0470'" in r.stderr


def test_a_changed_figure_in_the_readme_fails(tmp_path):
    r = run(tmp_path, README.replace("-->84.4%", "-->84.3%"))
    assert r.returncode == 1
    assert "'84.3%' but card.md says '84.4%'" in r.stderr


def test_a_label_gone_from_the_card_fails(tmp_path):
    r = run(tmp_path, README, "nothing here\n")
    assert r.returncode == 1 and "no line contains" in r.stderr


def test_a_split_label_takes_the_number_after_its_second_part(tmp_path):
    # "A … B": the line with A, the first number after the B that follows it (the figures before it on
    # that line may change without the label changing)
    readme = "Accuracy is <!--fig card.md | ECE of the best candidate … accuracy-->84.4%<!--/fig-->.\n"
    assert run(tmp_path, readme).returncode == 0
    r = run(tmp_path, readme, CARD.replace("0.0179", "0.0201").replace("84.4%", "85.0%"))
    assert r.returncode == 1 and "'84.4%' but card.md says '85.0%'" in r.stderr
    r = run(tmp_path, readme.replace("… accuracy", "… precision"))
    assert r.returncode == 1 and 'no "precision" after' in r.stderr


def test_update_rewrites_from_the_source(tmp_path):
    r = run(tmp_path, README, CARD.replace("0.0456", "0.0470"), "--update")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "README.md").read_text()
    assert "-->0.0470<!--/fig-->" in text and "-->84.4%<!--/fig-->" in text


def test_the_readme_agrees_with_its_sources():
    r = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
