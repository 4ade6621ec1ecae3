#!/usr/bin/env python3
"""Where the engine puts the late dots of Arabic-script words: each mark stroke's character in the alignment.

    python3 -m inkrec_training scripts evaluate late-marks --words 300 --languages ar,fa,ur --json out.json

Arabic, Persian and Urdu writers add a letter's dots, hamza, madda or bar after its body (after the piece, or
after the whole word). The network reads such a stroke as blanks, so the engine's stroke alignment
(``StrokeAssignment.swift``, each candidate's ``segments``) gives it whole to a character by position. Issue 40
asks that at least 95% of them go to their own letter.

Words: per language, ``--words`` words of its 20,000 most frequent (``evaluate.word_list``, drawn ∝
frequency^0.5), written by held-out writers (ids of the *reported* range, ``evaluate.WRITER_IDS``) with
``arabic.write_word_with_owners``, which says which character each mark stroke belongs to; only words with at
least one mark stroke are kept. Each language's model (``<models>/<code>``) reads them through the release CLI
(``inkrec recognize --batch … --format json --max-results 1``). Alignment is scored only on the words whose best
candidate is the word itself (elsewhere no character is "the right one"): a mark stroke counts as right when the
character holding most of its points is the one it belongs to. Reported: words, words read right, mark strokes,
the share assigned to their letter (overall and per language) and the most frequent confusions (the letter the
mark belongs to → the letter it went to).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import sys
import tempfile
from dataclasses import dataclass
from typing import Optional, Sequence

from inkrec_training import engine
from inkrec_training.families.scripts.evaluate import WRITER_IDS, model_dirs, word_list
from inkrec_training.paths import ROOT
from inkrec_training.writing import arabic, writer

NONE = "(none)"  # a mark stroke that no character of the alignment holds


@dataclass(frozen=True)
class MarkWord:
    """A generated word and, per stroke, the index in ``label`` of the character a mark stroke belongs to
    (None for body strokes)."""
    id: str
    lang: str
    label: str
    strokes: list  # (N, 2) arrays, 100 units per x-height
    owners: list


def mark_words(code: str, n: int, seed: int, max_tries: int = 50) -> list[MarkWord]:
    """``n`` words of language ``code`` written by held-out writers of the reported range, each with at least
    one mark stroke (words with none, or with a glyph the kit has not traced, are drawn again)."""
    ws, wt = word_list(code)
    rng = random.Random(f"{seed}-reported-late-marks-{code}")
    out: list[MarkWord] = []
    for _ in range(max_tries * n):
        if len(out) == n:
            break
        w = rng.choices(ws, wt)[0]
        style = writer.heldout_writer(rng.randrange(*WRITER_IDS["reported"]))
        got = arabic.write_word_with_owners(w, writer.RULES["Arab"], style, rng)
        if got is None or all(o is None for o in got[1]):
            continue
        strokes, owners = got
        out.append(MarkWord(f"{code}-m{len(out)}", code, w, [s[:, :2] for s in strokes], owners))
    return out


def write_batch(words: Sequence[MarkWord], path: str) -> None:
    """``words`` as the CLI's batch input: one JSON object a line, ``{"id", "label", "strokes": [[[x, y], …], …]}``."""
    with open(path, "w", encoding="utf-8") as f:
        for mw in words:
            strokes = [[[round(float(x), 2), round(float(y), 2)] for x, y in s] for s in mw.strokes]
            f.write(json.dumps({"id": mw.id, "label": mw.label, "strokes": strokes}, ensure_ascii=False) + "\n")


def character_starts(characters: Sequence[dict]) -> list[int]:
    """Per character of a candidate's segments, the index of its first code point in the candidate's text (a
    segment's text is a grapheme, which may be several code points; the generator's owners index code points)."""
    starts, at = [], 0
    for c in characters:
        starts.append(at)
        at += len(c["text"])
    return starts


def holder(characters: Sequence[dict], stroke: int) -> Optional[int]:
    """The index (code points of the candidate's text) of the character whose segments hold most points of
    ``stroke``, the first of a tie; None when no character holds any."""
    best, best_points = None, 0
    for start, c in zip(character_starts(characters), characters):
        points = sum(s["points"][1] - s["points"][0] for s in c["strokes"] if s["stroke"] == stroke)
        if points > best_points:
            best, best_points = start, points
    return best


