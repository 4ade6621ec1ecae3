#!/usr/bin/env python3
"""English word accuracy of model folders on the 4,206 held-out words that are *not* reported, with the engine;
optionally for several weights of the engine's view rescoring (``decoder.viewRescoring`` in ``config.json``).

    python3 -m inkrec_training latin evaluate compare Models/en-US /tmp/shared-en        # 30 s a folder on one core (no views)
    python3 -m inkrec_training latin evaluate compare Models/en-US --view-weights 0,0.5,1,1.5   # 15 s a weight
    python3 -m inkrec_training latin evaluate compare Models/en-US --view-weights 0,1 --lines   # + the 453 non-reported lines

The words are the held-out writers' tuning slice (600) and the monitoring slice (3,606, what ``latin train``
watches while it trains) of ``splits.held_out_word_slices``; the 2,000 reported words are never read. The tuning
slice alone (what ``latin tune english`` tunes the decoder on) moves by one word in 600 (0.17 points) and
ranked the candidates of issue 17 differently from the 4,206 words; this is for choices such as the
English language model's recipe, made before a reported figure is measured.

``--view-weights W1,W2,…``: the engine's ``--view-weight`` for each (0: no rescoring), for a model whose
``config.json`` rescores its best candidates with stretched views of the ink (``inkrec_training/views.py``
describes the rule). Choose on tuning, check on monitoring.

``--margins M1,M2,…``: the words and lines read without the views and with the model's own settings; for
each slice, how many best readings the views changed, the largest lead (best score less the second's,
without the views) among those, and for each margin the share of inks it would keep from being re-read
and the changes it would lose (en-US 2.2.0's ``viewRescoring.margin``)::

    python3 -m inkrec_training latin evaluate compare Models/en-US --margins 3,4,5,6

``--view-beam-widths W1,W2,…``: the words and lines (``--lines`` implied) read with copies of the model whose
``viewRescoring.beamWidth`` is each (``none``: no views' own beams; en-US 2.2.0's choice)::

    python3 -m inkrec_training latin evaluate compare Models/en-US --view-beam-widths none,8,16,32,64
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile

from inkrec_training.engine import binary as inkrec_binary
from inkrec_training.families.latin.evaluate import held_out_lines, scores
from inkrec_training.families.latin.evaluate_hints import run  # noqa: E402
from inkrec_training import data
from inkrec_training import splits


def non_reported_words():
    """(tuning words, monitoring words) of the held-out writers, as ``splits.held_out_word_slices`` cuts them."""
    words = [it for it in data.load("words") if splits.is_validation_writer(it.writer)]
    _, tuning, monitoring = splits.held_out_word_slices(words)
    return tuning, monitoring


def accuracy(tops: dict, subset) -> float:
    """Percentage of ``subset`` whose engine reading (``tops``: id → text) is its label."""
    return 100.0 * sum(tops.get(it.id) == it.label for it in subset) / max(1, len(subset))


def config_variant(model_dir: str, tmp: str, edit) -> str:
    """A copy of ``model_dir`` in ``tmp`` whose ``config.json`` ``edit`` (a function of the parsed config) has
    changed, with the files its config names as ``../<folder>/<file>`` copied beside it (the engine reads no
    file that a link puts outside the models' root)."""
    model_dir = os.path.abspath(model_dir)
    out = os.path.join(tmp, os.path.basename(model_dir))
    shutil.copytree(model_dir, out)
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)

    def shared(node):
        if isinstance(node, dict):
            for v in node.values():
                yield from shared(v)
        elif isinstance(node, str) and node.startswith("../"):
            yield node
    for rel in shared(config):
        os.makedirs(os.path.dirname(os.path.join(out, rel)), exist_ok=True)
        shutil.copyfile(os.path.join(model_dir, rel), os.path.join(out, rel))
    edit(config)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f)
    return out


def view_rescoring(config: dict) -> dict:
    """``config``'s ``decoder.viewRescoring`` (an empty dict where it has none)."""
    return (config.get("decoder") or {}).get("viewRescoring") or {}


def without_margin(model_dir: str, tmp: str) -> str:
    """A copy of ``model_dir`` (``config_variant``) whose ``config.json`` has no ``viewRescoring.margin``
    (every ink re-read)."""
    return config_variant(model_dir, tmp, lambda c: view_rescoring(c).pop("margin", None))


def with_view_beam_width(model_dir: str, tmp: str, width: "int | None") -> str:
    """A copy of ``model_dir`` (``config_variant``) whose ``viewRescoring.beamWidth`` is ``width`` (None: no
    views' beams)."""
    def edit(config):
        vr = view_rescoring(config)
        vr.pop("beamWidth", None)
        if width is not None:
            vr["beamWidth"] = width
    return config_variant(model_dir, tmp, edit)


