"""The one entry point: ``python -m inkrec_training FAMILY COMMAND [TOPIC] [options]``.

A family is a group of models trained the same way (``latin``: the shared Latin network and its 28
language models, and the Vietnamese network with ``--charset vietnamese``; ``cjk``: ja, zh-Hans, zh-Hant;
``shapes``; ``scripts``: the script kit's pictures and real-letter coverage; ``pages``: the page generator
and page figures). Each family answers the same commands, each a stage of making a model:

- ``data``     what training or evaluation reads (generated inks, packed corpora, samples, fixtures)
- ``train``    the network (resumes a run; variants such as a size sweep or a weight average)
- ``lm``       the language models
- ``export``   a checkpoint into ``Models/`` (8-bit network, config, card, manifest)
- ``evaluate`` figures on held-out writers (and, with ``--card``, into the model cards)
- ``tune``     decoder settings, on tuning sets that are never reported
- ``report``   comparisons across runs

A command may have several topics (``latin evaluate languages``); the first one listed is the default.
``python -m inkrec_training`` lists them all; ``… FAMILY COMMAND [TOPIC] --help`` prints a tool's options.
Every tool is also a module with ``main()``, so ``python -m inkrec_training.families.latin.train`` works.
"""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
from dataclasses import dataclass, field

from inkrec_training.paths import TRAINING

COMMANDS = ("data", "train", "lm", "export", "evaluate", "tune", "report")


@dataclass(frozen=True)
class Tool:
    module: str              # under inkrec_training
    summary: str
    fixed: tuple[str, ...] = field(default=())   # options put before the caller's


# FAMILY -> COMMAND -> TOPIC -> tool; the first topic of a command is its default.
TOOLS: dict[str, dict[str, dict[str, Tool]]] = {
    "latin": {
        "data": {
            "gpu": Tool("families.latin.gpu_data", "packed UNIPEN, word lists and letter boxes that a GPU call carries"),
            "samples": Tool("families.latin.samples", "Samples/*.json, word.inkml and Samples/README.md"),
            "language-samples": Tool("families.latin.language_samples", "Samples/composed-*.json (composed ink)"),
            "fixtures": Tool("families.latin.fixtures", "the feature and network golden fixtures"),
            "figures": Tool("families.latin.composer_figures", "pictures of composed words for Docs/composer"),
        },
        "train": {
            "network": Tool("families.latin.train", "the Latin (or English) network"),
            "sweep": Tool("families.latin.sweep", "several network sizes on the same batches"),
            "average": Tool("families.latin.average", "a weight average (soup) of checkpoints"),
        },
        "lm": {
            "language": Tool("lm.build", "one language's INKLM2 model (or English's INKLM1, or the golden LMs)"),
            "all": Tool("lm.build_all", "every Latin language's model into Training/work/lm"),
        },
        "export": {
            "models": Tool("families.latin.export", "the shared network and every Latin language's model folder"),
            "english": Tool("export", "a single-language model folder (en-US before the shared network)"),
            "quantize": Tool("families.latin.quantize_model", "8-bit weights of a model and their golden files"),
        },
        "evaluate": {
            "english": Tool("families.latin.evaluate", "English words and lines of held-out writers; --card"),
            "languages": Tool("families.latin.evaluate_languages", "every language on composed words; --card, --readme"),
            "hints": Tool("families.latin.evaluate_hints", "vocabulary, charset, confidence, alignment, context; card"),
            "compare": Tool("families.latin.compare_english", "English recipes on the non-reported words"),
            "adaptation": Tool("families.latin.evaluate_adaptation", "writer profiles (inkrec adapt) on held-out writers"),
        },
        "tune": {
            "decoders": Tool("families.latin.choose_decoders", "each language's decoder weights on its tuning words"),
            "english": Tool("families.latin.evaluate", "English decoder weights on the tuning slices", ("--sweep",)),
            "ensemble": Tool("families.latin.ensemble", "a greedy choice of networks to average, on tuning words"),
            "adaptation": Tool("families.latin.adaptation_prototype",
                               "which part of the network a writer profile adapts (PyTorch, tuning writers)"),
            "meta-adaptation": Tool("families.latin.adaptation_meta",
                                    "first-order meta-training of the network for writer profiles (prototype, issue 41)"),
            "decoder-adaptation": Tool("families.latin.decoder_probes",
                                       "a writer's LM weight and a cache LM of their words (probes, issue 41)"),
        },
        "report": {
            "sweep": Tool("families.latin.report_sweep", "candidates of a sweep, exported and compared"),
        },
    },
    "cjk": {
        "data": {
            "prepare": Tool("families.cjk.train", "glyph centre lines and word lists into Training/work/cjk", ("--prepare",)),
            "inks": Tool("families.cjk.inks", "held-out evaluation and tuning inks"),
            "figures": Tool("families.cjk.figures", "the generator's pictures for Docs/cjk"),
            "fixture": Tool("families.cjk.fixture", "the CJK network golden fixture"),
        },
        "train": {"network": Tool("families.cjk.train", "the shared CJK network")},
        "lm": {"language": Tool("lm.build_cjk", "a ja, zh-Hans or zh-Hant language model")},
        "export": {"models": Tool("families.cjk.export", "the CJK network and the ja, zh-Hans, zh-Hant folders")},
        "tune": {"decoder": Tool("families.cjk.tune", "lmWeight and insertionBonus on tuning writers")},
    },
    "shapes": {
        "data": {"samples": Tool("families.shapes.samples", "Samples/shape-*.json (generated)")},
        "train": {"network": Tool("families.shapes.train", "data, training, calibration and export")},
        "export": {"model": Tool("families.shapes.train", "calibrate and export the last checkpoint", ("--export-only",))},
    },
    "scripts": {
        "data": {"figures": Tool("families.scripts.figures", "pictures of the script kit for Docs/scripts"),
                 "samples": Tool("families.scripts.samples", "Samples/generated-<lang>.json (Cyrillic, generated)"),
                 "arabic-forms": Tool("writing.arabic", "trace Noto Naskh Arabic's joining forms into "
                                                        "writing/data/arabic_forms.json (fontTools, fonts-noto-core)"),
                 "devanagari-glyphs": Tool("writing.devanagari", "shape Devanagari syllables (uharfbuzz) and trace Noto "
                                                                 "Sans Devanagari into writing/data/devanagari_glyphs.json.gz"),
                 "bengali-glyphs": Tool("writing.bengali", "shape Bengali syllables (uharfbuzz) and trace Noto Sans "
                                                           "Bengali into writing/data/bengali_glyphs.json.gz"),
                 "tamil-glyphs": Tool("writing.tamil", "shape Tamil syllables (uharfbuzz) and trace Noto Sans Tamil "
                                                       "into writing/data/tamil_glyphs.json.gz"),
                 "thai-glyphs": Tool("writing.thai", "shape Thai clusters (uharfbuzz) and trace Noto Looped Thai "
                                                     "into writing/data/thai_glyphs.json.gz"),
                 "thai-words": Tool("writing.thai", "the Thai National Corpus word list (PyThaiNLP tnc_freq.txt, "
                                                    "CC0) into writing/data/thai_words.tsv.gz; --tnc PATH",
                                    fixed=("words",))},
        "lm": {"thai": Tool("lm.thai", "the Thai LM: running text without spaces between words (INKLM2, <= 2 MB)")},
        "evaluate": {"coverage": Tool("families.scripts.coverage", "Cyrillic and Greek words composable from real letters"),
                     "models": Tool("families.scripts.evaluate",
                                    "the script models on generated held-out ink and on words of real letters"),
                     "korean": Tool("families.scripts.korean",
                                    "the Korean jamo network against the syllable network, greedy, same inks"),
                     "late-marks": Tool("families.scripts.alignment",
                                        "Arabic-script late dots: the share the alignment gives to their letter")},
        "tune": {"pruning": Tool("families.scripts.pruning",
                                 "the beam's threshold and symbols per frame, tried on the tuning writers; --write")},
    },
    "pages": {
        "data": {"pages": Tool("families.pages.make", "generated pages of held-out (or training) writers")},
        "evaluate": {"pages": Tool("families.pages.evaluate", "line count and page CER through inkrec --page")},
    },
}


