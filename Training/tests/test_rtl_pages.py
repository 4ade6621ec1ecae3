"""Right-to-left pages (inkrec_training/pages.py ``direction="rtl"``) and pages of generated Hebrew lines
(inkrec_training/families/pages/scripts.py, ``pages data --language``).

The layout tests use synthetic lines (no data); the generated-Hebrew tests need wordfreq (the words of the
language) and skip without it. Left-to-right pages must stay as they were: a small page set's hash is
pinned from the generator before right to left existed.
"""
from __future__ import annotations

import hashlib
import json
import random
import stat

import numpy as np
import pytest

from inkrec_training import pages
from inkrec_training.families.pages import evaluate as evaluate_pages
from inkrec_training.families.pages import make as make_pages_cli
from inkrec_training.families.pages import scripts

from .test_pages import FAKE_INKREC, LABELS, _synthetic_line

# sha256 of json.dumps(pages.make_pages(<test_pages' synthetic pool>, 7, 4, max_lines=4)), computed with the
# generator before it had a direction: left-to-right pages (and the fixtures made from them) are unchanged.
LTR_PAGES_SHA256 = "ff98e6d9f0477f8d399bc3908ec6a59d9b6195913e445ca3f10382814650a791"


def _pool():
    return {w: [_synthetic_line(lab, f"{w}#{k}", w) for k, lab in enumerate(LABELS)] for w in ("s:a", "s:b")}


def _mirrored(line: pages.Line) -> pages.Line:
    """The synthetic line written right to left: the first word rightmost, strokes in the same order."""
    return pages.Line(line.id, line.writer, line.label, [s * np.array([-1.0, 1.0]) for s in line.strokes])


def _word_strokes(label: str) -> list[list[int]]:
    """The stroke indices of each word of a ``_synthetic_line`` (letters, then an i's dot or a t's cross)."""
    out, n = [], 0
    for word in label.split():
        k = sum(1 + (ch in "it") for ch in word)
        out.append(list(range(n, n + k)))
        n += k
    return out


class Midpoint:
    """A stand-in for random.Random in ``layout``: no rotation, no jitter, every indent half a line height."""

    def uniform(self, a, b):
        return 0.5 * (a + b)

    def random(self):
        return 0.5

    def gauss(self, mu, sigma):
        return mu


def _extents(placed):
    """Each placed line's (min x, max x)."""
    return [(float(np.concatenate(line)[:, 0].min()), float(np.concatenate(line)[:, 0].max())) for line in placed]


# ---------------------------------------------------------------------------------------------
# Layout


def test_ltr_pages_unchanged():
    made = pages.make_pages(_pool(), 7, 4, max_lines=4)
    assert hashlib.sha256(json.dumps(made).encode()).hexdigest() == LTR_PAGES_SHA256
    assert all("direction" not in p for p in made)


def test_rtl_layout_right_aligns_exactly_without_jitter():
    lines = [_mirrored(l) for l in _pool()["s:a"][:5]]
    rtl = _extents(pages.layout(lines, Midpoint(), "rtl")[0])
    ltr = _extents(pages.layout(lines, Midpoint(), "ltr")[0])
    assert np.ptp([hi for _, hi in rtl]) < 1e-6, "right ends aligned"
    assert np.ptp([lo for lo, _ in rtl]) > 100, "left ends ragged"
    assert np.ptp([lo for lo, _ in ltr]) < 1e-6 and np.ptp([hi for _, hi in ltr]) > 100
    # the same lines, the same rows: only the alignment changes
    assert [hi - lo for lo, hi in rtl] == pytest.approx([hi - lo for lo, hi in ltr])


def test_rtl_layout_right_aligns_and_draws_the_same_numbers():
    lines = [_mirrored(l) for l in _pool()["s:b"][:6]]
    ragged_left = 0
    for seed in range(30):
        a, b = random.Random(seed), random.Random(seed)
        placed, heights = pages.layout(lines, a, "rtl")
        ltr_placed, ltr_heights = pages.layout(lines, b, "ltr")
        assert a.getstate() == b.getstate() and heights == ltr_heights
        ext = _extents(placed)
        h = float(np.median(heights))
        # right ends within the indents (≤ 4 line heights for a big first indent, else 1) and the page's
        # ±4° turn; left ends as ragged as the lines' lengths
        right = [hi for _, hi in ext]
        assert np.ptp(right[1:]) < 1.0 * h + 0.08 * 6 * 1.6 * h
        ragged_left += np.ptp([lo for lo, _ in ext]) > np.ptp(right[1:])
        # rows top to bottom, every point on the page
        assert np.concatenate([p for line in placed for p in line]).min() >= 0
        centres = [pages.line_centre_y(line) for line in placed]
        assert centres == sorted(centres)
    assert ragged_left >= 27


def test_rtl_inserted_word_names_the_moved_word():
    for label in ("this is it", "a quiet tide", "mist in time", "little bits"):
        line = _mirrored(_synthetic_line(label, "x#0", "x"))
        truth = _word_strokes(label)
        groups = pages.word_groups(line.strokes, len(line.words))
        assert groups == truth[::-1], "groups left to right: the last word first"
        assert pages.words_of_groups(groups, line.words, "rtl") == line.words[::-1]
        h = pages.line_height(line.strokes)
        seen = set()
        for seed in range(20):
            order, li, moved, word = pages._variant_order("inserted-word", [line], [h], random.Random(seed), "rtl")
            k = line.words.index(word)
            assert sorted(si for _, si in moved) == truth[k], (label, word)
            seen.add(word)
        assert len(seen) == len(line.words) - 1  # any word but the last (moving it changes nothing)


