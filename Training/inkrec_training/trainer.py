"""The training machinery the three families share (``latin train network``, ``cjk train``, ``shapes train``).

Each family's ``train.py`` keeps what is its own (its data, its model, its loss and its validation metric)
and hands the rest to a ``Trainer``:

- the optimizer (AdamW, weight decay 1e-4) and one step of it (gradients clipped to norm 5);
- the learning rate: ``warmup_cosine``, set on the optimizer before every batch;
- the moving average of the weights (``start_ema``; ``model.update_ema``'s maths, updated after every step);
- the time budget: ``state["elapsed"]`` counts the seconds trained over all resumed runs, ``state["budget"]``
  is where this run stops (``set_budget``, ``fit_deadline`` for ``--deadline``);
- periodic checkpoints (``run``: validate, append to the history, save, every ``--checkpoint-minutes`` and
  once the budget is spent), written whole or not at all (``save``), and resuming from them (``resume``);
- ``write_history``: the run's ``history.json``.

The checkpoint is ``{"model", "opt", "state", "config", ...}`` plus whatever the family adds (random states,
``"ema"``, ``"charset"``, ``"features"``), as the families wrote it before this module; ``state`` holds at least
``step``, ``elapsed``, ``budget`` and ``history``.

A loop then reads::

    trainer = Trainer(model, lr=args.lr)
    ck = trainer.resume(path)
    trainer.set_budget(args.minutes * 60)
    for batch in trainer.run(batches, learning_rate=schedule, checkpoint=checkpoint,
                             checkpoint_minutes=args.checkpoint_minutes):
        trainer.step(loss_of(batch))
"""
from __future__ import annotations

import json
import math
import os
import random
import time
from typing import Callable, Iterable, Iterator, Optional

import numpy as np
import torch
import torch.nn as nn

from inkrec_training import gpu_run
from inkrec_training.model import update_ema


def warmup_cosine(base_lr: float, state: dict, *, warmup_steps: int, floor: float, min_span: float = 1.0) -> float:
    """The learning rate for the next step of a run in ``state``.

    A linear warm-up over the first ``warmup_steps`` steps (step ``s`` gets ``(s + 1) / warmup_steps`` of
    the rate), times a cosine from ``base_lr`` down to ``floor`` × ``base_lr`` over the time budget:
    ``progress`` is the share of the budget spent, counted from ``state["schedule_start"]`` (0 when absent;
    a resumed run with a fresh schedule sets it to the seconds already trained).

    - Parameters:
      - base_lr: the rate at the top of the cosine.
      - state: the run's state (``step``, ``elapsed``, ``budget``, optionally ``schedule_start``).
      - warmup_steps: steps of the linear warm-up (latin 200, cjk 300, shapes 100).
      - floor: the share of ``base_lr`` at the end of the budget (latin 0.05, cjk and shapes 0.03).
      - min_span: the least number of seconds the cosine is spread over (1; the shapes loop divided by its
        budget as it is: 0).
    - Returns: the learning rate.
    """
    s0 = state.get("schedule_start", 0.0)
    progress = min((state["elapsed"] - s0) / max(state["budget"] - s0, min_span), 1.0)
    warm = min(1.0, (state["step"] + 1) / warmup_steps)
    return base_lr * warm * (floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * progress)))


def seed_all(seed: int) -> None:
    """Seeds Python's, numpy's and torch's global random generators with ``seed``."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def save_atomic(obj, path: str) -> None:
    """``torch.save``\\ s ``obj`` to ``path`` whole or not at all (through ``path + ".tmp"``)."""
    torch.save(obj, path + ".tmp")
    os.replace(path + ".tmp", path)


def write_history(run: str, history: list) -> None:
    """Writes ``history`` (the validation entries) as ``<run>/history.json``."""
    with open(os.path.join(run, "history.json"), "w") as f:
        json.dump(history, f, indent=1)


def optimizer_to(opt: torch.optim.Optimizer, device) -> None:
    """Moves the optimizer's state tensors (not its ``step`` counters) to ``device``, after its parameters."""
    for st in opt.state.values():
        for k, v in st.items():
            if torch.is_tensor(v) and k != "step":
                st[k] = v.to(device)


