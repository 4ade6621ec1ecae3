"""train.py --init-from: a run starts from exported weights, 8-bit ones dequantized, the head grown."""
import os
import sys

import torch
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import train  # noqa: E402
from inkrec_training import charset  # noqa: E402
from inkrec_training.features import FEATURE_DIM  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402
from inkrec_training.quantize import dequantize_state  # noqa: E402

MODELS = os.path.join(HERE, "..", "..", "Models")


def test_eight_bit_latin_weights_load_dequantized():
    charset.select("latin")
    try:
        model = InkRecNet(FEATURE_DIM, 96, 3, charset.NUM_CLASSES, 1)
        path = os.path.join(MODELS, "latn-bilstm96x3", "weights.safetensors")
        model.load_state_dict(train.initial_weights(path, model))
        raw = load_file(path)
        assert raw["head.weight"].dtype == torch.int8
        want = dequantize_state(raw)
        for k, v in model.state_dict().items():
            assert torch.equal(v, want[k]), k
    finally:
        charset.select("western")


def test_a_western_network_grows_its_head_to_the_latin_set():
    charset.select("latin")
    try:
        model = InkRecNet(FEATURE_DIM, 96, 3, charset.NUM_CLASSES, 1)
        state = train.initial_weights(os.path.join(MODELS, "en-US", "weights.safetensors"), model)
        model.load_state_dict(state)
        western = dequantize_state(load_file(os.path.join(MODELS, "en-US", "weights.safetensors")))
        n = western["head.weight"].shape[0]
        assert n < charset.NUM_CLASSES
        assert torch.equal(state["head.weight"][:n], western["head.weight"])
        # a new letter starts from its base letter's row, its bias 2 lower
        k, a = charset.INDEX["ą"], charset.INDEX["a"]
        assert torch.equal(state["head.weight"][k], western["head.weight"][a])
        assert torch.equal(state["head.bias"][k], western["head.bias"][a] - 2.0)
    finally:
        charset.select("western")


def test_a_float16_copy_of_a_run_loads_as_float_weights(tmp_path):
    """gpu_run.save16's ema16.pt (what a GPU call brings back) starts the next run."""
    from inkrec_training import gpu_run
    charset.select("latin")
    try:
        source = InkRecNet(FEATURE_DIM, 32, 2, charset.NUM_CLASSES, 1)
        gpu_run.save16(str(tmp_path), source.state_dict(), None, {"config": source.config()}, None)
        assert sorted(os.listdir(tmp_path)) == ["ema16.pt"]
        model = InkRecNet(FEATURE_DIM, 32, 2, charset.NUM_CLASSES, 1)
        model.load_state_dict(train.initial_weights(str(tmp_path / "ema16.pt"), model))
        for k, v in model.state_dict().items():
            assert v.dtype == torch.float32, k
            assert torch.equal(v, source.state_dict()[k].half().float()), k
    finally:
        charset.select("western")
