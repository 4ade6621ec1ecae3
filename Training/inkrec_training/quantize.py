"""8-bit weights for the recognizer network: the reference of what the Swift engine computes.

Post-training quantization, chosen by ``config.json`` (``network.precision: "int8"``):

* **Weights**, per output row, symmetric: ``s[r] = max|W[r, :]| / 127`` (1 for a row of zeros),
  ``q[r, k] = round(W[r, k] / s[r])`` clamped to ±127, stored as I8 tensors under the PyTorch names
  with the scales (F32) beside them as ``<name>.scale``. Quantized: the recurrent matrices
  ``weight_hh`` of every layer, the input projections ``weight_ih`` of every layer but the first
  (whose 4 features cost almost nothing and carry the pen's jumps), and the head. Biases stay F32.
* **Activations of a projection** (the input of layers 2.., the head's input), dynamic per frame:
  ``sx[t] = max|x[t, :]| / 127`` (1 for a zero row), ``xq = round(x / sx)`` clamped to ±127.
  ``y[t, c] = float(Σ_k xq[t, k] · q[c, k]) · (sx[t] · s[c]) + b[c]``: the sum is exact in integers
  (|Σ| < 2^24, so its float conversion is exact too), then one float32 multiply and one add, in that
  order (no fused multiply-add), so the engine reproduces ``y`` bit for bit from the same ``x``.
* **The recurrent product**: h is in (−1, 1), so its scale is fixed: ``hq = round(h · 127)``, and
  ``g += float(Σ_k hq[k] · q[j, k]) · (s[j] / 127)``.

Rounding is to nearest, ties to even (``torch.round``; the engine's conversions use the same mode).
The engine computes the integer sums with AVX-512 VNNI (``vpdpbusd``: unsigned × signed bytes, so it
adds 128 to every activation and subtracts 128 · Σ_k q[j, k], precomputed) or portable C; both give
exactly these integers.
"""
from __future__ import annotations

import torch

QMAX = 127


