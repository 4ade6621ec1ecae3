"""Knowledge distillation: a student network learns, beside CTC, the per-frame distribution of teachers.

    teacher = Teacher(["Models/en-US", "Models/de"], charset.CHARACTERS)
    t_lp = teacher.log_probs(x, lengths)                          # (B, T', C_student), -inf off the teachers' set
    mask = teacher.item_mask(targets, target_lengths)            # (B,) items whose label the teachers can write
    loss = ctc_loss + weight * teacher.loss(student_lp, t_lp, out_len, mask)

Teachers are exported model directories (``config.json`` and the weights it names, 8-bit dequantized) whose
features and frame rate are the student's (the same feature frames go into both). Their outputs are mapped onto
the student's classes by character; only the classes *every* teacher has count (for en-US beside the Latin
network: the 165 western characters and the blank). Several teachers are an ensemble: their log-probabilities are
averaged per frame and renormalized over those classes (a geometric mean, which read the English tuning words
better than the arithmetic one when greedy: 63.7% against 62.8%, en-US alone 60.8%, the Latin network 62.7%).

Only items whose label uses the teachers' characters alone are distilled (en-US cannot teach ``é``: it would
teach ``e``). The loss is KL(teacher ‖ student) over those classes, summed over classes and averaged over the
valid frames of the distilled items.
"""
from __future__ import annotations

import torch

from .features import FEATURE_DIM, FEATURE_SCHEME, STEPS_PER_LINE_HEIGHT
from .model import InkRecNet, load_exported


def load_teacher(model_dir: str) -> tuple[InkRecNet, dict]:
    """The network of an exported model directory (``model.load_exported``), frozen in eval mode, and its config."""
    net, cfg = load_exported(model_dir)
    net.eval()
    for p in net.parameters():
        p.requires_grad_(False)
    return net, cfg


class Teacher:
    """One or more exported networks as a teacher for a student over ``student_characters`` (blank at 0)."""

    def __init__(self, model_dirs: list[str], student_characters: list[str], reduce_after: int,
                 device: str | torch.device = "cpu"):
        if not model_dirs:
            raise ValueError("no teacher model directories")
        index = {c: i + 1 for i, c in enumerate(student_characters)}
        self.num_classes = len(student_characters) + 1
        self.networks, self.columns = [], []
        covered = torch.ones(self.num_classes, dtype=torch.bool)
        for d in model_dirs:
            net, cfg = load_teacher(d)
            feats, n = cfg.get("features", {}), cfg["network"]
            if (feats.get("scheme"), float(feats.get("stepsPerLineHeight", 0))) != (FEATURE_SCHEME, STEPS_PER_LINE_HEIGHT) \
                    or n["inputDim"] != FEATURE_DIM:
                raise ValueError(f"teacher {d}: features {feats} are not the student's "
                                 f"({FEATURE_SCHEME} at {STEPS_PER_LINE_HEIGHT:g} steps per line height)")
            if n["reduceAfter"] != reduce_after or n.get("head", "ctc") != "ctc":
                raise ValueError(f"teacher {d}: reduceAfter {n['reduceAfter']} / head {n.get('head', 'ctc')} "
                                 f"differ from the student's ({reduce_after} / ctc): its frames are not the student's")
            if cfg.get("blankIndex", 0) != 0 or len(cfg["labels"]) + 1 != n["numClasses"]:
                raise ValueError(f"teacher {d}: expected the blank at 0 and a class for each label")
            missing = [c for c in cfg["labels"] if c not in index]
            if missing:
                raise ValueError(f"teacher {d}: characters the student does not have: {''.join(missing[:20])!r}")
            cols = torch.tensor([0] + [index[c] for c in cfg["labels"]], dtype=torch.long)
            mine = torch.zeros(self.num_classes, dtype=torch.bool)
            mine[cols] = True
            covered &= mine
            self.networks.append(net.to(device))
            self.columns.append(cols.to(device))
        self.covered = covered.to(device)

    @torch.no_grad()
    def log_probs(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        """(B, T', C_student): the teachers' mean log-probabilities, renormalized over the classes all of them
        have; -inf on the others."""
        total = None
        for net, cols in zip(self.networks, self.columns):
            lp, _ = net(x, lengths)
            full = torch.full((*lp.shape[:2], self.num_classes), float("-inf"), device=lp.device, dtype=lp.dtype)
            full[..., cols] = lp
            full = full.masked_fill(~self.covered, float("-inf"))
            full = full - torch.logsumexp(full, dim=-1, keepdim=True)
            total = full if total is None else total + full
        mean = total / len(self.networks)
        return mean - torch.logsumexp(mean, dim=-1, keepdim=True)

    def item_mask(self, targets: torch.Tensor, target_lengths: torch.Tensor) -> torch.Tensor:
        """(B,) True where every character of the item's label is one the teachers have."""
        ok = self.covered.to(targets.device)[targets]
        per_item = torch.split(ok, target_lengths.tolist())
        return torch.tensor([bool(t.all()) for t in per_item], dtype=torch.bool)

    def loss(self, student_lp: torch.Tensor, teacher_lp: torch.Tensor, out_len: torch.Tensor,
             mask: torch.Tensor) -> torch.Tensor:
        """KL(teacher ‖ student) over the teachers' classes, summed over classes, averaged over the valid frames of
        the masked items; 0 (with a gradient) when no item is masked in."""
        frames = torch.arange(student_lp.shape[1], device=student_lp.device)[None, :] < out_len.to(student_lp.device)[:, None]
        frames &= mask.to(student_lp.device)[:, None]
        if not bool(frames.any()):
            return student_lp.sum() * 0.0
        p = teacher_lp.exp()
        cols = self.covered.to(student_lp.device)
        kl = (p[..., cols] * (teacher_lp[..., cols] - student_lp[..., cols])).sum(-1)
        return kl[frames].mean()
