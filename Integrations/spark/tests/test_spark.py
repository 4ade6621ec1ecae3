"""recognize() on Spark local[2] against ``inkrec recognize --batch`` on the same inks, id for id; struct
inks; and a job whose inkrec process is killed once midway.

Needs pyspark, Java and an inkrec executable (``$INKREC_SPARK_BIN``; ``make test-spark`` builds the
archive, unpacks it and sets it). Without them these tests skip with the reason, unless
``INKREC_SPARK_REQUIRED=1`` (CI), which makes that a failure."""
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
os.environ["PYTHONPATH"] = os.pathsep.join([os.path.join(HERE, ".."), os.environ.get("PYTHONPATH", "")])
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

from sample_inks import make_inks, write_jsonl  # noqa: E402

from inkrec_spark import recognize  # noqa: E402
from inkrec_spark.results import columns  # noqa: E402

N = 5000


def _missing() -> str:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed (scripts/install-deps --spark)"
    if not shutil.which("java"):
        return "no java on the PATH (scripts/install-deps --spark)"
    binary = os.environ.get("INKREC_SPARK_BIN")
    if not binary or not os.access(binary, os.X_OK):
        return "INKREC_SPARK_BIN names no inkrec executable (make test-spark sets it)"
    return ""


if _missing():
    if os.environ.get("INKREC_SPARK_REQUIRED") == "1":
        raise RuntimeError(f"test_spark needs what is missing: {_missing()}")
    pytest.skip(_missing(), allow_module_level=True)

