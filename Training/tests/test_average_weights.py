"""average_weights.average: the mean of runs' exported weights (their moving averages), refused by name when
the runs are not the same network."""
import os

import pytest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin import average as average_weights

CFG = {"hidden": 2, "layers": 1}


def run(ema_value, live_value=100.0, cfg=CFG, shape=(2, 3)):
    return {"model": {"a": torch.full(shape, live_value)}, "ema": {"a": torch.full(shape, ema_value)},
            "config": dict(cfg), "state": {"step": 7, "history": [{}]}}


def test_the_mean_of_the_moving_averages():
    soup = average_weights.average([run(1.0), run(2.0), run(6.0)], ["x", "y", "z"])
    assert torch.equal(soup["model"]["a"], torch.full((2, 3), 3.0))  # live weights (100) not used
    assert soup["config"] == CFG and soup["state"]["averaged"] == ["x", "y", "z"]
    one = average_weights.average([run(1.5)], ["x"])
    assert torch.equal(one["model"]["a"], torch.full((2, 3), 1.5))


def test_different_networks_are_refused_by_name():
    with pytest.raises(ValueError, match="y: configuration"):
        average_weights.average([run(1.0), run(1.0, cfg={"hidden": 3, "layers": 1})], ["x", "y"])
    with pytest.raises(ValueError, match=r"y: a has shape \(3, 3\)"):
        average_weights.average([run(1.0), run(1.0, shape=(3, 3))], ["x", "y"])
    other = run(1.0)
    other["ema"]["b"] = torch.zeros(1)
    with pytest.raises(ValueError, match="y: parameters missing \\[\\], unexpected \\['b'\\]"):
        average_weights.average([run(1.0), other], ["x", "y"])
    with pytest.raises(ValueError, match="no checkpoints"):
        average_weights.average([], [])