def test_rtl_wrap_cuts_in_word_order():
    line = _mirrored(_synthetic_line("a quiet tide in time", "x#0", "x"))
    parts = pages.wrap([line], random.Random(3), "rtl")
    assert parts and len(parts) == 2
    assert f"{parts[0].label} {parts[1].label}" == line.label
    first, second = (np.concatenate(p.strokes)[:, 0] for p in parts)
    assert first.min() > second.max(), "the first words are the rightmost"


def test_rtl_pages_cover_and_record_direction():
    pool = {w: [_mirrored(l) for l in ls] for w, ls in _pool().items()}
    made = pages.make_pages(pool, 5, 12, min_lines=3, max_lines=6, direction="rtl")
    for p in made:
        assert p["direction"] == "rtl" and 3 <= len(p["lines"]) <= 6
        assert sorted(i for line in p["lines"] for i in line["strokes"]) == list(range(len(p["strokes"])))
        if p["variant"] == "inserted-word":
            assert p["moved"]["word"] in p["lines"][p["moved"]["line"]]["text"].split()
    with pytest.raises(ValueError):
        pages.make_page(pool, 1, "plain", "x", direction="down")


# ---------------------------------------------------------------------------------------------
# Generated Hebrew


@pytest.fixture(scope="module")
def hebrew():
    pytest.importorskip("wordfreq", reason="generated Hebrew lines need wordfreq (pip install wordfreq)")
    from inkrec_training.writing.training import ScriptSources
    return ScriptSources(["he"], heldout=True, writer_ids=scripts.WRITER_IDS["held-out"])


def test_line_with_a_given_style_is_the_line_of_that_writer(hebrew):
    from inkrec_training.writing import writer
    a = hebrew.line(random.Random(5), "he", max_words=5)
    rng = random.Random(5)
    style = writer.heldout_writer(rng.randrange(*scripts.WRITER_IDS["held-out"]))  # what line() would draw
    b = hebrew.line(rng, "he", max_words=5, style=style)
    assert a[1] == b[1] and len(a[0]) == len(b[0])
    assert all(np.array_equal(x, y) for x, y in zip(a[0], b[0]))


def test_generated_hebrew_pages(hebrew):
    pool = scripts.generated_pool("he", seed=1, writers=3, lines_per_writer=8, source=hebrew)
    assert scripts.direction("he") == "rtl" and scripts.direction("ru") == "ltr"
    assert len(pool) == 3 and all(len(ls) == 8 for ls in pool.values())
    for w, ls in pool.items():
        assert w.startswith("he:w") and 0 <= int(w[4:]) < 100_000  # reported held-out writer ids
        for line in ls:
            assert line.writer == w and 2 <= len(line.words) <= 5
            assert any("\u05d0" <= c <= "\u05ea" for c in line.label)
            assert line.mark_height == scripts.MARK_HEIGHT * 100
    made = pages.make_pages(pool, 1, 8, min_lines=3, max_lines=6, direction="rtl")
    assert [p["variant"] for p in made[:4]] == list(pages.VARIANTS)
    for p in made:
        assert 3 <= len(p["lines"]) <= 6 and p["direction"] == "rtl"
        assert sorted(i for line in p["lines"] for i in line["strokes"]) == list(range(len(p["strokes"])))
        assert all(line["strokes"] == sorted(line["strokes"]) for line in p["lines"])
        assert all(line["source"].startswith(p["writer"] + "#") for line in p["lines"])
        ext = [(min(p["strokes"][i][k][0] for i in line["strokes"] for k in range(len(p["strokes"][i]))),
                max(p["strokes"][i][k][0] for i in line["strokes"] for k in range(len(p["strokes"][i]))))
               for line in p["lines"]]
        # right-aligned: the right ends closer together than the left ends (a big first indent aside)
        assert np.ptp([hi for _, hi in ext[1:]]) <= np.ptp([lo for lo, _ in ext[1:]]) + 1


def test_language_commands(hebrew, tmp_path):
    out = tmp_path / "he.jsonl"
    make_pages_cli.main(["--language", "he", "--pages", "4", "--pool-writers", "3", "--lines-per-writer", "7",
                         "--out", str(out)])
    made = pages.read_jsonl(str(out))
    assert len(made) == 4 and all(3 <= len(p["lines"]) <= 6 and p["direction"] == "rtl" for p in made)
    fake = tmp_path / "inkrec"
    fake.write_text(FAKE_INKREC)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    out_json = tmp_path / "eval.json"
    summary = evaluate_pages.main(["--language", "he", "--pages", "4", "--pool-writers", "3", "--lines-per-writer", "7",
                                   "--inkrec", str(fake), "--json", str(out_json)])
    assert summary["plain"]["line_count_right"] == 1.0 and summary["plain"]["page_cer"] == 0.0
    settings = json.loads(out_json.read_text())["settings"]
    assert settings["model_directory"].endswith("Models/he") and settings["min_lines"] == 3 and settings["max_lines"] == 6
    # the same seed and sizes: the same pages as `pages data`
    records = json.loads(out_json.read_text())["records"]
    assert [r["reference"] for r in records] == [" ".join(l["text"] for l in p["lines"]) for p in made]
