#!/usr/bin/env python3
"""inkrec side by side with Zinnia on the same single-character inks (issue 18).

    python3 Benchmarks/zinnia_compare.py --inks chars-ja.jsonl --language ja
    python3 Benchmarks/zinnia_compare.py --inks ja.jsonl zh.jsonl --language ja zh-Hans \\
        --model-directory Models/ja Models/zh-Hans --lines ja-lines.jsonl zh-lines.jsonl --json out.json

Zinnia (Taku Kudo's online recognizer; Debian: zinnia-utils, libzinnia-dev) with the Tegaki models
Debian ships (tegaki-zinnia-japanese, tegaki-zinnia-simplified-chinese), against `inkrec recognize
--batch`, on the very same inks, in one run. For each recognizer and language: top-1 and top-10
accuracy, milliseconds per character and model load time.

Input (``--inks``): JSON Lines, one single-character ink a line, in the project's format (what
``inkrec recognize --batch`` reads): ``{"label": "字", "strokes": [[[x, y, t], ...], ...]}``, points
``[x, y]``, ``[x, y, t]`` or ``{"x":, "y":, "t":}``, strokes also ``{"points": [...]}``; y down, any
units; other keys ("id", ...) are ignored. Zinnia gets each ink's bounding box scaled into a
``--box`` square (300 units; aspect ratio kept, centred, ``--margin`` on each side, integer
coordinates), as its ``(character (width W)(height H)(strokes ((x y)...)...))``; inkrec gets the
points as they are.

Zinnia reads one character at a time: ``--lines`` (line inks with labels, same format) gives
inkrec's character error rate on lines, which Zinnia cannot be compared on.

Timing, the same for both sides: each side is one long-lived process over the whole file (Zinnia: a
small C program linked to libzinnia, ``zinnia/zinnia_batch.c``, compiled here into ``.build/``;
inkrec: ``recognize --batch``), started also on the first ink alone; after one untimed warm-up run
(page cache), the best of ``--repeats`` wall times of each. ms/char = (wall(all N) - wall(1 ink)) /
(N - 1): process start and model load cancel out; load ms = wall(1 ink) - ms/char (process start
and model load). Both run pinned to ``--cpu`` (``taskset -c 0`` by default) with one BLAS thread.
Zinnia's own clock (``zinnia_recognizer_open``, and ``classify`` alone) is reported beside it.

Characters whose label Zinnia's model cannot output (or inkrec's, when its config.json lists its
labels) are counted; accuracy is given over all inks (such an ink counts as an error) and over the
shared set (labels both can output).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Training"))
from inkrec_training.metrics import edit_distance  # noqa: E402

BUILD = os.path.join(HERE, ".build")
HELPER_SRC = os.path.join(HERE, "zinnia", "zinnia_batch.c")
HELPER = os.path.join(BUILD, "zinnia_batch")
TEGAKI = "/usr/share/tegaki/models/zinnia"
ZINNIA_MODELS = {  # language tag -> model file of the Debian packages
    "ja": os.path.join(TEGAKI, "handwriting-ja.model"),
    "zh-Hans": os.path.join(TEGAKI, "handwriting-zh_CN.model"),
}
ZINNIA_PACKAGES = ["libzinnia0", "tegaki-zinnia-japanese", "tegaki-zinnia-simplified-chinese"]
INSTALL_HINT = ("apt-get install zinnia-utils libzinnia-dev tegaki-zinnia-japanese "
                "tegaki-zinnia-simplified-chinese  (or scripts/install-deps --zinnia)")
TOPK = 10


def fail(msg: str) -> None:
    print(f"zinnia_compare: {msg}", file=sys.stderr)
    sys.exit(2)


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


# ---------------------------------------------------------------- inks


def read_points(stroke) -> list[tuple[float, float, float | None]]:
    if isinstance(stroke, dict):
        stroke = stroke.get("points", [])
    pts = []
    for p in stroke:
        if isinstance(p, dict):
            pts.append((float(p["x"]), float(p["y"]), p.get("t")))
        else:
            pts.append((float(p[0]), float(p[1]), p[2] if len(p) > 2 else None))
    return pts


def read_inks(path: str) -> list[dict]:
    """The inks of a JSON Lines file: label, id and strokes (lists of (x, y, t)); blank lines skipped."""
    inks = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            o = json.loads(line)
            if "strokes" not in o:
                fail(f"{path}:{n}: no \"strokes\"")
            if not isinstance(o.get("label"), str):
                fail(f"{path}:{n}: no \"label\" (the accuracy needs one)")
            strokes = [s for s in (read_points(s) for s in o["strokes"]) if s]
            if not strokes:
                fail(f"{path}:{n}: no points")
            inks.append({"line": n, "id": o.get("id", str(n)), "label": nfc(o["label"]), "strokes": strokes})
    if not inks:
        fail(f"{path}: no inks")
    return inks


def zinnia_sexp(strokes, box: int, margin: float) -> str:
    """The ink's bounding box scaled into a box x box square, aspect kept, centred, y down."""
    a = np.array([(x, y) for s in strokes for x, y, _ in s], dtype=np.float64)
    lo, hi = a.min(0), a.max(0)
    size = (hi - lo).max()
    inner = box * (1.0 - 2.0 * margin)
    scale = inner / size if size > 0 else 1.0
    offset = (box - (hi - lo) * scale) / 2.0 - lo * scale
    parts = []
    for s in strokes:
        p = np.rint(np.array([(x, y) for x, y, _ in s]) * scale + offset).astype(int).clip(0, box - 1)
        parts.append("(" + "".join(f"({x} {y})" for x, y in p) + ")")
    return f"(character (width {box})(height {box})(strokes {''.join(parts)}))"


