"""The page generator (inkrec_training/pages.py) and the page evaluation (pages evaluate).

Most tests use a small synthetic line pool (no data needed); the held-out-writer test reads the
checked-in fixture and, when UNIPEN is present, the real pool. The CLI is never needed: the
evaluation runs against a fake `inkrec` written here.
"""
from __future__ import annotations

import json
import os
import stat

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TRAINING = os.path.normpath(os.path.join(HERE, ".."))
ROOT = os.path.normpath(os.path.join(TRAINING, ".."))
from inkrec_training import pages
from inkrec_training.families.pages import evaluate as evaluate_pages
from inkrec_training import splits

FIXTURE = os.path.join(ROOT, "Tests", "DigitalInkTests", "Fixtures", "pages", "pages-small.jsonl")


# ---------------------------------------------------------------------------------------------
# A synthetic pool: letters are zigzag strokes one unit tall (100 tablet units), words are
# separated by wide gaps, every "i" gets a dot and every "t" a cross after its body.


def _letter(x: float, tall: bool) -> np.ndarray:
    top = -1.6 if tall else -1.0
    return np.array([[x, 0.0], [x + 0.2, top], [x + 0.4, 0.0], [x + 0.6, top * 0.5]]) * 100


def _synthetic_line(label: str, line_id: str, writer: str) -> pages.Line:
    strokes, x = [], 0.0
    for word in label.split():
        for ch in word:
            strokes.append(_letter(x, ch in "tlbdh"))
            if ch == "i":
                strokes.append(np.array([[x + 0.3, -1.4], [x + 0.32, -1.42]]) * 100)
            if ch == "t":
                strokes.append(np.array([[x, -1.1], [x + 0.5, -1.12]]) * 100)
            x += 0.8
        x += 1.6  # a word gap, much wider than the letter gaps
    return pages.Line(line_id, writer, label, strokes)


LABELS = ["this is it", "a quiet tide", "time to sit", "bird", "little bits", "dial it", "tin", "ripe fruit",
          "kind hint", "tiny", "mist in time", "bat"]


@pytest.fixture(scope="module")
def pool():
    return {w: [_synthetic_line(lab, f"{w}#{k}", w) for k, lab in enumerate(LABELS)] for w in ("s:a", "s:b")}


def _check_cover(page):
    got = sorted(i for line in page["lines"] for i in line["strokes"])
    assert got == list(range(len(page["strokes"]))), "every stroke in exactly one line"
    for line in page["lines"]:
        assert line["strokes"] == sorted(line["strokes"])


def _contiguous(indices):
    return indices == list(range(indices[0], indices[0] + len(indices)))


# ---------------------------------------------------------------------------------------------
# Generator


def test_deterministic(pool):
    a = pages.make_pages(pool, 7, 8, max_lines=5)
    b = pages.make_pages(pool, 7, 8, max_lines=5)
    assert json.dumps(a) == json.dumps(b)
    assert json.dumps(pages.make_pages(pool, 7, 3, max_lines=5)) == json.dumps(a[:3])  # page i depends on i only
    assert json.dumps(pages.make_pages(pool, 8, 8, max_lines=5)) != json.dumps(a)
    # a page is a function of its recorded seed and variant
    again = pages.make_page(pool, a[5]["seed"], a[5]["variant"], a[5]["id"], max_lines=5)
    assert json.dumps(again) == json.dumps(a[5])


def test_layout_and_cover(pool):
    made = pages.make_pages(pool, 3, 40, min_lines=2, max_lines=8)
    assert [p["variant"] for p in made[:4]] == list(pages.VARIANTS)
    for p in made:
        _check_cover(p)
        assert 2 <= len(p["lines"]) <= 8
        assert len({p["writer"]}) == 1 and all(line["source"].startswith(p["writer"]) for line in p["lines"])
        # lines are top to bottom: their centres go down the page
        centres = [np.median(np.concatenate([np.asarray(p["strokes"][i], float) for i in line["strokes"]])[:, 1])
                   for line in p["lines"]]
        assert centres == sorted(centres)
        allp = np.concatenate([np.asarray(s, float) for s in p["strokes"]])
        assert allp.min() >= 0


def test_plain_is_line_after_line(pool):
    for p in pages.make_pages(pool, 11, 12, variants=("plain",)):
        flat = [i for line in p["lines"] for i in line["strokes"]]
        assert flat == list(range(len(p["strokes"])))
        assert "moved" not in p


