#!/usr/bin/env python3
"""Export a trained checkpoint as a model directory the Swift engine loads, and refresh the manifest.

    python3 -m inkrec_training latin export english --checkpoint Training/runs/en/last.pt --lm Training/work/lm.bin \
        --out Models/en-US --identifier en-US --alias en

Writes `weights.safetensors` (float32, PyTorch parameter names), `config.json`, `lm.bin`, the golden
file `Tests/DigitalInkTests/Fixtures/model-golden.json` (features and PyTorch log-probabilities of a
few held-out inks, which the Swift tests compare with the engine), and `Models/manifest.json`
(every model's files with size and SHA-256). The model card is written by latin evaluate.
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import shutil

import torch
from safetensors.torch import save_file

from inkrec_training.paths import TRAINING as HERE
from inkrec_training import charset, data
from inkrec_training.features import ink_features, STEPS_PER_LINE_HEIGHT, FEATURE_SCHEME  # noqa: E402
from inkrec_training.model import InkRecNet  # noqa: E402

from inkrec_training.paths import ROOT
from inkrec_training import splits
FIXTURES = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures")


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def shared_reference(models_dir: str, model_name: str, ref: str) -> str | None:
    """The manifest path of a config.json file reference that names a shared file, or None for a
    file of the model's own folder.

    A shared file lies in a folder beside the model folders and is named `../<folder>/<file>`
    (the rule the Swift loader enforces: one level up to the models root, then a folder; no
    absolute paths, no other `..`). Raises ValueError for a reference that would leave the models
    root or names a missing file.
    """
    parts = ref.split("/")
    if ref.startswith("/") or "\\" in ref or any(p in ("", ".") for p in parts):
        raise ValueError(f"{model_name}/config.json: file reference {ref!r} must be a relative path")
    if parts[0] != "..":
        if ".." in parts:
            raise ValueError(f"{model_name}/config.json: file reference {ref!r} must stay in the model folder")
        return None
    if len(parts) < 3 or ".." in parts[1:]:
        raise ValueError(f"{model_name}/config.json: shared file {ref!r} must be ../<folder>/<file>")
    root = os.path.realpath(models_dir)
    folder = os.path.join(root, parts[1])
    target = os.path.realpath(os.path.join(folder, *parts[2:]))
    if not target.startswith(folder + os.sep) or not os.path.isfile(target):
        raise ValueError(f"{model_name}/config.json: shared file {ref!r} is missing or leaves {parts[1]}/")
    return "/".join(parts[1:])


def write_manifest(models_dir: str, meta: dict | None = None) -> dict:
    """Rebuild `manifest.json` from the model folders (each with config.json and model.json).

    A model lists every file of its folder (but model.json) and the shared files its config.json
    names as `../<folder>/<file>` (`network.weights`, `decoder.languageModel`): a network shared by
    several languages is listed, with one size and SHA-256, by each model that uses it, and is
    downloaded and stored once. Folders without model.json (shared folders) are not models.
    Returns the manifest written.
    """
    digests: dict[str, dict] = {}

    def entry(path: str) -> dict:
        if path not in digests:  # identical entries for a file several models list
            p = os.path.join(models_dir, *path.split("/"))
            digests[path] = {"path": path, "size": os.path.getsize(p), "sha256": sha256(p)}
        return dict(digests[path])

    entries = []
    for name in sorted(os.listdir(models_dir)):
        d = os.path.join(models_dir, name)
        info_path = os.path.join(d, "model.json")
        if not os.path.isfile(info_path):
            continue
        with open(info_path) as f:
            info = json.load(f)
        paths = [f"{name}/{fn}" for fn in sorted(os.listdir(d)) if fn != "model.json" and os.path.isfile(os.path.join(d, fn))]
        with open(os.path.join(d, "config.json")) as f:
            config = json.load(f)
        refs = [(config.get("network") or {}).get("weights"), (config.get("decoder") or {}).get("languageModel")]
        # model.json's `network` names the network the model reads: the shared folder its weights are
        # in (`../<network>/…`), or a name of its own for weights in its own folder, which must not be
        # a shared folder's (en-US 1.4.1 said latn-bilstm96x3 while reading its own weights).
        shared_paths = [shared_reference(models_dir, name, ref) if ref else None for ref in refs]
        network = info.get("network")
        if shared_paths[0]:
            if network != shared_paths[0].split("/")[0]:
                raise ValueError(f"{name}/config.json reads the shared weights {refs[0]!r}, but model.json "
                                 f"names the network {network!r}")
        elif network is not None and os.path.isdir(os.path.join(models_dir, network)):
            raise ValueError(f"{name}/model.json names the shared network {network!r}, but config.json reads "
                             f"weights of its own ({refs[0]!r})")
        for shared in shared_paths:
            if shared and shared not in paths:
                paths.append(shared)
        entries.append({**info, "files": [entry(p) for p in sorted(paths)]})
    manifest = {"formatVersion": 1, "models": entries}
    with open(os.path.join(models_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return manifest


def write_json(path: str, obj) -> None:
    """``obj`` as the model files (config.json, model.json) are written: indented by one, characters as
    they are (UTF-8), a final newline."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, ensure_ascii=False)
        f.write("\n")


