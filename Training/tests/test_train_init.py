"""latin train --init-from: a run starts from exported weights, 8-bit ones dequantized, the head grown."""
import os

import torch
from safetensors.torch import load_file

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training.families.latin import train
from inkrec_training import charset
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


def test_a_western_network_grows_its_head_to_the_latin_set(tmp_path):
    """A network over the western set (en-US's before 2.0.0; here random weights saved as latin export english saves them)."""
    from safetensors.torch import save_file
    torch.manual_seed(5)
    source = InkRecNet(FEATURE_DIM, 24, 2, len(charset.WESTERN) + 1, 1)
    path = str(tmp_path / "weights.safetensors")
    save_file({k: v.contiguous() for k, v in source.state_dict().items()}, path)
    charset.select("latin")
    try:
        model = InkRecNet(FEATURE_DIM, 24, 2, charset.NUM_CLASSES, 1)
        state = train.initial_weights(path, model)
        model.load_state_dict(state)
        western = load_file(path)
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


def _outputs(model, weights):
    torch.manual_seed(3)
    x, lengths = torch.randn(3, 41, FEATURE_DIM), torch.tensor([41, 30, 7])
    model.load_state_dict(weights)
    with torch.no_grad():
        return model(x, lengths)[0]


def test_a_widened_network_computes_what_the_narrow_one_did():
    """widen_hidden (Net2WiderNet): 3 x 96 -> 3 x 128 (and a 4-layer one stacking frames after layer 2),
    the same log-probabilities without noise, close to them with the noise that breaks the copies' symmetry."""
    from inkrec_training.model import widen_hidden
    for layers, reduce_after in ((3, 1), (4, 2)):
        narrow = InkRecNet(FEATURE_DIM, 24, layers, 30, reduce_after)
        wide = InkRecNet(FEATURE_DIM, 40, layers, 30, reduce_after)
        state = {k: v.clone() for k, v in narrow.state_dict().items()}
        want = _outputs(narrow, state)
        exact = widen_hidden(state, 40, layers, reduce_after, noise=0.0)
        assert {k: v.shape for k, v in exact.items()} == {k: v.shape for k, v in wide.state_dict().items()}
        assert torch.allclose(_outputs(wide, exact), want, atol=1e-5)
        noisy = widen_hidden(state, 40, layers, reduce_after, noise=0.01)
        got = _outputs(wide, noisy)
        assert not torch.allclose(got, want, atol=1e-6)  # the copies differ ...
        assert torch.allclose(got, want, atol=0.05)       # ... a little


def test_the_shipped_network_starts_a_wider_run_and_a_narrower_one_is_refused():
    charset.select("latin")
    try:
        path = os.path.join(MODELS, "latn-bilstm96x3", "weights.safetensors")
        base = InkRecNet(FEATURE_DIM, 96, 3, charset.NUM_CLASSES, 1)
        want = _outputs(base, train.initial_weights(path, base))
        wide = InkRecNet(FEATURE_DIM, 128, 3, charset.NUM_CLASSES, 1)
        got = _outputs(wide, train.initial_weights(path, wide))
        assert (got.argmax(-1) == want.argmax(-1)).float().mean() > 0.99
        narrow = InkRecNet(FEATURE_DIM, 64, 3, charset.NUM_CLASSES, 1)
        try:
            train.initial_weights(path, narrow)
        except SystemExit as e:
            assert "only be widened" in str(e)
        else:
            raise AssertionError("a narrower model was accepted")
    finally:
        charset.select("western")


def test_widening_refuses_another_number_of_layers():
    from inkrec_training.model import widen_hidden
    state = InkRecNet(FEATURE_DIM, 24, 3, 30, 1).state_dict()
    try:
        widen_hidden(state, 40, 4, 1)
    except SystemExit as e:
        assert "3 layers, the model 4" in str(e)
    else:
        raise AssertionError("a deeper model was accepted")
