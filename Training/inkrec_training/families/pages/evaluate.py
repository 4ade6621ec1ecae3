#!/usr/bin/env python3
"""Evaluate page recognition (`inkrec recognize --page`) on generated pages of held-out writers.

    swift build -c release --product inkrec
    python3 -m inkrec_training pages evaluate --pages 300 --json Training/work/pages-eval.json
    python3 -m inkrec_training pages evaluate --language he --model-directory Models/he --pages 200

Pages come from `pages data`'s generator (UNIPEN train_r01_v07 free-text lines of validation
writers only; CC BY 4.0, International Unipen Foundation), or with `--language` from generated lines of
that language (held-out writers of the writer model, ids 0–99,999; right to left for Hebrew and Arabic,
pages of 3–6 lines: `pages data --language`), or from a file (`--pages-file`). The
script runs the built CLI twice:

1. the pages: `inkrec recognize --page --batch PAGES.jsonl --format json --model-directory M`, one
   answer a page: `{"id", "line", "text": "line 1\\nline 2", "lines": [{"text", "strokes", "box",
   "candidates"}]}` or `{"id", "line", "error"}`;
2. the same lines one at a time: `inkrec recognize --batch LINES.jsonl --format json --max-results 1`,
   each line's strokes alone (the true split), the baseline a page recognizer should approach.

It reports, overall and per variant: the share of pages whose line count is right, the share whose
strokes were split into lines exactly as written (when the answer has `lines[].strokes`), the page
CER (recognized lines joined with spaces, newlines compared as spaces, against the labels joined
with spaces; edits summed over pages divided by label characters summed), and the CER of the lines
recognized one at a time and joined the same way. Then the worst pages by page CER, for pictures
(`--pictures DIR` writes an SVG of each with the answer's line boxes). A page answered with an error
(or not answered) counts as a wrong line count and an empty text.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import tempfile

from inkrec_training import engine
from inkrec_training.paths import ROOT
from inkrec_training import data, pages
from inkrec_training.metrics import edit_distance  # noqa: E402
from inkrec_training.families.pages import make


# ---------------------------------------------------------------------------------------------
# Files and the CLI


def write_line_inks(page_list: list[dict], path: str) -> list[str]:
    """Every true line of every page as an ink of its own (`{"id": "PAGE#k", "label", "strokes"}`);
    returns the ids in file order."""
    ids = []
    with open(path, "w", encoding="utf-8") as f:
        for p in page_list:
            for k, line in enumerate(p["lines"]):
                line_id = f"{p['id']}#{k}"
                ids.append(line_id)
                f.write(json.dumps({"id": line_id, "label": line["text"],
                                    "strokes": [p["strokes"][i] for i in line["strokes"]]},
                                   ensure_ascii=False, separators=(",", ":")) + "\n")
    return ids


def parse_batch_output(stdout: str, ids: list[str]) -> dict[str, dict]:
    """Batch answers by input id. An answer without an id (the input line could not be read) is
    matched by its 1-based `line` number; lines that are not JSON are skipped."""
    out: dict[str, dict] = {}
    for row in stdout.splitlines():
        row = row.strip()
        if not row.startswith("{"):
            continue
        try:
            d = json.loads(row)
        except json.JSONDecodeError:
            continue
        key = d.get("id")
        if key is None and isinstance(d.get("line"), int) and 1 <= d["line"] <= len(ids):
            key = ids[d["line"] - 1]
        if key is not None:
            out[str(key)] = d
    return out


def run_cli(cmd: list[str]) -> tuple[str, float]:
    """Runs `cmd`; returns (stdout, seconds); entries that failed keep the others' answers (``engine.run``)."""
    return engine.run(cmd[0], cmd[1:], tolerate_failures=True)


# ---------------------------------------------------------------------------------------------
# Scoring


def as_one_line(text: str) -> str:
    """Newlines compared as spaces: every run of white space becomes one space, ends trimmed."""
    return " ".join(text.split())


def answer_lines(answer: dict) -> list[str]:
    """A page answer's line texts: `lines[].text`, else `text` split at newlines."""
    if isinstance(answer.get("lines"), list):
        return [str(l.get("text", "")) for l in answer["lines"]]
    text = answer.get("text")
    return text.split("\n") if isinstance(text, str) and text else []


def top_candidate(answer: dict) -> str:
    c = answer.get("candidates") or []
    return c[0].get("text", "") if c else ""


def same_split(page: dict, answer: dict):
    """True when the answer's lines hold exactly the true lines' stroke sets (in any order), False
    when not, None when the answer gives no stroke indices."""
    found = answer.get("lines")
    if not isinstance(found, list) or not all(isinstance(l.get("strokes"), list) for l in found):
        return None
    return sorted(sorted(l["strokes"]) for l in found) == sorted(sorted(l["strokes"]) for l in page["lines"])


