#!/usr/bin/env python3
"""The engine's network forward side by side with ONNX Runtime and PyTorch, and the matrix-multiply floor.

    python3 Benchmarks/side_by_side.py                  # Samples/ + the UNIPEN sets of prepare_inks.py
    python3 Benchmarks/side_by_side.py --json out.json  # also write the figures as JSON

One run measures all three, single-threaded, on the very same inks and the very same weights:

- DigitalInk: ``Benchmarks/.build/release/inkrec-bench-forward`` (built here if missing) times
  ``RecognitionNetwork.logProbabilities`` per ink and dumps its features and log-probabilities;
- PyTorch: ``InkRecNet`` (Training/inkrec_training/model.py) loaded from the weights Models/en-US/config.json names,
  run for one sequence (batch 1, the LSTM modules called on the unpacked tensor: the same as the
  packed path for batch 1);
- ONNX Runtime: that module exported to ONNX (opset 17, ONNX ``LSTM`` ops, dynamic time axis),
  CPU execution provider, one intra-op and one inter-op thread.

Features come from ``model_features`` (Training/inkrec_training/features.py) with the model's
``stepsPerLineHeight``; the script checks that they and the log-probabilities match the engine's.
Each ink is run ``--warmup`` times, then timed ``--repeats`` times; the figure per ink is the median.
The three runtimes take turns, ``--rounds`` times, and the best median of the rounds counts (this
damps disturbances by other processes).

The floor: the network's floating-point operations per ink (multiply-adds count 2: input projections,
recurrent matrix-vector products, head), divided by the single-threaded sgemm rate measured here at
the network's own matrix sizes (numpy's OpenBLAS, and the system OpenBLAS that the engine links).
"""
from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "DIGITALINK_BLAS_THREADS"):
    os.environ[_v] = "1"  # before numpy / torch / onnxruntime load their thread pools

import argparse  # noqa: E402
import ctypes  # noqa: E402
import ctypes.util  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Training"))  # inkrec_training and quantize_model

import torch  # noqa: E402
import onnxruntime as ort  # noqa: E402

from inkrec_training import features as F  # noqa: E402
from inkrec_training.model import InkRecNet, load_exported  # noqa: E402

SETS = [
    ("word-sample", os.path.join(ROOT, "Samples", "argument.json")),
    ("line-sample", os.path.join(ROOT, "Samples", "line.json")),
    ("word8-unipen", os.path.join(HERE, ".build", "inks", "word8.jsonl")),
    ("line40-unipen", os.path.join(HERE, ".build", "inks", "line40.jsonl")),
]


# ----------------------------------------------------------------------------------------------
# Inks, model, export


def read_inks(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        docs = [json.loads(l) for l in f if l.strip()] if path.endswith(".jsonl") else [json.load(f)]
    out = []
    for d in docs:
        strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in d["strokes"]]
        out.append({"id": d.get("id", ""), "label": d.get("label", ""), "strokes": strokes,
                    "writingAreaHeight": (d.get("writingArea") or {}).get("height")})
    return out


class SingleSequence(torch.nn.Module):
    """InkRecNet for one sequence (1, T, inputDim): the LSTMs on the unpacked tensor, the 2x time
    reduction written with slices only (pad one zero row, rows 2k and 2k+1 side by side), so that it
    exports with a dynamic time axis and equals the engine's reduction for odd and even T."""

    def __init__(self, net: InkRecNet):
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for l, lstm in enumerate(self.net.lstms):
            x, _ = lstm(x)
            if self.net.reduce_after == l + 1:
                z = torch.cat([x, torch.zeros_like(x[:, :1])], dim=1)
                x = torch.cat([z[:, :-1:2], z[:, 1::2]], dim=2)
        if self.net.head_kind == "classifier":
            return torch.log_softmax(self.net.head(x.mean(dim=1)), dim=-1)
        return torch.log_softmax(self.net.head(x), dim=-1)


def load_model(model_dir: str):
    """The model's config and its network for one sequence, in float32: 8-bit weights (every shipped model's
    since issue 21) dequantized, a shared network file (`../latn-…/`) read where the config points."""
    net, cfg = load_exported(model_dir)
    return cfg, SingleSequence(net.eval()).eval()


