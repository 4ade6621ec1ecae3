"""The Swift engine as every evaluation runs it: the release ``inkrec`` over JSON Lines inks.

Every figure the model cards report comes from the engine an app ships, not from PyTorch: the tools
write the inks (``write_jsonl``), run ``inkrec`` once over the file (``run``, ``recognize_file``,
``recognize_items``) and read its answers by id (``best_texts``, ``candidate_lists``).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Iterable, Sequence

from inkrec_training.paths import ROOT

#: where ``swift build -c release --product inkrec`` puts the CLI
DEFAULT_BINARY = os.path.join(ROOT, ".build", "release", "inkrec")
_built: set[str] = set()


def binary(build: bool = True) -> str:
    """The release ``inkrec``, built first (once a process) unless ``build`` is false."""
    if build and DEFAULT_BINARY not in _built:
        subprocess.run(["swift", "build", "-c", "release", "--product", "inkrec"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        _built.add(DEFAULT_BINARY)
    return DEFAULT_BINARY


def ink_object(item, **extra) -> dict:
    """The project's JSON form of a ``data.Item`` (its id and strokes), with ``extra`` fields (e.g. preContext)."""
    return {"id": item.id, "strokes": [{"points": [{"x": float(p[0]), "y": float(p[1])} for p in s]} for s in item.strokes],
            **extra}


def write_jsonl(items: Iterable, path: str, **extra) -> None:
    """``items`` as JSON Lines inks (``ink_object``)."""
    with open(path, "w") as f:
        for it in items:
            f.write(json.dumps(ink_object(it, **extra)) + "\n")


def run(cli: str, args: Sequence[str], tolerate_failures: bool = False) -> tuple[str, float]:
    """Runs ``cli args…``; returns (stdout, seconds). A non-zero exit raises ``CalledProcessError``, or with
    ``tolerate_failures`` (a batch in which some entries failed) keeps the answers and shows stderr's tail; it
    is fatal there only when nothing came out."""
    t = time.time()
    r = subprocess.run([cli, *args], capture_output=True, text=True)
    elapsed = time.time() - t
    if r.returncode != 0:
        if not tolerate_failures:
            raise subprocess.CalledProcessError(r.returncode, [cli, *args], r.stdout, r.stderr)
        tail = r.stderr.strip()[-2000:]
        if not r.stdout.strip():
            raise SystemExit(f"{' '.join([cli, *args])} failed ({r.returncode}):\n{tail}")
        print(f"warning: {cli} exited {r.returncode}:\n{tail}", file=sys.stderr)
    return r.stdout, elapsed


def recognize_file(cli: str, model_dir: str, jsonl: str, extra: Sequence[str] = (), max_results: int = 1
                   ) -> tuple[list[dict], float]:
    """``inkrec recognize --batch`` over ``jsonl`` with the model in ``model_dir``: one answer object per
    input line, in order, and the seconds it took."""
    out, elapsed = run(cli, ["recognize", "--model-directory", model_dir, "--batch", jsonl,
                             "--max-results", str(max_results), *extra])
    return [json.loads(line) for line in out.splitlines() if line.strip()], elapsed


def recognize_items(cli: str, model_dir: str, items: Sequence, extra: Sequence[str] = (), max_results: int = 1,
                    **fields) -> list[dict]:
    """``recognize_file`` over ``items`` (``data.Item``s, each with ``fields``), through a temporary file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "inks.jsonl")
        write_jsonl(items, path, **fields)
        return recognize_file(cli, model_dir, path, extra, max_results)[0]


def best_texts(answers: Iterable[dict]) -> dict[str, str]:
    """{id: the first candidate's text, or "" when there is none}."""
    out = {}
    for d in answers:
        c = d.get("candidates") or []
        out[d["id"]] = c[0]["text"] if c else ""
    return out


def candidate_lists(answers: Iterable[dict]) -> dict[str, list[tuple[str, float, float | None]]]:
    """{id: [(text, score, confidence), …]} in the engine's order."""
    return {d["id"]: [(c["text"], c["score"], c.get("confidence")) for c in d.get("candidates") or []] for d in answers}