def test_inserted_line(pool):
    for p in pages.make_pages(pool, 5, 12, variants=("inserted-line",)):
        _check_cover(p)
        m = p["moved"]["line"]
        assert 0 < m < len(p["lines"]) - 1, "a middle line"
        n = len(p["strokes"])
        moved = p["lines"][m]["strokes"]
        assert moved == list(range(n - len(moved), n)) == p["moved"]["strokes"]
        others = [i for k, line in enumerate(p["lines"]) if k != m for i in line["strokes"]]
        assert others == list(range(n - len(moved)))


def test_inserted_word(pool):
    for p in pages.make_pages(pool, 9, 12, variants=("inserted-word",)):
        _check_cover(p)
        k = p["moved"]["line"]
        moved = p["moved"]["strokes"]
        n = len(p["strokes"])
        assert moved == list(range(n - len(moved), n)), "the word is written last"
        line = p["lines"][k]["strokes"]
        assert set(moved) < set(line)
        rest = [i for i in line if i not in moved]
        assert _contiguous(rest)
        # the synthetic words are exact, so the moved strokes are one whole word of the label
        word = p["moved"]["word"]
        assert word in p["lines"][k]["text"].split()
        xs = lambda ids: np.concatenate([np.asarray(p["strokes"][i], float) for i in ids])[:, 0]  # noqa: E731
        mx, rx = xs(moved), xs(rest)
        assert mx.min() > rx.max() or mx.max() < rx.min() or (
            # a middle word: the rest lies on both sides, none inside the word's span
            not np.any((rx > mx.min()) & (rx < mx.max())))


def test_late_marks(pool):
    for p in pages.make_pages(pool, 13, 12, variants=("late-marks",)):
        _check_cover(p)
        k = p["moved"]["line"]
        line = p["lines"][k]["strokes"]
        moved = p["moved"]["strokes"]
        assert _contiguous(line), "the line's strokes stay together"
        assert moved == line[len(line) - len(moved):], "marks are the line's last strokes"
        assert len(moved) < len(line)
        for i in moved:  # dots and crosses only (rotated at most 6 degrees)
            s = np.asarray(p["strokes"][i], float)
            assert np.ptp(s[:, 1]) < 0.35 * 100 and np.ptp(s[:, 0]) < 0.6 * 100
        for other in range(len(p["lines"])):
            if other != k:
                assert p["lines"][other]["strokes"] == sorted(p["lines"][other]["strokes"])


def test_wrapped(pool):
    """Running text broken across lines: each cut line's two parts follow each other, in writing order,
    and join back into the source label; the existing variants' pages do not change."""
    long_labels = ["this is it then", "a quiet tide in time", "kind hint to sit", "tin bat", "little bits of fruit"]
    wpool = {w: [_synthetic_line(lab, f"{w}#{k}", w) for k, lab in enumerate(long_labels)] for w in ("s:a", "s:b")}
    made = pages.make_pages(wpool, 17, 12, variants=("wrapped",), max_lines=8)
    for p in made:
        _check_cover(p)
        assert 2 <= len(p["lines"]) <= 8
        flat = [i for line in p["lines"] for i in line["strokes"]]
        assert flat == list(range(len(p["strokes"]))), "written line after line"
        sources = [line["source"] for line in p["lines"]]
        cut = [s for s in sources if s.endswith("/1")]
        assert cut, "at least one line is cut"
        labels = {line.id: line.label for ls in wpool.values() for line in ls}
        for k, s in enumerate(sources):
            if s.endswith("/1") and k + 1 < len(sources):
                first, second = p["lines"][k]["text"], p["lines"][k + 1]["text"]
                assert sources[k + 1] == s[:-2] + "/2"
                assert f"{first} {second}" == labels[s[:-2]]
                assert first and second
    # the default variants' sets are as before (wrapped is not in the cycle)
    assert "wrapped" not in pages.VARIANTS
    assert [p["variant"] for p in pages.make_pages(pool, 3, 4)] == list(pages.VARIANTS)


def test_word_groups_and_marks():
    line = _synthetic_line("tidy kit", "x", "w")
    groups = pages.word_groups(line.strokes, 2)
    assert groups is not None and len(groups) == 2
    assert len(groups[0]) == 4 + 2 and len(groups[1]) == 3 + 2  # letters plus the i-dot and t-cross
    h = pages.line_height(line.strokes)
    marks = pages.small_marks(line.strokes, h)
    assert len(marks) == 4  # two dots, two crosses
    assert pages.word_groups(line.strokes, 1) is None


