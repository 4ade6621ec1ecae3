"""inkrec_training.trainer: the schedule, the moving average, checkpoints and resuming, the time budget."""
import math
import os

import pytest
import torch

from inkrec_training import trainer as trainer_module
from inkrec_training.features import FEATURE_DIM
from inkrec_training.model import InkRecNet
from inkrec_training.trainer import Trainer, warmup_cosine


def old_latin_rate(lr, state):
    """latin train.py's schedule as it was written before the shared trainer (the reference)."""
    s0 = state.get("schedule_start", 0.0)
    progress = min((state["elapsed"] - s0) / max(state["budget"] - s0, 1.0), 1.0)
    warm = min(1.0, (state["step"] + 1) / 200)
    return lr * warm * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * progress)))


def old_shapes_rate(lr, state):
    progress = min(state["elapsed"] / state["budget"], 1.0)
    warm = min(1.0, (state["step"] + 1) / 100)
    return lr * warm * (0.03 + 0.97 * 0.5 * (1 + math.cos(math.pi * progress)))


def test_schedule_warms_up_then_follows_the_cosine_to_its_floor():
    rate = lambda step, elapsed, budget=100.0, **kw: warmup_cosine(  # noqa: E731
        2e-3, {"step": step, "elapsed": elapsed, "budget": budget, **kw}, warmup_steps=200, floor=0.05)
    assert rate(0, 0.0) == pytest.approx(2e-3 / 200)
    assert rate(99, 0.0) == pytest.approx(2e-3 * 100 / 200)
    assert rate(199, 0.0) == pytest.approx(2e-3)
    assert rate(5000, 50.0) == pytest.approx(2e-3 * (0.05 + 0.95 * 0.5))
    assert rate(5000, 100.0) == pytest.approx(2e-3 * 0.05)
    assert rate(5000, 400.0) == pytest.approx(2e-3 * 0.05)  # past the budget: the floor
    # a fresh schedule from the seconds already trained (--restart-schedule)
    assert rate(5000, 50.0, budget=150.0, schedule_start=50.0) == pytest.approx(2e-3)
    assert rate(5000, 100.0, budget=150.0, schedule_start=50.0) == pytest.approx(2e-3 * (0.05 + 0.95 * 0.5))


def test_schedule_is_bit_for_bit_the_families_old_formulas():
    for step in (0, 10, 150, 199, 200, 3000):
        for elapsed in (0.0, 0.3, 7.7, 59.9, 60.0, 75.0):
            for extra in ({}, {"schedule_start": 5.0}):
                state = {"step": step, "elapsed": elapsed, "budget": 60.0, **extra}
                assert warmup_cosine(2e-3, state, warmup_steps=200, floor=0.05) == old_latin_rate(2e-3, state)
            state = {"step": step, "elapsed": elapsed, "budget": 60.0}
            assert warmup_cosine(3e-3, state, warmup_steps=100, floor=0.03, min_span=0.0) == old_shapes_rate(3e-3, state)
    # a budget under a second: spread over one second, unless min_span says otherwise (the shapes loop's)
    state = {"step": 500, "elapsed": 0.25, "budget": 0.5}
    assert warmup_cosine(1.0, state, warmup_steps=1, floor=0.0) == pytest.approx(0.5 * (1 + math.cos(math.pi * 0.25)))
    assert warmup_cosine(1.0, state, warmup_steps=1, floor=0.0, min_span=0.0) == pytest.approx(0.5)


def small_model(seed=0):
    torch.manual_seed(seed)
    return InkRecNet(FEATURE_DIM, 4, 1, 6, 1)


def batch(seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 9, FEATURE_DIM, generator=g), torch.tensor([9, 6])


def loss_of(model, b):
    lp, _ = model(*b)
    return -lp[:, :, 1].mean()


def test_a_step_updates_the_moving_average_by_its_ramped_decay():
    model = small_model()
    t = Trainer(model, lr=0.05)
    ema = t.start_ema(0.999)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    assert all(torch.equal(ema[k], before[k]) for k in before)
    t.step(loss_of(model, batch(1)))
    after = model.state_dict()
    d = min(0.999, (1 + 1) / (10 + 1))  # the first update (counted by state["step"]): decay 2/11
    moved = False
    for k in before:
        assert torch.allclose(ema[k], d * before[k] + (1 - d) * after[k], atol=1e-7), k
        moved |= not torch.equal(before[k], after[k])
    assert moved and t.state["step"] == 1


def test_the_average_counts_its_own_updates_when_told_where():
    model = small_model()
    t = Trainer(model, lr=0.05)
    t.state["ema_steps"] = 5
    t.start_ema(0.5, steps_key="ema_steps")
    ema_before = {k: v.clone() for k, v in t.ema.items()}
    t.state["step"] = 100
    t.step(loss_of(model, batch(2)))
    assert t.state["ema_steps"] == 6 and t.state["step"] == 101
    d = min(0.5, (1 + 6) / (10 + 6))  # 7/16 < 0.5
    for k, v in model.state_dict().items():
        assert torch.allclose(t.ema[k], d * ema_before[k] + (1 - d) * v, atol=1e-7), k


