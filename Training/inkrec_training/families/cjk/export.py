#!/usr/bin/env python3
"""Exports the shared CJK network and the ja, zh-Hans and zh-Hant models that use it.

    python3 -m inkrec_training cjk export --checkpoint Training/runs/cjk/weights.pt --lm-dir Training/work/lm \\
        --models Models --version 0.2.0

Writes ``<models>/cjk-bilstm<H>x<L>/weights.safetensors`` (8-bit, ``quantize.quantize_state``) and, for each
language, ``<models>/<id>/{config.json, model.json, lm.bin, MODEL_CARD.md}`` whose config names the shared
file (``../cjk-bilstm…/weights.safetensors``); then the manifest. ``--checkpoint`` is a ``cjk train``
checkpoint (``last.pt``, whose moving average is exported) or its ``weights.pt`` / a float16 copy of it.

Decoder settings of the three models: no space between the pre-context and the text
(``contextSeparator: ""``: these languages write no spaces between words), the beam pruned to the
``--symbols-per-frame`` most likely classes of each frame (the output layer has 11,201 characters).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil

import torch

from inkrec_training.paths import ROOT
from inkrec_training import cjk_charset
from inkrec_training.features import SCHEME_V2  # noqa: E402
from inkrec_training.cards import write_card
from inkrec_training.export import checkpoint_weights, save_int8_network, write_json, write_manifest  # noqa: E402

# identifier: (LM file stem, English name, aliases)
LANGUAGE_MODELS = {
    "ja": ("ja", "Japanese", ["ja-JP", "ja-Jpan"]),
    "zh-Hans": ("zh-Hans", "Chinese, simplified characters", ["zh", "zh-CN", "zh-SG", "zh-Hans-CN"]),
    "zh-Hant": ("zh-Hant", "Chinese, traditional characters", ["zh-TW", "zh-HK", "zh-MO", "zh-Hant-TW"]),
}
LICENSE = "CC-BY-SA-3.0 AND CC-BY-SA-4.0 AND Arphic-1999"


def network_name(cfg: dict) -> str:
    return f"cjk-bilstm{cfg['hidden']}x{cfg['layers']}"


def load_weights(path: str) -> tuple[dict, dict, list]:
    ck = torch.load(path, weights_only=False, map_location="cpu")
    history = ck.get("history") or ck.get("state", {}).get("history", [])
    cfg = dict(ck["config"])
    cfg.setdefault("head", "ctc")
    if cfg["numClasses"] != cjk_charset.NUM_CLASSES:
        raise SystemExit(f"checkpoint has {cfg['numClasses']} classes, cjk_charset {cjk_charset.NUM_CLASSES}")
    return checkpoint_weights(ck), cfg, history


# How the shipped network was trained (the cards say it; update with each training run).
TRAINING_NOTE = (
    "Trained on lent GPUs in three device calls of about 545, 245 and 510 seconds (2026-11-26), 19 minutes in "
    "all: from scratch on one H200, `Training/gpu/cjk_gpu.sh once 545 --replay 3 --frames 40000 --char-share 0.6` "
    "(8.1 minutes, 8,991 steps, learning rate 2e-3, cosine schedule), the same from its EMA weights with "
    "`--init-from ema16.pt --lr 1e-3` for 3.1 minutes (2,398 steps: the 0.1.0 network), then on one H100 the "
    "same command from the 0.1.0 weights (`--init-from Models/cjk-bilstm192x3/weights.safetensors --lr 1e-3`, "
    "8.1 minutes, 6,983 steps). Every batch is generated on the fly by 14 processes (60% single characters, 40% "
    "lines of 2–15 characters), each ink by a training writer (ids 0 … 99,999)."
)
EVIDENCE = (
    "**Generated ink only.** Every figure below comes from generated ink (held-out generator writers and "
    "held-out alternative forms); how this model reads real handwriting of Japanese and Chinese writers has "
    "not been measured, and is likely lower: the generator's writers are all variations of one set of centre "
    "lines."
)


def evaluation_section(ident: str, evaluation: dict | None) -> str:
    """The held-out figures of ``Benchmarks/zinnia_compare.py --json`` for this language, or a line saying there
    are none."""
    if not evaluation or "set" not in evaluation:
        return "## Held-out figures\nNone measured for this version.\n"
    ev, machine = evaluation["set"], evaluation["machine"]
    ours, zin, lines = ev["inkrec"], ev.get("zinnia"), ev.get("lines")
    rows = [f"| inkrec {ident} (this model, with its language model) | {ev['n']} | {ours['accuracy']['top1']:.1%} | "
            f"{ours['accuracy']['top10']:.1%} | {ours['ms_per_char']:.2f} |"]
    if zin:
        rows.append(f"| Zinnia, Debian's Tegaki model (`{os.path.basename(zin.get('model', ''))}`) | {ev['n']} | "
                    f"{zin['accuracy']['top1']:.1%} | {zin['accuracy']['top10']:.1%} | {zin['ms_per_char']:.2f} |")
    else:
        rows.append("| Zinnia | — | Debian ships no Zinnia model for Traditional Chinese | | |")
    wrong = [r for r in ev.get("per_ink", []) if r.get("inkrec") and r["inkrec"][0] != r["label"]]
    confusions = ", ".join(f"{r['label']} → {r['inkrec'][0]}" for r in wrong[:24])
    text = f"""## Held-out figures (generated ink)
