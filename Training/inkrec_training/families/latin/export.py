#!/usr/bin/env python3
"""Export the shared Latin network and one model per language that uses it.

    python3 -m inkrec_training latin export --checkpoint Training/runs/latn1/last.pt --lm-dir Training/work/lm \
        --version 1.0.0 [--languages de,fr] [--models Models]

Writes
- `Models/latn-bilstm<H>x<L>/weights.safetensors`: the checkpoint's weights (its moving average) in
  8 bits (`inkrec_training/quantize.py`), the ONE network file every Latin language model shares;
- for each language, `Models/<identifier>/` with `config.json` (its `network.weights` is
  `../latn-…/weights.safetensors`, `precision` int8, the 260 characters of the latin set), `lm.bin`
  (the language's model from `latin lm --language`, copied from `--lm-dir/<code>.bin`), `model.json`
  and a generated `MODEL_CARD.md` (data, composed vs real, sizes; `latin evaluate languages --card` adds the
  figures);
- the `network` block and `labels` of every other model that reads the same network file (en-US since 2.0.0:
  its language model, decoder and card are its own and stay), so that a re-export never leaves it describing
  the old weights; a model that reads another Latin network (a size the export did not write) is named in a
  warning;
- `Models/manifest.json` (shared files listed once per model with the same checksum).

``--charset vietnamese`` exports the Vietnamese network instead (`Models/latn-vi-bilstm<H>x<L>/`, the
latin set and the 49 Vietnamese letters it lacks) and the models that read it (`vi`); ``--charset cyrillic``
the Cyrillic network (`Models/cyrl-bilstm<H>x<L>/`) and ru, uk, bg, mk, sr (their cards:
``families/scripts/card.py``; their figures: ``scripts evaluate models --card``).

Identifiers are the bare language tags (`de`, `fr`, …) with the aliases in LANGUAGE_MODELS, and
`de-CH` (its LM writes ss for ß). Region tags reach them through the engine's identifier matching
(`de-AT` → `de`, `pt-BR` → `pt`, `es-MX` → `es`, `fr-CA` → `fr`).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil

import torch

from inkrec_training.paths import ROOT
from inkrec_training import charset
from inkrec_training.features import FEATURE_SCHEME, STEPS_PER_LINE_HEIGHT  # noqa: E402
from inkrec_training.cards import write_card
from inkrec_training.export import checkpoint_weights, save_int8_network, write_json, write_manifest  # noqa: E402

# identifier: (wordfreq code of the LM file, English name, aliases)
LANGUAGE_MODELS = {
    "ca": ("ca", "Catalan", []), "cs": ("cs", "Czech", []), "da": ("da", "Danish", []),
    "de": ("de", "German", []), "de-CH": ("de-CH", "Swiss German spelling (ss for ß)", []),
    "es": ("es", "Spanish", []), "fi": ("fi", "Finnish", []), "fil": ("fil", "Filipino", ["tl"]),
    "fr": ("fr", "French", []), "hu": ("hu", "Hungarian", []), "id": ("id", "Indonesian", []),
    "is": ("is", "Icelandic", []), "it": ("it", "Italian", []), "lt": ("lt", "Lithuanian", []),
    "lv": ("lv", "Latvian", []), "ms": ("ms", "Malay", []), "nb": ("nb", "Norwegian Bokmål", ["no"]),
    "nl": ("nl", "Dutch", []), "pl": ("pl", "Polish", []), "pt": ("pt", "Portuguese", []),
    "ro": ("ro", "Romanian", []), "hr": ("sh", "Croatian, Bosnian and Serbian in Latin script (wordfreq's sh)",
                                         ["bs", "sr-Latn", "sh"]),
    "sk": ("sk", "Slovak", []), "sl": ("sl", "Slovenian", []), "sv": ("sv", "Swedish", []),
    "tr": ("tr", "Turkish", []),
    "vi": ("vi", "Vietnamese", []),
    "ru": ("ru", "Russian", []), "uk": ("uk", "Ukrainian", []), "bg": ("bg", "Bulgarian", []),
    "mk": ("mk", "Macedonian", []), "sr": ("sr", "Serbian in Cyrillic script", ["sr-Cyrl"]),
    "el": ("el", "Greek", []),
    "ko": ("ko", "Korean", []),
    "he": ("he", "Hebrew", []),
    "ar": ("ar", "Arabic", []), "fa": ("fa", "Persian", []), "ur": ("ur", "Urdu", []),
    "hi": ("hi", "Hindi", []), "bn": ("bn", "Bengali", []), "ta": ("ta", "Tamil", []), "th": ("th", "Thai", []),
}

# What each character set's network is called and how its README and cards describe it.
NETWORKS = {
    "latin": ("latn", "the shared Latin-script network", "Every Latin-script language model in `Models/`"),
    "vietnamese": ("latn-vi", "the Vietnamese network (the Latin network's letters and the 49 Vietnamese letters "
                              "the latin set lacks)", "The Vietnamese model `vi`"),
    "cyrillic": ("cyrl", "the Cyrillic network (the Latin network's letters, the Cyrillic letters of Russian, "
                         "Ukrainian, Bulgarian, Macedonian and Serbian, and №)",
                 "Every Cyrillic language model (`ru`, `uk`, `bg`, `mk`, `sr`)"),
    "greek": ("grek", "the Greek network (the Latin network's letters and the 69 Greek letters, tonos and "
                      "dialytika included)", "The Greek model `el`"),
    "hangul": ("hang", "the Korean network (the Latin network's letters and the 67 Hangul conjoining jamo, composed "
                       "into syllables after decoding)", "The Korean model `ko`"),
    "arabic": ("arab", "the Arabic-script network (the Latin network's letters and the 50 letters of Arabic, Persian and "
                       "Urdu, with Arabic-Indic and Persian digits, read right to left)",
               "Every Arabic-script language model (`ar`, `fa`, `ur`)"),
    "hebrew": ("hebr", "the Hebrew network (the Latin network's letters and the 27 Hebrew letters, read right to left)",
               "The Hebrew model `he`"),
    "devanagari": ("deva", "the Devanagari network (the Latin network's letters and Hindi's letters, vowel signs, "
                           "signs, digits and dandas)", "The Hindi model `hi`"),
    "bengali": ("beng", "the Bengali network (the Latin network's letters and Bengali's letters, vowel signs, signs, "
                        "digits and dandas)", "The Bengali model `bn`"),
    "tamil": ("taml", "the Tamil network (the Latin network's letters and Tamil's letters, vowel signs, pulli and "
                      "digits)", "The Tamil model `ta`"),
    "thai": ("thai", "the Thai network (the Latin network's letters and Thai's letters, vowels, tone marks, signs and "
                     "digits; text without spaces between words)", "The Thai model `th`"),
}
# Character sets whose script is written right to left: their models' config.json says "direction": "rtl".
RIGHT_TO_LEFT = frozenset({"hebrew", "arabic"})
# Character sets whose script puts no space between words (Thai): the decoder joins a pre-context to the ink's
# text without a separator, as the CJK models do (`contextSeparator: ""`).
NO_WORD_SPACES = frozenset({"thai"})


def identifiers_of(charset_name: str) -> list[str]:
    """The LANGUAGE_MODELS identifiers whose letters need ``charset_name`` (``charset.for_language``)."""
    return [i for i, (code, _, _) in LANGUAGE_MODELS.items()
            if charset.for_language(code.split("-")[0]) == charset_name]


def update_readers(models: str, net: str, cfg: dict, exported: list[str]) -> list[str]:
    """Points the other models that read ``../<net>/weights.safetensors`` at the exported network's shape
    (``network`` block, ``labels``); returns their identifiers. Prints a warning for a model that reads another
    ``latn-…`` network."""
    updated = []
    for name in sorted(os.listdir(models)):
        path = os.path.join(models, name, "config.json")
        if name in exported or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
        weights = (config.get("network") or {}).get("weights", "")
        if weights == f"../{net}/weights.safetensors":
            config["network"] = {"weights": weights, **cfg, "precision": "int8"}
            config["labels"] = charset.CHARACTERS
            write_json(path, config)
            updated.append(name)
        elif weights.startswith("../latn-bilstm") and net.startswith("latn-bilstm"):
            print(f"warning: {name} reads {weights}, not the exported {net}: point its config.json at it by hand")
    return updated


def network_name(cfg: dict, charset_name: str = "latin") -> str:
    return f"{NETWORKS[charset_name][0]}-bilstm{cfg['hidden']}x{cfg['layers']}"


def export_network(ck: dict, models: str, charset_name: str = "latin") -> tuple[str, dict, int]:
    """The network in 8 bits: its name, its config and the weights file's size."""
    cfg = dict(ck["config"])
    cfg.setdefault("head", "ctc")
    if cfg["numClasses"] != len(charset.SETS[charset_name]) + 1:
        raise SystemExit(f"the checkpoint has {cfg['numClasses']} classes; the {charset_name} set has "
                         f"{len(charset.SETS[charset_name])} characters + blank")
    name = network_name(cfg, charset_name)
    _, what, readers = NETWORKS[charset_name]
    from inkrec_training.families.scripts.card import SCRIPT_NETWORKS
    spec = SCRIPT_NETWORKS.get(charset_name)
    languages = ({"latin": "--languages all", "vietnamese": "--languages vi"}.get(charset_name)
                 or f"--scripts {','.join(spec.languages)}")
    data = (f"UNIPEN (CC BY 4.0) and the script kit's generated {spec.script} ink" if spec else
            "UNIPEN (CC BY 4.0) and composed accented ink")
    card = ({"latin": "any language's", "vietnamese": "vi's"}.get(charset_name)
            or (f"any {spec.script} language's" if len(spec.languages) > 1 else f"{spec.languages[0]}'s"))
    size = save_int8_network(checkpoint_weights(ck), models, name, f"""# {name}: {what}

3 bidirectional LSTM layers of {cfg['hidden']} units, frames stacked in pairs after layer 1, a CTC head over
the {len(charset.SETS[charset_name])} characters of the {charset_name} set + blank, weights in 8 bits (`Training/inkrec_training/quantize.py`).
{readers} names this file in its `config.json`
(`../{name}/weights.safetensors`) and adds its own language model; the manifest lists it under each of
them with one checksum, so it is downloaded and stored once. Trained by `python3 -m inkrec_training latin train --charset {charset_name}
{languages}` on {data}; see {card} MODEL_CARD.md.
""")
    return name, cfg, size