INKREC = os.environ["INKREC_SPARK_BIN"]


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession
    s = (SparkSession.builder.master("local[2]").appName("inkrec_spark tests")
         .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
         .config("spark.sql.execution.arrow.maxRecordsPerBatch", "1000")
         .config("spark.driver.memory", "1g").getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def storage(tmp_path_factory):
    return str(tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def inks(tmp_path_factory):
    items = make_inks(N, seed=11, bad_every=250)
    path = str(tmp_path_factory.mktemp("inks") / "inks.jsonl")
    write_jsonl(path, items)
    return items, path


@pytest.fixture(scope="module")
def reference(inks, storage):
    """``inkrec recognize --batch`` alone on the same file: the answer for each id, as the columns."""
    items, path = inks
    out = subprocess.run([INKREC, "recognize", "--batch", path, "--language", "en-US", "--storage", storage],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    assert len(out) == len(items)
    answers = [json.loads(line) for line in out]
    assert [a["line"] for a in answers] == list(range(1, len(items) + 1))
    return {ink_id: columns(a, page=False) for (ink_id, _), a in zip(items, answers)}


def frame(spark, items, partitions=6):
    """The inks with their ids, and a column whose name is no identifier, passed through as it is."""
    rows = [(i, line, len(line)) for i, line in items]
    return spark.createDataFrame(rows, "id string, ink string, `ink size (bytes)` int").repartition(partitions)


def check_equal(rows, reference):
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)) == len(reference), "every id exactly once"
    differences = []
    for r in rows:
        want = reference[r["id"]]
        got = {"text": r["text"], "confidence": r["confidence"], "error": r["error"],
               "candidates": None if r["candidates"] is None else [c.asDict() for c in r["candidates"]]}
        if got != want:
            differences.append((r["id"], got, want))
    assert not differences, f"{len(differences)} differ, e.g. {differences[:2]}"


def test_local2_equals_inkrec_batch_id_for_id(spark, inks, reference, storage):
    items, _ = inks
    rows = recognize(frame(spark, items), language="en-US", inkrec=INKREC, storage=storage).collect()
    check_equal(rows, reference)
    assert all(r["ink size (bytes)"] == len(r["ink"]) for r in rows)
    errors = [r for r in rows if r["error"]]
    assert len(errors) >= N // 250 * 5 // 7  # the malformed inks are error rows, not a failed job
    assert all(not r["error"].startswith("<stdin>") for r in errors)  # no position within a task's stream
    assert sum(r["text"] == "hello" for r in rows) > 100  # and the words are read


def test_struct_inks_read_as_their_json(spark, inks, reference, storage, tmp_path):
    """spark.read.json of the project's format (structs of points) and strokes as x/y arrays."""
    from pyspark.sql import functions as F
    items, _ = inks
    plain = [(i, line) for i, line in items[:300] if line.startswith('{"id"') and '"points"' in line]
    path = str(tmp_path / "plain.jsonl")
    write_jsonl(path, plain)
    df = spark.read.json(path).select("id", F.struct("strokes").alias("ink"))
    check_equal(recognize(df, inkrec=INKREC, storage=storage).collect(), {i: reference[i] for i, _ in plain})

    def columnar(line):
        d = json.loads(line)
        strokes = [{"x": [float(p["x"]) for p in s["points"]], "y": [float(p["y"]) for p in s["points"]],
                    "t": [p.get("t") for p in s["points"]]} for s in d["strokes"]]
        return (d["id"], {"strokes": strokes})
    schema = "id string, ink struct<strokes: array<struct<x: array<double>, y: array<double>, t: array<long>>>>"
    df = spark.createDataFrame([columnar(line) for _, line in plain], schema)
    check_equal(recognize(df, inkrec=INKREC, storage=storage).collect(), {i: reference[i] for i, _ in plain})


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_a_killed_inkrec_process_is_survived_every_id_once(spark, inks, reference, storage):
    """The inkrec process of a running task is killed (SIGKILL) once, while it is recognizing: the job
    succeeds and every id comes out once with the same results. (The restart is logged in the executor's
    log, here the JVM's standard error, which this process cannot read back.)"""
    items, _ = inks
    killed = []

    def killer():
        deadline = time.time() + 120
        time.sleep(1.0)
        while time.time() < deadline and not killed:
            out = subprocess.run(["pgrep", "-f", f"{INKREC} recognize --batch -"], capture_output=True, text=True)
            for pid in (int(p) for p in out.stdout.split()):
                try:
                    before = _cpu_ticks(pid)
                    time.sleep(0.3)
                    if _cpu_ticks(pid) > before:  # working on a partition, not idle between tasks
                        os.kill(pid, 9)
                        killed.append(pid)
                        return
                except (ProcessLookupError, FileNotFoundError):
                    continue
            time.sleep(0.05)

    t = threading.Thread(target=killer, daemon=True)
    t.start()
    rows = recognize(frame(spark, items, partitions=2), language="en-US", inkrec=INKREC, storage=storage).collect()
    t.join()
    assert killed, "the inkrec process of a task was killed once"
    check_equal(rows, reference)


def test_bad_arguments_fail_up_front(spark):
    df = spark.createDataFrame([("a", "{}")], "id string, ink string")
    with pytest.raises(ValueError, match="no column 'strokes'"):
        recognize(df, ink_column="strokes")
    with pytest.raises(ValueError, match="max_results"):
        recognize(df, max_results=0)
    with pytest.raises(TypeError, match="a JSON string or a struct is needed"):
        recognize(spark.createDataFrame([("a", 1)], "id string, ink int"))


def test_pages_equal_inkrec_page_batch(spark, storage, tmp_path):
    """page=True: the page sample, moved and scaled, read as pages; the lines as inkrec --page --batch has them."""
    from sample_inks import ROOT
    with open(os.path.join(ROOT, "Samples", "page.json")) as f:
        page = json.load(f)
    items = []
    for k, (scale, dx) in enumerate([(1, 0), (2.5, 100), (0.5, -3000)]):
        strokes = [[[p[0] * scale + dx, p[1] * scale] + p[2:] for p in s] for s in page["strokes"]]
        items.append((f"page-{k}", json.dumps({"strokes": strokes})))
    path = str(tmp_path / "pages.jsonl")
    write_jsonl(path, items)
    out = subprocess.run([INKREC, "recognize", "--page", "--batch", path, "--storage", storage],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    want = {i: json.loads(line) for (i, _), line in zip(items, out)}
    rows = recognize(spark.createDataFrame(items, "id string, ink string"), page=True, inkrec=INKREC,
                     storage=storage).collect()
    assert sorted(r["id"] for r in rows) == sorted(want)
    for r in rows:
        w = want[r["id"]]
        assert r["error"] is None and r["text"] == w["text"] and r["text"].count("\n") == 4
        assert [(ln["text"], list(ln["strokes"]), [c["text"] for c in ln["candidates"]]) for ln in r["lines"]] == \
            [(ln["text"], ln["strokes"], [c["text"] for c in ln["candidates"]]) for ln in w["lines"]]
