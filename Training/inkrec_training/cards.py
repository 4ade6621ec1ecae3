"""Model cards and README sections: generated text between markers, written by the tool that measured it.

A card (``Models/<id>/MODEL_CARD.md``) is written whole by its exporter; evaluation tools then own one
section each, between a begin and an end marker (``<!-- languages: … -->`` … ``<!-- /languages -->``),
which they replace in place and never touch outside. Every card is one of its model's files: after
writing cards, ``export.write_manifest`` records their sizes and checksums again.
"""
from __future__ import annotations

import os


def read(path: str) -> str:
    """The text of ``path`` (UTF-8), or "" when there is no such file."""
    if not os.path.exists(path):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path: str, text: str) -> None:
    """Writes ``text`` to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def section(text: str, begin: str, end: str, until: str | None = None) -> str | None:
    """The part of ``text`` from ``begin`` through ``end`` (markers included), or None. ``until``: where a
    section written before it had an end marker stops when ``end`` is missing (its text before ``until``)."""
    if begin not in text:
        return None
    a = text.index(begin)
    if end in text[a:]:
        return text[a: text.index(end, a) + len(end)]
    if until is not None and until in text[a:]:
        return text[a: text.index(until, a)].rstrip("\n")
    raise ValueError(f"{begin!r} has no {end!r} after it")


def put_section(text: str, begin: str, end: str, new: str, before: str | None = None, until: str | None = None) -> str:
    """``text`` with its ``begin``…``end`` section (see ``section`` for ``until``) replaced by ``new`` (which
    starts with ``begin`` and ends with ``end``). Without such a section, ``new`` goes in front of the first
    ``before`` (a blank line between), or at the end of the text."""
    if not (new.startswith(begin) and new.rstrip("\n").endswith(end)):
        raise ValueError(f"a section must run from {begin!r} to {end!r}")
    new = new.rstrip("\n")
    old = section(text, begin, end, until)
    if old is not None:
        a = text.index(begin)
        return text[:a] + new + text[a + len(old):]
    if before and before in text:
        return text.replace(before, new + "\n\n" + before, 1)
    return text.rstrip() + "\n\n" + new + "\n"


def write_section(path: str, begin: str, end: str, new: str, before: str | None = None, until: str | None = None) -> None:
    """``put_section`` on the file at ``path``."""
    write(path, put_section(read(path), begin, end, new, before, until))


def table_rows(path: str, begin: str, end: str) -> dict[str, str]:
    """{first cell's code span: row} of the Markdown table that follows ``begin`` in the file at ``path`` (up to
    ``end``), for a tool that rewrites some rows and keeps the others; SystemExit when ``begin`` is missing."""
    text = read(path)
    if begin not in text:
        raise SystemExit(f"{path} has no {begin} to write the table after")
    old = text[text.index(begin):]
    old = old[: old.index(end)] if end in old else old
    return {line.split("`")[1]: line for line in old.splitlines() if line.startswith("| `")}


def write_card(path: str, text: str, keep_from: str | None = None) -> None:
    """Writes a generated MODEL_CARD.md. With ``keep_from``, the old card's part from that marker on (the
    figures an evaluation tool wrote there) is kept after the new text."""
    old = read(path)
    kept = "\n" + old[old.index(keep_from):] if keep_from and keep_from in old else ""
    write(path, text + kept)