TRAINING_NOTE = (
    "Trained from the English network en-US 1.3 (its head grown to the latin set, new letters starting\n"
    "  from their base letter) on real English ink mixed with composed accented ink of 26 languages:\n"
    "  1.0, 75 minutes (2,698 updates, composed ink 45% of the mix); 1.1.0, 125 more minutes on this 2-core CPU\n"
    "  (8,092 updates, one torch thread, learning rate 6e-4 in a cosine schedule, 45%) from the 1.0.1 weights\n"
    "  (8-bit, dequantized: `latin train --init-from`); 1.2.0, 100 more minutes the same way from the 1.1.0 weights\n"
    "  (9,666 updates, learning rate 5e-4, composed ink 35% of the mix: `latin train --init-from\n"
    "  Models/latn-bilstm96x3/weights.safetensors --charset latin --languages all --mix-languages 0.35 --minutes 100\n"
    "  --lr 5e-4 --warmup-steps 0`); the moving average of the weights exported. 1.3.0: the mean of two\n"
    "  95-minute continuations of 1.2.0's weights (`python3 -m inkrec_training latin train average`), each one torch thread and\n"
    "  learning rate 5e-4: one trained as 1.2.0 was (8,088 updates), one with smooth elastic warps and\n"
    "  per-stroke jitter on 70% of the inks (`--warp 0.7`, 9,905 updates); their moving averages averaged.")


