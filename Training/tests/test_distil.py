"""distil.Teacher: exported networks as a teacher for a student over another character set — their columns mapped
by character, an ensemble's mean renormalized, only the items whose label they can write distilled, and teachers
whose frames are not the student's refused by name."""
import json
import os

import pytest
import torch
from safetensors.torch import save_file

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import charset
from inkrec_training.distil import Teacher  # noqa: E402
from inkrec_training.features import FEATURE_DIM  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402


def export(tmp_path, name, seed, labels=None, steps=4.0, reduce_after=1):
    labels = labels or charset.WESTERN
    torch.manual_seed(seed)
    net = InkRecNet(FEATURE_DIM, 6, 2, len(labels) + 1, reduce_after)
    d = tmp_path / name
    d.mkdir()
    save_file({k: v.contiguous() for k, v in net.state_dict().items()}, str(d / "weights.safetensors"))
    cfg = {"features": {"scheme": "resampled-v2", "stepsPerLineHeight": steps},
           "network": {"weights": "weights.safetensors", "inputDim": FEATURE_DIM, "hidden": 6, "layers": 2,
                       "numClasses": len(labels) + 1, "reduceAfter": reduce_after, "head": "ctc"},
           "labels": labels, "blankIndex": 0}
    (d / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    net.eval()
    return str(d), net


def batch(seed=0):
    torch.manual_seed(seed)
    lengths = torch.tensor([9, 6])
    x = torch.randn(2, 9, FEATURE_DIM)
    x[1, 6:] = 0
    return x, lengths


def test_one_teacher_is_its_own_distribution_on_the_students_columns(tmp_path):
    d, net = export(tmp_path, "en", 1)
    teacher = Teacher([d], charset.LATIN, reduce_after=1)
    assert int(teacher.covered.sum()) == len(charset.WESTERN) + 1  # the western set and the blank
    x, lengths = batch()
    t = teacher.log_probs(x, lengths)
    assert t.shape[-1] == len(charset.LATIN) + 1
    own, out_len = net(x, lengths)
    w = len(charset.WESTERN) + 1  # latin starts with western in the same order
    assert torch.allclose(t[0, : out_len[0], :w], own[0, : out_len[0]], atol=1e-5)
    assert torch.isinf(t[..., w:]).all()
    assert torch.allclose(torch.logsumexp(t[0, : out_len[0]], -1), torch.zeros(int(out_len[0])), atol=1e-5)


def test_an_ensemble_is_the_renormalized_mean_and_two_copies_are_one(tmp_path):
    d1, n1 = export(tmp_path, "a", 1)
    d2, n2 = export(tmp_path, "b", 2)
    x, lengths = batch()
    one = Teacher([d1], charset.LATIN, 1).log_probs(x, lengths)
    twice = Teacher([d1, d1], charset.LATIN, 1).log_probs(x, lengths)
    assert torch.allclose(one[torch.isfinite(one)], twice[torch.isfinite(twice)], atol=1e-5)
    both = Teacher([d1, d2], charset.LATIN, 1).log_probs(x, lengths)
    a, _ = n1(x, lengths)
    b, _ = n2(x, lengths)
    mean = (a + b) / 2
    expected = mean - torch.logsumexp(mean, -1, keepdim=True)
    w = len(charset.WESTERN) + 1
    assert torch.allclose(both[0, :5, :w], expected[0, :5], atol=1e-5)
    assert not torch.allclose(both[0, :5, :w], a[0, :5], atol=1e-3)


def test_only_labels_the_teachers_can_write_are_distilled(tmp_path):
    d, _ = export(tmp_path, "en", 1)
    teacher = Teacher([d], charset.LATIN, 1)
    charset.select("latin")
    try:
        labels = ["hello", "łódź", "café", "x"]
        targets = torch.cat([torch.tensor(charset.encode(s)) for s in labels])
        lengths = torch.tensor([len(s) for s in labels])
    finally:
        charset.select("western")
    assert teacher.item_mask(targets, lengths).tolist() == [True, False, True, True]


def test_the_loss_is_zero_for_the_teacher_itself_and_teaches_another_network(tmp_path):
    d, _ = export(tmp_path, "en", 1)
    teacher = Teacher([d], charset.LATIN, 1)
    x, lengths = batch()
    t = teacher.log_probs(x, lengths)
    everything = torch.tensor([True, True])
    same = torch.where(torch.isfinite(t), t, torch.full_like(t, -30.0))
    _, out_len = InkRecNet(FEATURE_DIM, 6, 2, len(charset.LATIN) + 1, 1)(x, lengths)
    assert abs(teacher.loss(same, t, out_len, everything).item()) < 1e-4
    torch.manual_seed(5)
    student = InkRecNet(FEATURE_DIM, 6, 2, len(charset.LATIN) + 1, 1)
    opt = torch.optim.Adam(student.parameters(), lr=0.02)
    first = None
    for _ in range(60):
        lp, out_len = student(x, lengths)
        loss = teacher.loss(lp, t, out_len, everything)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert first > 0.1 and loss.item() < first / 2
    none = teacher.loss(lp, t, out_len, torch.tensor([False, False]))
    assert none.item() == 0.0 and none.requires_grad


def test_teachers_whose_frames_or_characters_are_not_the_students_are_refused(tmp_path):
    d, _ = export(tmp_path, "steps", 1, steps=6.0)
    with pytest.raises(ValueError, match="features"):
        Teacher([d], charset.LATIN, 1)
    d, _ = export(tmp_path, "reduce", 1, reduce_after=2)
    with pytest.raises(ValueError, match="reduceAfter"):
        Teacher([d], charset.LATIN, 1)
    d, _ = export(tmp_path, "cjk", 1, labels=list("ab字"))
    with pytest.raises(ValueError, match="字"):
        Teacher([d], charset.LATIN, 1)
    with pytest.raises(ValueError, match="no teacher"):
        Teacher([], charset.LATIN, 1)