class Trainer:
    """A model, its AdamW optimizer, its moving average and the run's ``state``, stepped within a time budget.

    - Parameters:
      - model: the network (an ``InkRecNet``; ``model.config()`` goes into the checkpoint).
      - lr: the optimizer's initial learning rate (``run`` sets it before every step).
      - weight_decay: AdamW's weight decay.
      - clip: the gradient norm ``step`` clips to.
    """

    def __init__(self, model: nn.Module, lr: float, *, weight_decay: float = 1e-4, clip: float = 5.0):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
        self.clip = clip
        self.state: dict = {"step": 0, "elapsed": 0.0, "budget": 0.0, "history": []}
        self.ema: Optional[dict] = None
        self.ema_decay = 0.0
        self.ema_steps_key: Optional[str] = None
        self.lr = lr

    # Checkpoints

    def resume(self, path: str) -> Optional[dict]:
        """Loads the model's weights, the optimizer's state and the run's state from the checkpoint at
        ``path``, when there is one.

        - Returns: the checkpoint (for what the family saved beside them: random states, ``"ema"``), or
          None when ``path`` does not exist (a fresh run).
        """
        if not os.path.exists(path):
            return None
        ck = torch.load(path, weights_only=False, map_location="cpu")
        self.model.load_state_dict(ck["model"])
        self.opt.load_state_dict(ck["opt"])
        self.state = ck["state"]
        return ck

    def save(self, path: str, weights: Optional[dict] = None, **extra) -> None:
        """Writes the checkpoint ``{"model", "opt", "state", "config", **extra}`` to ``path`` (atomically).

        - Parameters:
          - weights: what goes in as ``"model"``; by default the model's weights copied to the CPU.
          - extra: the family's own entries, in the order they go in.
        """
        if weights is None:
            weights = {k: v.cpu() for k, v in self.model.state_dict().items()}
        save_atomic({"model": weights, "opt": self.opt.state_dict(), "state": self.state,
                     "config": self.model.config(), **extra}, path)

    # Moving average

    def start_ema(self, decay: float, saved: Optional[dict] = None, steps_key: Optional[str] = None) -> dict:
        """Starts the moving average of the weights: a float32 copy of ``saved`` (a checkpoint's ``"ema"``)
        or, when None, of the model's weights.

        - Parameters:
          - decay: the decay (``model.update_ema`` ramps it up over the first steps).
          - steps_key: the ``state`` entry that counts the average's updates (latin: ``"ema_steps"``, which
            restarts at 0 with the average); None: the average's updates are counted by ``state["step"]``.
        - Returns: the average (also ``self.ema``).
        """
        source = saved if saved is not None else self.model.state_dict()
        self.ema = {k: v.detach().clone().float() for k, v in source.items()}
        self.ema_decay = decay
        self.ema_steps_key = steps_key
        return self.ema

    def update_ema(self) -> None:
        """One update of the moving average (``model.update_ema``), the n-th by its count."""
        if self.ema_steps_key is not None:
            self.state[self.ema_steps_key] += 1
            n = self.state[self.ema_steps_key]
        else:
            n = self.state["step"]
        update_ema(self.ema, self.model, self.ema_decay, n)

    # Device

    def to(self, device) -> None:
        """Moves the model, the optimizer's state and the moving average to ``device``."""
        self.model.to(device)
        optimizer_to(self.opt, device)
        if self.ema is not None:
            self.ema = {k: v.to(device) for k, v in self.ema.items()}

    # Budget

    def set_budget(self, seconds: float) -> None:
        """This run trains ``seconds`` more: ``state["budget"]`` = seconds trained so far + ``seconds``."""
        self.state["budget"] = self.state["elapsed"] + seconds

    def fit_deadline(self, deadline: float, since_start: float, reserve: float = gpu_run.FINAL_RESERVE_S) -> Optional[float]:
        """Shortens the budget to end ``reserve`` seconds before ``deadline`` (``gpu_run.fit_deadline``),
        printing the minutes left when it did.

        - Returns: those minutes, or None when the budget stands.
        """
        minutes = gpu_run.fit_deadline(self.state, deadline, since_start, reserve)
        if minutes is not None:
            print(f"deadline: training for {minutes:.1f} minutes", flush=True)
        return minutes

    # The loop

    def step(self, loss: torch.Tensor) -> None:
        """One optimizer step on ``loss``: gradients (clipped to ``clip``), AdamW, ``state["step"]`` + 1,
        and an update of the moving average when there is one."""
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.opt.step()
        self.state["step"] += 1
        if self.ema is not None:
            self.update_ema()

    def run(self, batches: Iterable, *, learning_rate: Callable[[dict], float], checkpoint: Callable[[], None],
            checkpoint_minutes: float) -> Iterator:
        """The batches of ``batches`` until the budget is spent, with the clock and the checkpoints around them.

        Before yielding a batch it sets ``state["elapsed"]`` (wall-clock seconds, counted on from the
        resumed run's) and the learning rate ``learning_rate(state)`` (also ``self.lr``) on the optimizer;
        when the caller comes back for the next one, it calls ``checkpoint()`` if the budget is spent or
        ``checkpoint_minutes`` have passed since the last, and stops after the batch that spent the budget.

        - Parameters:
          - batches: the training batches (an endless iterator, or one that ends first).
          - learning_rate: the schedule (e.g. ``warmup_cosine`` with the family's numbers).
          - checkpoint: validates, appends to the history and saves.
          - checkpoint_minutes: minutes between checkpoints.
        """
        state = self.state
        start = time.time() - state["elapsed"]
        last = time.time()
        for batch in batches:
            state["elapsed"] = time.time() - start
            self.lr = learning_rate(state)
            for g in self.opt.param_groups:
                g["lr"] = self.lr
            yield batch
            done = state["elapsed"] >= state["budget"]
            if done or time.time() - last > checkpoint_minutes * 60:
                checkpoint()
                last = time.time()
            if done:
                return