def model_card(identifier: str, english: str, code: str, net: str, cfg: dict, lm_bytes: int, weights_bytes: int,
               history: list, version: str, training_note: str = TRAINING_NOTE, charset_name: str = "latin") -> str:
    latin = charset_name == "latin"
    composed = "composed accented words of 26 languages" if latin else "composed Vietnamese words"
    last = history[-1] if history else {}
    hist = (f"At the end of training (step {last.get('step')}), greedy on held-out writers: English words CER "
            f"{last.get('ema_cer', last.get('cer', float('nan'))):.3f}, word accuracy "
            f"{last.get('ema_word_acc', last.get('word_acc', float('nan'))):.3f}; {composed} "
            f"CER {last.get('lang_cer', float('nan')):.3f}, word accuracy {last.get('lang_word_acc', float('nan')):.3f}."
            if last else "")
    hist = f"\n  {hist}" if hist else ""  # an averaged network (latin train average) has no history of its own
    n_chars = len(charset.SETS[charset_name])
    if latin:
        intro = f"the shared Latin-script network `{net}` with\na character language model of its own"
        built = "on words of\n  26 languages built from one writer's isolated characters"
        shared = "shared by every Latin model"
        coverage = "\n- Vietnamese reads through a model of its own, `vi` (its stacked diacritics and ơ ư are not in this character set)."
    else:
        intro = (f"the network `{net}` (the Latin\nnetwork's {len(charset.LATIN)} characters and the "
                 f"{(n_chars - len(charset.LATIN)) // 2} Vietnamese letters they lack, in both cases) with a character "
                 "language model")
        built = ("on Vietnamese\n  syllables built from one writer's isolated characters (two marks on a letter stacked, "
                 "tone marks\n  after the word half the time)")
        shared = "its own network; it also reads the Latin languages' letters"
        coverage = ""
    hershey = ("the fonts are public domain" if latin else
               "the Hershey fonts were originally created by Dr. A. V. Hershey while working at the U. S. National "
               "Bureau of Standards; the format of the font data was originally created by James Hurt, Cognition, Inc.")
    return f"""# Model card: {identifier} ({english})

Handwriting recognizer for {english}, version {version}: {intro}, for the DigitalInk engine.

## What is real and what is composed
- **Real ink**: English only. UNIPEN train_r01_v07 (International Unipen Foundation, CC BY 4.0): words,
  free-text lines and isolated characters of the training writers (10% of writers held out).
- **Composed ink** (nobody wrote {english} for this model): accented letters made from real English
  ink by drawing each diacritic as a stroke of the writer's pen (`Training/inkrec_training/accents.py`,
  pictures in `Docs/composer.md`): on letters located in real words by forced alignment, {built}, and on running text drawn in single-stroke
  Hershey fonts (`hershey-fonts`, PyPI; {hershey}). **Every {english} figure in this card
  comes from composed ink**; no real {english} handwriting was available to measure it.
- **Language model**: `lm.bin` ({lm_bytes / 1e6:.2f} MB, INKLM2, `python3 -m inkrec_training latin lm --language {code}`):
  character n-grams over running text modelled from wordfreq's {code} word frequencies (wordfreq data
  CC BY-SA 4.0, code Apache-2.0), with the casing, quotation marks and punctuation of running text.
- No research-only data (IAM-OnDB, CASIA, …) is used.

## Network ({"shared" if latin else "its own"})
- `../{net}/weights.safetensors` ({weights_bytes / 1e6:.2f} MB, {shared}): features
  `{FEATURE_SCHEME}`, {cfg['layers']} bidirectional LSTM layers of {cfg['hidden']} units, frames stacked in pairs
  after layer 1, a CTC head over {n_chars} characters + blank; 8-bit weights with a scale per row (activations
  quantized per frame), `config.json` `precision: int8`.
- {training_note}{hist}{coverage}
"""


