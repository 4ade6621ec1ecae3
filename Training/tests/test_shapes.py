"""The shapes generator and the shipped shapes model (PyTorch reproduces the golden file the Swift tests check)."""
import json
import os
import random

import numpy as np
import torch
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import shapes
from inkrec_training.features import ink_features, model_features, SCHEME_V1  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "Tests", "DigitalInkTests", "Fixtures")
MODEL = os.path.join(HERE, "..", "..", "Models", "zxx-Zsym-x-shapes")


def test_parameter_bands_are_disjoint():
    train = shapes.Params(random.Random(1), held_out=False)
    held = shapes.Params(random.Random(1), held_out=True)
    tu = np.array([train.unit() for _ in range(20000)])
    hu = np.array([held.unit() for _ in range(20000)])

    def in_bands(u):
        return np.any([(u >= a) & (u < b) for a, b in shapes.HELD_OUT], axis=0)

    assert not in_bands(tu).any()
    assert in_bands(hu).all()
    assert tu.min() < 0.01 and tu.max() > 0.99  # training still covers both ends of every range
    assert abs(np.mean(hu < 0.5) - 0.5) < 0.03  # both bands are used


def test_every_class_is_drawn_deterministically_with_usable_features():
    for split in ("train", "val"):
        a = shapes.make_dataset(split, 2 * len(shapes.CLASSES), seed=3)
        b = shapes.make_dataset(split, 2 * len(shapes.CLASSES), seed=3)
        assert [x.label for x in a] == shapes.CLASSES * 2
        for x, y in zip(a, b):
            assert len(x.strokes) == len(y.strokes)
            assert all(np.array_equal(s, t) for s, t in zip(x.strokes, y.strokes))
            assert abs(x.target.sum() - 1) < 1e-9
            for s in x.strokes:
                assert np.all(np.diff(s[:, 2]) >= 0)  # timestamps never decrease
            f = ink_features(x.stroke_lists(), steps_per_line_height=8.0, scheme=SCHEME_V1)
            assert 6 <= len(f) <= 400 and np.isfinite(f).all()
    c = shapes.make_dataset("val", 9, seed=4)
    assert any(not np.array_equal(x.strokes[0], y.strokes[0]) for x, y in zip(a, c))


def test_ambiguous_rectangles_have_soft_targets():
    rng = random.Random(5)
    for _ in range(20):
        ink = shapes.generate("rectangle", rng, ambiguous=True)
        r, e = ink.target[shapes.CLASS_INDEX["rectangle"]], ink.target[shapes.CLASS_INDEX["ellipse"]]
        assert ink.ambiguous and abs(r + e - 1) < 1e-9
    assert shapes.generate("rectangle", rng).target[shapes.CLASS_INDEX["rectangle"]] == 1.0


def test_shapes_model_golden():
    with open(os.path.join(FIXTURES, "shapes-golden.json")) as f:
        g = json.load(f)
    assert g["model"] == "zxx-Zsym-x-shapes"
    with open(os.path.join(MODEL, "config.json")) as f:
        cfg = json.load(f)
    assert cfg["kind"] == "shapes" and cfg["labels"] == shapes.CLASSES and cfg["network"]["head"] == "classifier"
    n = cfg["network"]
    model = InkRecNet(n["inputDim"], n["hidden"], n["layers"], n["numClasses"], n["reduceAfter"], head="classifier")
    model.load_state_dict(load_file(os.path.join(MODEL, n["weights"])))
    model.eval()
    assert len(g["cases"]) >= 3
    for case in g["cases"]:
        strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in case["ink"]["strokes"]]
        feats = model_features(strokes, cfg["features"])
        np.testing.assert_allclose(feats, np.asarray(case["features"], dtype=np.float32), atol=1e-5)
        with torch.no_grad():
            lp, _ = model(torch.from_numpy(feats)[None], torch.tensor([len(feats)]))
        np.testing.assert_allclose(lp[0].numpy(), np.asarray(case["logProbs"]), atol=1e-4)
        assert abs(np.exp(lp[0].numpy()).sum() - 1) < 1e-4
