"""Hangul syllables as centre lines, from 24 drawn jamo, the composed jamo and the six block layouts.

No shippable source of Hangul stroke data exists (Make Me a Hanzi and KanjiVG have none; animCJK's Korean
set is hanja only), so the 14 basic consonants and 10 simple vowels are drawn here as strokes in the school
stroke order (each stroke a polyline in a unit box, x right, y down, in the order and direction it is
written). Everything else is composed:

* tense consonants (ㄲ ㄸ ㅃ ㅆ ㅉ) and final clusters (ㄳ ㄵ … ㅄ): two jamo side by side, narrowed;
* compound vowels: ㅐ ㅒ ㅔ ㅖ (a vertical vowel and ㅣ), ㅘ ㅙ ㅚ ㅝ ㅞ ㅟ ㅢ (a horizontal part and a
  vertical part, which the mixed layouts place apart);
* a syllable ``0xAC00 + (L·21 + V)·28 + T`` (``decompose``) is its initial, vowel and final placed in the
  boxes of one of six layouts (``LAYOUTS``: the vowel vertical, horizontal or mixed, with or without a final),
  in that order: initial, vowel (horizontal part first), final.

Some initials change shape with the layout (``BESIDE_VERTICAL``): beside a vertical vowel ㄱ and ㅋ curve
down to the left (가), ㅅ ㅈ ㅊ shorten their right leg (사); above a horizontal vowel they keep their upright
form (고, 소).

``syllable(c)`` gives the strokes of a syllable in a 1 × 1 em box, the same form as the CJK glyphs, so the
CJK generator (``cjk.Generator``) writes Hangul as it writes Han characters (``glyphs()``).
The stroke orders follow the standard school order as generally taught; the box proportions are a first
guess, to be checked against a handwriting font (Nanum Pen, OFL) by eye.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Optional

import numpy as np

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"  # index + 1 (0: no final)
FIRST, LAST = 0xAC00, 0xD7A3


def _ring(cx: float, cy: float, rx: float, ry: float, n: int = 14) -> np.ndarray:
    """A ring drawn anticlockwise on the page (y down) from its top: left first, then down, right and up."""
    t = np.linspace(0.0, 2.0 * math.pi, n)
    return np.stack([cx - rx * np.sin(t), cy - ry * np.cos(t)], axis=1)


def _s(*pts) -> np.ndarray:
    return np.array(pts, dtype=np.float64)


# The 24 drawn jamo: strokes in writing order, each from where the pen starts.
BASIC: dict[str, list[np.ndarray]] = {
    "ㄱ": [_s((0.12, 0.15), (0.85, 0.15), (0.8, 0.9))],
    "ㄴ": [_s((0.15, 0.1), (0.15, 0.85), (0.9, 0.85))],
    "ㄷ": [_s((0.15, 0.15), (0.85, 0.15)), _s((0.15, 0.15), (0.15, 0.85), (0.9, 0.85))],
    "ㄹ": [_s((0.15, 0.12), (0.85, 0.12), (0.85, 0.48)), _s((0.15, 0.48), (0.85, 0.48)),
          _s((0.15, 0.48), (0.15, 0.88), (0.9, 0.88))],
    "ㅁ": [_s((0.15, 0.15), (0.15, 0.85)), _s((0.15, 0.15), (0.85, 0.15), (0.85, 0.85)), _s((0.15, 0.85), (0.85, 0.85))],
    "ㅂ": [_s((0.2, 0.1), (0.2, 0.88)), _s((0.8, 0.1), (0.8, 0.88)), _s((0.2, 0.48), (0.8, 0.48)),
          _s((0.2, 0.88), (0.8, 0.88))],
    "ㅅ": [_s((0.5, 0.1), (0.3, 0.6), (0.1, 0.9)), _s((0.42, 0.42), (0.65, 0.7), (0.9, 0.9))],
    "ㅇ": [_ring(0.5, 0.5, 0.38, 0.38)],
    "ㅈ": [_s((0.12, 0.15), (0.85, 0.15), (0.45, 0.6), (0.12, 0.9)), _s((0.5, 0.52), (0.7, 0.72), (0.9, 0.9))],
    "ㅊ": [_s((0.45, 0.02), (0.55, 0.14)), _s((0.12, 0.3), (0.85, 0.3), (0.45, 0.68), (0.12, 0.94)),
          _s((0.52, 0.6), (0.7, 0.78), (0.9, 0.94))],
    "ㅋ": [_s((0.12, 0.15), (0.85, 0.15), (0.8, 0.9)), _s((0.12, 0.5), (0.82, 0.5))],
    "ㅌ": [_s((0.15, 0.12), (0.85, 0.12)), _s((0.15, 0.48), (0.85, 0.48)), _s((0.15, 0.12), (0.15, 0.88), (0.9, 0.88))],
    "ㅍ": [_s((0.1, 0.15), (0.9, 0.15)), _s((0.32, 0.15), (0.3, 0.85)), _s((0.68, 0.15), (0.7, 0.85)),
          _s((0.08, 0.85), (0.92, 0.85))],
    "ㅎ": [_s((0.45, 0.02), (0.55, 0.12)), _s((0.15, 0.26), (0.85, 0.26)), _ring(0.5, 0.64, 0.28, 0.26)],
    "ㅏ": [_s((0.4, 0.0), (0.4, 1.0)), _s((0.4, 0.5), (0.85, 0.5))],
    "ㅑ": [_s((0.4, 0.0), (0.4, 1.0)), _s((0.4, 0.36), (0.85, 0.36)), _s((0.4, 0.64), (0.85, 0.64))],
    "ㅓ": [_s((0.15, 0.5), (0.6, 0.5)), _s((0.6, 0.0), (0.6, 1.0))],
    "ㅕ": [_s((0.15, 0.36), (0.6, 0.36)), _s((0.15, 0.64), (0.6, 0.64)), _s((0.6, 0.0), (0.6, 1.0))],
    "ㅗ": [_s((0.5, 0.1), (0.5, 0.6)), _s((0.0, 0.6), (1.0, 0.6))],
    "ㅛ": [_s((0.35, 0.1), (0.35, 0.6)), _s((0.65, 0.1), (0.65, 0.6)), _s((0.0, 0.6), (1.0, 0.6))],
    "ㅜ": [_s((0.0, 0.35), (1.0, 0.35)), _s((0.5, 0.35), (0.5, 0.9))],
    "ㅠ": [_s((0.0, 0.35), (1.0, 0.35)), _s((0.35, 0.35), (0.33, 0.9)), _s((0.65, 0.35), (0.67, 0.9))],
    "ㅡ": [_s((0.0, 0.5), (1.0, 0.5))],
    "ㅣ": [_s((0.5, 0.0), (0.5, 1.0))],
}
# Initials written beside a vertical vowel (가 사 자 카 차, also in the mixed layouts: 과): the hand does not
# draw the upright form squeezed to the left, it changes the shape. ㄱ and ㅋ bend their down stroke into a
# curve to the lower left; ㅅ ㅈ ㅊ keep a long left leg and make the right one short, ending near the middle
# of the box, so the vowel's stem has room. Same strokes, same order, other points (``syllable`` picks them).
BESIDE_VERTICAL: dict[str, list[np.ndarray]] = {
    "ㄱ": [_s((0.1, 0.14), (0.8, 0.14), (0.72, 0.5), (0.5, 0.78), (0.22, 0.95))],
    "ㅋ": [_s((0.1, 0.14), (0.8, 0.14), (0.72, 0.5), (0.5, 0.78), (0.22, 0.95)), _s((0.12, 0.48), (0.7, 0.46))],
    "ㅅ": [_s((0.55, 0.08), (0.38, 0.55), (0.08, 0.94)), _s((0.46, 0.46), (0.66, 0.62), (0.86, 0.7))],
    "ㅈ": [_s((0.12, 0.15), (0.82, 0.15), (0.45, 0.6), (0.1, 0.92)), _s((0.5, 0.52), (0.68, 0.64), (0.86, 0.72))],
    "ㅊ": [_s((0.45, 0.02), (0.55, 0.14)), _s((0.12, 0.3), (0.82, 0.3), (0.45, 0.68), (0.1, 0.94)),
          _s((0.52, 0.62), (0.68, 0.72), (0.86, 0.78))],
}

# Composed jamo: (left part, right part) side by side.
PAIRS = {"ㄲ": "ㄱㄱ", "ㄸ": "ㄷㄷ", "ㅃ": "ㅂㅂ", "ㅆ": "ㅅㅅ", "ㅉ": "ㅈㅈ", "ㄳ": "ㄱㅅ", "ㄵ": "ㄴㅈ", "ㄶ": "ㄴㅎ",
         "ㄺ": "ㄹㄱ", "ㄻ": "ㄹㅁ", "ㄼ": "ㄹㅂ", "ㄽ": "ㄹㅅ", "ㄾ": "ㄹㅌ", "ㄿ": "ㄹㅍ", "ㅀ": "ㄹㅎ", "ㅄ": "ㅂㅅ",
         "ㅐ": "ㅏㅣ", "ㅒ": "ㅑㅣ", "ㅔ": "ㅓㅣ", "ㅖ": "ㅕㅣ"}
# Vowels by their shape: (horizontal part, vertical part); a plain vertical or horizontal vowel has one.
MIXED = {"ㅘ": ("ㅗ", "ㅏ"), "ㅙ": ("ㅗ", "ㅐ"), "ㅚ": ("ㅗ", "ㅣ"), "ㅝ": ("ㅜ", "ㅓ"), "ㅞ": ("ㅜ", "ㅔ"),
         "ㅟ": ("ㅜ", "ㅣ"), "ㅢ": ("ㅡ", "ㅣ")}
HORIZONTAL = set("ㅗㅛㅜㅠㅡ")

# Boxes (x0, y0, x1, y1) in the syllable's em box for: initial, horizontal vowel part, vertical vowel part, final.
LAYOUTS = {
    ("vertical", False): {"L": (0.02, 0.12, 0.56, 0.88), "Vv": (0.58, 0.02, 0.95, 0.98)},
    ("horizontal", False): {"L": (0.18, 0.04, 0.82, 0.5), "Vh": (0.02, 0.5, 0.98, 0.9)},
    ("mixed", False): {"L": (0.02, 0.04, 0.56, 0.46), "Vh": (0.02, 0.44, 0.7, 0.8), "Vv": (0.7, 0.02, 0.96, 0.98)},
    ("vertical", True): {"L": (0.02, 0.04, 0.56, 0.52), "Vv": (0.58, 0.0, 0.95, 0.6), "T": (0.12, 0.62, 0.88, 0.98)},
    ("horizontal", True): {"L": (0.2, 0.02, 0.8, 0.34), "Vh": (0.02, 0.34, 0.98, 0.6), "T": (0.15, 0.62, 0.85, 0.98)},
    ("mixed", True): {"L": (0.02, 0.02, 0.56, 0.34), "Vh": (0.02, 0.32, 0.7, 0.56), "Vv": (0.7, 0.0, 0.96, 0.6),
                      "T": (0.12, 0.62, 0.88, 0.98)},
}


def decompose(c: str) -> Optional[tuple[str, str, str]]:
    """(initial, vowel, final or "") of a precomposed syllable, as compatibility jamo; None for anything else."""
    k = ord(c) - FIRST
    if not 0 <= k <= LAST - FIRST:
        return None
    t = k % 28
    return INITIALS[k // 588], VOWELS[(k % 588) // 28], FINALS[t - 1] if t else ""


def compose(initial: str, vowel: str, final: str = "") -> str:
    """The syllable of three jamo (``decompose``'s inverse)."""
    t = FINALS.index(final) + 1 if final else 0
    return chr(FIRST + (INITIALS.index(initial) * 21 + VOWELS.index(vowel)) * 28 + t)


def _fit(strokes: list[np.ndarray], box: tuple[float, float, float, float]) -> list[np.ndarray]:
    x0, y0, x1, y1 = box
    return [np.stack([x0 + s[:, 0] * (x1 - x0), y0 + s[:, 1] * (y1 - y0)], axis=1) for s in strokes]


@lru_cache(maxsize=None)
def jamo(c: str) -> tuple[np.ndarray, ...]:
    """A jamo's strokes in a unit box (drawn, or two drawn ones side by side)."""
    if c in BASIC:
        return tuple(BASIC[c])
    if c in PAIRS:
        a, b = PAIRS[c]
        vowel = a in BASIC and a in "ㅏㅑㅓㅕ"
        split = 0.62 if vowel else 0.5
        left = _fit(list(jamo(a)), (0.0, 0.0, split - 0.02, 1.0))
        right = _fit(list(jamo(b)), (split + (0.0 if vowel else 0.02), 0.0, 1.0, 1.0))
        return tuple(left + right)
    raise KeyError(c)


def vowel_parts(v: str) -> tuple[Optional[str], Optional[str]]:
    """(horizontal part, vertical part) of a vowel."""
    if v in MIXED:
        return MIXED[v]
    return (v, None) if v in HORIZONTAL else (None, v)


def syllable(c: str) -> Optional[list[np.ndarray]]:
    """A precomposed syllable's strokes in a 1 x 1 em box (y down), in writing order; None for other characters."""
    d = decompose(c)
    if d is None:
        return None
    initial, vowel, final = d
    h, v = vowel_parts(vowel)
    shape = "mixed" if h and v else ("horizontal" if h else "vertical")
    boxes = LAYOUTS[(shape, bool(final))]
    beside = v is not None and initial in BESIDE_VERTICAL
    out = _fit(list(BESIDE_VERTICAL[initial] if beside else jamo(initial)), boxes["L"])
    if h:
        out += _fit(list(jamo(h)), boxes["Vh"])
    if v:
        out += _fit(list(jamo(v)), boxes["Vv"])
    if final:
        out += _fit(list(jamo(final)), boxes["T"])
    return out


def layout_of(c: str) -> Optional[tuple[str, bool]]:
    """(vowel shape, has a final) of a syllable: its layout's key in ``LAYOUTS``."""
    d = decompose(c)
    if d is None:
        return None
    h, v = vowel_parts(d[1])
    return ("mixed" if h and v else ("horizontal" if h else "vertical")), bool(d[2])


def glyphs(chars) -> dict:
    """{syllable: [strokes]} for ``cjk.Generator`` (one form per syllable)."""
    return {c: [syllable(c)] for c in chars if decompose(c) is not None}
