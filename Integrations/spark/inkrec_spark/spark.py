"""``recognize(df, language=...)``: a DataFrame of inks in, the same rows with the recognition's columns out.

Each task streams its partition through one long-lived ``inkrec recognize --batch -`` process
(``mapInPandas``), kept by its Python worker for the tasks after it: the model is loaded once per worker,
not once per ink or per task, and the process recognizes as many inks at once as the task has cores
(``spark.task.cpus``, passed as ``--threads``).
"""
from __future__ import annotations

import atexit
import json
from typing import Iterator, Optional, Sequence

from .inks import ink_line
from .process import InkrecProcess, find_inkrec
from .results import RESULT_COLUMNS, columns, result_ddl, result_names

INK_JSON = "__inkrec_ink"


def inkrec_command(inkrec: str, *, language: Optional[str], page: bool, max_results: int,
                   model_directory: Optional[str], repository: Optional[str], storage: Optional[str],
                   threads: Optional[int], extra_args: Sequence[str], segments: bool = False) -> list[str]:
    """The ``inkrec recognize --batch -`` command line for these settings (``segments``: keep where each
    character and word is in the answers, nine tenths of their size, which only ``keep_json`` shows)."""
    cmd = [inkrec, "recognize", "--batch", "-", "--max-results", str(max_results)]
    if not segments:
        cmd.append("--no-segments")
    if model_directory:
        cmd += ["--model-directory", model_directory]
    elif language:
        cmd += ["--language", language]
    if repository:
        cmd += ["--repository", repository]
    if storage:
        cmd += ["--storage", storage]
    if page:
        cmd.append("--page")
    if threads:
        cmd += ["--threads", str(threads)]
    return cmd + list(extra_args)


def recognize_partition(frames: Iterator, *, command: list[str], page: bool, keep_json: bool,
                        max_restarts: int, ink_column: str = INK_JSON, process: Optional[InkrecProcess] = None) -> Iterator:
    """The function ``mapInPandas`` runs: pandas frames whose ``ink_column`` holds the inks in, the same
    frames (without the ``__inkrec_ink`` column ``recognize`` may add) and the result columns out. Runs
    ``command`` in a process of its own, ended with the frames, unless ``process`` is given."""
    own = process is None
    proc = process or InkrecProcess(command, max_restarts=max_restarts)
    try:
        for frame in frames:
            lines, reasons = [], []
            for value in frame[ink_column]:
                line, reason = ink_line(value)
                lines.append(line)
                reasons.append(reason)
            sent = [ln for ln in lines if ln is not None]
            answers = iter(proc.answer_all(sent)) if sent else iter(())
            rows = []
            for line, reason in zip(lines, reasons):
                answer = next(answers) if line is not None else {"error": reason}
                row = columns(answer, page)
                if keep_json:  # without the line number inside this task's input, meaningless here
                    answer.pop("line", None)
                    answer.pop("error", None)
                    if row["error"] is not None:
                        answer["error"] = row["error"]
                    row["inkrec_json"] = json.dumps(answer, separators=(",", ":"), ensure_ascii=False)
                rows.append(row)
            out = frame.drop(columns=[INK_JSON]) if INK_JSON in frame.columns else frame
            for name in result_names(page, keep_json):
                out[name] = [r[name] for r in rows]
            yield out
    finally:
        if own:
            proc.close()


#: The inkrec processes of this Python worker, one per command line. Spark reuses a Python worker for
#: task after task (``spark.python.worker.reuse``, on by default), so the process and its loaded model
#: outlive the task: a task starts working on its first ink at once. A process ends when its worker
#: does (its input closes).
_WORKER_PROCESSES: dict = {}


def worker_process(command: Sequence[str], max_restarts: int) -> InkrecProcess:
    """This worker's process for ``command``, its restart budget renewed for a new partition."""
    key = tuple(command)
    proc = _WORKER_PROCESSES.get(key)
    if proc is None:
        proc = _WORKER_PROCESSES[key] = InkrecProcess(command, max_restarts=max_restarts)
        atexit.register(proc.close)
    proc.restarts = 0
    return proc