def usage() -> str:
    lines = ["usage: python -m inkrec_training FAMILY COMMAND [TOPIC] [options]", ""]
    for family, commands in TOOLS.items():
        lines.append(family)
        for command in COMMANDS:
            for i, (topic, tool) in enumerate(commands.get(command, {}).items()):
                name = f"{command} {topic}" + (" (default)" if i == 0 and len(commands[command]) > 1 else "")
                lines.append(f"  {name:<28} {tool.summary}")
    return "\n".join(lines)


def resolve(argv: list[str]) -> tuple[Tool, str, list[str]]:
    """The tool that ``argv`` names, its program name and the arguments it gets; ``SystemExit`` with
    the usage for anything else."""
    if len(argv) < 2 or argv[0] not in TOOLS or argv[1] not in TOOLS[argv[0]]:
        if not argv or argv[0] in ("-h", "--help"):
            what = ""
        elif argv[0] not in TOOLS:
            what = f"unknown family {argv[0]!r}"
        else:
            what = f"{argv[0]}: which command? " if len(argv) < 2 else f"{argv[0]} has no command {argv[1]!r}"
        raise SystemExit((what + "\n\n" if what else "") + usage())
    family, command, rest = argv[0], argv[1], argv[2:]
    topics = TOOLS[family][command]
    topic = next(iter(topics))
    if rest and rest[0] in topics:
        topic, rest = rest[0], rest[1:]
    tool = topics[topic]
    return tool, f"python -m inkrec_training {family} {command} {topic}", list(tool.fixed) + rest


def main(argv: list[str] | None = None) -> None:
    tool, prog, args = resolve(sys.argv[1:] if argv is None else argv)
    module = importlib.import_module(f"inkrec_training.{tool.module}")
    sys.argv = [prog, *args]
    module.main()


def run_tool(*words: str, **kwargs):
    """Runs ``python -m inkrec_training WORDS…`` in a process of its own (as a tool that must not share
    this process's state, e.g. its torch threads or its LM alphabet), with this package importable there
    wherever the caller's working directory is; ``kwargs`` go to ``subprocess.run``."""
    env = dict(kwargs.pop("env", None) or os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (TRAINING, env.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "inkrec_training", *words], env=env, **kwargs)
