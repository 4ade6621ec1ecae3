#!/usr/bin/env python3
"""Write the latest figures into Benchmarks/README.md (between its "results" markers).

    python3 Benchmarks/report.py [--results Benchmarks/.build/results]

Reads what Benchmarks/run.sh leaves in the results folder: ``Current_run.influx.csv`` (package-benchmark,
raw values: nanoseconds, bytes, counts), ``memory.json`` (inkrec-bench-memory), ``side_by_side.json``
(side_by_side.py) and ``machine.json`` (run.sh), and replaces the text between
``<!-- results:begin -->`` and ``<!-- results:end -->``.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"

GOALS = {  # name: (limit, unit, better)
    "word": 5.0, "line": 25.0, "ort": 1.5, "load": 50.0, "memory": 100.0,
}


def read_influx(path: str) -> dict[str, dict[str, dict[float, float]]]:
    """{benchmark: {metric: {percentile: raw value}}} plus {benchmark: {"iterations": n}}."""
    out: dict = {}
    with open(path, encoding="utf-8") as f:
        rows = [l for l in f if not l.startswith("#")]
    for r in csv.DictReader(rows):
        b = out.setdefault(r["test"], {})
        b.setdefault(r["metric"], {})[float(r["percentile"])] = float(r["value"])
        b["iterations"] = int(r["iterations"])
    return out


def ms(ns: float) -> str:
    v = ns / 1e6
    return f"{v:.3f}" if v < 1 else f"{v:.2f}" if v < 100 else f"{v:.0f}"


def mb(b: float) -> str:
    return f"{b / 1e6:.0f}"


def find(bench: dict, pattern: str) -> tuple[str, dict] | tuple[None, None]:
    for name, v in bench.items():
        if re.search(pattern, name):
            return name, v
    return None, None


def mark(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**missed**")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--results", default=os.path.join(HERE, ".build", "results"))
    ap.add_argument("--readme", default=os.path.join(HERE, "README.md"))
    a = ap.parse_args()
    res = a.results

    machine = json.load(open(os.path.join(res, "machine.json"), encoding="utf-8"))
    bench = read_influx(os.path.join(res, "Current_run.influx.csv"))
    memory = json.load(open(os.path.join(res, "memory.json"), encoding="utf-8"))
    sbs = json.load(open(os.path.join(res, "side_by_side.json"), encoding="utf-8"))
    T = "Time(wallclock)"

    lines = []
    lines.append(f"Measured {machine['date']} on **{machine['cpu']}**, {machine['cores']} cores "
                 f"({machine['kernel']}), {machine['swift']}; engine BLAS: {sbs['engineBLAS']}; engine kernels: "
                 f"{sbs.get('engineKernels')}; "
                 f"model `{sbs['model']}` (stepsPerLineHeight {sbs['stepsPerLineHeight']:g}) at commit "
                 f"`{machine['commit']}`. `OPENBLAS_NUM_THREADS=1`, `DIGITALINK_BLAS_THREADS=1`; load average "
                 f"{machine['loadBefore']} before the run and {machine['loadAfter']} after it "
                 f"(see \"Reading the figures\").")
    lines.append("")

    # Goals.
    _, w = find(bench, r"^word8-unipen.*5 end-to-end")
    wname, ws = find(bench, r"^word-sample.*5 end-to-end")
    _, l40 = find(bench, r"^line40-unipen.*5 end-to-end")
    _, load = find(bench, r"^model load: recognizer")
    word_ms = w[T][50.0] / 1e6 if w else (ws[T][50.0] / 1e6 if ws else None)
    line_ms = l40[T][50.0] / 1e6 if l40 else None
    load_ms = load[T][50.0] / 1e6 if load else None
    ort = sbs["overall"]["ort_over_engine"]
    peak_mb = memory["peakRSSBytes"] / 1e6
    rec_mb = (memory["peakRSSBytes"] - memory["rssBeforeLoadBytes"]) / 1e6
    lines.append("### Goals (one core)")
    lines.append("")
    lines.append("| goal | target | measured | |")
    lines.append("| --- | --- | --- | --- |")
    lines.append(f"| end-to-end, single word (UNIPEN, 8 letters), median | < 5 ms | "
                 f"{word_ms:.1f} ms | {mark(word_ms < GOALS['word'] if word_ms is not None else None)} |")
    lines.append("| end-to-end, line of about 40 characters, median | < 25 ms | "
                 + (f"{line_ms:.1f} ms | {mark(line_ms < GOALS['line'])} |" if line_ms is not None else "n/a | n/a |"))
    lines.append(f"| network forward vs ONNX Runtime (time ratio ORT / engine, all inks) | ≥ 1.5 | "
                 f"{ort:.2f} | {mark(ort >= GOALS['ort'])} |")
    lines.append("| model load (`recognizer.load()`, warm page cache), median | < 50 ms | "
                 + (f"{load_ms:.1f} ms | {mark(load_ms < GOALS['load'])} |" if load_ms is not None else "n/a | n/a |"))
    lines.append(f"| peak memory, process holding one recognizer (load + {memory['inks']} lines) | < 100 MB | "
                 f"{peak_mb:.0f} MB (recognizer: +{rec_mb:.0f} MB over the bare process) | {mark(peak_mb < GOALS['memory'])} |")
    lines.append("")

    # Where the end-to-end time goes: the stages' medians, per set.
    lines.append("End to end, stage by stage (p50, ms; the stages measured on their own):")
    lines.append("")
    lines.append("| set | frames | 1 preprocessing | 2 forward | 3 decode without LM | 4 decode with LM | 5 end-to-end |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for prefix in ("word-sample", "word8-unipen", "line-sample", "line40-unipen"):
        st = {}
        for i, key in enumerate(["1 preprocessing", "2 network forward", "3 decode without LM", "4 decode with LM",
                                 "5 end-to-end"]):
            _, b = find(bench, "^" + re.escape(prefix) + r" .*" + re.escape(key))
            st[i] = b
        if not st[4]:
            continue
        frames = st[1].get("inputframes", {}).get(50.0) if st[1] else None
        lines.append(f"| {prefix} | {frames:.0f} | " if frames is not None else f"| {prefix} | | ")
        lines[-1] += " | ".join(ms(st[i][T][50.0]) if st[i] else "" for i in range(5)) + " |"
    lines.append("")

    # package-benchmark table.
    lines.append("### package-benchmark suite (`swift package benchmark`)")
    lines.append("")
    lines.append("Wall-clock p50 / p90 per iteration; peak RSS is that of the benchmark process (harness, inks and "
                 "model included); mallocs per iteration (p50); *n* iterations.")
    lines.append("")
    lines.append("| benchmark | p50 ms | p90 ms | peak RSS MB | mallocs | n | other |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name in sorted(bench):
        b = bench[name]
        t = b.get(T)
        rss = b.get("Memory(residentpeak)")
        mal = b.get("Malloc(total)")
        other = []
        for k, v in b.items():
            if k in (T, "Memory(residentpeak)", "Malloc(total)", "iterations"):
                continue
            if k == "inks/s":
                other.append(f"{v[50.0]:.0f} inks/s (p50)")
            elif k == "inputframes":
                other.append(f"{v[50.0]:.0f} input frames (p50)")
            elif k == "Malloc(bytestotal)":
                other.append(f"{v[50.0] / 1e6:.1f} MB allocated")
            elif k == "Memory(residentpeakdelta)":
                other.append(f"RSS +{v[100.0] / 1e6:.0f} MB during the run")
        lines.append(f"| {name} | {ms(t[50.0]) if t else ''} | {ms(t[90.0]) if t else ''} | "
                     f"{mb(rss[100.0]) if rss else ''} | {mal[50.0]:.0f} | {b['iterations']} | {'; '.join(other)} |"
                     if mal else
                     f"| {name} | {ms(t[50.0]) if t else ''} | {ms(t[90.0]) if t else ''} | "
                     f"{mb(rss[100.0]) if rss else ''} | | {b['iterations']} | {'; '.join(other)} |")
    lines.append("")
    lines.append(f"One recognizer in a process of its own (`inkrec-bench-memory`): RSS {memory['rssBeforeLoadBytes'] / 1e6:.0f} MB "
                 f"before the load, {memory['rssAfterLoadBytes'] / 1e6:.0f} MB after it, peak {peak_mb:.0f} MB after "
                 f"recognizing {memory['inks']} inks; first (cold-ish) load {memory['coldishLoadMs']:.0f} ms.")
    lines.append("")

    # Side by side.
    v = sbs["variants"]
    keys = list(v)
    lines.append("### Network forward side by side (`side_by_side.py`)")
    lines.append("")
    md = sbs["maxAbsDiff"]
    lines.append(f"Same weights, same inks, one thread each; median over the inks of each ink's median (best of "
                 f"{sbs['rounds']} rounds of {sbs['repeats']} runs), ms. ORT: ONNX Runtime {sbs['machine']['onnxruntime']} "
                 f"(ops {', '.join(sbs['onnxOps'])}); PyTorch {sbs['machine']['torch']}. Identical inputs "
                 f"(max |features engine − features.py| = {md['features_engine_vs_python']:.2g}); log-probabilities agree "
                 f"to {md['logprobs_engine_vs_torch']:.1g} (engine − PyTorch), {md['logprobs_ort_vs_torch']:.1g} (ORT − PyTorch)" + ".")
    lines.append("")
    names = {"engine": "engine", "engine_blas_projection": "engine, BLAS projection", "engine_portable": "engine, portable"}
    lines.append("| set | inks | frames | " + " | ".join(names[k] for k in keys) +
                 " | ORT | PyTorch | floor | ORT / engine | PyTorch / engine | engine / floor | ORT / floor |")
    lines.append("| --- | ---: | ---: | " + " | ".join("---:" for _ in keys) + " | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for s in sbs["sets"] + [{"set": "all inks", **sbs["overall"]}]:
        lines.append(f"| {s['set']} | {s['inks']} | {s['medianFrames']:.0f} | "
                     + " | ".join(f"{s[k + '_us'] / 1e3:.2f}" for k in keys)
                     + f" | {s['onnxruntime_us'] / 1e3:.2f} | {s['pytorch_us'] / 1e3:.2f} | {s['floor_us'] / 1e3:.2f}"
                     f" | {s['ort_over_engine']:.2f} | {s['torch_over_engine']:.2f} | {s['engine_over_floor']:.1f}"
                     f" | {s['ort_over_floor']:.1f} |")
    lines.append("")
    extra = [k for k in keys if k != "engine"]
    if extra:
        lines.append("ONNX Runtime / variant over all inks: " + "; ".join(
            f"{names[k]} {sbs['overall']['ort_over_' + k]:.2f}" for k in extra) + " (variants: "
            + "; ".join(f"*{names[k]}*: {v[k]['description']}" for k in extra) + ").")
        lines.append("")
    o = sbs["overall"]
    lines.append(f"**The floor.** {o['mflops']:.0f} MFLOP per forward for the median ink ({o['medianFrames']:.0f} frames; "
                 f"multiply-adds count 2) at {sbs['floorRateGflops']:.0f} GFLOP/s, the best single-threaded sgemm rate "
                 f"measured at the network's largest product ({sbs['floorRateFrom']}; peak "
                 f"{sbs['peakRateGflops']:.0f} GFLOP/s at 1024³, {sbs['peakRateFrom']}): the engine takes "
                 f"**{o['engine_over_floor']:.1f}×** the floor, ONNX Runtime {o['ort_over_floor']:.1f}×.")
    lines.append("")
    lines.append("Single-threaded sgemm, GFLOP/s (M × K × N at the median ink length):")
    lines.append("")
    libs = list(sbs["sgemmRateGflops"])
    lines.append("| product | M × K × N | " + " | ".join(libs) + " |")
    lines.append("| --- | --- | " + " | ".join("---:" for _ in libs) + " |")
    for k, sh in sbs["sgemmShapes"].items():
        lines.append(f"| {k} | {' × '.join(map(str, sh))} | "
                     + " | ".join(f"{sbs['sgemmRateGflops'][lib][k]:.0f}" for lib in libs) + " |")

    text = open(a.readme, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"error: {a.readme} has no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(a.readme, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)
    print(f"updated {a.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
