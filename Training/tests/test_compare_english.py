"""compare_english: the words it reads are the held-out writers' tuning and monitoring slices, never the
reported ones, and its accuracy counts exact readings."""
import json
import os
from types import SimpleNamespace

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin.compare_english import accuracy, lead_report, non_reported_words, with_view_beam_width, without_margin  # noqa: E402
from inkrec_training import data
from inkrec_training import splits


def test_accuracy_counts_exact_readings():
    items = [SimpleNamespace(id="a", label="the"), SimpleNamespace(id="b", label="The"), SimpleNamespace(id="c", label="x")]
    assert accuracy({"a": "the", "b": "the"}, items) == pytest.approx(100 / 3)
    assert accuracy({}, []) == 0.0


@pytest.mark.needs_data("words")
def test_slices_are_not_the_reported_words():
    words = [it for it in data.load("words") if splits.is_validation_writer(it.writer)]
    reported, _, _ = splits.held_out_word_slices(words)
    tuning, monitoring = non_reported_words()
    ids = {it.id for it in reported}
    assert len(tuning) == 600 and len(monitoring) == 3606
    assert not ids & {it.id for it in tuning + monitoring}


def test_lead_report_counts_changes_and_what_each_margin_keeps_out():
    items = [SimpleNamespace(id=k) for k in "abcde"]
    without = {"a": [("x", -1.0), ("y", -1.5)],   # lead 0.5, changed by the views
               "b": [("x", -1.0), ("y", -4.0)],   # lead 3, changed
               "c": [("x", -1.0), ("y", -9.0)],   # lead 8, unchanged
               "d": [("x", -1.0)],                # one candidate: lead +inf
               "e": []}                           # nothing read: not counted
    with_views = {"a": [("y", -1.2)], "b": [("y", -2.0)], "c": [("x", -1.0)], "d": [("x", -1.0)]}
    r = lead_report(without, with_views, items, [1.0, 5.0])
    assert r["read"] == 4
    assert r["changed_leads"] == [0.5, 3.0]
    assert r["margins"][1.0] == (75.0, 1)   # b, c, d not re-read; b's change lost
    assert r["margins"][5.0] == (50.0, 0)   # c, d not re-read; nothing lost


def model_tree(tmp_path, config: dict):
    """``tmp_path/Models`` with a shared ``net/weights.bin`` and a model ``en`` whose ``config.json`` is
    ``config`` (beside an ``lm.bin``); returns the model's folder."""
    models = tmp_path / "Models"
    (models / "net").mkdir(parents=True)
    (models / "net" / "weights.bin").write_bytes(b"w")
    (models / "en").mkdir()
    (models / "en" / "config.json").write_text(json.dumps(config))
    (models / "en" / "lm.bin").write_bytes(b"lm")
    return models / "en"


def test_without_margin_drops_only_the_margin(tmp_path):
    config = {"network": {"weights": "../net/weights.bin"},
              "decoder": {"lmWeight": 1.0, "viewRescoring": {"stretches": [0.9], "weight": 1.0, "margin": 5.0}}}
    model = model_tree(tmp_path, config)
    (tmp_path / "copy").mkdir()
    out = without_margin(str(model), str(tmp_path / "copy"))
    got = json.loads(open(os.path.join(out, "config.json")).read())
    assert got["decoder"]["viewRescoring"] == {"stretches": [0.9], "weight": 1.0}
    assert got["decoder"]["lmWeight"] == 1.0
    assert open(os.path.join(out, "lm.bin"), "rb").read() == b"lm"
    assert open(os.path.join(out, "..", "net", "weights.bin"), "rb").read() == b"w"
    assert json.loads((model / "config.json").read_text()) == config  # the model is not changed


def test_with_view_beam_width_sets_or_drops_the_width(tmp_path):
    config = {"network": {"weights": "../net/weights.bin"},
              "decoder": {"viewRescoring": {"stretches": [0.9], "weight": 1.0, "margin": 5.0, "beamWidth": 16}}}
    model = model_tree(tmp_path, config)
    for width, want in [(8, {"stretches": [0.9], "weight": 1.0, "margin": 5.0, "beamWidth": 8}),
                        (None, {"stretches": [0.9], "weight": 1.0, "margin": 5.0})]:
        tmp = tmp_path / f"copy-{width}"
        tmp.mkdir()
        out = with_view_beam_width(str(model), str(tmp), width)
        assert json.loads(open(os.path.join(out, "config.json")).read())["decoder"]["viewRescoring"] == want
    assert json.loads((model / "config.json").read_text()) == config  # the model is not changed