Single characters by generator writers never trained on (`cjk data inks --language {ident} --chars 1000
--lines 200`, writers from 100,000 on), drawn uniformly from the characters of the language's word list, read
by `Benchmarks/zinnia_compare.py` ({machine.get('date', '')}, {machine.get('cpu', '')}, one core):

| recognizer | inks | top-1 | top-10 | ms / character |
| --- | ---: | ---: | ---: | ---: |
{chr(10).join(rows)}
"""
    if lines:
        text += (f"\nLines of 5–15 characters of running text by the same held-out writers: CER {lines['cer']:.1%} with the "
                 f"language model ({lines['n']} lines, {lines['characters']} characters; {lines['line_accuracy']:.1%} of the "
                 f"lines exactly right; {lines['ms_per_line']:.1f} ms a line).\n")
    variants = evaluation.get("variants")
    if variants:
        text += (f"\nKanjiVG's alternative forms of characters (their other common shapes), held out of training "
                 f"(`cjk data inks --variants`): top-1 {variants['inkrec']['accuracy']['top1']:.1%}, top-10 "
                 f"{variants['inkrec']['accuracy']['top10']:.1%} ({variants['n']} inks).\n")
    if confusions:
        text += f"\nThe first characters it reads wrong (truth → best candidate): {confusions}.\n"
    text += ("\nDecoder weights (`lmWeight`, `insertionBonus` in config.json) were chosen on other held-out writers "
             "(from 200,000 on) with `python3 -m inkrec_training cjk tune`.\n")
    return text


def model_card(ident: str, english: str, net: str, cfg: dict, lm_bytes: int, weights_bytes: int, history: list,
               version: str, evaluation: dict | None = None, training_note: str = TRAINING_NOTE) -> str:
    last = history[-1] if history else {}
    trained = (f"At the end of training (step {last.get('step')} of the last run), greedy decoding without a language "
               f"model on held-out generator writers: single characters top-1 {last.get('chars_exact', float('nan')):.3f}, "
               f"text lines CER {last.get('lines_cer', float('nan')):.3f}."
               if last else "")
    head = cfg["numClasses"] * (2 * cfg["hidden"] + 1)
    return f"""# Model card: {ident} ({english})

Handwriting recognizer for {english}, version {version}: the shared CJK network `{net}` with a
character language model of its own, for the DigitalInk engine.

{EVIDENCE}

## Data: all of it generated
Nobody wrote these characters for this model: **every figure in this card comes from generated ink**
(`Training/inkrec_training/cjk.py`): stroke-order centre lines turned into handwriting by a writer model
(speed profile, per-stroke affine jitter, smooth elastic warps, joins of fast writing, stroke-order
variants, size, spacing and baseline drift). The evaluation uses generator writers whose parameters
were never trained on, and KanjiVG's alternative forms held out of training.
- **Make Me a Hanzi** (Arphic Public License; credit: Make Me a Hanzi, Shaunak Kishore, from the Arphic
  PL fonts of Arphic Technology): centre lines of 9,574 Chinese characters. The licence text is
  `ARPHICPL.TXT` beside this card.
- **KanjiVG** (© Ulrich Apel, CC BY-SA 3.0; PyPI `kanjivg`): kanji, hiragana and katakana. A model trained
  on it is shared under CC BY-SA 3.0: so is this one.
- **Hershey fonts** (public domain; PyPI `hershey-fonts`) for digits and Latin letters inside lines.
- **Language model**: `lm.bin` ({lm_bytes / 1e6:.2f} MB, INKLM2, `python3 -m inkrec_training cjk lm --language {ident}`):
  character n-grams over running text modelled from wordfreq's word frequencies (data CC BY-SA 4.0).
- No research-only data (CASIA, …) is used.

{evaluation_section(ident, evaluation)}
## Network (shared by ja, zh-Hans and zh-Hant)
- `../{net}/weights.safetensors` ({weights_bytes / 1e6:.2f} MB): features `{SCHEME_V2}` at
  {cjk_charset.STEPS_PER_LINE_HEIGHT:g} steps per line height, {cfg['layers']} bidirectional LSTM layers of
  {cfg['hidden']} units, frames stacked in pairs after layer 1, a CTC head over {cjk_charset.NUM_CLASSES - 1}
  characters + blank (the head is {head / 1e6:.1f} M of the weights); 8-bit weights with a scale per row.