def test_fixture_is_held_out_and_consistent():
    if not os.path.exists(FIXTURE):
        pytest.skip("no pages fixture")
    fixture = pages.read_jsonl(FIXTURE)
    assert 8 <= len(fixture) <= 16
    for v in pages.VARIANTS:
        assert sum(p["variant"] == v for p in fixture) >= 2
    for p in fixture:
        assert splits.is_validation_writer(p["writer"])
        assert 2 <= len(p["lines"]) <= 5
        _check_cover(p)
        assert all(len(pt) == 2 for s in p["strokes"] for pt in s)


@pytest.mark.needs_data("text")
def test_real_pool_held_out_writers_only():
    pool = pages.load_lines()
    assert pool and all(splits.is_validation_writer(w) for w in pool)
    for lines in pool.values():
        for line in lines:
            assert pages.acceptable_label(line.label)
    made = pages.make_pages(pool, 1, 8)
    assert all(splits.is_validation_writer(p["writer"]) for p in made)
    # the fixture's command (Training/README.md) regenerates the fixture: the same pages and truth,
    # points equal within a unit (another libm may round a rotated point the other way)
    if os.path.exists(FIXTURE):
        again = pages.make_pages(pool, 7, 12, max_lines=5, max_points=3000)
        fixture = pages.read_jsonl(FIXTURE)
        assert len(again) == len(fixture)
        for a, b in zip(again, fixture):
            assert {k: v for k, v in a.items() if k != "strokes"} == {k: v for k, v in b.items() if k != "strokes"}
            assert [len(s) for s in a["strokes"]] == [len(s) for s in b["strokes"]]
            diff = np.abs(np.concatenate([np.asarray(s, float) for s in a["strokes"]])
                          - np.concatenate([np.asarray(s, float) for s in b["strokes"]]))
            assert diff.max() <= 1.0


# ---------------------------------------------------------------------------------------------
# Metrics on hand-made answers


def _page(pid, variant, texts, strokes_per_line=2):
    lines, n = [], 0
    for t in texts:
        lines.append({"text": t, "strokes": list(range(n, n + strokes_per_line))})
        n += strokes_per_line
    return {"id": pid, "variant": variant, "writer": "w", "strokes": [[[0, 0], [1, 1]]] * n, "lines": lines}


def test_scoring_hand_made():
    p = _page("a", "plain", ["hello there", "big world"])
    lines_ok = {"a#0": {"candidates": [{"text": "hello there"}]}, "a#1": {"candidates": [{"text": "big word"}]}}
    # perfect page answer, with the true split
    ans = {"id": "a", "text": "hello there\nbig world",
           "lines": [{"text": "hello there", "strokes": [0, 1]}, {"text": "big world", "strokes": [2, 3]}]}
    r = evaluate_pages.score_page(p, ans, lines_ok)
    assert r["line_count_ok"] and r["same_split"] is True
    assert r["page_edits"] == 0 and r["line_edits"] == 1 and r["ref_chars"] == len("hello there big world")
    # one line found instead of two: newline vs space does not matter, the count does
    ans = {"id": "a", "text": "hello there big world",
           "lines": [{"text": "hello there big world", "strokes": [0, 1, 2, 3]}]}
    r = evaluate_pages.score_page(p, ans, lines_ok)
    assert not r["line_count_ok"] and r["same_split"] is False and r["page_edits"] == 0
    # text only (no lines array): lines come from the newlines; split unknown
    r = evaluate_pages.score_page(p, {"id": "a", "text": "hello there\nbig  world\n"}, lines_ok)
    assert r["line_count_ok"] is False and r["lines_found"] == 3 and r["same_split"] is None
    assert r["page_edits"] == 0  # white space runs and a trailing newline compare as one space / nothing
    # an error or a missing answer: empty text, wrong count
    for bad in ({"id": "a", "line": 1, "error": "boom"}, None):
        r = evaluate_pages.score_page(p, bad, {})
        assert not r["line_count_ok"] and r["error"] and r["page_edits"] == r["ref_chars"] == r["line_edits"]
    # lines split the same strokes in another order still count as the same split
    ans = {"lines": [{"text": "big world", "strokes": [3, 2]}, {"text": "hello there", "strokes": [1, 0]}]}
    assert evaluate_pages.score_page(p, ans, {})["same_split"] is True