def lead_report(without: dict, with_views: dict, subset, margins) -> dict:
    """For ``subset``'s items read ``without`` the views and ``with_views`` ({id: [(text, score, …)]}, best
    first): the count read, the leads (best less second score without the views; +inf for one candidate)
    of those whose best reading the views changed, and per margin the share of items whose lead is at least
    the margin (never re-read) and how many changed ones among them (changes the margin would lose)."""
    leads, changed = [], []
    for it in subset:
        a, b = without.get(it.id) or [], with_views.get(it.id) or []
        if not a:
            continue
        lead = a[0][1] - a[1][1] if len(a) > 1 else float("inf")
        leads.append(lead)
        if b and b[0][0] != a[0][0]:
            changed.append(lead)
    n = max(1, len(leads))
    return {"read": len(leads), "changed_leads": sorted(changed),
            "margins": {m: (100.0 * sum(x >= m for x in leads) / n, sum(x >= m for x in changed)) for m in margins}}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+", help="model folders (config.json, weights, lm.bin)")
    ap.add_argument("--view-weights", default="", help="the engine's --view-weight for each run, e.g. 0,0.5,1")
    ap.add_argument("--lines", action="store_true",
                    help="also the CER of the held-out lines that are not reported (150 tuning, 303 monitoring)")
    ap.add_argument("--margins", default="",
                    help="comma-separated view-rescoring margins to report on (reads without and with the views)")
    ap.add_argument("--view-beam-widths", default="",
                    help="comma-separated viewRescoring.beamWidth values to compare (none: without), with --lines")
    args = ap.parse_args()
    binary = inkrec_binary()
    tuning, monitoring = non_reported_words()
    if args.view_beam_widths:
        widths = [None if w == "none" else int(w) for w in args.view_beam_widths.split(",")]
        for model_dir in args.models:
            for width in widths:
                with tempfile.TemporaryDirectory() as tmp:
                    report(binary, with_view_beam_width(model_dir, tmp, width), [], tuning, monitoring, True,
                           label=f"{model_dir} viewRescoring.beamWidth {width or 'none'}")
        return
    if args.margins:
        margins = [float(m) for m in args.margins.split(",")]
        _, tuning_lines, monitoring_lines = held_out_lines()
        every = tuning + monitoring + tuning_lines + monitoring_lines
        for model_dir in args.models:
            without = run(binary, every, ["--view-weight", "0"], max_results=10, model=model_dir)
            with tempfile.TemporaryDirectory() as tmp:
                with_views = run(binary, every, [], max_results=10, model=without_margin(model_dir, tmp))
            for name, subset in [("tuning", tuning + tuning_lines), ("monitoring", monitoring + monitoring_lines)]:
                r = lead_report(without, with_views, subset, margins)
                top = ", ".join(f"{x:.2f}" for x in r["changed_leads"][-3:])
                print(f"{model_dir} {name} ({r['read']} words and lines): the views changed {len(r['changed_leads'])} "
                      f"best readings, the largest leads among them {top}", flush=True)
                for m, (share, lost) in r["margins"].items():
                    print(f"  margin {m:g}: {share:.1f}% not re-read, {lost} changes lost", flush=True)
        return
    settings = [["--view-weight", w] for w in args.view_weights.split(",") if w] or [[]]
    for model_dir in args.models:
        for extra in settings:
            report(binary, model_dir, extra, tuning, monitoring, args.lines,
                   label=f"{model_dir}{' ' + ' '.join(extra) if extra else ''}")


def report(binary, model_dir: str, extra: list, tuning, monitoring, lines: bool, label: str) -> None:
    """Prints the accuracy of ``model_dir`` (engine arguments ``extra``) on the tuning and monitoring words and,
    with ``lines``, the CER of the non-reported lines."""
    items = tuning + monitoring
    # The API's default of ten results: the beam keeps at least that many prefixes.
    cands = run(binary, items, extra, max_results=10, model=model_dir)
    tops = {k: v[0][0] for k, v in cands.items() if v}
    print(f"{label}: tuning {accuracy(tops, tuning):.2f}%, monitoring {accuracy(tops, monitoring):.2f}%, "
          f"both {accuracy(tops, items):.2f}% (n={len(items)})", flush=True)
    if lines:
        _, tuning_lines, monitoring_lines = held_out_lines()
        read = run(binary, tuning_lines + monitoring_lines, extra, max_results=10, model=model_dir)

        def cer(subset):
            return 100 * scores([read[it.id][0][0] if read.get(it.id) else "" for it in subset],
                                [it.label for it in subset])["cer"]
        print(f"  lines CER: tuning {cer(tuning_lines):.2f}%, monitoring {cer(monitoring_lines):.2f}%, "
              f"both {cer(tuning_lines + monitoring_lines):.2f}% (n={len(tuning_lines) + len(monitoring_lines)})",
              flush=True)

if __name__ == "__main__":
    main()