- {training_note}
- {trained}
- Model size with the shared network: {(weights_bytes + lm_bytes) / 1e6:.2f} MB.
"""


def read_evaluations(paths: list[str]) -> dict:
    """Language → {"set": one set of a zinnia_compare.py --json file, "machine": that file's machine}."""
    out = {}
    for path in paths or []:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for st in data["sets"]:
            entry = out.setdefault(st["language"], {})
            if st["inks"].endswith("-variants.jsonl"):  # cjk data inks --variants: held-out alternative forms
                entry["variants"] = st
            else:
                entry.update({"set": st, "machine": data.get("machine", {})})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--lm-dir", required=True, help="holds ja.bin, zh-Hans.bin, zh-Hant.bin (cjk lm)")
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--languages", default="ja,zh-Hans,zh-Hant")
    ap.add_argument("--version", default="0.1.0")
    ap.add_argument("--lm-weight", type=float, default=0.1)
    ap.add_argument("--insertion-bonus", type=float, default=0.0)
    ap.add_argument("--end-weight", type=float, default=0.0)
    ap.add_argument("--beam-width", type=int, default=32)
    ap.add_argument("--beam-threshold", type=float, default=12.0)
    ap.add_argument("--symbols-per-frame", type=int, default=16)
    ap.add_argument("--no-manifest", action="store_true", help="do not rewrite <models>/manifest.json")
    ap.add_argument("--evaluation", nargs="*", default=[],
                    help="Benchmarks/zinnia_compare.py --json files whose figures go into the cards")
    ap.add_argument("--training-note", default=TRAINING_NOTE, help="how the network was trained, for the cards")
    args = ap.parse_args()
    evaluations = read_evaluations(args.evaluation)
    weights, cfg, history = load_weights(args.checkpoint)
    net = network_name(cfg)
    weights_bytes = save_int8_network(
        weights, args.models, net,
        f"# {net}: the shared CJK network\n\nUsed by ja, zh-Hans and zh-Hant (see their MODEL_CARD.md): "
        f"{cfg['layers']} bidirectional LSTM layers of {cfg['hidden']} units, a CTC head over "
        f"{cjk_charset.NUM_CLASSES - 1} characters + blank, 8-bit weights. Trained by `python3 -m inkrec_training cjk train` "
        f"on generated ink only. Licence CC BY-SA 3.0 (KanjiVG); Make Me a Hanzi data under the Arphic "
        f"Public License.\n")
    arphic = os.path.join(ROOT, "..", "shared", "data", "cjk", "ARPHICPL.TXT")
    for ident in args.languages.split(","):
        stem, english, aliases = LANGUAGE_MODELS[ident]
        out = os.path.join(args.models, ident)
        os.makedirs(out, exist_ok=True)
        lm_src = os.path.join(args.lm_dir, f"{stem}.bin")
        shutil.copyfile(lm_src, os.path.join(out, "lm.bin"))
        if os.path.exists(arphic):
            shutil.copyfile(arphic, os.path.join(out, "ARPHICPL.TXT"))
        config = {
            "formatVersion": 1, "identifier": ident, "kind": "text",
            "features": {"scheme": SCHEME_V2, "stepsPerLineHeight": cjk_charset.STEPS_PER_LINE_HEIGHT},
            "network": {"weights": f"../{net}/weights.safetensors", **cfg, "precision": "int8"},
            "labels": cjk_charset.CHARACTERS, "blankIndex": cjk_charset.BLANK,
            "decoder": {"languageModel": "lm.bin", "lmWeight": args.lm_weight, "insertionBonus": args.insertion_bonus,
                        "beamWidth": args.beam_width, "endWeight": args.end_weight,
                        "beamThreshold": args.beam_threshold, "symbolsPerFrame": args.symbols_per_frame,
                        "contextSeparator": ""},
        }
        write_json(os.path.join(out, "config.json"), config)
        write_json(os.path.join(out, "model.json"),
                   {"identifier": ident, "aliases": aliases, "version": args.version, "kind": "text", "network": net,
                    "license": LICENSE,
                    "description": f"{english}: the shared CJK network, trained on generated ink (Make Me a Hanzi, "
                                   f"KanjiVG, Hershey), with a language model from wordfreq"})
        write_card(os.path.join(out, "MODEL_CARD.md"),
                   model_card(ident, english, net, cfg, os.path.getsize(lm_src), weights_bytes, history, args.version,
                              evaluations.get(ident), args.training_note))
        print(f"{ident}: lm {os.path.getsize(lm_src)} bytes")
    if not args.no_manifest:
        write_manifest(args.models)
    print(f"{net}: {weights_bytes} bytes")


if __name__ == "__main__":
    main()