def recognize(df, *, language: Optional[str] = "en-US", ink_column: str = "ink", id_column: Optional[str] = "id",
              page: bool = False, max_results: int = 5, inkrec: Optional[str] = None,
              model_directory: Optional[str] = None, repository: Optional[str] = None, storage: Optional[str] = None,
              threads: Optional[int] = None, extra_args: Sequence[str] = (), keep_json: bool = False,
              max_restarts: int = 8):
    """``df`` with the recognition's columns added: ``text`` (the best reading; a page's text),
    ``confidence`` (the best's calibrated confidence), ``candidates`` (``text``, ``score``,
    ``confidence``, best first), with ``page=True`` also ``lines`` (``text``, ``strokes``, ``candidates``
    in reading order), and ``error`` (null, or why this ink has no reading: the other columns are then
    null). Every input row gives exactly one output row, in the same partition and order.

    - ``ink_column``: a string column of JSON inks (the project's format, one ink per value), or a
      struct column (``spark.read.json`` of that format, or strokes as ``x``/``y``/``t`` arrays).
    - ``id_column``: kept as it is, named here only so that a missing column is an error up front
      (``None``: no id column).
    - ``inkrec``: the executable on the executors (default: ``$INKREC_SPARK_BIN``, the unpacked
      ``--archives`` bundle ``./inkrec/inkrec``, or ``inkrec`` on the PATH).
    - ``language`` / ``model_directory``: the model (from inkrec's bundled models, ``repository``, or a
      folder on the executors); ``storage``: where inkrec installs models (default: its cache folder).
    - ``threads``: inks recognized at once per task (default ``spark.task.cpus``).
    - ``extra_args``: more ``inkrec recognize`` options, e.g. ``["--charset", "0123456789"]``.
    - ``keep_json``: also an ``inkrec_json`` column with inkrec's whole answer (segments, boxes).
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructType, BinaryType

    if ink_column not in df.columns:
        raise ValueError(f"no column {ink_column!r} in the DataFrame (columns: {', '.join(df.columns)})")
    if id_column is not None and id_column not in df.columns:
        raise ValueError(f"no column {id_column!r} in the DataFrame (columns: {', '.join(df.columns)})")
    if not 1 <= max_results <= 10:
        raise ValueError("max_results must be in 1...10")
    clash = [c for c in RESULT_COLUMNS if c in df.columns]
    if clash:
        raise ValueError(f"the DataFrame already has columns named {', '.join(clash)}: rename them first")
    kind = df.schema[ink_column].dataType
    columnar = False
    if isinstance(kind, (StringType, BinaryType)):
        ink = None  # read from the column itself: no second copy of every ink goes to Python
    elif isinstance(kind, StructType):
        ink = F.to_json(F.col(ink_column))  # in the JVM; strokes of x/y arrays become points in Python
        columnar = _has_columnar_strokes(kind)
    else:
        raise TypeError(f"column {ink_column!r} is {kind.simpleString()}: a JSON string or a struct is needed")

    settings = dict(language=language, page=page, max_results=max_results, model_directory=model_directory,
                    repository=repository, storage=storage, extra_args=list(extra_args))
    # The input's fields as they are (any column name) and the result's, parsed from their DDL.
    from pyspark.sql.types import _parse_datatype_string
    out_schema = StructType(list(df.schema.fields) + list(_parse_datatype_string(result_ddl(page, keep_json)).fields))

    read_from = INK_JSON if ink is not None else ink_column  # (a Column cannot travel to the workers)

    def run(frames):
        from pyspark import TaskContext
        ctx = TaskContext.get()
        cpus = threads or (ctx.cpus() if ctx is not None else 1)
        command = inkrec_command(find_inkrec(inkrec), threads=cpus, segments=keep_json, **settings)
        yield from recognize_partition(_parsed(frames) if columnar else frames, command=command, page=page,
                                       keep_json=keep_json, max_restarts=max_restarts,
                                       ink_column=read_from,
                                       process=worker_process(command, max_restarts))

    return (df if ink is None else df.withColumn(INK_JSON, ink)).mapInPandas(run, out_schema)


def _has_columnar_strokes(kind) -> bool:
    """Whether an ink struct's strokes are structs of ``x`` and ``y`` arrays (not of ``points``)."""
    from pyspark.sql.types import ArrayType, StructType
    strokes = next((f.dataType for f in kind.fields if f.name == "strokes"), None)
    if not isinstance(strokes, ArrayType) or not isinstance(strokes.elementType, StructType):
        return False
    names = {f.name: f.dataType for f in strokes.elementType.fields}
    return isinstance(names.get("x"), ArrayType) and isinstance(names.get("y"), ArrayType)


def _parsed(frames):
    """Frames whose ``__inkrec_ink`` JSON text is parsed, for ``ink_line`` to turn x/y arrays into points."""
    for frame in frames:
        frame = frame.copy()
        frame[INK_JSON] = [_loads(v) for v in frame[INK_JSON]]
        yield frame


def _loads(v):
    if not isinstance(v, str):
        return v
    try:
        return json.loads(v)
    except ValueError:
        return v