def description(english: str, code: str, charset_name: str) -> str:
    """model.json's description of a language model on the ``charset_name`` network."""
    from inkrec_training.families.scripts.card import SCRIPT_NETWORKS
    if charset_name in SCRIPT_NETWORKS:
        script = SCRIPT_NETWORKS[charset_name].script
        source = ("the Thai National Corpus word frequencies (CC0 1.0) and wordfreq's English words (CC BY-SA 4.0)"
                  if code == "th" else "wordfreq (CC BY-SA 4.0)")
        return (f"{english}: the {script} network, trained on the script kit's generated {script} ink and UNIPEN "
                f"(CC BY 4.0), with {'an' if code[0] in 'aeiou' else 'a'} {code} language model from {source}")
    return ((f"{english} (Latin script): the shared Latin network" if charset_name == "latin" else
             f"{english}: the Vietnamese network")
            + f", trained on UNIPEN (CC BY 4.0) and composed accented ink, with a {code} language model from "
              "wordfreq (CC BY-SA 4.0)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--lm-dir", required=True)
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"))
    ap.add_argument("--languages", default="", help="comma-separated identifiers (default: all of LANGUAGE_MODELS)")
    ap.add_argument("--version", default="1.0.1")
    ap.add_argument("--training-note", default=None, help="how the network was trained, for the cards (default: "
                    "the latin network's note, or the script's with --charset cyrillic or greek)")
    ap.add_argument("--decoder-weights", help="JSON file {identifier: {\"lmWeight\": w, \"insertionBonus\": b}}: "
                    "per-language decoder weights (chosen on the tuning writers, latin evaluate languages --sweep) "
                    "instead of --lm-weight and --insertion-bonus")
    ap.add_argument("--lm-weight", type=float, default=1.1)
    ap.add_argument("--insertion-bonus", type=float, default=1.5)
    ap.add_argument("--end-weight", type=float, default=1.0)
    ap.add_argument("--beam-width", type=int, default=64)
    ap.add_argument("--beam-threshold", type=float, default=16.0,
                    help="drop prefixes ranked more than this below the best after each frame (0: none); 16 read "
                         "the tuning words of eight languages as no threshold, 12 did not (script kit models: "
                         "scripts tune pruning tries a narrower beam after the export)")
    ap.add_argument("--symbols-per-frame", type=int, default=0,
                    help="the most symbols a frame extends the prefixes with (0: no limit)")
    ap.add_argument("--charset", default="latin", choices=sorted(NETWORKS),
                    help="the network's character set: latin (the shared network), vietnamese (vi's own), cyrillic, greek "
                         "or hangul (Korean jamo)")
    args = ap.parse_args()
    charset.select(args.charset)
    from inkrec_training.families.scripts.card import SCRIPT_NETWORKS, script_card
    spec = SCRIPT_NETWORKS.get(args.charset)
    if args.training_note is None:
        args.training_note = spec.training_note if spec else TRAINING_NOTE
    ck = torch.load(args.checkpoint, weights_only=False, map_location="cpu")
    net, cfg, weights_bytes = export_network(ck, args.models, args.charset)
    ids = args.languages.split(",") if args.languages else identifiers_of(args.charset)
    for ident in ids:
        if ident not in LANGUAGE_MODELS or charset.for_language(LANGUAGE_MODELS[ident][0].split("-")[0]) != args.charset:
            raise SystemExit(f"{ident} is not a model of the {args.charset} network: {identifiers_of(args.charset)}")
    history = ck["state"].get("history", [])
    per_language = {}
    if args.decoder_weights:
        with open(args.decoder_weights, encoding="utf-8") as f:
            per_language = json.load(f)
    for ident in ids:
        code, english, aliases = LANGUAGE_MODELS[ident]
        out = os.path.join(args.models, ident)
        os.makedirs(out, exist_ok=True)
        lm_src = os.path.join(args.lm_dir, f"{code}.bin")
        shutil.copyfile(lm_src, os.path.join(out, "lm.bin"))
        config = {
            "formatVersion": 1, "identifier": ident, "kind": "text",
            "features": {"scheme": FEATURE_SCHEME, "stepsPerLineHeight": STEPS_PER_LINE_HEIGHT},
            "network": {"weights": f"../{net}/weights.safetensors", **cfg, "precision": "int8"},
            "labels": charset.CHARACTERS, "blankIndex": charset.BLANK,
            **({"textForm": "hangul-jamo"} if args.charset == "hangul" else {}),
            **({"direction": "rtl"} if args.charset in RIGHT_TO_LEFT else {}),
            "decoder": {"languageModel": "lm.bin",
                        "lmWeight": per_language.get(ident, {}).get("lmWeight", args.lm_weight),
                        "insertionBonus": per_language.get(ident, {}).get("insertionBonus", args.insertion_bonus),
                        "beamWidth": args.beam_width, "endWeight": args.end_weight,
                        **({"beamThreshold": args.beam_threshold} if args.beam_threshold else {}),
                        **({"symbolsPerFrame": args.symbols_per_frame} if args.symbols_per_frame else {}),
                        **({"contextSeparator": ""} if args.charset in NO_WORD_SPACES else {})},
        }
        write_json(os.path.join(out, "config.json"), config)
        write_json(os.path.join(out, "model.json"),
                   {"identifier": ident, "aliases": aliases, "version": args.version, "kind": "text", "network": net,
                    "license": "CC-BY-SA-4.0",
                    "description": description(english, code, args.charset)})
        # The figures latin evaluate languages --card wrote stay.
        if spec:
            text = script_card(spec, ident, english, code, net, cfg, os.path.getsize(lm_src), weights_bytes, history,
                               args.version, args.training_note)
        else:
            text = model_card(ident, english, code, net, cfg, os.path.getsize(lm_src), weights_bytes, history,
                              args.version, args.training_note, args.charset)
        write_card(os.path.join(out, "MODEL_CARD.md"), text,
                   keep_from="<!-- scripts:" if spec else "<!-- languages:")
        print(f"{ident}: lm {os.path.getsize(lm_src)} bytes")
    for ident in update_readers(args.models, net, cfg, ids):
        print(f"{ident}: network block and labels updated (it reads {net} too; its LM, decoder and card stay)")
    write_manifest(args.models)
    print(f"{net}: {weights_bytes} bytes, {len(ids)} language models")


if __name__ == "__main__":
    main()
