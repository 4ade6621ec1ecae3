"""The writer-adaptation prototype (issue 41): each method starts as the shipped network and adapts only its own part."""
import torch

from inkrec_training.families.latin.adaptation_prototype import Adapted, learn
from inkrec_training.model import InkRecNet


class _Batch:
    def __init__(self):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(3, 9, 4, generator=g)
        self.lengths = torch.tensor([9, 7, 5])
        self.targets = torch.tensor([1, 2, 3, 2, 4, 1])
        self.target_lengths = torch.tensor([2, 2, 2])


def _net():
    torch.manual_seed(0)
    net = InkRecNet(4, 8, 2, 6, reduce_after=1)
    net.eval()
    return net


def test_every_method_starts_as_the_network():
    b = _Batch()
    with torch.no_grad():
        want, _ = _net()(b.x, b.lengths)
    for method in ("head", "input", "last", "all", "lora3", "loraall"):
        with torch.no_grad():
            got, lens = Adapted(_net(), method, rank=2)(b.x, b.lengths)
        assert torch.allclose(got, want, atol=1e-6), method
        assert lens.tolist() == [5, 4, 3]


def test_learning_changes_only_the_methods_part():
    b = _Batch()
    for method, changed in (("head", set()), ("lora3", set()), ("last", {"lstms.1.", "head."}), ("all", {""})):
        net = _net()
        start = {k: v.clone() for k, v in net.state_dict().items()}
        model = Adapted(net, method, rank=2)
        before = model.penalty().item()
        learn(model, b, steps=3, lr=0.05, weight=0.1)
        assert model.penalty().item() > before, method  # it moved away from the shipped network
        for k, v in net.state_dict().items():
            moved = not torch.equal(v, start[k])
            assert moved == any(k.startswith(p) for p in changed), (method, k)


def test_the_folded_weights_compute_what_the_adapted_network_computes():
    """``adapted_state`` (what ``--engine`` quantizes and reads through inkrec) is the method's network: W + B·A
    beside each adapted weight, the head's change and bias folded in."""
    from inkrec_training.families.latin.adaptation_prototype import adapted_state
    b = _Batch()
    for method in ("head", "lora3", "loraall", "last"):
        model = Adapted(_net(), method, rank=2)
        learn(model, b, steps=3, lr=0.05, weight=0.1)
        with torch.no_grad():
            want, _ = model(b.x, b.lengths)
            plain = _net()
            plain.load_state_dict(adapted_state(model))
            got, _ = plain(b.x, b.lengths)
        assert torch.allclose(got, want, atol=1e-5), method
        assert not torch.allclose(got, _net()(b.x, b.lengths)[0], atol=1e-4), method


def test_augmented_copies_keep_their_labels():
    from inkrec_training.data import Item
    from inkrec_training.families.latin.adaptation_prototype import augmented
    import numpy as np
    rng = np.random.default_rng(0)
    items = [Item(id=f"w{i}", writer="w", label=lab, kind="words",
                  strokes=[np.cumsum(rng.normal(0, 1, size=(30, 2)), axis=0)]) for i, lab in enumerate(["ab", "cd"])]
    out = augmented(items, 3, seed=7)
    assert [it.label for it in out] == ["ab", "cd"] + ["ab"] * 3 + ["cd"] * 3
    assert out[0] is items[0] and out[1] is items[1]
    assert not np.allclose(out[2].strokes[0], items[0].strokes[0])
    again = augmented(items, 3, seed=7)
    assert all(np.array_equal(a.strokes[0], b.strokes[0]) for a, b in zip(out, again))


def test_minibatches_learn_from_slices_deterministically():
    """``--minibatch``: each step reads that many words; the same seed gives the same change, another seed another."""
    from inkrec_training.families.latin.adaptation_prototype import adapted_state
    b = _Batch()
    def run(seed):
        model = Adapted(_net(), "loraall", rank=2)
        learn(model, b, steps=4, lr=0.05, weight=0.1, minibatch=2, seed=seed)
        return adapted_state(model)
    one, again, other = run(1), run(1), run(2)
    assert all(torch.equal(one[k], again[k]) for k in one)
    assert any(not torch.equal(one[k], other[k]) for k in one)
    start = _net().state_dict()
    assert any(not torch.equal(one[k], start[k]) for k in one)


def test_a_lone_letter_learns_either_case():
    """``ctc_mean``: nn.CTCLoss's mean where no text is a lone letter; a lone letter's loss is that of either case
    (−logsumexp of both), as the Swift side's union; ``other_case`` as HeadExample.otherCase."""
    import torch.nn as nn
    from inkrec_training.families.latin.adaptation_prototype import ctc_mean, other_case
    symbol = {c: i + 1 for i, c in enumerate("cCaAß-")}
    assert other_case("c", symbol) == 2 and other_case("C", symbol) == 1 and other_case("A", symbol) == 3
    assert other_case("ca", symbol) is None and other_case("-", symbol) is None and other_case("ß", symbol) is None
    b = _Batch()
    lp, lens = _net()(b.x, b.lengths)
    want = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=True)(lp.transpose(0, 1), b.targets, lens, b.target_lengths)
    assert torch.allclose(ctc_mean(lp, b.targets, lens, b.target_lengths), want)
    assert torch.allclose(ctc_mean(lp, b.targets, lens, b.target_lengths, b.targets.clone()), want)
    # Three one-letter words; the second has another case (class 5 for 4).
    targets, lengths = torch.tensor([1, 4, 2]), torch.tensor([1, 1, 1])
    others = torch.tensor([1, 5, 2])
    per = nn.functional.ctc_loss(lp.transpose(0, 1), targets, lens, lengths, blank=0, reduction="none")
    alt = nn.functional.ctc_loss(lp.transpose(0, 1), others, lens, lengths, blank=0, reduction="none")
    either = -torch.logsumexp(torch.stack([-per[1], -alt[1]]), dim=0)
    got = ctc_mean(lp, targets, lens, lengths, others)
    assert torch.allclose(got, (per[0] + either + per[2]) / 3)
    assert got < ctc_mean(lp, targets, lens, lengths)