def quantize_rows(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(int8 weights, float32 scale per row) of a float matrix (rows = outputs)."""
    w = w.float()
    m = w.abs().amax(dim=1)
    s = torch.where(m > 0, m / QMAX, torch.ones_like(m))
    q = torch.round(w / s[:, None]).clamp(-QMAX, QMAX).to(torch.int8)
    return q, s


def is_quantized(name: str) -> bool:
    """Whether the exporter stores tensor ``name`` (a PyTorch parameter name) in 8 bits."""
    if name == "head.weight" or ".weight_hh_" in name:
        return True
    return ".weight_ih_" in name and not name.startswith("lstms.0.")


def quantize_state(state: dict) -> dict:
    """The tensors of an int8 weights file: quantized ones as int8 plus ``<name>.scale``, others float32."""
    out = {}
    for k, v in state.items():
        if is_quantized(k):
            q, s = quantize_rows(v)
            out[k] = q.contiguous()
            out[k + ".scale"] = s.contiguous()
        else:
            out[k] = v.float().contiguous()
    return out


def dequantize_state(tensors: dict) -> dict:
    """Float weights from an int8 weights file's tensors (q · scale per row); for PyTorch figures that
    need a plain ``InkRecNet`` (they leave the activations unquantized)."""
    out = {}
    for k, v in tensors.items():
        if k.endswith(".scale"):
            continue
        out[k] = v.float() * tensors[k + ".scale"][:, None] if v.dtype == torch.int8 else v.float()
    return out


def dynamic_rows(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(int64 quantized rows, float32 scale per row) of a float32 matrix."""
    m = x.abs().amax(dim=1)
    sx = torch.where(m > 0, m / QMAX, torch.ones_like(m))
    return torch.round(x / sx[:, None]).clamp(-QMAX, QMAX).to(torch.int64), sx


def qlinear(x: torch.Tensor, q: torch.Tensor, s: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(y float32 (m, n), the integer sums (m, n) int64) of the quantized projection of x (m, k)."""
    xq, sx = dynamic_rows(x.float())
    acc = xq @ q.to(torch.int64).T
    y = acc.to(torch.float32) * (sx[:, None] * s[None, :]) + b
    return y, acc


def tanh(x: torch.Tensor) -> torch.Tensor:
    """The engine's tanh (the rational approximation of Eigen and MLAS, input clamped to ±9), in float32:
    the 8-bit recurrent input round(h · 127) amplifies differences of a unit in the last place, so the
    reference computes h as the engine does (σ(x) = ½ tanh(x/2) + ½)."""
    x = x.float().clamp(-9.0, 9.0)
    x2 = x * x
    p = torch.full_like(x, -2.76076847742355e-16)
    for c in (2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08, 1.48572235717979e-05,
              6.37261928875436e-04, 4.89352455891786e-03):
        p = p * x2 + c
    p = p * x
    q = torch.full_like(x, 1.19825839466702e-06)
    for c in (1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03):
        q = q * x2 + c
    return p / q


def sigmoid(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * tanh(0.5 * x) + 0.5


class QuantizedNet:
    """The network of ``model.InkRecNet`` over an int8 weights file's tensors, computed as the engine
    does (float32, the integer sums exact). CTC head only; one ink (``log_probs``) or inks of one length at a
    time (``batch_log_probs``)."""

    def __init__(self, tensors: dict, config: dict):
        self.t = {k: v for k, v in tensors.items()}
        self.hidden, self.layers = config["hidden"], config["layers"]
        self.reduce_after = config.get("reduceAfter", 1)

    def _proj(self, name: str, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        """The projection of x (..., k): each row (a frame) quantized on its own, so a batch of inks gives each
        ink's values."""
        w = self.t[name]
        if w.dtype == torch.int8:
            rows = x.reshape(-1, x.shape[-1])
            return qlinear(rows, w, self.t[name + ".scale"], bias)[0].reshape(*x.shape[:-1], -1)
        return x @ w.float().T + bias

    def _direction(self, x: torch.Tensor, l: int, suffix: str, reverse: bool) -> torch.Tensor:
        """One direction of layer l over x (B, T, k): (B, T, H)."""
        H = self.hidden
        p = f"lstms.{l}."
        b = self.t[p + "bias_ih_l0" + suffix].float() + self.t[p + "bias_hh_l0" + suffix].float()
        g_all = self._proj(p + "weight_ih_l0" + suffix, x, b)
        q = self.t[p + "weight_hh_l0" + suffix]
        rs = self.t[p + "weight_hh_l0" + suffix + ".scale"] / QMAX
        qT = q.to(torch.int64).T
        B, T = x.shape[0], x.shape[1]
        h = torch.zeros(B, H)
        c = torch.zeros(B, H)
        out = torch.zeros(B, T, H)
        order = range(T - 1, -1, -1) if reverse else range(T)
        for n, t in enumerate(order):
            g = g_all[:, t].clone()
            if n > 0:
                hq = torch.round(h * QMAX).clamp(-QMAX, QMAX).to(torch.int64)
                g = g + (hq @ qT).to(torch.float32) * rs
            i, f, cc, o = sigmoid(g[:, :H]), sigmoid(g[:, H:2 * H]), tanh(g[:, 2 * H:3 * H]), sigmoid(g[:, 3 * H:])
            c = f * c + i * cc
            h = o * tanh(c)
            out[:, t] = h
        return out

    def log_probs(self, features) -> torch.Tensor:
        """(T', C) log-probabilities of one ink's features (T, 4)."""
        return self.batch_log_probs(torch.as_tensor(features, dtype=torch.float32)[None])[0]

    def batch_log_probs(self, features) -> torch.Tensor:
        """(B, T', C) log-probabilities of B inks' features of one length (B, T, 4): each ink's values as
        ``log_probs`` gives them (every operation is per ink, frame or value; the integer sums exact), in one
        pass instead of B."""
        x = torch.as_tensor(features, dtype=torch.float32)
        for l in range(self.layers):
            x = torch.cat([self._direction(x, l, "", False), self._direction(x, l, "_reverse", True)], dim=2)
            if self.reduce_after == l + 1:
                if x.shape[1] % 2:
                    x = torch.cat([x, torch.zeros(x.shape[0], 1, x.shape[2])], dim=1)
                x = x.reshape(x.shape[0], x.shape[1] // 2, 2 * x.shape[2])
        return torch.log_softmax(self._proj("head.weight", x, self.t["head.bias"].float()), dim=-1)