def export_onnx(module: torch.nn.Module, input_dim: int, path: str) -> list[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(module, (torch.zeros(1, 9, input_dim),), path, input_names=["features"],
                          output_names=["log_probs"], opset_version=17, dynamo=False,
                          dynamic_axes={"features": {1: "frames"}, "log_probs": {1: "out_frames"}})
    import onnx
    return sorted({node.op_type for node in onnx.load(path).graph.node})


# ----------------------------------------------------------------------------------------------
# Timing


def time_calls(fn, warmup: int, repeats: int) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - t0) / 1000.0)
    return out


def run_engine(exe: str, model_dir: str, files: list[str], warmup: int, repeats: int, dump: str | None,
               extra: tuple = (), env: dict | None = None) -> dict:
    if "--model" in extra:  # a variant on another model directory
        i = extra.index("--model")
        model_dir, extra = extra[i + 1], extra[:i] + extra[i + 2:]
    cmd = [exe, "--model", model_dir, "--warmup", str(warmup), "--repeats", str(repeats), *extra]
    if dump:
        cmd += ["--dump", dump]
    r = subprocess.run(cmd + files, check=True, capture_output=True, text=True, env={**os.environ, **(env or {})})
    return json.loads(r.stdout)


def engine_variants(exe: str, model_dir: str, files: list[str], int8_dir: str | None = None) -> list[tuple[str, str, tuple, dict]]:
    """(key, description, arguments, environment) of each way the Swift side is timed. The first is the
    engine as shipped (a place to add variants, e.g. an environment setting, to compare). A variant
    whose arguments hold ``("--model", DIR)`` runs another model directory (the 8-bit one)."""
    int8 = [] if not int8_dir else [
        ("engine_int8", "DigitalInk with the same network in 8 bits (python3 -m inkrec_training latin export quantize; AVX-512 VNNI "
         "where the CPU has it)", ("--model", int8_dir), {})]
    return [("engine", "DigitalInk as shipped", (), {}),
            ("engine_blas_projection", "DigitalInk with the input projections in BLAS sgemm instead of its packed "
             "AVX-512 kernel (DIGITALINK_PROJECTION=blas)", (), {"DIGITALINK_PROJECTION": "blas"}),
            ("engine_portable", "DigitalInk with its portable path only: BLAS sgemm and sgemv, cell in Swift SIMD "
             "(DIGITALINK_KERNEL=portable)", (), {"DIGITALINK_KERNEL": "portable"})] + int8


def build_engine() -> str:
    exe = os.path.join(HERE, ".build", "release", "inkrec-bench-forward")
    if not os.path.exists(exe):
        print("building inkrec-bench-forward (release) ...", file=sys.stderr)
        subprocess.run(["nice", "-n", "10", "swift", "build", "-c", "release", "--product", "inkrec-bench-forward"],
                       cwd=HERE, check=True)
    return exe


# ----------------------------------------------------------------------------------------------
# The floor


def network_flops(n: dict, frames: int) -> dict:
    """Floating-point operations of one forward (a multiply-add counts 2). Element-wise gate math,
    log-softmax and the reduction copy are left out (they are not matrix products)."""
    H, G, C = n["hidden"], 4 * n["hidden"], n["numClasses"]
    T, d = frames, n["inputDim"]
    proj = rec = 0
    for l in range(n["layers"]):
        proj += 2 * (2 * T * d * G)             # two directions: X W_ih^T for all steps
        rec += 2 * (2 * max(T - 1, 0) * H * G)  # two directions: W_hh h per step after the first
        d = 2 * H
        if n["reduceAfter"] == l + 1:
            T, d = (T + 1) // 2, 4 * H
    head = 2 * T * d * C
    return {"projection": proj, "recurrent": rec, "head": head, "total": proj + rec + head}


def sgemm_rate_numpy(m: int, k: int, n: int, seconds: float = 0.3) -> float:
    a = np.random.default_rng(0).standard_normal((m, k), dtype=np.float32)
    b = np.random.default_rng(1).standard_normal((k, n), dtype=np.float32)
    c = a @ b
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        np.matmul(a, b, out=c)
        reps += 1
    return 2.0 * m * k * n * reps / (time.perf_counter() - t0)


