"""The one-call training path end to end on this CPU, on a few synthetic words packed as latin data
packs UNIPEN: latin train sweep and latin train read the packs, train for seconds and leave in --out16 what a GPU
call brings back (float16 moving averages that the next run starts from, and the histories)."""
import json
import math
import os

import pytest
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.join(HERE, "..")
from inkrec_training.cli import run_tool
from inkrec_training.families.latin import train
from inkrec_training import charset, data, inkpack
from inkrec_training.features import FEATURE_DIM  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402

WORDS = ["and", "the", "ink", "pen", "note", "line", "word", "text"]


def synthetic_word(label, seed):
    """A wavy stroke per letter, 40 units high, 30 wide: enough points for CTC's frames."""
    strokes = []
    for k, _ in enumerate(label):
        pts = [[int(30 * k + 30 * t / 20), int(40 * math.sin(t * 0.6 + seed)), 10 * t] for t in range(21)]
        strokes.append(pts)
    return strokes


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    os.makedirs(root / "unipen")
    for kind in ("words", "text", "chars"):
        records = []
        for w in range(12):  # writers: a stable hash holds about one in ten out
            for i, label in enumerate(WORDS if kind != "chars" else list("abcdeinopt")):
                if kind == "text":
                    label = f"{label} {WORDS[(i + 1) % len(WORDS)]}"
                records.append({"id": f"{kind}{w}-{i}", "writer": f"writer{w}", "label": label, "quality": "OK",
                                "strokes": synthetic_word(label, w + i)})
        inkpack.write(data.packed_path(kind, str(root)), records)
    return str(root)


def run(command, *args):
    out = run_tool("latin", "train", command, *args, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return out.stdout


COMMON = ["--minutes", "0.05", "--workers", "0", "--frames", "1500", "--warmup-steps", "0", "--threads", "1",
          "--checkpoint-minutes", "100", "--synthetic", "0"]


def test_a_sweep_trains_each_size_on_the_packs_and_leaves_their_moving_averages(packed, tmp_path):
    out = tmp_path / "out"
    log = run("sweep", "--data", packed, "--sizes", "8x2,12x2", "--run", str(tmp_path / "run"),
              "--out16", str(out), *COMMON)
    assert "data: " in log and "model 12x2" in log
    history = json.load(open(out / "history.json"))
    assert sorted(history) == ["12x2", "8x2"]
    assert sorted(os.listdir(out)) == ["12x2", "8x2", "history.json"]
    for size, hidden in (("8x2", 8), ("12x2", 12)):
        assert os.listdir(out / size) == ["ema16.pt"]  # one file a size: a call brings back 8
        entry = history[size]["history"][-1]
        assert entry["step"] >= 1 and 0.0 <= entry["ema_cer"]
        saved = torch.load(out / size / "ema16.pt", weights_only=False)
        assert saved["config"]["hidden"] == hidden and saved["state"]["step"] == entry["step"]
        assert all(v.dtype == torch.float16 for v in saved["model"].values())
        model = InkRecNet(FEATURE_DIM, hidden, 2, charset.NUM_CLASSES, 1)
        model.load_state_dict(train.initial_weights(str(out / size / "ema16.pt"), model))


def test_train_leaves_weights_and_history_in_out16_and_continues_from_them(packed, tmp_path):
    out = tmp_path / "out"
    run("network", "--data", packed, "--hidden", "8", "--layers", "2", "--run", str(tmp_path / "run"),
        "--out16", str(out), "--replay", "2", *COMMON)
    assert sorted(os.listdir(out)) == ["ema16.pt", "history.json", "live16.pt"]
    assert os.path.exists(tmp_path / "run" / "last.pt")
    history = json.load(open(out / "history.json"))
    assert len(history) == 1 and history[0]["step"] >= 1
    log = run("network", "--data", packed, "--hidden", "8", "--layers", "2", "--run", str(tmp_path / "run2"),
              "--init-from", str(out / "ema16.pt"), *COMMON)
    assert f"initialized from {out / 'ema16.pt'}" in log
    log = run("sweep", "--data", packed, "--sizes", "8x2,12x2", "--run", str(tmp_path / "run3"),
              "--init-from", str(out / "ema16.pt"), *COMMON)
    assert "model 12x2: " in log and f"started from {out / 'ema16.pt'}" in log  # the 8x2 run widened to 12
