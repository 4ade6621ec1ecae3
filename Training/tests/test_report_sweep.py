"""report_sweep.candidates: the rows of the comparison — a sweep's sizes, then --candidate checkpoints;
'shipped' stands for the network in Models/ (dequantized), and names that would clash are refused."""
import argparse
import os

import pytest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
from inkrec_training.families.latin import report_sweep


def args(tmp_path, *candidate):
    return argparse.Namespace(sweep=None, candidate=list(candidate), out=str(tmp_path / "report"),
                              models=os.path.join(ROOT, "Models"))


def test_shipped_and_a_run_checkpoint_become_rows_in_order(tmp_path):
    rows = report_sweep.candidates(args(tmp_path, "shipped=shipped"))
    assert [r[0] for r in rows] == ["shipped"]
    name, path, info = rows[0]
    ck = torch.load(path, weights_only=False, map_location="cpu")
    assert ck["config"]["hidden"] == 96 and ck["config"]["layers"] == 3
    assert info["params"] == sum(v.numel() for v in ck["model"].values()) > 700_000
    # a latin train checkpoint: its moving average counts, its history's last entry is the greedy figure
    run = {"model": {"w": torch.zeros(3)}, "ema": {"w": torch.ones(5)}, "config": ck["config"],
           "state": {"step": 42, "history": [{"step": 42, "ema_word_acc": 0.5}]}}
    torch.save(run, tmp_path / "last.pt")
    rows = report_sweep.candidates(args(tmp_path, "b=shipped", f"a={tmp_path / 'last.pt'}"))
    assert [r[0] for r in rows] == ["b", "a"]
    assert rows[1][2] == {"params": 5, "step": 42, "greedy": {"step": 42, "ema_word_acc": 0.5}}


@pytest.mark.parametrize("spec", ["noequals", "=x.pt", "a/b=x.pt"])
def test_malformed_candidates_are_refused(tmp_path, spec):
    with pytest.raises(SystemExit, match="NAME=CHECKPOINT"):
        report_sweep.candidates(args(tmp_path, spec))


def test_a_name_given_twice_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="new name"):
        report_sweep.candidates(args(tmp_path, "s=shipped", "s=shipped"))