def sgemm_rate_torch(m: int, k: int, n: int, seconds: float = 0.3) -> float:
    a, b = torch.randn(m, k), torch.randn(k, n)
    c = torch.empty(m, n)
    torch.mm(a, b, out=c)
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        torch.mm(a, b, out=c)
        reps += 1
    return 2.0 * m * k * n * reps / (time.perf_counter() - t0)


def sgemm_rate_ort(m: int, k: int, n: int, seconds: float = 0.3) -> float:
    from onnx import TensorProto, helper
    b = np.random.default_rng(1).standard_normal((k, n), dtype=np.float32)
    g = helper.make_graph([helper.make_node("MatMul", ["A", "B"], ["C"])], "mm",
                          [helper.make_tensor_value_info("A", TensorProto.FLOAT, [m, k])],
                          [helper.make_tensor_value_info("C", TensorProto.FLOAT, [m, n])],
                          [helper.make_tensor("B", TensorProto.FLOAT, [k, n], b.flatten())])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    a = np.random.default_rng(0).standard_normal((m, k), dtype=np.float32)
    sess.run(None, {"A": a})
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        sess.run(None, {"A": a})
        reps += 1
    return 2.0 * m * k * n * reps / (time.perf_counter() - t0)


def system_openblas():
    for name in ("libopenblas.so.0", ctypes.util.find_library("openblas") or ""):
        try:
            lib = ctypes.CDLL(name)
            lib.cblas_sgemm
            return lib
        except (OSError, AttributeError):
            continue
    return None


def sgemm_rate_system(lib, m: int, k: int, n: int, seconds: float = 0.3) -> float:  # noqa: D401
    """cblas_sgemm of the system OpenBLAS (the library the engine links), C = A B^T as the engine calls it."""
    try:
        lib.openblas_set_num_threads(1)
    except AttributeError:
        pass
    a = np.random.default_rng(0).standard_normal((m, k), dtype=np.float32)
    b = np.random.default_rng(1).standard_normal((n, k), dtype=np.float32)
    c = np.zeros((m, n), dtype=np.float32)
    P = ctypes.c_void_p
    f = lib.cblas_sgemm
    f.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, P, ctypes.c_int, P, ctypes.c_int, ctypes.c_float, P, ctypes.c_int]
    args = (101, 111, 112, m, n, k, 1.0, a.ctypes.data, k, b.ctypes.data, k, 0.0, c.ctypes.data, n)
    f(*args)
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        f(*args)
        reps += 1
    return 2.0 * m * k * n * reps / (time.perf_counter() - t0)