def test_summaries_and_worst():
    recs = [
        {"id": "x", "variant": "plain", "writer": "w", "lines_true": 2, "lines_found": 2, "line_count_ok": True, "same_split": True,
         "ref_chars": 10, "page_edits": 1, "line_edits": 2, "page_cer": 0.1, "line_cer": 0.2, "error": None},
        {"id": "y", "variant": "late-marks", "writer": "w", "lines_true": 3, "lines_found": 0, "line_count_ok": False, "same_split": None,
         "ref_chars": 30, "page_edits": 15, "line_edits": 3, "page_cer": 0.5, "line_cer": 0.1, "error": "e"},
    ]
    s = evaluate_pages.summaries(recs)
    assert list(s) == ["all", "plain", "late-marks"]
    assert s["all"]["pages"] == 2 and s["all"]["lines"] == 5 and s["all"]["line_count_right"] == 0.5
    assert s["all"]["page_cer"] == pytest.approx(16 / 40) and s["all"]["line_cer"] == pytest.approx(5 / 40)
    assert s["all"]["split_exact"] == 1.0 and s["late-marks"]["split_exact"] is None and s["all"]["errors"] == 1
    assert [r["id"] for r in evaluate_pages.worst_pages(recs, 1)] == ["y"]
    md = evaluate_pages.markdown(s, evaluate_pages.worst_pages(recs, 2))
    assert "| all | 2 | 5 | 50.0% | 100.0% | 40.0% | 12.5% | 1 |" in md
    assert evaluate_pages.writer_counts([]) == "none"
    assert evaluate_pages.writer_counts([{"writer": "b"}, {"writer": "a"}, {"writer": "b"}, {}]) == "b 2, ? 1, a 1"


def test_parse_batch_output():
    out = "\n".join([
        json.dumps({"id": "p1", "line": 1, "text": "a"}),
        "not json",
        json.dumps({"line": 2, "error": "unreadable"}),  # no id: matched by line number
        "",
    ])
    got = evaluate_pages.parse_batch_output(out, ["p1", "p2"])
    assert got["p1"]["text"] == "a" and got["p2"]["error"] == "unreadable"


FAKE_INKREC = r'''#!/usr/bin/env python3
"""A stand-in for `inkrec recognize`: answers pages from their own truth, except that it merges
the first two lines of every inserted-line page and fails on late-marks pages; answers lines with
their label, dropping the last character of every third line."""
import json, sys
args = sys.argv[1:]
path = args[args.index("--batch") + 1]
for n, row in enumerate(open(path, encoding="utf-8"), 1):
    d = json.loads(row)
    if "--page" in args:
        lines = [{"text": l["text"], "strokes": l["strokes"], "box": {"x": 0, "y": 0, "width": 1, "height": 1},
                  "candidates": [{"text": l["text"], "score": -1.0}]} for l in d["lines"]]
        if d["variant"] == "late-marks":
            print(json.dumps({"id": d["id"], "line": n, "error": "fake failure"}))
            continue
        if d["variant"] == "inserted-line":
            a, b = lines[0], lines[1]
            lines[:2] = [{"text": a["text"] + " " + b["text"], "strokes": a["strokes"] + b["strokes"], "candidates": []}]
        print(json.dumps({"id": d["id"], "line": n, "text": "\n".join(l["text"] for l in lines), "lines": lines}))
    else:
        text = d["label"][:-1] if n % 3 == 0 else d["label"]
        print(json.dumps({"id": d["id"], "line": n, "candidates": [{"text": text, "score": -1.0}]}))
'''


def test_evaluate_with_fake_cli(pool, tmp_path):
    fake = tmp_path / "inkrec"
    fake.write_text(FAKE_INKREC)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    made = pages.make_pages(pool, 21, 8, max_lines=4)
    pages_file = tmp_path / "pages.jsonl"
    pages.write_jsonl(made, str(pages_file))
    out_json = tmp_path / "eval.json"
    summary = evaluate_pages.main(["--pages-file", str(pages_file), "--inkrec", str(fake), "--json", str(out_json),
                                   "--pictures", str(tmp_path / "svg"), "--work", str(tmp_path / "work")])
    assert summary["all"]["pages"] == 8
    assert summary["plain"]["line_count_right"] == 1.0 and summary["plain"]["page_cer"] == 0.0
    assert summary["plain"]["split_exact"] == 1.0
    assert summary["inserted-line"]["line_count_right"] == 0.0 and summary["inserted-line"]["page_cer"] == 0.0
    assert summary["late-marks"]["errors"] == 2 and summary["late-marks"]["page_cer"] == 1.0
    assert 0 < summary["all"]["line_cer"] < 0.2
    saved = json.loads(out_json.read_text())
    assert saved["summary"]["all"]["pages"] == 8 and len(saved["records"]) == 8
    assert set(saved["worst"]) >= {p["id"] for p in made if p["variant"] == "late-marks"}
    assert len(list((tmp_path / "svg").iterdir())) == 5
