"""Numbers and Latin words inside generated right-to-left lines (``ScriptSources.line(embedded=)``): written
left to right where they stand, in the text in logical order; lines without one are as they were."""
import random

import numpy as np

from inkrec_training.families.scripts import evaluate
from inkrec_training.writing import training
from inkrec_training.writing.training import ScriptSources


def _mixed(lang: str, seed: int):
    src = ScriptSources([lang], heldout=True)
    rng = random.Random(seed)
    for _ in range(10):
        got = src.line(rng, lang, embedded=1.0, keep_time=True)
        if got is not None:
            return src, got
    raise AssertionError("no line")


def test_a_right_to_left_line_holds_one_token_written_left_to_right_in_its_place():
    for lang in ("ar", "he"):
        for seed in range(6):
            src, (strokes, label) = _mixed(lang, seed)
            words = label.rstrip(".,").split(" ")
            ascii_words = [w for w in words if w.isascii()]
            assert len(ascii_words) == 1, label
            # time order is text order: each word's strokes after the previous word's
            starts = [float(s[0, 2]) for s in strokes]
            assert starts == sorted(starts)
    # the token's own strokes run left to right, and it stands left of the word before it in the text
    rng = random.Random(3)
    src = ScriptSources(["he"], heldout=True)
    style = src._style(rng)
    ink = training.write_embedded("2024", style, rng, 100.0)
    firsts = [float(s[:, 0].min()) for s in ink]
    assert firsts[0] < firsts[-1]  # the 2 is written before the 4, to its left
    ys = np.concatenate(ink)[:, 1]
    assert abs(float(ys.max())) < 1e-6 and abs(float(ys.min()) + 100.0) < 1e-6  # on the baseline, 100 high


def test_the_token_sits_between_its_neighbours_right_to_left(monkeypatch):
    src = ScriptSources(["ar"], heldout=True)
    src.tall_height()  # measured once, before the counting starts
    counts = []  # strokes of each written word and of the token, in writing order
    write, embedded = src._write, training.write_embedded

    def counting_write(*a, **k):
        got = write(*a, **k)
        if got is not None:
            counts.append(len(got))
        return got

    def counting_embedded(*a, **k):
        got = embedded(*a, **k)
        counts.append(len(got))
        return got
    monkeypatch.setattr(src, "_write", counting_write)
    monkeypatch.setattr(training, "write_embedded", counting_embedded)
    checked = 0
    for seed in range(8):
        counts.clear()
        got = src.line(random.Random(seed), "ar", embedded=1.0, keep_time=True)
        if got is None:
            continue
        strokes, label = got
        words = label.rstrip(".,").split(" ")
        assert len(counts) == len(words)
        k = next(i for i, w in enumerate(words) if w.isascii())
        cuts = np.cumsum([0] + counts)
        groups = [strokes[a:b] for a, b in zip(cuts, cuts[1:])]
        lefts = [float(np.concatenate(g)[:, 0].min()) for g in groups]
        rights = [float(np.concatenate(g)[:, 0].max()) for g in groups]
        # right to left: each word (the token included, in its place k) wholly left of the one before it
        assert all(rights[i + 1] < lefts[i] for i in range(len(groups) - 1)), label
        token = groups[k]
        assert float(token[0][:, 0].min()) < float(token[-1][:, 0].max())  # written left to right inside
        checked += 1
    assert checked >= 5


def test_no_token_without_a_share_and_none_in_left_to_right_scripts():
    src = ScriptSources(["he"], heldout=True)
    rng = random.Random(1)
    for _ in range(20):
        got = src.line(rng, "he")
        assert got is None or not any(w.isascii() for w in got[1].rstrip(".,").split(" "))
    hi = ScriptSources(["hi"], heldout=True)
    rng = random.Random(1)
    for _ in range(10):
        got = hi.line(rng, "hi", embedded=1.0)
        assert got is None or not any(w.isascii() and w.strip(".,") for w in got[1].split(" "))


def test_embedded_tokens_are_numbers_or_latin_words_the_latin_set_writes():
    rng = random.Random(5)
    tokens = [training.embedded_token(rng) for _ in range(300)]
    assert all(t.isascii() and t for t in tokens)
    assert 0.55 < sum(t[0].isdigit() for t in tokens) / len(tokens) < 0.85
    assert not any(c in "gjpqy" for t in tokens for c in t)  # nothing below the baseline: the height is matched


def test_embedded_read_counts_the_token_in_its_place():
    from inkrec_training import data
    items = [data.Item("a", "", "שלום 2024 עולם", [], "line"), data.Item("b", "", "OK מה", [], "line"),
             data.Item("c", "", "אחד 36 שתיים", [], "line")]
    hyps = {"a": "שלום 2024 עולם", "b": "מה OK", "c": "אחד 36, שתיים"}
    assert evaluate.embedded_read(items, hyps) == 2 / 3
    # a line without one (its writer's font could not write it) is not counted, and does not stop the count
    items.append(data.Item("d", "", "שלום עולם", [], "line"))
    assert evaluate.embedded_read(items, hyps) == 2 / 3
