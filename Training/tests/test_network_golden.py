"""PyTorch must reproduce the network golden files (the Swift engine checks the same files)."""
import json
import os
import sys

import numpy as np
import torch
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from inkrec_training.features import model_features  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")
MODELS = os.path.join(HERE, "..", "..", "Models")


def build(cfg, weights_path):
    m = InkRecNet(cfg["inputDim"], cfg["hidden"], cfg["layers"], cfg["numClasses"], cfg["reduceAfter"], head=cfg.get("head", "ctc"))
    m.load_state_dict(load_file(weights_path))
    m.eval()
    return m


def run(model, feats):
    x = torch.tensor(np.asarray(feats, dtype=np.float32).reshape(-1, 4))
    with torch.no_grad():
        lp, _ = model(x[None], torch.tensor([len(x)]))
    return lp[0].numpy()


def test_tiny_networks():
    for name in ("tiny-network", "tiny-classifier"):
        d = os.path.join(FIXTURES, name)
        with open(os.path.join(d, "golden.json")) as f:
            g = json.load(f)
        model = build(g["network"], os.path.join(d, "weights.safetensors"))
        for case in g["cases"]:
            np.testing.assert_allclose(run(model, case["features"]), np.asarray(case["logProbs"]), atol=1e-5)


def test_shipped_model_golden():
    with open(os.path.join(FIXTURES, "model-golden.json")) as f:
        g = json.load(f)
    d = os.path.join(MODELS, g["model"])
    with open(os.path.join(d, "config.json")) as f:
        cfg = json.load(f)
    model = build(cfg["network"], os.path.join(d, cfg["network"]["weights"]))
    assert len(g["cases"]) >= 3
    for case in g["cases"]:
        strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in case["ink"]["strokes"]]
        feats = model_features(strokes, cfg["features"])
        np.testing.assert_allclose(feats, np.asarray(case["features"], dtype=np.float32), atol=1e-5)
        np.testing.assert_allclose(run(model, feats), np.asarray(case["logProbs"]), atol=1e-4)


def test_shipped_text_model_stores_recurrent_weights_in_half_precision():
    """export.py rounds weight_hh to F16 (the engine's 16-bit recurrent kernel runs it exactly) and keeps
    every other tensor float32."""
    with open(os.path.join(FIXTURES, "model-golden.json")) as f:
        d = os.path.join(MODELS, json.load(f)["model"])
    with open(os.path.join(d, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(d, cfg["network"]["weights"]), "rb") as f:
        header = json.loads(f.read(int.from_bytes(f.read(8), "little")))
    dtypes = {k: v["dtype"] for k, v in header.items() if k != "__metadata__"}
    recurrent = {k for k in dtypes if "weight_hh" in k}
    assert len(recurrent) == 2 * cfg["network"]["layers"]
    assert all(dtypes[k] == "F16" for k in recurrent)
    assert all(dtypes[k] == "F32" for k in set(dtypes) - recurrent)