def word_marks(word: MarkWord, answer: dict) -> Optional[list[tuple[int, Optional[int]]]]:
    """Per mark stroke of ``word``, (the index of its letter, the index of the character the best candidate
    gives it to, or None); None when the best candidate is not the word itself (no right character then)."""
    candidates = answer.get("candidates") or []
    if not candidates or candidates[0]["text"] != word.label:
        return None
    characters = candidates[0].get("characters") or []
    return [(o, holder(characters, k)) for k, o in enumerate(word.owners) if o is not None]


def summarize(words: Sequence[MarkWord], answers: dict) -> dict:
    """The figures of ``words`` against the CLI's ``answers`` (by id): words, words read right, mark strokes
    (of the words read right), the share of them assigned to their letter, and the confusions (letter → letter
    it went to, ``NONE`` for a stroke no character holds), most frequent first."""
    read = marks = right = 0
    confusions: collections.Counter = collections.Counter()
    for mw in words:
        got = word_marks(mw, answers.get(mw.id, {}))
        if got is None:
            continue
        read += 1
        for owner, to in got:
            marks += 1
            right += to == owner
            if to != owner:
                confusions[(mw.label[owner], NONE if to is None else mw.label[to])] += 1
    return {"words": len(words), "read_right": read, "mark_strokes": marks, "assigned_right": right,
            "share": right / marks if marks else None,
            "confusions": [{"mark_of": a, "went_to": b, "count": c} for (a, b), c in confusions.most_common()]}


def read_words(inkrec: str, model_dir: str, words: Sequence[MarkWord], tmp: str, name: str) -> dict:
    """The CLI's answers (best candidate, with segments) to ``words`` with the model in ``model_dir``, by id."""
    path = os.path.join(tmp, f"{name}.jsonl")
    write_batch(words, path)
    answers, _ = engine.recognize_file(inkrec, model_dir, path, ["--format", "json"])
    return {a["id"]: a for a in answers}


def merged(parts: Sequence[dict]) -> dict:
    """Per-language ``summarize`` results added up (confusions summed, most frequent first)."""
    keys = ("words", "read_right", "mark_strokes", "assigned_right")
    total = {k: sum(p[k] for p in parts) for k in keys}
    total["share"] = total["assigned_right"] / total["mark_strokes"] if total["mark_strokes"] else None
    conf: collections.Counter = collections.Counter()
    for p in parts:
        for c in p["confusions"]:
            conf[(c["mark_of"], c["went_to"])] += c["count"]
    total["confusions"] = [{"mark_of": a, "went_to": b, "count": c} for (a, b), c in conf.most_common()]
    return total


def line(name: str, r: dict, top: int = 8) -> str:
    """One result as a line of text."""
    share = "—" if r["share"] is None else f"{100 * r['share']:.1f}%"
    conf = ", ".join(f"{c['mark_of']}→{c['went_to']} {c['count']}" for c in r["confusions"][:top]) or "none"
    return (f"{name}: {r['words']} words, {r['read_right']} read right, {r['mark_strokes']} mark strokes, "
            f"{r['assigned_right']} to their letter ({share}); confusions: {conf}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=300, help="words with a mark stroke, per language")
    ap.add_argument("--languages", default="ar,fa,ur", help="comma-separated codes (those with a model under --models)")
    ap.add_argument("--models", default=os.path.join(ROOT, "Models"), help="a folder of model directories <identifier>/")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inkrec", default=engine.DEFAULT_BINARY)
    ap.add_argument("--json", help="where to write the figures")
    args = ap.parse_args()
    langs = args.languages.split(",")
    dirs = model_dirs(args.models, langs)
    tmp = tempfile.mkdtemp(prefix="inkrec-late-marks-")
    results = {}
    for code in langs:
        if code not in dirs:
            print(f"{code}: no model under {args.models}", file=sys.stderr)
            continue
        words = mark_words(code, args.words, args.seed)
        results[code] = summarize(words, read_words(args.inkrec, dirs[code][1], words, tmp, code))
        print(line(code, results[code]), flush=True)
    total = merged(list(results.values()))
    print(line("all", total), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"seed": args.seed, "words_per_language": args.words, "models": args.models,
                       "all": total, "languages": results}, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
