"""Every training command the documentation, the model cards and the tools' own texts name still exists.

A model is reproducible only if the command its card names still runs: this reads every tracked text
file for ``python3 -m inkrec_training FAMILY COMMAND …`` and for paths under ``Training/``, and checks
that the command resolves through the entry point and that the path is there.
"""
import os
import re
import subprocess

import pytest

from inkrec_training import cli
from inkrec_training.paths import ROOT

COMMAND = re.compile(r"python3? -m inkrec_training ([a-z]+) ([a-z-]+)(?: ([a-z-]+))?")
PATH = re.compile(r"(?:\bTraining/|(?<![\w/])(?=inkrec_training/))((?:[\w-]+/)*[\w-]+\.(?:py|sh|md|txt|json|tsv)(?:\.gz)?)\b")
OUTPUTS = ("work/", "runs/")  # what the tools write, not what the checkout holds
TEXT = (".md", ".py", ".sh", ".txt", ".json", ".swift", ".html")


def tracked_texts():
    try:
        names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs a git checkout (git ls-files)")
    for name in names:
        if name.endswith(TEXT) and not name.startswith("Training/work/") and os.path.isfile(os.path.join(ROOT, name)):
            with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as f:
                yield name, f.read()


def test_every_named_command_resolves():
    bad, seen = [], 0
    for name, text in tracked_texts():
        for m in COMMAND.finditer(text):
            seen += 1
            family, command, topic = m.groups()
            if family not in cli.TOOLS or command not in cli.TOOLS[family]:
                bad.append(f"{name}: {m.group(0)}")
    assert seen > 100, seen   # the cards, the READMEs and the tools name many
    assert not bad, "commands that no longer exist:\n" + "\n".join(bad)


def test_every_named_training_path_exists():
    bad = []
    for name, text in tracked_texts():
        for m in PATH.finditer(text):
            if not m.group(1).startswith(OUTPUTS) and not os.path.exists(os.path.join(ROOT, "Training", m.group(1))):
                bad.append(f"{name}: Training/{m.group(1)}")
    assert not bad, "paths that no longer exist:\n" + "\n".join(sorted(set(bad)))
