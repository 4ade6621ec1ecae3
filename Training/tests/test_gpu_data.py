"""What travels to a lent GPU machine reads as what stays here: packed UNIPEN files (``inkpack``) load as the
same items as the JSON Lines files, saved wordfreq lists answer as wordfreq does, and saved letter boxes
come back equal; ``gpu_run``'s deadline and replay keep their promises."""
import gzip
import json
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
from inkrec_training import align, charset, data, gpu_run, inkpack, wordlists

RECORDS = [
    {"id": "a#0", "writer": "w1", "label": "arc", "quality": "OK", "pps": 200.0,
     "strokes": [[[1499, 7, 0], [1498, 5, 5], [1490, -3, 10]], [], [[-20000, 40000, 15]]]},
    {"id": "a#1", "writer": "w1", "label": " two  words ", "quality": "GOOD",
     "strokes": [[[0, 0, 0], [3, 4, 5]], [[10, 10, 20], [11, 12, 25], [13, 9, 30]]]},
    {"id": "a#2", "writer": "w2", "label": "bad", "quality": "BAD", "strokes": [[[5, 5, 0], [6, 6, 1]]]},
    {"id": "a#3", "writer": "w2", "label": "naïve", "strokes": [[[7, 7, 0]]]},  # no quality field
    {"id": "a#4", "writer": "w3", "label": "", "quality": "OK", "strokes": [[[1, 2, 3]]]},
    {"id": "a#5", "writer": "w3", "label": "empty", "quality": "OK", "strokes": [[], []]},
]