def score_page(page: dict, answer, line_answers: dict) -> dict:
    """One page's record: line counts, split, and edit counts of the page answer and of the lines
    recognized one at a time, both against the labels joined with spaces."""
    ref = as_one_line(" ".join(l["text"] for l in page["lines"]))
    error = None
    if answer is None:
        error = "no answer"
    elif "error" in answer:
        error = str(answer["error"])
    found = [] if error else answer_lines(answer)
    page_text = as_one_line(" ".join(found))
    one_by_one = as_one_line(" ".join(top_candidate(line_answers.get(f"{page['id']}#{k}", {}))
                                      for k in range(len(page["lines"]))))
    page_edits = edit_distance(page_text, ref)
    line_edits = edit_distance(one_by_one, ref)
    return {
        "id": page["id"], "variant": page.get("variant", "?"), "writer": page.get("writer"),
        "lines_true": len(page["lines"]), "lines_found": len(found),
        "line_count_ok": error is None and len(found) == len(page["lines"]),
        "same_split": None if error else same_split(page, answer),
        "ref_chars": len(ref), "page_edits": page_edits, "line_edits": line_edits,
        "page_cer": page_edits / max(len(ref), 1), "line_cer": line_edits / max(len(ref), 1),
        "page_text": "\n".join(found), "lines_text": one_by_one, "reference": ref, "error": error,
    }


def summarize(records: list[dict]) -> dict:
    """Figures of a group of page records (see the module docstring)."""
    n = len(records)
    chars = sum(r["ref_chars"] for r in records)
    splits = [r["same_split"] for r in records if r["same_split"] is not None]
    return {
        "pages": n,
        "lines": sum(r["lines_true"] for r in records),
        "line_count_right": sum(r["line_count_ok"] for r in records) / n if n else 0.0,
        "split_exact": sum(splits) / len(splits) if splits else None,
        "page_cer": sum(r["page_edits"] for r in records) / max(chars, 1),
        "line_cer": sum(r["line_edits"] for r in records) / max(chars, 1),
        "errors": sum(r["error"] is not None for r in records),
    }


def summaries(records: list[dict]) -> dict:
    """`all` plus one summary per variant (in `pages.VARIANTS` order, then any others)."""
    variants = [v for v in pages.VARIANTS if any(r["variant"] == v for r in records)]
    variants += sorted({r["variant"] for r in records} - set(variants))
    out = {"all": summarize(records)}
    for v in variants:
        out[v] = summarize([r for r in records if r["variant"] == v])
    return out


