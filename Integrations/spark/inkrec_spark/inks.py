"""Inks as Spark holds them, turned into the JSON line that ``inkrec recognize --batch`` reads.

A DataFrame's ink column may be

- a **string**: one ink in the project's JSON format (``{"strokes": [{"points": [{"x", "y", "t"}]}]}``, or
  any other form inkrec reads on one line), passed on as it is;
- a **struct** as ``spark.read.json`` gives for that format (``strokes`` an array of structs with a
  ``points`` array of ``{x, y, t}`` structs; ``writingArea`` and ``preContext`` optional);
- a **struct of arrays**: ``strokes`` an array of structs with ``x``, ``y`` (and optionally ``t``)
  arrays of equal length, the columnar form that Parquet archives often use.

Anything else (a null, a number, strokes of another shape) is not guessed at: it becomes a line that
inkrec answers with an error naming the problem, so that the row gets an error and the job goes on.
"""
from __future__ import annotations

import json
import math
from typing import Any, Optional

# inkrec reads one JSON object per line; a line with a raw newline would be split in two.


def ink_line(value: Any) -> tuple[Optional[str], Optional[str]]:
    """The JSON line for one ink, or ``(None, reason)`` when ``value`` cannot be an ink.

    A string is checked only for what would break the line protocol (a line break inside it); inkrec
    itself checks the JSON and answers a malformed ink with an error.
    """
    if value is None:
        return None, "the ink is null"
    if isinstance(value, (bytes, bytearray)):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return None, "the ink is not UTF-8 text"
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None, "the ink is an empty string"
        if "\n" in text or "\r" in text:
            # JSON allows line breaks between tokens: one ink written over several lines.
            try:
                text = json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
            except ValueError as e:
                return None, f"the ink is not JSON: {e}"
        return text, None
    if hasattr(value, "asDict"):  # a pyspark Row
        value = value.asDict(recursive=True)
    if isinstance(value, dict):
        try:
            return json.dumps(_ink_object(value), separators=(",", ":"), ensure_ascii=False, allow_nan=False), None
        except (TypeError, ValueError) as e:
            return None, f"the ink struct is not an ink: {e}"
    return None, f"the ink is a {type(value).__name__}, not a JSON string or a struct"


def _ink_object(d: dict) -> dict:
    strokes = d.get("strokes")
    if strokes is None:
        raise ValueError("it has no strokes")
    out: dict[str, Any] = {"strokes": [_stroke(s, i) for i, s in enumerate(_items(strokes))]}
    for key in ("writingArea", "preContext", "id"):
        v = d.get(key)
        if v is not None:
            out[key] = _plain(v)
    return out


def _stroke(s: Any, i: int) -> dict:
    if hasattr(s, "asDict"):
        s = s.asDict(recursive=True)
    if not isinstance(s, dict):
        raise ValueError(f"strokes[{i}] is a {type(s).__name__}, not a struct")
    if s.get("points") is not None:
        return {"points": [_point(p) for p in _items(s["points"])]}
    if s.get("x") is not None and s.get("y") is not None:
        xs, ys = list(_items(s["x"])), list(_items(s["y"]))
        ts = list(_items(s["t"])) if s.get("t") is not None else None
        if len(xs) != len(ys) or (ts is not None and len(ts) != len(xs)):
            raise ValueError(f"strokes[{i}]: x, y (and t) have different lengths")
        points = []
        for k in range(len(xs)):
            p = {"x": _number(xs[k]), "y": _number(ys[k])}
            if ts is not None and ts[k] is not None:
                p["t"] = _number(ts[k])
            points.append(p)
        return {"points": points}
    raise ValueError(f"strokes[{i}] has neither points nor x and y arrays")


def _point(p: Any) -> dict:
    if hasattr(p, "asDict"):
        p = p.asDict(recursive=True)
    if isinstance(p, dict):
        return {k: _number(v) for k, v in p.items() if k in ("x", "y", "t") and v is not None}
    return _plain(p)  # [x, y] or [x, y, t]: inkrec reads these too


def _items(v: Any):
    if hasattr(v, "tolist"):  # numpy arrays from Arrow
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        return v
    raise ValueError(f"expected an array, found a {type(v).__name__}")


def _number(v: Any):
    if hasattr(v, "item"):  # numpy scalars
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{v!r} is not a number")
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v} is not a finite number")
        if v.is_integer() and abs(v) < 2 ** 53:
            return int(v)
    return v


def _plain(v: Any):
    """``v`` with numpy arrays, numpy scalars and Rows turned into JSON's lists, numbers and objects."""
    if hasattr(v, "asDict"):
        v = v.asDict(recursive=True)
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if x is not None}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    return v
