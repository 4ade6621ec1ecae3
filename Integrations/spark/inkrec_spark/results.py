"""inkrec's JSON answers as the columns ``recognize`` adds to a DataFrame."""
from __future__ import annotations

import re
from typing import Any, Optional

CANDIDATE_DDL = "struct<text:string,score:double,confidence:double>"


#: Every column ``recognize`` may add, in order, with its Spark type.
_RESULT_FIELDS = (("text", "string"), ("confidence", "double"), ("candidates", f"array<{CANDIDATE_DDL}>"),
                  ("lines", f"array<struct<text:string,strokes:array<int>,candidates:array<{CANDIDATE_DDL}>>>"),
                  ("error", "string"), ("inkrec_json", "string"))
RESULT_COLUMNS = tuple(name for name, _ in _RESULT_FIELDS)


def result_names(page: bool, keep_json: bool) -> list[str]:
    """The columns added for these settings: ``lines`` only for pages, ``inkrec_json`` only with ``keep_json``."""
    return [name for name in RESULT_COLUMNS
            if (name != "lines" or page) and (name != "inkrec_json" or keep_json)]


def result_ddl(page: bool, keep_json: bool) -> str:
    """The added columns, as a Spark DDL string (appended to the input's schema)."""
    types = dict(_RESULT_FIELDS)
    return ", ".join(f"{name} {types[name]}" for name in result_names(page, keep_json))


def _number(v: Any) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _candidates(cs: Any) -> list[dict]:
    return [{"text": c.get("text"), "score": _number(c.get("score")), "confidence": _number(c.get("confidence"))}
            for c in (cs or []) if isinstance(c, dict)]


def error_text(message: str, line: Any) -> str:
    """inkrec's error without the input position it starts with (``<stdin>:12: …`` or ``FILE:12 (field): …``):
    the line number within one task's stream means nothing to the row, whose id says which ink it is.
    ``<stdin>:3 (strokes[0].points[0].x): expected a number`` becomes ``strokes[0].points[0].x: expected a
    number``."""
    if not isinstance(line, int):
        return message
    m = re.match(r"^.*?:%d(?:: | \((.*?)\): )" % line, message)
    if not m:
        return message
    rest = message[m.end():]
    return f"{m.group(1)}: {rest}" if m.group(1) else rest


def columns(answer: dict, page: bool) -> dict:
    """The result columns of one answer: its best text and confidence and its candidates (a page: its
    text and lines), or its error with the others null."""
    if "error" in answer:
        out = {"text": None, "confidence": None, "candidates": None,
               "error": error_text(str(answer["error"]), answer.get("line"))}
        if page:
            out["lines"] = None
        return out
    if page:
        lines = [{"text": ln.get("text"), "strokes": [int(i) for i in ln.get("strokes") or []],
                  "candidates": _candidates(ln.get("candidates"))} for ln in answer.get("lines") or []]
        return {"text": answer.get("text"), "confidence": None, "candidates": None, "lines": lines, "error": None}
    cands = _candidates(answer.get("candidates"))
    best = cands[0] if cands else None
    return {"text": best["text"] if best else None, "confidence": best["confidence"] if best else None,
            "candidates": cands, "error": None}
