"""First-order meta-training for writer profiles (issue 41): the outer gradient is the query's gradient at the adapted
weights (plus the base term), the control is plain fine-tuning, and tasks come from training writers only."""
import random

import torch

from inkrec_training import splits
from inkrec_training.data import Item
from inkrec_training.families.latin import adaptation_meta as meta
from inkrec_training.families.latin.adaptation_prototype import Adapted, adapted_state, ctc_mean, learn
from inkrec_training.model import InkRecNet


class _Batch:
    def __init__(self, seed: int):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(3, 9, 4, generator=g)
        self.lengths = torch.tensor([9, 7, 5])
        self.targets = torch.tensor([1, 2, 3, 2, 4, 1])
        self.target_lengths = torch.tensor([2, 2, 2])
        self.other_targets = self.targets.clone()


def _net():
    torch.manual_seed(0)
    net = InkRecNet(4, 8, 2, 6, reduce_after=1)
    net.eval()
    return net


def _grads(net):
    return {k: p.grad.clone() for k, p in net.named_parameters()}


def test_the_control_is_the_plain_loss():
    net, q = _net(), _Batch(2)
    loss, at_base, adapted = meta.meta_loss(net, _Batch(1), q, inner=0, base=0.5, seed=3)
    loss.backward()
    got = _grads(net)
    ref = _net()
    lp, lens = ref(q.x, q.lengths)
    ctc_mean(lp, q.targets, lens, q.target_lengths).backward()
    assert at_base == adapted == loss.item()
    for k, p in ref.named_parameters():
        assert torch.allclose(got[k], p.grad, atol=1e-6), k


def test_the_outer_gradient_is_first_order_at_the_adapted_weights():
    s, q = _Batch(1), _Batch(2)
    net = _net()
    loss, at_base, adapted = meta.meta_loss(net, s, q, inner=5, base=0.5, seed=3)
    loss.backward()
    got = _grads(net)
    assert adapted < at_base  # the support and query share their targets: learning one helps the other
    # The same change learned again (same seed, same start) and folded into a fresh copy of the weights: the query's
    # gradient there, plus half the gradient at the shipped weights, is what meta_loss gave.
    model = Adapted(_net(), "loraall")
    learn(model, s, 5, meta.INNER[1], meta.INNER[2], minibatch=meta.INNER[3], seed=3)
    folded = _net()
    folded.load_state_dict(adapted_state(model))
    lp, lens = folded(q.x, q.lengths)
    ctc_mean(lp, q.targets, lens, q.target_lengths).backward()
    plain = _net()
    lp, lens = plain(q.x, q.lengths)
    ctc_mean(lp, q.targets, lens, q.target_lengths).backward()
    for (k, a), (_, b) in zip(folded.named_parameters(), plain.named_parameters()):
        assert torch.allclose(got[k], a.grad + 0.5 * b.grad, atol=1e-5), k
    assert any(not torch.allclose(a.grad, b.grad, atol=1e-5)
               for (_, a), (_, b) in zip(folded.named_parameters(), plain.named_parameters()))


def test_tasks_come_from_training_writers_in_writing_order():
    held = next(w for w in (f"w{i}" for i in range(1000)) if splits.is_validation_writer(w))
    kept = next(w for w in (f"w{i}" for i in range(1000)) if not splits.is_validation_writer(w))
    small = next(w for w in (f"x{i}" for i in range(1000)) if not splits.is_validation_writer(w))
    items = ([Item(f"{held}#{i}", held, "a", [], "words") for i in range(80)]
             + [Item(f"{kept}#{i}", kept, "a", [], "words") for i in range(60)]
             + [Item(f"{small}#{i}", small, "a", [], "words") for i in range(59)])
    writers = meta.training_writers(items)
    assert list(writers) == [kept]
    rng = random.Random(0)
    for _ in range(50):
        support, query = meta.draw_task(rng, writers[kept])
        ids = [int(it.id.split("#")[1]) for it in support]
        assert len(support) in (20, 40) and ids == list(range(ids[0], ids[0] + len(ids)))  # 50 capped at 60 − 20
        assert len(query) == meta.QUERY and not {it.id for it in query} & {it.id for it in support}


def test_a_checkpoint_is_a_model_folder_of_the_network_in_8_bits(tmp_path):
    import json
    from inkrec_training.model import load_exported
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    network = {"weights": "../shared/weights.safetensors", "inputDim": 4, "hidden": 8, "layers": 2, "numClasses": 6,
               "reduceAfter": 1, "precision": "int8"}
    (shipped / "config.json").write_text(json.dumps({"network": network, "labels": list("abcde")}))
    (shipped / "lm.bin").write_bytes(b"lm")
    net = _net()
    out = meta.save_model(net, str(shipped), str(tmp_path / "step250"))
    cfg = json.loads((tmp_path / "step250" / "config.json").read_text())
    assert cfg["network"]["weights"] == "weights.safetensors" and cfg["labels"] == list("abcde")
    assert (tmp_path / "step250" / "lm.bin").read_bytes() == b"lm"
    back, _ = load_exported(out)
    for (k, a), (_, b) in zip(net.state_dict().items(), back.state_dict().items()):
        assert torch.allclose(a, b, atol=0.02 * float(a.abs().max()) + 1e-6), k
