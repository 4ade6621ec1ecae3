"""The recognizer network: a stack of bidirectional LSTMs, an optional 2x time reduction, a linear CTC head.

This is exactly what the Swift engine implements (`Sources/DigitalInk/Network/`):

    x: (T, input_dim)
    for each layer l:  y = [LSTM_fwd(x) ; LSTM_bwd(x)]            (T, 2H)
        if l == reduce_after - 1 (1-based reduce_after > 0):
            pad one zero row if T is odd; y = y.reshape(T/2, 4H)    (frame stacking)
        x = y
    logits = x @ W^T + b                                           (T', C)
    log_probs = log_softmax(logits)
    (classifier head: x is averaged over time first, giving one row of C)

LSTM gates follow PyTorch's layout: W_ih (4H, in), W_hh (4H, H), b_ih + b_hh, gate order i, f, g, o.
"""
from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class InkRecNet(nn.Module):
    def __init__(self, input_dim: int, hidden: int, layers: int, num_classes: int, reduce_after: int = 1,
                 head: str = "ctc"):
        super().__init__()
        assert head in ("ctc", "classifier")
        self.head_kind = head
        self.input_dim, self.hidden, self.num_layers = input_dim, hidden, layers
        self.num_classes, self.reduce_after = num_classes, reduce_after
        self.lstms = nn.ModuleList()
        d = input_dim
        for l in range(layers):
            self.lstms.append(nn.LSTM(d, hidden, batch_first=True, bidirectional=True))
            d = 2 * hidden * (2 if reduce_after == l + 1 else 1)
        self.head = nn.Linear(d, num_classes)

    def init_forget_gate_bias(self) -> None:
        """Sets every LSTM's forget-gate input bias to 1 (a common aid for LSTMs to start remembering)."""
        for lstm in self.lstms:
            for name, p in lstm.named_parameters():
                if name.startswith("bias_ih"):
                    with torch.no_grad():
                        p[self.hidden: 2 * self.hidden].fill_(1.0)

    @staticmethod
    def reduce_lengths(lengths: torch.Tensor) -> torch.Tensor:
        return (lengths + 1) // 2

    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        """x: (B, T, input_dim) zero-padded; lengths: (B,) int64 on CPU. Returns (log_probs (B, T', C), lengths')."""
        x, lengths = self.encode(x, lengths)
        if self.head_kind == "classifier":
            # Mean over each sequence's valid frames, then the linear head: one row per ink.
            mask = (torch.arange(x.shape[1])[None, :] < lengths[:, None]).to(x.dtype)
            pooled = (x * mask[:, :, None]).sum(dim=1) / lengths[:, None].to(x.dtype)
            return torch.log_softmax(self.head(pooled), dim=-1)[:, None, :], torch.ones_like(lengths)
        return torch.log_softmax(self.head(x), dim=-1), lengths

    def encode(self, x: torch.Tensor, lengths: torch.Tensor, run=None):
        """The head's input (B, T', D) and lengths': the LSTM stack with its time reduction. ``run(l, lstm,
        packed)``, when given, runs layer ``l`` in place of ``lstm(packed)`` (the writer-adaptation prototype
        runs it with changed weights)."""
        for l, lstm in enumerate(self.lstms):
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            y, _ = lstm(packed) if run is None else run(l, lstm, packed)
            x, _ = pad_packed_sequence(y, batch_first=True)
            if self.reduce_after == l + 1:
                b, t, d = x.shape
                if t % 2:
                    x = torch.cat([x, x.new_zeros(b, 1, d)], dim=1)
                    t += 1
                # Rows past a sequence's end are zero already (pad_packed_sequence pads with 0),
                # so an odd-length sequence is stacked with a zero row, as in the engine.
                x = x.reshape(b, t // 2, 2 * d)
                lengths = self.reduce_lengths(lengths)
        return x, lengths

    def config(self) -> dict:
        return {"inputDim": self.input_dim, "hidden": self.hidden, "layers": self.num_layers,
                "numClasses": self.num_classes, "reduceAfter": self.reduce_after, "head": self.head_kind}


def update_ema(ema: dict, model: nn.Module, decay: float, steps: int) -> None:
    """One update of an exponential moving average of ``model``'s weights (``ema``: float32 tensors by
    name), the ``steps``-th: the decay ramps up as ``min(decay, (1 + steps) / (10 + steps))`` so that a
    fresh average is not dominated by its starting weights."""
    d = min(decay, (1 + steps) / (10 + steps))
    with torch.no_grad():
        for k, v in model.state_dict().items():
            ema[k].mul_(d).add_(v.float(), alpha=1 - d)


@contextmanager
def using_weights(model: nn.Module, weights: dict):
    """Runs the block with ``weights`` loaded into ``model``, then puts its own weights back."""
    live = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(weights)
    try:
        yield model
    finally:
        model.load_state_dict(live)


def widen_hidden(weights: dict, hidden: int, layers: int, reduce_after: int, noise: float = 0.01,
                 seed: int = 0) -> dict:
    """The state of an ``InkRecNet`` with ``hidden`` units per direction computing (up to ``noise``) what
    ``weights`` (fewer units, same layers) compute: Net2WiderNet (Chen et al., 2016). Each new unit ``j``
    copies an old unit ``g(j)`` (its rows of ``weight_ih``/``weight_hh`` and biases in all four gates, so its
    cell and output equal the old unit's); every weight that reads a unit's output (``weight_hh``'s columns,
    the next layer's ``weight_ih`` columns, the head's columns) is divided among its copies. ``noise``
    (relative, on the new copies' incoming weights) breaks their symmetry so that training can pull them
    apart. Shapes: old ``H``, new ``H' = hidden``; a layer's output ``[forward H | backward H]`` (stacked in
    pairs of frames after layer ``reduce_after``: ``[frame t: 2H | frame t+1: 2H]``)."""
    old = weights["lstms.0.weight_hh_l0"].shape[1]
    have = len({k.split(".")[1] for k in weights if k.startswith("lstms.")})
    if have != layers:
        raise SystemExit(f"the weights have {have} layers, the model {layers}: only the units of a layer can be added")
    if hidden == old:
        return weights
    if hidden < old:
        raise SystemExit(f"the weights have {old} units a direction, the model {hidden}: a network can only be widened")
    g = torch.Generator().manual_seed(seed)
    source = torch.cat([torch.arange(old), torch.randint(0, old, (hidden - old,), generator=g)])  # g(j)
    share = 1.0 / torch.bincount(source, minlength=old).float()[source]                        # 1 / copies of g(j)

    def reader_columns(after: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Old column and scale of each new column of a matrix reading layer ``after``'s output (1-based; 0:
        the layer's own units, as ``weight_hh`` reads them): 2H units side by side, 4H where frames are stacked."""
        blocks = 1 if after == 0 else 4 if reduce_after == after else 2
        return torch.cat([b * old + source for b in range(blocks)]), share.repeat(blocks)

    new = dict(weights)
    rows = torch.cat([k * old + source for k in range(4)])  # the four gates' rows of each new unit
    fresh = torch.cat([torch.arange(hidden) >= old] * 4)     # the new units' rows
    hh_cols, hh_scale = reader_columns(0)
    for l in range(layers):
        p = f"lstms.{l}."
        ih_cols, ih_scale = reader_columns(l) if l > 0 else (slice(None), 1.0)
        for suffix in ("", "_reverse"):
            w_ih = weights[f"{p}weight_ih_l0{suffix}"][rows][:, ih_cols] * ih_scale
            w_hh = weights[f"{p}weight_hh_l0{suffix}"][rows][:, hh_cols] * hh_scale
            for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
                jitter = torch.randn(w.shape, generator=g) * noise * w.abs().mean()
                new[f"{p}{name}_l0{suffix}"] = w + jitter * fresh[:, None]
            for name in ("bias_ih", "bias_hh"):
                new[f"{p}{name}_l0{suffix}"] = weights[f"{p}{name}_l0{suffix}"][rows]
    cols, scale = reader_columns(layers)
    new["head.weight"] = weights["head.weight"][:, cols] * scale
    return new


def load_exported(model_dir: str, weights: str | None = None) -> tuple[InkRecNet, dict]:
    """The network of an exported model directory as an ``InkRecNet`` in float32, and its ``config.json``.

    The weights are the file the config names (relative to ``model_dir``), or ``weights`` when given; 8-bit
    files (``precision: int8``) are dequantized (the activations stay float here). The network is in train mode,
    as ``InkRecNet`` starts."""
    import json
    import os
    from safetensors.torch import load_file
    from .quantize import dequantize_state
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    n = cfg["network"]
    tensors = load_file(weights or os.path.join(model_dir, n["weights"]))
    if n.get("precision") == "int8":
        tensors = dequantize_state(tensors)
    net = InkRecNet(n["inputDim"], n["hidden"], n["layers"], n["numClasses"], n["reduceAfter"], head=n.get("head", "ctc"))
    net.load_state_dict({k: v.float() for k, v in tensors.items()})
    return net, cfg
