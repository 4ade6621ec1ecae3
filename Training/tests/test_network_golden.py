"""PyTorch must reproduce the network golden files (the Swift engine checks the same files)."""
import json
import os

import numpy as np
import torch
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
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


def _assert_tolerance(case, qnet):
    """Every 8-bit case carries the tolerance the Swift test allows it, the exporter's own rule (the five fixtures
    written before the Devanagari one had it added on 2026-12-06, after AMD EPYC's OpenBLAS moved ko's apd ink by
    0.135)."""
    from inkrec_training.families.latin.quantize_model import reference_tolerance
    assert case["tolerance"] == reference_tolerance(qnet, case["features"])


def _shipped():
    with open(os.path.join(FIXTURES, "model-golden.json")) as f:
        g = json.load(f)
    d = os.path.join(MODELS, g["model"])
    with open(os.path.join(d, "config.json")) as f:
        cfg = json.load(f)
    return g, d, cfg


def test_shipped_model_golden():
    """Features always; log-probabilities of a float model against PyTorch, of an 8-bit one against the
    8-bit reference (quantize.QuantizedNet) in model-golden-int8.json, which the Swift tests check too."""
    g, d, cfg = _shipped()
    assert len(g["cases"]) >= 3
    int8 = cfg["network"].get("precision") == "int8"
    if int8:
        from safetensors.torch import load_file
        from inkrec_training import quantize
        qnet = quantize.QuantizedNet(load_file(os.path.join(d, cfg["network"]["weights"])), cfg["network"])
        with open(os.path.join(FIXTURES, "model-golden-int8.json")) as f:
            g8 = {c["id"]: c for c in json.load(f)["cases"]}
    else:
        model = build(cfg["network"], os.path.join(d, cfg["network"]["weights"]))
    for case in g["cases"]:
        strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in case["ink"]["strokes"]]
        feats = model_features(strokes, cfg["features"])
        np.testing.assert_allclose(feats, np.asarray(case["features"], dtype=np.float32), atol=1e-5)
        if int8:
            lp = qnet.log_probs(feats).numpy()
            np.testing.assert_allclose(lp, np.asarray(g8[case["id"]]["logProbs"]), atol=1e-5)
            _assert_tolerance(g8[case["id"]], qnet)
        else:
            np.testing.assert_allclose(run(model, feats), np.asarray(case["logProbs"]), atol=1e-4)


def test_a_batch_of_inks_gives_each_inks_values():
    """``QuantizedNet.batch_log_probs`` (which ``reference_tolerance`` runs its 20 draws through) gives each ink of
    a batch exactly what ``log_probs`` gives it alone: an odd length (the reduction's padding) and moved features."""
    from inkrec_training import quantize
    g, d, cfg = _shipped()
    qnet = quantize.QuantizedNet(load_file(os.path.join(d, cfg["network"]["weights"])), cfg["network"])
    x = torch.tensor(g["cases"][0]["features"], dtype=torch.float32)
    x = x[: x.shape[0] - 1 + x.shape[0] % 2]  # odd
    gen = torch.Generator().manual_seed(1)
    inks = torch.stack([x, x * (1 + 1e-3 * torch.randn(x.shape, generator=gen)), x.flip(0)])
    batch = qnet.batch_log_probs(inks)
    assert batch.shape[0] == 3
    for ink, lp in zip(inks, batch):
        assert torch.equal(lp, qnet.log_probs(ink))


def test_shipped_text_model_weight_types():
    """Float models: latin export english rounds weight_hh to F16 (the engine's 16-bit recurrent kernel runs it
    exactly), every other tensor F32. 8-bit models (latin export quantize): every quantized tensor I8 with an
    F32 `.scale` of one value per row, the rest F32."""
    from inkrec_training import quantize
    _, d, cfg = _shipped()
    with open(os.path.join(d, cfg["network"]["weights"]), "rb") as f:
        header = json.loads(f.read(int.from_bytes(f.read(8), "little")))
    dtypes = {k: v["dtype"] for k, v in header.items() if k != "__metadata__"}
    recurrent = {k for k in dtypes if "weight_hh" in k and not k.endswith(".scale")}
    assert len(recurrent) == 2 * cfg["network"]["layers"]
    if cfg["network"].get("precision") == "int8":
        q = {k for k in dtypes if not k.endswith(".scale") and quantize.is_quantized(k)}
        assert recurrent <= q and "head.weight" in q
        assert all(dtypes[k] == "I8" and dtypes[k + ".scale"] == "F32" for k in q)
        assert all(header[k + ".scale"]["shape"] == [header[k]["shape"][0]] for k in q)
        rest = set(dtypes) - q - {k + ".scale" for k in q}
        assert all(dtypes[k] == "F32" for k in rest)
    else:
        assert all(dtypes[k] == "F16" for k in recurrent)
        assert all(dtypes[k] == "F32" for k in set(dtypes) - recurrent)