def write_jsonl(folder, kind, records):
    os.makedirs(os.path.join(folder, "unipen"), exist_ok=True)
    with gzip.open(os.path.join(folder, "unipen", f"{kind}.jsonl.gz"), "wt", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def test_a_pack_reads_back_every_record_without_timestamps_and_empty_strokes(tmp_path):
    path = str(tmp_path / "words.inkpack.xz")
    assert inkpack.write(path, RECORDS) == len(RECORDS)
    back = list(inkpack.read(path))
    assert [(r["id"], r["writer"], r["label"], r["quality"]) for r in back] == \
        [(r["id"], r["writer"], r["label"], r.get("quality")) for r in RECORDS]
    for r, b in zip(RECORDS, back):
        want = [np.asarray(s)[:, :2] for s in r["strokes"] if s]
        assert len(b["strokes"]) == len(want)
        for s, w in zip(b["strokes"], want):
            assert s.dtype == np.int64 and np.array_equal(s, w)


def test_a_pack_refuses_coordinates_that_are_not_integers(tmp_path):
    with pytest.raises(ValueError, match="not integers"):
        inkpack.write(str(tmp_path / "x.inkpack.xz"), [{"id": "f", "writer": "w", "label": "x",
                                                         "strokes": [[[0.5, 1.0, 0]]]}])


def test_a_damaged_pack_is_an_error_not_wrong_ink(tmp_path):
    import lzma
    path = str(tmp_path / "words.inkpack.xz")
    inkpack.write(path, RECORDS)
    with lzma.open(path) as f:
        blob = f.read()
    with lzma.open(path, "wb") as f:
        f.write(blob[:-4])  # one coordinate short
    with pytest.raises(ValueError, match="coordinates for"):
        list(inkpack.read(path))
    with lzma.open(path, "wb") as f:
        f.write(b"INKPACK0" + blob[8:])
    with pytest.raises(ValueError, match="not an INKPACK1 file"):
        list(inkpack.read(path))


@pytest.mark.parametrize("kind", ["words", "chars"])
def test_data_load_gives_the_same_items_from_a_pack(tmp_path, kind):
    charset.select("latin")
    try:
        plain, packed = str(tmp_path / "plain"), str(tmp_path / "packed")
        write_jsonl(plain, kind, RECORDS)
        os.makedirs(os.path.join(packed, "unipen"))
        inkpack.write(data.packed_path(kind, packed), RECORDS)
        a, b = data.load(kind, plain), data.load(kind, packed)
        assert [it.id for it in a] == ["a#0", "a#1", "a#3"]  # BAD, no label, no ink: left out
        assert [(it.id, it.writer, it.label, it.kind) for it in a] == [(it.id, it.writer, it.label, it.kind) for it in b]
        for x, y in zip(a, b):
            assert len(x.strokes) == len(y.strokes)
            assert all(s.dtype == t.dtype == np.float64 and np.array_equal(s, t) for s, t in zip(x.strokes, y.strokes))
        # the JSON Lines file wins where both are present
        write_jsonl(packed, kind, RECORDS[:1])
        assert [it.id for it in data.load(kind, packed)] == ["a#0"]
    finally:
        charset.select("western")


def test_saved_wordlists_answer_as_wordfreq_does(tmp_path):
    path = str(tmp_path / "wordlists.json.xz")
    wordlists.save(path, {"de": 300, "en": 200})
    direct = {lang: wordlists.top_words(lang, 150) for lang in ("de", "en")}
    wordlists.use(path)
    try:
        for lang in ("de", "en"):
            assert wordlists.top_words(lang, 150) == direct[lang]
        assert len(wordlists.top_words("de", 300)) == 300
        with pytest.raises(LookupError, match="only 200 words of 'en'"):
            wordlists.top_words("en", 201)
        with pytest.raises(LookupError, match="none"):
            wordlists.top_words("fr", 10)
    finally:
        wordlists.use(None)


def test_saved_letter_boxes_come_back_equal(tmp_path):
    boxes = {("w#0", "arc"): (np.arange(12, dtype=np.float32).reshape(3, 4), np.array([0, 0, 1], np.int32)),
             ("w#0", "are"): (np.ones((3, 4), np.float32), np.array([0, 1, 1], np.int32))}
    path = str(tmp_path / "boxes.pkl.xz")
    align.save_boxes(boxes, path)
    back = align.load_boxes(path)
    assert back.keys() == boxes.keys()
    for k in boxes:
        assert np.array_equal(back[k][0], boxes[k][0]) and np.array_equal(back[k][1], boxes[k][1])
    assert not os.path.exists(path + ".incomplete")


def test_a_deadline_shortens_the_budget_and_never_lengthens_it():
    state = {"elapsed": 100.0, "budget": 100.0 + 3600}
    assert gpu_run.fit_deadline(state, 545, since_start=60) == pytest.approx((545 - 60 - 45) / 60)
    assert state["budget"] == pytest.approx(100 + 545 - 60 - 45)
    state = {"elapsed": 0.0, "budget": 120.0}
    assert gpu_run.fit_deadline(state, 545, since_start=60) is None and state["budget"] == 120.0
    assert gpu_run.fit_deadline(state, 0, since_start=60) is None
    state = {"elapsed": 0.0, "budget": 3600.0}
    assert gpu_run.fit_deadline(state, 100, since_start=90) == pytest.approx(0.5)  # at least 30 s


def test_replay_yields_every_fresh_batch_in_order_and_reuses_each_at_most_as_asked():
    counts = {}
    fresh = [f"b{i}" for i in range(40)]
    got = []
    for b in gpu_run.replay(iter(fresh), uses=3, seed=1, counts=counts):
        got.append(b)
        if b == fresh[-1]:  # the last fresh one (a batch is replayed only after it came fresh)
            break
    firsts = []
    for g in got:
        if g not in firsts:
            firsts.append(g)
    assert firsts == fresh  # fresh batches come in order, none lost
    assert max(got.count(b) for b in fresh) <= 3
    assert counts["fresh"] == len(fresh) and counts["replayed"] == len(got) - len(fresh)
    counts = {}
    assert list(gpu_run.replay(iter(fresh), uses=1, seed=1, counts=counts)) == fresh and counts["fresh"] == 40


def test_replay_ends_when_its_batches_end_and_each_has_had_its_uses():
    counts = {}
    fresh = [f"b{i}" for i in range(10)]
    got = list(gpu_run.replay(iter(fresh), uses=3, seed=2, counts=counts))  # ends: no batch waited for forever
    assert sorted(set(got)) == sorted(fresh) and all(got.count(b) <= 3 for b in fresh)
    assert counts["fresh"] == 10 and counts["fresh"] + counts["replayed"] == len(got)


def test_replay_raises_what_reading_raised_after_the_batches_read_before_it():
    def failing():
        yield "a"
        yield "b"
        raise ValueError("pack unreadable")

    got = []
    with pytest.raises(ValueError, match="pack unreadable"):
        for b in gpu_run.replay(failing(), uses=2, seed=1, counts={}):
            got.append(b)
    assert set(got) == {"a", "b"}


def test_closing_replay_stops_its_reading_thread():
    """A reading thread left running (torch code) when the interpreter exits aborts the process: closing the
    generator, as training does when its budget is spent, must stop and join it."""
    import itertools
    import threading

    def readers():
        return [t for t in threading.enumerate() if t.name == "replay-reader"]

    before = len(readers())
    batches = gpu_run.replay(itertools.count(), uses=2, seed=1, counts={})  # endless, fills the queue
    assert [next(batches) for _ in range(5)]
    assert len(readers()) == before + 1
    batches.close()
    assert len(readers()) == before


def test_sweep_sizes_are_read_or_refused_by_name():
    import argparse
    from inkrec_training.families.latin import sweep as train_sweep
    assert train_sweep.parse_sizes("96x3, 192x4") == [(96, 3), (192, 4)]
    for bad in ("96", "96x", "x3", "0x3", "96x3,96x3", "96by3"):
        with pytest.raises(argparse.ArgumentTypeError):
            train_sweep.parse_sizes(bad)