def save_int8_network(weights: dict, models_dir: str, name: str, readme: str) -> int:
    """Writes a shared network: ``<models_dir>/<name>/weights.safetensors`` (8 bits,
    ``quantize.quantize_state``) and its README.md; returns the weights file's size in bytes."""
    from inkrec_training import quantize
    out = os.path.join(models_dir, name)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "weights.safetensors")
    save_file(quantize.quantize_state({k: v.float() for k, v in weights.items()}), path,
              metadata={"format": "pt", "precision": "int8", "network": name})
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as f:
        f.write(readme)
    return os.path.getsize(path)


def checkpoint_weights(ck, live=False):
    """The weights a training checkpoint stands for: its moving average of the weights ("ema", latin train
    --ema) when it has one and `live` is false, else the trained weights."""
    return ck["model"] if live or "ema" not in ck else ck["ema"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", default=os.path.join(HERE, "runs", "en", "last.pt"))
    ap.add_argument("--lm", default=os.path.join(HERE, "work", "lm.bin"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Models", "en-US"))
    ap.add_argument("--identifier", default="en-US")
    ap.add_argument("--alias", action="append", help="another tag that names the model (repeatable; default: en)")
    ap.add_argument("--version", default="1.1.0", help="raise it with every new model: installed copies are updated by version")
    ap.add_argument("--lm-weight", type=float, default=0.5)
    ap.add_argument("--insertion-bonus", type=float, default=1.0)
    ap.add_argument("--beam-width", type=int, default=16)
    ap.add_argument("--beam-threshold", type=float, default=None,
                    help="drop prefixes ranked more than this below the best after each frame (en-US: 10)")
    ap.add_argument("--symbols-per-frame", type=int, default=None,
                    help="the most symbols one frame may extend the prefixes with (en-US: 32)")
    ap.add_argument("--recurrent-f16", action=argparse.BooleanOptionalAction, default=True,
                    help="round the recurrent weights (weight_hh) to half precision and store them as F16: the "
                         "engine then runs its 16-bit recurrent kernel, exactly (see Sources/_InkKernels)")
    ap.add_argument("--end-weight", type=float, default=0.0,
                    help="weight of the LM's log-probability of a space after the final text (0: not used)")
    ap.add_argument("--live-weights", action="store_true",
                    help="export the checkpoint's trained weights even when it holds a moving average of them "
                         "(\"ema\", latin train --ema), which is exported by default")
    args = ap.parse_args()

    ck = torch.load(args.checkpoint, weights_only=False, map_location="cpu")
    cfg = dict(ck["config"])
    cfg.setdefault("head", "ctc")
    model = InkRecNet(cfg["inputDim"], cfg["hidden"], cfg["layers"], cfg["numClasses"], cfg["reduceAfter"], head=cfg["head"])
    model.load_state_dict(checkpoint_weights(ck, args.live_weights))
    print(f"exporting the checkpoint's {'trained' if args.live_weights or 'ema' not in ck else 'moving-average'} "
          f"weights (step {ck['state']['step']})")
    model.eval()
    unrounded = None
    if args.recurrent_f16:
        unrounded = copy.deepcopy(model)
        with torch.no_grad():  # the exported network is the rounded one: golden files and figures use it
            for name, p in model.named_parameters():
                if "weight_hh" in name:
                    p.copy_(p.half().float())

    os.makedirs(args.out, exist_ok=True)
    tensors = {k: (v.contiguous().half() if args.recurrent_f16 and "weight_hh" in k else v.contiguous().float())
               for k, v in model.state_dict().items()}
    save_file(tensors, os.path.join(args.out, "weights.safetensors"), metadata={"format": "pt", "identifier": args.identifier})
    has_lm = bool(args.lm) and os.path.exists(args.lm)
    if has_lm:
        shutil.copyfile(args.lm, os.path.join(args.out, "lm.bin"))
    config = {
        "formatVersion": 1,
        "identifier": args.identifier,
        "kind": "text",
        "features": {"scheme": FEATURE_SCHEME, "stepsPerLineHeight": STEPS_PER_LINE_HEIGHT},
        "network": {"weights": "weights.safetensors", **cfg},
        "labels": charset.CHARACTERS,
        "blankIndex": charset.BLANK,
        "decoder": {"languageModel": "lm.bin" if has_lm else None, "lmWeight": args.lm_weight,
                    "insertionBonus": args.insertion_bonus, "beamWidth": args.beam_width,
                    **({"beamThreshold": args.beam_threshold} if args.beam_threshold else {}),
                    **({"symbolsPerFrame": args.symbols_per_frame} if args.symbols_per_frame else {}),
                    "endWeight": args.end_weight},
    }
    write_json(os.path.join(args.out, "config.json"), config)
    write_json(os.path.join(args.out, "model.json"),
               {"identifier": args.identifier, "aliases": list(dict.fromkeys(args.alias or ["en"])), "version": args.version,
                # The model's own network (weights in its folder, shared with no other model); not
                # a shared folder's name such as latn-bilstm96x3 (write_manifest checks).
                "kind": "text", "network": f"en-bilstm{cfg['hidden']}x{cfg['layers']}", "license": "CC-BY-4.0",
                "description": "English (Latin script), trained on UNIPEN (CC BY 4.0)"})

    # Golden file: three held-out words and one line.
    words = [it for it in data.load("words", limit=4000) if splits.is_validation_writer(it.writer)][:3]
    texts = [it for it in data.load("text", limit=3000) if splits.is_validation_writer(it.writer)][:1]
    cases = []
    for it in words + texts:
        strokes = [s.tolist() for s in it.strokes]
        feats = ink_features(strokes)
        with torch.no_grad():
            lp, _ = model(torch.from_numpy(feats)[None], torch.tensor([len(feats)]))
        if unrounded is not None:
            with torch.no_grad():
                lp32, _ = unrounded(torch.from_numpy(feats)[None], torch.tensor([len(feats)]))
            print(f"{it.id}: max |log-prob change| from rounding weight_hh to F16: {(lp - lp32).abs().max().item():.2e}")
        cases.append({"id": it.id, "label": it.label,
                      "ink": {"strokes": [{"points": [{"x": p[0], "y": p[1]} for p in s]} for s in strokes]},
                      "features": feats.astype(float).tolist(), "logProbs": lp[0].numpy().astype(float).tolist()})
    with open(os.path.join(FIXTURES, "model-golden.json"), "w") as f:
        json.dump({"model": args.identifier, "cases": cases}, f)
    write_manifest(os.path.dirname(os.path.abspath(args.out)))
    size = os.path.getsize(os.path.join(args.out, "weights.safetensors"))
    print(f"exported {args.identifier} to {args.out}: weights {size} bytes, lm {'yes' if has_lm else 'no'}")


if __name__ == "__main__":
    main()