# ----------------------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--engine", help="path of inkrec-bench-forward (default: build it in Benchmarks/.build/release)")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", help="write the figures here as JSON")
    ap.add_argument("--int8-model", help="the same network in 8 bits (default: quantized here by "
                    "python3 -m inkrec_training latin export quantize into a temporary directory)")
    a = ap.parse_args()

    load_before = os.getloadavg()
    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass
    exe = a.engine or build_engine()
    cfg, module = load_model(a.model)
    n = cfg["network"]
    steps = float(cfg["features"]["stepsPerLineHeight"])  # the model's own setting

    sets = [(name, path) for name, path in SETS if os.path.exists(path)]
    missing = [path for name, path in SETS if not os.path.exists(path)]
    if missing:
        print(f"note: missing {missing} (python3 Benchmarks/prepare_inks.py)", file=sys.stderr)
    inks = []  # (set, ink, features)
    for name, path in sets:
        for ink in read_inks(path):
            inks.append((name, ink, F.model_features(ink["strokes"], cfg["features"], ink["writingAreaHeight"])))
    files = [path for _, path in sets]

    tmp = tempfile.mkdtemp(prefix="inkrec-side-")
    onnx_path = os.path.join(tmp, "inkrec.onnx")
    ops = export_onnx(module, n["inputDim"], onnx_path)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(onnx_path, so, providers=["CPUExecutionProvider"])
    # ONNX Runtime's own 8-bit answer: dynamic quantization of the same graph (int8 weights of the LSTM
    # and MatMul ops, activations quantized at run time).
    from onnxruntime.quantization import QuantType, quantize_dynamic
    onnx8_path = os.path.join(tmp, "inkrec-int8.onnx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantize_dynamic(onnx_path, onnx8_path, weight_type=QuantType.QInt8)
    sess8 = ort.InferenceSession(onnx8_path, so, providers=["CPUExecutionProvider"])
    ops8 = sorted({node.op_type for node in __import__("onnx").load(onnx8_path).graph.node})
    int8_dir = a.int8_model
    if int8_dir is None and n.get("precision") != "int8":
        from quantize_model import quantize_directory
        int8_dir = os.path.join(tmp, "int8-model")
        quantize_directory(a.model, int8_dir)

    # Correctness: engine features and log-probabilities against Python / PyTorch / ONNX Runtime.
    dump = os.path.join(tmp, "engine.f32")
    eng = run_engine(exe, a.model, files, 0, 1, dump)
    raw = np.fromfile(dump, dtype="<f4")
    pos = 0
    max_feat = max_lp_torch = max_lp_ort = max_lp_ort8 = 0.0
    for (name, ink, feats), rec in zip(inks, eng["inks"], strict=True):
        T, To, C = rec["frames"], rec["outFrames"], rec["classes"]
        if T != len(feats):
            print(f"error: {ink['id']}: engine has {T} frames, features.py {len(feats)}", file=sys.stderr)
            return 1
        ef = raw[pos:pos + T * n["inputDim"]].reshape(T, n["inputDim"]); pos += T * n["inputDim"]
        el = raw[pos:pos + To * C].reshape(To, C); pos += To * C
        x = torch.from_numpy(feats)[None]
        with torch.inference_mode():
            tl = module(x)[0].numpy()
        ol = sess.run(None, {"features": feats[None]})[0][0]
        ol8 = sess8.run(None, {"features": feats[None]})[0][0]
        max_lp_ort8 = max(max_lp_ort8, float(np.abs(ol8 - tl).max()))
        max_feat = max(max_feat, float(np.abs(ef - feats).max()))
        max_lp_torch = max(max_lp_torch, float(np.abs(el - tl).max()))
        max_lp_ort = max(max_lp_ort, float(np.abs(ol - tl).max()))

    # Timing: everything takes turns, the best median of the rounds counts.
    variants = engine_variants(exe, a.model, files, int8_dir)
    keys = [v[0] for v in variants] + ["onnxruntime", "onnxruntime_int8", "pytorch"]
    best = {k: [float("inf")] * len(inks) for k in keys}
    for _ in range(a.rounds):
        for key, _, extra, env in variants:
            out = run_engine(exe, a.model, files, a.warmup, a.repeats, None, extra, env)
            for i, rec in enumerate(out["inks"]):
                best[key][i] = min(best[key][i], rec["median_us"])
        for i, (_, _, feats) in enumerate(inks):
            x = feats[None]
            t = time_calls(lambda: sess.run(None, {"features": x}), a.warmup, a.repeats)
            best["onnxruntime"][i] = min(best["onnxruntime"][i], statistics.median(t))
            t = time_calls(lambda: sess8.run(None, {"features": x}), a.warmup, a.repeats)
            best["onnxruntime_int8"][i] = min(best["onnxruntime_int8"][i], statistics.median(t))
        with torch.inference_mode():
            for i, (_, _, feats) in enumerate(inks):
                x = torch.from_numpy(feats)[None]
                t = time_calls(lambda: module(x), a.warmup, a.repeats)
                best["pytorch"][i] = min(best["pytorch"][i], statistics.median(t))

    # The floor: FLOPs / the best single-threaded matrix-multiply rate measured at the network's sizes.
    T_typ = int(np.median([len(f) for _, _, f in inks]))
    G = 4 * n["hidden"]
    shapes = {  # (M, K, N) of the network's matrix products at the median ink length
        "layer 1 projection": (T_typ, n["inputDim"], G),
        "layer 2 projection": ((T_typ + 1) // 2, 4 * n["hidden"], G),
        "layer 3 projection": ((T_typ + 1) // 2, 2 * n["hidden"], G),
        "head": ((T_typ + 1) // 2, 2 * n["hidden"], n["numClasses"]),
        "1024^3 (peak)": (1024, 1024, 1024),
    }
    libs = {"numpy (OpenBLAS)": sgemm_rate_numpy, "PyTorch (MKL)": sgemm_rate_torch, "ONNX Runtime (MLAS)": sgemm_rate_ort}
    sys_blas = system_openblas()
    if sys_blas is not None:
        libs["system OpenBLAS (the engine's)"] = lambda m, k, nn: sgemm_rate_system(sys_blas, m, k, nn)
    rates = {lib: {k: f(*sh) for k, sh in shapes.items()} for lib, f in libs.items()}
    floor_shape = "layer 2 projection"  # the network's largest product
    floor_lib = max(rates, key=lambda lib: rates[lib][floor_shape])
    floor_rate = rates[floor_lib][floor_shape]
    peak_lib = max(rates, key=lambda lib: rates[lib]["1024^3 (peak)"])
    peak_rate = rates[peak_lib]["1024^3 (peak)"]

    # Figures.
    rows = []
    for i, (name, ink, feats) in enumerate(inks):
        fl = network_flops(n, len(feats))
        r = {"set": name, "id": ink["id"], "label": ink["label"], "frames": len(feats),
             "flops": fl["total"], "recurrentFlops": fl["recurrent"], "floor_us": fl["total"] / floor_rate * 1e6}
        for k in keys:
            r[k + "_us"] = best[k][i]
        rows.append(r)

    def summary(rs):
        tot = lambda k: sum(r[k] for r in rs)  # noqa: E731
        out = {"inks": len(rs), "medianFrames": statistics.median(r["frames"] for r in rs),
               "mflops": statistics.median(r["flops"] for r in rs) / 1e6,
               "floor_us": statistics.median(r["floor_us"] for r in rs)}
        for k in keys:
            out[k + "_us"] = statistics.median(r[k + "_us"] for r in rs)
        for k in [v[0] for v in variants]:
            # Ratios of totals over the inks (time-weighted); > 1: the Swift side is faster.
            out["ort_over_" + k] = tot("onnxruntime_us") / tot(k + "_us")
            out["ort_int8_over_" + k] = tot("onnxruntime_int8_us") / tot(k + "_us")
            out["torch_over_" + k] = tot("pytorch_us") / tot(k + "_us")
            out[k + "_over_floor"] = tot(k + "_us") / tot("floor_us")
            out[k + "_gflops"] = tot("flops") / tot(k + "_us") / 1e3
        out["ort_over_floor"] = tot("onnxruntime_us") / tot("floor_us")
        return out

    per_set = [{"set": name, **summary([r for r in rows if r["set"] == name])} for name, _ in sets]
    overall = summary(rows)
    overall["min_ort_over_engine_per_ink"] = min(r["onnxruntime_us"] / r["engine_us"] for r in rows)
    result = {
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
                    "torch": torch.__version__, "onnxruntime": ort.__version__, "numpy": np.__version__,
                    "loadAverageBefore": load_before[0], "loadAverageAfter": os.getloadavg()[0]},
        "engineBLAS": eng.get("blas"), "engineKernels": eng.get("kernels"), "model": os.path.relpath(a.model, ROOT), "network": n,
        "stepsPerLineHeight": steps, "onnxOps": ops,
        "repeats": a.repeats, "warmup": a.warmup, "rounds": a.rounds,
        "variants": {k: {"description": d, "arguments": list(x), "environment": e} for k, d, x, e in variants},
        "maxAbsDiff": {"features_engine_vs_python": max_feat, "logprobs_engine_vs_torch": max_lp_torch,
                       "logprobs_ort_vs_torch": max_lp_ort, "logprobs_ort_int8_vs_torch": max_lp_ort8},
        "onnxInt8Ops": ops8, "int8Model": int8_dir,
        "sgemmRateGflops": {lib: {k: v / 1e9 for k, v in r.items()} for lib, r in rates.items()},
        "sgemmShapes": {k: list(sh) for k, sh in shapes.items()},
        "floorRateGflops": floor_rate / 1e9, "floorRateFrom": f"{floor_lib}, {floor_shape} {shapes[floor_shape]}",
        "peakRateGflops": peak_rate / 1e9, "peakRateFrom": peak_lib,
        "sets": per_set, "overall": overall, "inks": rows,
    }

    m = result["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores; one thread per runtime; load average "
          f"{m['loadAverageBefore']:.1f} before, {m['loadAverageAfter']:.1f} after")
    print(f"engine BLAS: {result['engineBLAS']}; engine kernels: {result['engineKernels']}; torch {torch.__version__}; onnxruntime {ort.__version__} "
          f"(ONNX ops: {', '.join(ops)})")
    print(f"model: {result['model']}, {n['layers']}x BiLSTM {n['hidden']}, {n['numClasses']} classes, "
          f"stepsPerLineHeight {steps:g}")
    md = result["maxAbsDiff"]
    print(f"same computation: max |features engine - features.py| = {md['features_engine_vs_python']:.2g}; "
          f"max |log-prob difference|: engine - PyTorch {md['logprobs_engine_vs_torch']:.2g}, "
          f"ONNX Runtime - PyTorch {md['logprobs_ort_vs_torch']:.2g}, ONNX Runtime int8 - PyTorch "
          f"{md['logprobs_ort_int8_vs_torch']:.2g}")
    print()
    print("network forward, single-threaded: median over the inks of each ink's median time, ms; "
          "ORT/x = ONNX Runtime time / x time over all inks of the set (> 1: x is faster)")
    short = {"engine": "engine", "engine_blas_projection": "blas-proj", "engine_portable": "portable",
             "engine_int8": "int8"}
    vk = [v[0] for v in variants]
    hdr = f"{'set':<14}{'inks':>5}{'frames':>7}" + "".join(f"{short[k]:>13}" for k in vk) + \
        f"{'ORT':>8}{'ORT-int8':>9}{'PyTorch':>9}{'floor':>7}" + "".join(f"{'ORT/' + short[k]:>17}" for k in vk) + \
        f"{'ORT-int8/int8':>15}{'eng/floor':>10}"
    print(hdr)
    for srow in per_set + [{"set": "all inks", **overall}]:
        line = f"{srow['set']:<14}{srow['inks']:>5}{srow['medianFrames']:>7.0f}"
        line += "".join(f"{srow[k + '_us'] / 1e3:>13.2f}" for k in vk)
        line += f"{srow['onnxruntime_us'] / 1e3:>8.2f}{srow['onnxruntime_int8_us'] / 1e3:>9.2f}{srow['pytorch_us'] / 1e3:>9.2f}{srow['floor_us'] / 1e3:>7.2f}"
        line += "".join(f"{srow['ort_over_' + k]:>17.2f}" for k in vk)
        line += f"{srow.get('ort_int8_over_engine_int8', float('nan')):>15.2f}"
        line += f"{srow['engine_over_floor']:>10.1f}"
        print(line)
    print()
    print("single-threaded sgemm rate, GFLOP/s (M x K x N at the median ink length):")
    print(f"  {'':<20}{'':>16}" + "".join(f"{lib[:22]:>24}" for lib in rates))
    for k, sh in shapes.items():
        print(f"  {k:<20}{'x'.join(map(str, sh)):>16}" + "".join(f"{rates[lib][k] / 1e9:>24.1f}" for lib in rates))
    o = overall
    rec_share = sum(r["recurrentFlops"] for r in rows) / sum(r["flops"] for r in rows)
    print(f"floor: {overall['mflops']:.0f} MFLOP for the median ink at {floor_rate / 1e9:.1f} GFLOP/s ({floor_lib}, "
          f"{floor_shape}); the engine takes {o['engine_over_floor']:.1f}x the floor, ONNX Runtime "
          f"{o['ort_over_floor']:.1f}x; {100 * rec_share:.0f}% of the FLOPs are recurrent matrix-vector products")
    goal = o["ort_over_engine"] >= 1.5
    print(f"goal, forward at least 1.5x faster than ONNX Runtime: {'met' if goal else 'MISSED'} "
          f"(engine {o['ort_over_engine']:.2f}x over all inks, worst ink {o['min_ort_over_engine_per_ink']:.2f}x"
          + ("".join(f"; {short[k]} {o['ort_over_' + k]:.2f}x" for k in vk[1:])) + ")")
    if "engine_int8" in vk:
        print(f"goals of the 8-bit engine: at least 2.0x ONNX Runtime float32: "
              f"{'met' if o['ort_over_engine_int8'] >= 2.0 else 'MISSED'} ({o['ort_over_engine_int8']:.2f}x); at least 1.2x "
              f"ONNX Runtime's dynamic int8: {'met' if o['ort_int8_over_engine_int8'] >= 1.2 else 'MISSED'} "
              f"({o['ort_int8_over_engine_int8']:.2f}x)")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