def writer_counts(records: list[dict]) -> str:
    """`records`' writers with how many of the records each has, most first (ties by name): whether a
    few writers make most of the wrong pages."""
    counts = collections.Counter(r.get("writer") or "?" for r in records)
    return ", ".join(f"{w} {n}" for w, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


def worst_pages(records: list[dict], n: int = 5) -> list[dict]:
    """The `n` pages with the highest page CER (ties: wrong line count first, then by how much worse
    than the one-line-at-a-time baseline)."""
    return sorted(records, key=lambda r: (-r["page_cer"], r["line_count_ok"], -(r["page_cer"] - r["line_cer"]), r["id"]))[:n]


def pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def markdown(summary: dict, worst: list[dict]) -> str:
    rows = ["| pages | n | lines | right line count | exact split | page CER | lines one at a time CER | errors |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, s in summary.items():
        rows.append(f"| {name} | {s['pages']} | {s['lines']} | {pct(s['line_count_right'])} | {pct(s['split_exact'])} "
                    f"| {pct(s['page_cer'])} | {pct(s['line_cer'])} | {s['errors']} |")
    rows += ["", "Worst pages (by page CER):", "",
             "| id | variant | writer | lines (true/found) | page CER | lines CER |",
             "| --- | --- | --- | ---: | ---: | ---: |"]
    for r in worst:
        rows.append(f"| {r['id']} | {r['variant']} | {r['writer']} | {r['lines_true']}/{r['lines_found']} "
                    f"| {pct(r['page_cer'])} | {pct(r['line_cer'])} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=300, help="pages to generate (ignored with --pages-file)")
    ap.add_argument("--seed", type=int, default=1, help="generator seed")
    ap.add_argument("--min-lines", type=int, default=None, help="default 2 (3 with --language)")
    ap.add_argument("--max-lines", type=int, default=None, help="default 8 (6 with --language)")
    ap.add_argument("--pages-file", default=None, help="read pages (pages data output) instead of generating")
    ap.add_argument("--data-dir", default=data.DEFAULT_DATA)
    ap.add_argument("--inkrec", default=engine.DEFAULT_BINARY, help="the built CLI")
    ap.add_argument("--model-directory", default=None, help="default Models/en-US (Models/LANGUAGE with --language)")
    ap.add_argument("--page-args", default="", help="extra arguments for the page run (space-separated)")
    ap.add_argument("--decoder-args", default="", help="extra arguments for both runs (e.g. --beam-width 32)")
    ap.add_argument("--no-line-baseline", action="store_true", help="skip the one-line-at-a-time run")
    ap.add_argument("--layout-only", action="store_true",
                    help="segment only (`inkrec layout --batch`, no model): line counts and exact splits, no CER")
    ap.add_argument("--writers", choices=pages.WRITER_SETS, default="held-out",
                    help="whose lines when generating (training writers: for tuning the segmentation)")
    ap.add_argument("--worst", type=int, default=5, help="how many worst pages to list")
    ap.add_argument("--pictures", default=None, help="write SVGs of the worst pages (with the answer's boxes) here")
    ap.add_argument("--work", default=None, help="keep the page and line files here (default: a temporary folder)")
    ap.add_argument("--json", default=None, help="write the figures and every page's record here")
    make.add_language_arguments(ap)
    args = ap.parse_args(argv)
    make.default_line_counts(args)
    if args.model_directory is None:
        args.model_directory = os.path.join(ROOT, "Models", args.language or "en-US")

    if args.pages_file:
        page_list = pages.read_jsonl(args.pages_file)
    else:
        pool, direction = make.line_pool(args)
        page_list = pages.make_pages(pool, args.seed, args.pages, min_lines=args.min_lines, max_lines=args.max_lines,
                                     direction=direction)
    if not os.path.exists(args.inkrec):
        raise SystemExit(f"no CLI at {args.inkrec}: build it with `swift build -c release --product inkrec`")

    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp
        os.makedirs(work, exist_ok=True)
        pages_path = os.path.join(work, "pages.jsonl")
        lines_path = os.path.join(work, "lines.jsonl")
        pages.write_jsonl(page_list, pages_path)
        line_ids = write_line_inks(page_list, lines_path)

        if args.layout_only:
            out, page_seconds = run_cli([args.inkrec, "layout", "--batch", pages_path])
            page_answers = parse_batch_output(out, [p["id"] for p in page_list])
            records = [score_page(p, page_answers.get(p["id"]), {}) for p in page_list]
            summary = summaries(records)
            for name, s in summary.items():
                print(f"{name:14s} pages {s['pages']:4d}  line count right {pct(s['line_count_right']):>6s}  "
                      f"exact split {pct(s['split_exact']):>6s}  errors {s['errors']}")
            wrong = [r for r in records if not r["line_count_ok"]]
            print(f"too few lines on {sum(r['lines_found'] < r['lines_true'] for r in wrong)} pages, "
                  f"too many on {sum(r['lines_found'] > r['lines_true'] for r in wrong)}")
            print("wrong line count:", " ".join(f"{r['id']}({r['lines_true']}/{r['lines_found']})" for r in wrong[:40]))
            print("wrong line count by writer:", writer_counts(wrong))
            print(f"{len(page_list)} pages segmented in {page_seconds:.2f} s")
            return summary
        base = ["--format", "json", "--model-directory", args.model_directory] + args.decoder_args.split()
        out, page_seconds = run_cli([args.inkrec, "recognize", "--page", "--batch", pages_path] + base + args.page_args.split())
        page_answers = parse_batch_output(out, [p["id"] for p in page_list])
        line_answers, line_seconds = {}, 0.0
        if not args.no_line_baseline:
            out, line_seconds = run_cli([args.inkrec, "recognize", "--batch", lines_path, "--max-results", "1"] + base)
            line_answers = parse_batch_output(out, line_ids)

    records = [score_page(p, page_answers.get(p["id"]), line_answers) for p in page_list]
    summary = summaries(records)
    worst = worst_pages(records, args.worst)
    print(markdown(summary, worst))
    print("wrong line count by writer:", writer_counts([r for r in records if not r["line_count_ok"]]))
    print(f"{len(page_list)} pages in {page_seconds:.1f} s; {len(line_ids)} lines one at a time in {line_seconds:.1f} s")

    if args.pictures:
        os.makedirs(args.pictures, exist_ok=True)
        by_id = {p["id"]: p for p in page_list}
        for r in worst:
            boxes = [l["box"] for l in (page_answers.get(r["id"]) or {}).get("lines", []) if isinstance(l.get("box"), dict)]
            with open(os.path.join(args.pictures, r["id"] + ".svg"), "w") as f:
                f.write(pages.to_svg(by_id[r["id"]], boxes))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"settings": {k: v for k, v in vars(args).items()}, "pages_seconds": page_seconds,
                       "lines_seconds": line_seconds, "summary": summary, "worst": [r["id"] for r in worst],
                       "records": records}, f, indent=1, ensure_ascii=False)
    return summary


if __name__ == "__main__":
    main()
