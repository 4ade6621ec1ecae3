"""The output set of the shared CJK network (``cjk_charset.json``, fixed once written).

Index 0 is the CTC blank; the characters follow in the file's order: printable ASCII (drawn from Hershey
fonts), the full-width punctuation of ``cjk_glyphs.PUNCTUATION``, then every kana and Han character of the
glyph sources (Make Me a Hanzi, KanjiVG) by code point. The Swift engine reads the same list from the
model's ``config.json``.
"""
from __future__ import annotations

import json
import os

STEPS_PER_LINE_HEIGHT = 6.0  # resampling steps per line height (features.ink_features)
BLANK = 0
with open(os.path.join(os.path.dirname(__file__), "cjk_charset.json"), encoding="utf-8") as _f:
    CHARACTERS: list[str] = json.load(_f)
INDEX: dict[str, int] = {c: i + 1 for i, c in enumerate(CHARACTERS)}
NUM_CLASSES = len(CHARACTERS) + 1


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in text]


def decode(ids) -> str:
    return "".join(CHARACTERS[i - 1] for i in ids if i > 0)


def covers(text: str) -> bool:
    return all(c in INDEX for c in text)