def test_resume_restores_weights_optimizer_and_state(tmp_path):
    path = str(tmp_path / "last.pt")
    a = Trainer(small_model(1), lr=0.01)
    assert a.resume(path) is None  # a fresh run
    a.set_budget(90.0)
    for s in range(3):
        a.step(loss_of(a.model, batch(s)))
    a.state["history"].append({"step": 3})
    a.save(path, torch_rng=torch.get_rng_state())
    assert not os.path.exists(path + ".tmp")
    saved = torch.load(path, weights_only=False)
    assert list(saved) == ["model", "opt", "state", "config", "torch_rng"]

    b = Trainer(small_model(2), lr=0.01)
    ck = b.resume(path)
    assert "torch_rng" in ck
    assert b.state["step"] == 3 and b.state["history"] == [{"step": 3}] and b.state["budget"] == 90.0
    b.set_budget(30.0)  # this run's minutes on top of the seconds trained
    assert b.state["budget"] == b.state["elapsed"] + 30.0
    for k, v in a.model.state_dict().items():
        assert torch.equal(v, b.model.state_dict()[k]), k
    sa, sb = a.opt.state_dict()["state"], b.opt.state_dict()["state"]
    assert sa.keys() == sb.keys() and len(sa) > 0
    for i in sa:
        for k in sa[i]:
            assert torch.equal(torch.as_tensor(sa[i][k]), torch.as_tensor(sb[i][k])), (i, k)
    # the next step is the same step on both: Adam's moments came back, not fresh ones
    a.step(loss_of(a.model, batch(9)))
    b.step(loss_of(b.model, batch(9)))
    for k, v in a.model.state_dict().items():
        assert torch.equal(v, b.model.state_dict()[k]), k
    fresh = Trainer(small_model(1), lr=0.01)
    fresh.model.load_state_dict(torch.load(path, weights_only=False)["model"])
    fresh.step(loss_of(fresh.model, batch(9)))
    assert any(not torch.equal(v, a.model.state_dict()[k]) for k, v in fresh.model.state_dict().items())


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_the_budget_and_a_deadline_end_the_loop_with_a_checkpoint(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(trainer_module.time, "time", clock)
    t = Trainer(small_model(), lr=0.01)
    t.set_budget(600.0)
    # 10 s after the process start, a deadline at 100 s keeping 45 for the end: 45 s of training
    assert t.fit_deadline(100.0, 10.0) == pytest.approx(45.0 / 60)
    assert t.state["budget"] == 45.0
    assert t.fit_deadline(0.0, 10.0) is None and t.state["budget"] == 45.0
    checkpoints, rates = [], []

    def endless():
        while True:
            yield "batch"

    def checkpoint():
        checkpoints.append((t.state["step"], t.state["elapsed"]))
        t.state["history"].append({"step": t.state["step"]})

    for _ in t.run(endless(), learning_rate=lambda st: 0.1 * (st["step"] + 1), checkpoint=checkpoint,
                   checkpoint_minutes=0.25):
        rates.append((t.lr, t.opt.param_groups[0]["lr"]))
        t.state["step"] += 1
        clock.now += 1.0
    # batches at elapsed 0, 1, ..., 45: the one at 45 spends the budget and is the last
    assert t.state["step"] == 46 and t.state["elapsed"] == 45.0
    # every 15 s (checkpoint_minutes), and once at the end
    assert [s for s, _ in checkpoints] == [16, 32, 46] and checkpoints[-1][1] == 45.0
    assert rates[0] == (0.1, 0.1) and rates[-1] == pytest.approx((4.6, 4.6))


def test_a_resumed_run_counts_its_clock_on_and_a_spent_budget_trains_one_batch(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(trainer_module.time, "time", clock)
    t = Trainer(small_model(), lr=0.01)
    t.state["elapsed"] = 100.0
    t.set_budget(5.0)
    seen = []
    for b in t.run(iter(range(1000)), learning_rate=lambda st: 0.01, checkpoint=lambda: seen.append("ck"),
                   checkpoint_minutes=100):
        seen.append((b, t.state["elapsed"]))
        clock.now += 2.0
    assert seen == [(0, 100.0), (1, 102.0), (2, 104.0), (3, 106.0), "ck"]
    t.state["budget"] = t.state["elapsed"]  # nothing left: the first batch ends it
    seen = []
    for b in t.run(iter(range(1000)), learning_rate=lambda st: 0.01, checkpoint=lambda: seen.append("ck"),
                   checkpoint_minutes=100):
        seen.append(b)
        clock.now += 2.0
    assert seen == [0, "ck"]