def ink_json(ink: dict) -> str:
    """One batch line for inkrec: the points as given (t kept when present)."""
    def pt(p):
        return [p[0], p[1]] if p[2] is None else [p[0], p[1], p[2]]
    return json.dumps({"id": str(ink["id"]), "strokes": [[pt(p) for p in s] for s in ink["strokes"]]},
                      ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------- running and timing


def pinned(cmd: list[str], cpu: str) -> list[str]:
    return (["taskset", "-c", cpu] + cmd) if cpu else cmd


def run_env() -> dict:
    env = dict(os.environ)
    env.update(OPENBLAS_NUM_THREADS="1", DIGITALINK_BLAS_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def timed(cmd: list[str], stdin_path: str | None = None) -> tuple[float, str]:
    """Wall seconds and standard output of one run; exits on failure."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=run_env())
        wall = time.perf_counter() - t0
    finally:
        if stdin_path:
            stdin.close()
    if r.returncode != 0:
        fail(f"{shlex.join(cmd)} exited with {r.returncode}:\n{r.stderr.decode(errors='replace')[-2000:]}")
    return wall, r.stdout.decode("utf-8")


def time_side(make_cmd, full: str, one: str, n: int, repeats: int) -> dict:
    """Runs `make_cmd(file)` over the 1-ink file and the full file; returns the first full run's
    output and the timings (best of `repeats` after one warm-up)."""
    cmd1, stdin1 = make_cmd(one)
    cmdn, stdinn = make_cmd(full)
    timed(cmd1, stdin1)                                   # warm-up: page cache, dynamic loader
    walls1, wallsn, out = [], [], None
    for _ in range(repeats):                              # interleaved
        walls1.append(timed(cmd1, stdin1)[0])
        w, o = timed(cmdn, stdinn)
        wallsn.append(w)
        out = out if out is not None else o
    w1, wn = min(walls1), min(wallsn)
    per = (wn - w1) / (n - 1) if n > 1 else wn
    return {"output": out, "wall_one_s": w1, "wall_all_s": wn,
            "walls_one_s": walls1, "walls_all_s": wallsn,
            "ms_per_char": 1000 * per, "load_ms": 1000 * (w1 - per), "command": shlex.join(cmdn)}


def build_helper() -> str:
    """Compiles zinnia/zinnia_batch.c into .build/ when it is missing or older than its source."""
    if os.path.exists(HELPER) and os.path.getmtime(HELPER) >= os.path.getmtime(HELPER_SRC):
        return HELPER
    if not os.path.exists("/usr/include/zinnia.h"):
        fail(f"zinnia.h not found: {INSTALL_HINT}")
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        fail("no C compiler (cc) to build zinnia/zinnia_batch.c")
    os.makedirs(BUILD, exist_ok=True)
    cmd = [cc, "-O2", "-o", HELPER, HELPER_SRC, "-lzinnia"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{shlex.join(cmd)} failed:\n{r.stderr}")
    return HELPER


# ---------------------------------------------------------------- the two sides


def run_zinnia(inks: list[dict], model: str, a, tmp: str, tag: str) -> dict:
    helper = build_helper()
    charset = set(nfc(c) for c in subprocess.run([helper, model, "--charset"], check=True, capture_output=True,
                                                 text=True).stdout.split("\n") if c)
    full = os.path.join(tmp, f"{tag}-zinnia.sexp")
    one = os.path.join(tmp, f"{tag}-zinnia-1.sexp")
    lines = [zinnia_sexp(ink["strokes"], a.box, a.margin) for ink in inks]
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(one, "w", encoding="utf-8") as f:
        f.write(lines[0] + "\n")
    t = time_side(lambda path: (pinned([helper, model, str(TOPK)], a.cpu), path), full, one, len(inks), a.repeats)
    rows = t.pop("output").rstrip("\n").split("\n")
    head = rows[0].split("\t")
    if head[0] != "load" or len(rows) != len(inks) + 1:
        fail(f"unexpected output of {helper}: {rows[:2]}")
    preds, classify_us = [], []
    for r in rows[1:]:
        f = r.split("\t")
        if f[0] != "ok":
            preds.append([])
            continue
        classify_us.append(float(f[1]))
        preds.append([nfc(v) for v in f[2::2]])
    t.update(open_ms=float(head[1]) / 1000, classes=int(head[2]), classify_ms=float(np.mean(classify_us)) / 1000,
             model=model, errors=sum(1 for p in preds if not p))
    return {"predictions": preds, "charset": charset, "timing": t}


def inkrec_model_args(a, language: str, model_dir: str | None) -> list[str]:
    return ["--model-directory", model_dir] if model_dir else ["--language", language]


def inkrec_charset(language: str, model_dir: str | None) -> set[str] | None:
    """The labels in the model's config.json, when it is found and lists them; None otherwise."""
    dirs = [model_dir] if model_dir else [os.path.join(d, language) for d in
                                          (os.environ.get("DIGITALINK_MODELS"), os.path.join(ROOT, "Models")) if d]
    for d in dirs:
        try:
            with open(os.path.join(d, "config.json"), encoding="utf-8") as f:
                labels = json.load(f).get("labels")
        except (OSError, ValueError):
            continue
        if isinstance(labels, list) and all(isinstance(x, str) for x in labels):
            return set(nfc(x) for x in labels if x)
        return None
    return None


def run_inkrec(inks: list[dict], language: str, model_dir: str | None, a, tmp: str, tag: str,
               max_results: int = TOPK) -> dict:
    full = os.path.join(tmp, f"{tag}-inkrec.jsonl")
    one = os.path.join(tmp, f"{tag}-inkrec-1.jsonl")
    lines = [ink_json(ink) for ink in inks]
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(one, "w", encoding="utf-8") as f:
        f.write(lines[0] + "\n")
    extra = shlex.split(a.inkrec_args or "")

    def cmd(path):
        return pinned([a.inkrec, "recognize", "--batch", path, *inkrec_model_args(a, language, model_dir),
                       "--max-results", str(max_results), "--format", "json", *extra], a.cpu), None

    t = time_side(cmd, full, one, len(inks), a.repeats)
    by_line = {}
    for r in t.pop("output").splitlines():
        o = json.loads(r)
        by_line[o["line"]] = o
    preds, errors = [], []
    for i in range(len(inks)):
        o = by_line.get(i + 1, {"error": "no answer"})
        if "error" in o:
            errors.append(o["error"])
        preds.append([nfc(c["text"]).strip() for c in o.get("candidates", [])])
    t["errors"] = len(errors)
    if errors:
        t["first_error"] = errors[0]
    return {"predictions": preds, "timing": t}


# ---------------------------------------------------------------- scoring


def accuracy(inks, preds, keep=None) -> dict:
    idx = [i for i, ink in enumerate(inks) if keep is None or keep(ink["label"])]
    n = len(idx)
    top1 = sum(1 for i in idx if preds[i][:1] == [inks[i]["label"]])
    topk = sum(1 for i in idx if inks[i]["label"] in preds[i][:TOPK])
    return {"n": n, "top1": top1 / n if n else None, "top10": topk / n if n else None}


def squash(s: str) -> str:
    return " ".join(s.split())


# ---------------------------------------------------------------- report


def pct(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def machine() -> dict:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    versions = {}
    for p in ZINNIA_PACKAGES:
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", p], capture_output=True, text=True) \
            if shutil.which("dpkg-query") else None
        if r is not None and r.returncode == 0:
            versions[p] = r.stdout
    return {"date": datetime.date.today().isoformat(), "cpu": cpu, "cores": os.cpu_count(),
            "platform": platform.platform(), "packages": versions}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inks", nargs="+", required=True, help="single-character inks (JSON Lines), one file per --language")
    ap.add_argument("--language", nargs="+", required=True,
                    help="language of each --inks file: ja or zh-Hans (the Zinnia model; inkrec's --language)")
    ap.add_argument("--zinnia-model", nargs="+", help="Zinnia model file(s), one per language "
                    f"(default: the Debian package's, {TEGAKI}/handwriting-{{ja,zh_CN}}.model)")
    ap.add_argument("--inkrec", default=os.path.join(ROOT, ".build", "release", "inkrec"),
                    help="the inkrec executable (default .build/release/inkrec)")
    ap.add_argument("--model-directory", nargs="+",
                    help="inkrec model directory, one per language (instead of inkrec --language)")
    ap.add_argument("--inkrec-args", help="more arguments for inkrec recognize, e.g. \"--no-language-model\"")
    ap.add_argument("--lines", nargs="+", help="line inks with labels (JSON Lines), one file per language: "
                    "inkrec's CER (Zinnia reads single characters only); '-' for none")
    ap.add_argument("--json", help="write the results (and each ink's top candidates) here")
    ap.add_argument("--cpu", default="0", help="taskset -c CPU for both sides (default 0; '' not pinned)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each side, the best kept (default 3)")
    ap.add_argument("--box", type=int, default=300, help="Zinnia's square, in its units (default 300)")
    ap.add_argument("--margin", type=float, default=0.05, help="Zinnia's margin, a fraction of --box (default 0.05)")
    ap.add_argument("--no-inkrec", action="store_true", help="Zinnia alone")
    ap.add_argument("--no-zinnia", action="store_true", help="inkrec alone")
    a = ap.parse_args()

    k = len(a.language)
    if len(a.inks) != k:
        fail("give one --inks file per --language")
    for name in ("zinnia_model", "model_directory", "lines"):
        v = getattr(a, name)
        if v is not None and len(v) != k:
            fail(f"give one --{name.replace('_', '-')} per --language")
    if a.cpu and not shutil.which("taskset"):
        fail("taskset not found (util-linux); give --cpu '' to run unpinned")
    if not a.no_inkrec and not os.access(a.inkrec, os.X_OK):
        fail(f"{a.inkrec}: not found; build it with `swift build -c release --product inkrec`")
    if not 0 <= a.margin < 0.5 or a.box < 10 or a.repeats < 1:
        fail("--margin must be in [0, 0.5), --box at least 10, --repeats at least 1")

    info = machine()
    info["load_average_before"] = os.getloadavg()[0]
    results = {"machine": info, "settings": {"box": a.box, "margin": a.margin, "cpu": a.cpu, "repeats": a.repeats,
                                              "inkrec": a.inkrec, "inkrec_args": a.inkrec_args},
               "sets": []}
    rows, line_rows, notes = [], [], []
    with tempfile.TemporaryDirectory(prefix="zinnia-compare-") as tmp:
        for j, (lang, path) in enumerate(zip(a.language, a.inks)):
            tag = f"{j}-{lang}"
            inks = read_inks(path)
            labels = [ink["label"] for ink in inks]
            multi = sum(1 for l in labels if len(l) != 1)
            model_dir = a.model_directory[j] if a.model_directory else None
            zmodel = a.zinnia_model[j] if a.zinnia_model else ZINNIA_MODELS.get(lang)
            entry = {"language": lang, "inks": path, "n": len(inks)}
            if multi:
                notes.append(f"{path}: {multi} labels are not one character (counted, Zinnia cannot output them)")
            zres = ires = None
            if not a.no_zinnia:
                if not zmodel:
                    fail(f"no Debian Zinnia model for {lang}: give --zinnia-model (or --no-zinnia)")
                if not os.path.exists(zmodel):
                    fail(f"{zmodel}: not found: {INSTALL_HINT}")
                zres = run_zinnia(inks, zmodel, a, tmp, tag)
            if not a.no_inkrec:
                ires = run_inkrec(inks, lang, model_dir, a, tmp, tag)
                if ires["timing"]["errors"]:
                    notes.append(f"inkrec {lang}: {ires['timing']['errors']} inks gave an error "
                                 f"(counted wrong), the first: {ires['timing']['first_error']}")
            zset = zres["charset"] if zres else None
            iset = inkrec_charset(lang, model_dir) if ires else None

            def shared(label, zset=zset, iset=iset):
                return (zset is None or label in zset) and (iset is None or all(c in iset for c in label))

            out_z = sum(1 for l in labels if zset is not None and l not in zset)
            out_i = sum(1 for l in labels if iset is not None and not all(c in iset for c in l))
            n_shared = sum(1 for l in labels if shared(l))
            entry.update(outside_zinnia=out_z if zset is not None else None,
                         outside_inkrec=out_i if iset is not None else None, shared=n_shared)
            if iset is None and ires:
                notes.append(f"inkrec {lang}: its labels are unknown here (no config.json with \"labels\" "
                             "found), so the shared set is Zinnia's alone")
            for name, res in (("Zinnia", zres), ("inkrec", ires)):
                if not res:
                    continue
                t = res["timing"]
                acc_all = accuracy(inks, res["predictions"])
                acc_shared = accuracy(inks, res["predictions"], shared)
                side = {"accuracy": acc_all, "accuracy_shared": acc_shared,
                        **{k2: v for k2, v in t.items()}}
                entry[name.lower()] = side
                rows.append((name, lang, acc_all, acc_shared, t))
            entry["per_ink"] = [
                {"id": ink["id"], "label": ink["label"],
                 **({"zinnia": zres["predictions"][i][:3]} if zres else {}),
                 **({"inkrec": ires["predictions"][i][:3]} if ires else {})} for i, ink in enumerate(inks)]
            if a.lines and a.lines[j] != "-" and not a.no_inkrec:
                links = read_inks(a.lines[j])
                lres = run_inkrec(links, lang, model_dir, a, tmp, tag + "-lines", max_results=1)
                errs = chars = exact = 0
                for ink, p in zip(links, lres["predictions"]):
                    ref, hyp = squash(ink["label"]), squash(p[0] if p else "")
                    errs += edit_distance(ref, hyp)
                    chars += len(ref)
                    exact += ref == hyp
                t = lres["timing"]
                lentry = {"lines": a.lines[j], "n": len(links), "characters": chars, "cer": errs / max(chars, 1),
                          "line_accuracy": exact / len(links), "ms_per_line": t["ms_per_char"],
                          "ms_per_character": t["ms_per_char"] * len(links) / max(chars, 1),
                          "load_ms": t["load_ms"], "command": t["command"], "errors": t["errors"],
                          "per_line": [{"id": ink["id"], "label": ink["label"], "inkrec": p[:1]}
                                       for ink, p in zip(links, lres["predictions"])]}
                entry["lines"] = lentry
                line_rows.append((lang, lentry))
            results["sets"].append(entry)
    info["load_average_after"] = os.getloadavg()[0]

    # The table.
    pin = f"`taskset -c {a.cpu}`" if a.cpu else "not pinned"
    print(f"Single characters, {info['date']}, {info['cpu']} ({info['cores']} cores), {pin}, one BLAS thread; "
          f"best of {a.repeats} runs; load average {info['load_average_before']:.2f} before, "
          f"{info['load_average_after']:.2f} after.")
    print()
    print("| recognizer | language | N | top-1 | top-10 | shared set | top-1 (shared) | top-10 (shared) "
          "| ms / char | load ms |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, lang, acc, accs, t in rows:
        print(f"| {name} | {lang} | {acc['n']} | {pct(acc['top1'])} | {pct(acc['top10'])} | {accs['n']} "
              f"| {pct(accs['top1'])} | {pct(accs['top10'])} | {t['ms_per_char']:.2f} | {t['load_ms']:.1f} |")
    print()
    for e in results["sets"]:
        bits = [f"{e['n']} inks"]
        if e["outside_zinnia"] is not None:
            bits.append(f"{e['outside_zinnia']} with a label outside Zinnia's model")
        if e["outside_inkrec"] is not None:
            bits.append(f"{e['outside_inkrec']} outside inkrec's labels")
        bits.append(f"{e['shared']} in the shared set")
        print(f"- {e['language']} (`{e['inks']}`): " + ", ".join(bits) + ".")
        if "zinnia" in e:
            z = e["zinnia"]
            print(f"  Zinnia: `{z['model']}` ({z['classes']} classes); its own clock: open {z['open_ms']:.1f} ms, "
                  f"classify {z['classify_ms']:.2f} ms per character (mean); box {a.box}, margin {a.margin}.")
        if "inkrec" in e:
            print(f"  inkrec: `{e['inkrec']['command']}`.")
    for n in notes:
        print(f"- {n}")
    print("- ms / char: (wall of all N - wall of 1 ink) / (N - 1), one process each; load ms: wall of 1 ink - "
          "ms / char (process start and model load).")
    if line_rows:
        print()
        print("Lines (Zinnia reads one character at a time and cannot read a line: inkrec alone):")
        print()
        print("| recognizer | language | lines | characters | CER | lines exact | ms / line | ms / char | load ms |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for lang, l in line_rows:
            print(f"| inkrec | {lang} | {l['n']} | {l['characters']} | {pct(l['cer'])} | {pct(l['line_accuracy'])} "
                  f"| {l['ms_per_line']:.2f} | {l['ms_per_character']:.2f} | {l['load_ms']:.1f} |")
            print(f"| Zinnia | {lang} | — | — | n/a: single characters only | | | | |")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(results, f, ensure_ascii=False, indent=1)
        print(f"\nwrote {a.json}")


if __name__ == "__main__":
    main()