def test_int8_kernel_fixture():
    """The exact-integer fixture the Swift kernel tests read: quantize.py reproduces every value."""
    import torch
    from inkrec_training import quantize
    with open(os.path.join(FIXTURES, "int8-kernels.json")) as f:
        g = json.load(f)
    for c in g["projections"]:
        m, k, n = c["m"], c["k"], c["n"]
        q = torch.tensor(c["weights"], dtype=torch.int8).reshape(n, k)
        x = torch.tensor(c["x"], dtype=torch.float32).reshape(m, k)
        y, acc = quantize.qlinear(x, q, torch.tensor(c["scale"]), torch.tensor(c["bias"]))
        assert acc.flatten().tolist() == c["sums"]
        assert np.array_equal(y.flatten().numpy(), np.asarray(c["y"], dtype=np.float32))
        xq, sx = quantize.dynamic_rows(x)
        assert xq.flatten().tolist() == c["xq"]
        assert np.array_equal(sx.numpy(), np.asarray(c["xscale"], dtype=np.float32))
    r = g["recurrent"]
    H = r["hidden"]
    q = torch.tensor(r["weights"], dtype=torch.int8).reshape(4 * H, H)
    hq = torch.round(torch.tensor(r["h"]) * 127).clamp(-127, 127).to(torch.int64)
    acc = hq @ q.to(torch.int64).T
    assert acc.tolist() == r["sums"]
    gates = torch.tensor(r["gates"]) + acc.to(torch.float32) * (torch.tensor(r["scale"]) / 127)
    assert np.array_equal(gates.numpy(), np.asarray(r["result"], dtype=np.float32))


def test_cjk_network_golden():
    """The CJK-shaped fixture (`python3 -m inkrec_training cjk data fixture`): the output layer of the CJK models (the
    11,201 characters of cjk_charset.json + blank), 8-bit weights, features resampled-v2 at 6 steps per
    line height. features.py and quantize.QuantizedNet reproduce what it stores (the Swift engine checks
    the same file: CJKNetworkGoldenTests)."""
    import base64
    import hashlib
    from inkrec_training import cjk_charset, quantize
    d = os.path.join(FIXTURES, "cjk-network")
    with open(os.path.join(d, "golden.json"), encoding="utf-8") as f:
        g = json.load(f)
    net = g["network"]
    assert net["numClasses"] == cjk_charset.NUM_CLASSES == 11202
    assert net["precision"] == "int8" and net["reduceAfter"] == 1 and net["head"] == "ctc"
    assert g["charsetSHA256"] == hashlib.sha256("\n".join(cjk_charset.CHARACTERS).encode("utf-8")).hexdigest()
    assert g["featureSettings"] == {"scheme": "resampled-v2", "stepsPerLineHeight": cjk_charset.STEPS_PER_LINE_HEIGHT}
    # Under 500 KB in all.
    assert sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d)) < 500_000

    strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in g["ink"]["strokes"]]
    feats = model_features(strokes, g["featureSettings"])
    np.testing.assert_allclose(feats, np.asarray(g["features"], dtype=np.float32), atol=1e-5)

    tensors = load_file(os.path.join(d, net["weights"]))
    assert tensors["head.weight"].dtype == torch.int8 and tuple(tensors["head.weight"].shape) == (11202, 2 * net["hidden"])
    lp = quantize.QuantizedNet(tensors, net).log_probs(torch.tensor(g["features"], dtype=torch.float32)).numpy()
    assert lp.shape == (g["frames"], 11202)

    def f32(s, shape):
        return np.frombuffer(base64.b64decode(s), dtype="<f4").reshape(shape)

    for t, top in enumerate(g["top"]):
        classes = [c for c, _ in top]
        np.testing.assert_allclose(lp[t, classes], [v for _, v in top], atol=1e-5)
        rest = np.delete(lp[t], classes)
        assert rest.max() <= top[-1][1] + 1e-5
    np.testing.assert_allclose(lp.astype(np.float64).mean(axis=1), g["meanLogProb"], atol=1e-5)
    sample = g["sampleClasses"]
    np.testing.assert_allclose(lp[:, sample], f32(g["sampleLogProbs"], (g["frames"], len(sample))), atol=1e-5)
    np.testing.assert_allclose(lp[g["fullFrame"]], f32(g["fullFrameLogProbs"], (11202,)), atol=1e-5)


def test_other_networks_int8_golden():
    """``model-golden-int8-<identifier>.json`` (``latin export quantize --int8-golden-of``): model-golden.json's
    inks under another shipped 8-bit network (the Vietnamese one), which the Swift tests check too."""
    import glob
    from inkrec_training import quantize
    g, _, _ = _shipped()
    paths = sorted(glob.glob(os.path.join(FIXTURES, "model-golden-int8-*.json")))
    assert [os.path.basename(p) for p in paths] == [
        "model-golden-int8-ar.json", "model-golden-int8-bn.json", "model-golden-int8-el.json", "model-golden-int8-he.json",
        "model-golden-int8-hi.json", "model-golden-int8-ko.json", "model-golden-int8-ru.json", "model-golden-int8-ta.json",
        "model-golden-int8-th.json", "model-golden-int8-vi.json"]
    for path in paths:
        with open(path) as f:
            g8 = json.load(f)
        d = os.path.join(MODELS, g8["model"])
        with open(os.path.join(d, "config.json")) as f:
            cfg = json.load(f)
        assert cfg["network"]["precision"] == "int8"
        qnet = quantize.QuantizedNet(load_file(os.path.join(d, cfg["network"]["weights"])), cfg["network"])
        cases = {c["id"]: c for c in g8["cases"]}
        assert set(cases) == {c["id"] for c in g["cases"]}
        for case in g["cases"]:
            strokes = [[[p["x"], p["y"]] for p in s["points"]] for s in case["ink"]["strokes"]]
            feats = model_features(strokes, cfg["features"])
            np.testing.assert_allclose(feats, np.asarray(cases[case["id"]]["features"], dtype=np.float32), atol=1e-5)
            lp = qnet.log_probs(feats).numpy()
            assert lp.shape[1] == cfg["network"]["numClasses"]
            np.testing.assert_allclose(lp, np.asarray(cases[case["id"]]["logProbs"]), atol=1e-5)
            _assert_tolerance(cases[case["id"]], qnet)
