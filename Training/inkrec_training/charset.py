"""The character set shared by every Latin-script model.

Index 0 is the CTC blank; characters follow in the order below. The Swift engine reads the
same list from the model's `config.json`, never from this file.
"""
from __future__ import annotations

_ASCII = [chr(c) for c in range(32, 127)]
_LATIN1 = [chr(c) for c in range(0xC0, 0x100) if chr(c) not in "\u00d7\u00f7"]
_EXTRA = list("\u0152\u0153\u0178\u20ac\u00a1\u00bf\u00ab\u00bb")

CHARACTERS: list[str] = _ASCII + _LATIN1 + _EXTRA
BLANK = 0
INDEX = {c: i + 1 for i, c in enumerate(CHARACTERS)}
NUM_CLASSES = len(CHARACTERS) + 1


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in text]


def decode(ids) -> str:
    return "".join(CHARACTERS[i - 1] for i in ids if i > 0)


def covers(text: str) -> bool:
    return all(c in INDEX for c in text)
