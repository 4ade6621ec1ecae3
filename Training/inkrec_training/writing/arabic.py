"""Arabic-script letters for the writer (Arabic, Persian, Urdu): joining forms traced from a font, joined as the
script joins, written right to left with the dots after the body.

Arabic letters change shape with their neighbours, and most join the next letter on the baseline. This module
holds the script's rules as data and the letters' centre lines:

* **Joining** (``joining``): a letter of ``DUAL`` joins both neighbours, one of ``RIGHT`` (ا د ذ ر ز و ة …)
  joins only the letter before it; ء joins nothing. ``forms(word)`` gives each letter's contextual form
  (isolated, initial, medial, final) in text order, with the mandatory lam-alef ligatures (لا) as one glyph.
  Output and labels stay Unicode text in logical order; presentation forms only name the glyphs to draw.
* **Centre lines** (``FORMS``): each presentation form of Noto Naskh Arabic (Debian fonts-noto-core, SIL OFL
  1.1) filled, thinned and traced by ``outlines`` into strokes (``build_forms``, once, with fontTools and the
  font; ``python3 -m inkrec_training scripts data arabic-forms``), stored in ``data/arabic_forms.json`` so
  that training and tests need neither. Each form keeps its *body* (the connected rasm) apart from its
  *marks* (dots, hamza, madda, the small kaf stroke: the components that do not reach the baseline).
* **Writing** (``word(w)``): a connected piece (letters joined to each other) is placed glyph by glyph at the
  font's advances, right to left, so the joins meet on the baseline; its body fragments are written as a pen
  writes them (the rightmost first, vertical strokes from their top, the rest from their right end), each
  fragment that starts near the end of the last one continuing the same pen stroke; its marks follow the
  piece, or, for half the words, the whole word. ``write_word_with_owners`` also says which character each
  mark stroke belongs to (its provenance, for scoring how the engine aligns late dots), drawing the same
  random numbers and writing the same strokes as ``write_word``.

Units: x-height units as the rest of the kit (baseline y = 0, y down); one x-height is ``EM_PER_X`` em of the
font, so an alef stands about 1.6 x-heights tall.
"""
from __future__ import annotations

import json
import math
import os
import random
import unicodedata
from functools import lru_cache
from typing import NamedTuple, Optional, Sequence

import numpy as np

# The letters of each language the kit writes (base letters; hamza carriers included).
ARABIC_LETTERS = "ءآأؤإئابةتثجحخدذرزسشصضطظعغفقكلمنهوىي"
PERSIAN_LETTERS = "آاأبپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیئء"
URDU_LETTERS = "آابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکگلمنںوہھءیےئۓ"
LETTERS = "".join(dict.fromkeys(ARABIC_LETTERS + PERSIAN_LETTERS + URDU_LETTERS))
ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩"   # U+0660–0669 (Arabic)
PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹"  # U+06F0–06F9 (Persian, Urdu)
PUNCTUATION = "،؛؟"

FORM_NAMES = ("isolated", "initial", "medial", "final")
# Lam-alef ligatures: (alef, isolated form, final form).
LAM_ALEF = {"ا": ("\uFEFB", "\uFEFC"), "أ": ("\uFEF7", "\uFEF8"), "إ": ("\uFEF9", "\uFEFA"), "آ": ("\uFEF5", "\uFEF6")}
FONT = "/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf"
DATA = os.path.join(os.path.dirname(__file__), "data", "arabic_forms.json")
EM_PER_X = 0.22  # em per x-height unit (an alef of Noto Naskh is about 0.36 em tall)
MARK_BAND = 0.03  # em: a component reaching this near the baseline is body, others are marks


def presentation_form(c: str, form: str) -> Optional[str]:
    """The presentation-form character of letter ``c`` in ``form`` (``FORM_NAMES``), or None when Unicode has
    none (a letter that joins only on its right has no initial or medial form)."""
    if form not in FORM_NAMES:
        raise ValueError(f"form: one of {FORM_NAMES}, not {form!r}")
    try:
        return unicodedata.lookup(f"{unicodedata.name(c)} {form.upper()} FORM")
    except (KeyError, ValueError):
        return None


@lru_cache(maxsize=None)
def joining(c: str) -> str:
    """``"dual"`` (joins the letters before and after it), ``"right"`` (only the one before it) or ``"none"``."""
    if presentation_form(c, "medial") is not None:
        return "dual"
    if presentation_form(c, "final") is not None:
        return "right"
    return "none"


def forms(word: str) -> list[tuple[str, str, str]]:
    """Each glyph of ``word`` in text order as (text it writes, form name, presentation character): a letter's
    contextual form, or a lam-alef ligature for ل followed by an alef. Characters that are not Arabic letters
    (digits, punctuation) come back as themselves with form ``"isolated"`` and break the joining."""
    out: list[tuple[str, str, str]] = []
    i = 0
    while i < len(word):
        c = word[i]
        prev_joins = bool(out) and out[-1][1] in ("initial", "medial") and out[-1][0][-1] == word[i - 1]
        if c == "ل" and i + 1 < len(word) and word[i + 1] in LAM_ALEF:
            iso, fin = LAM_ALEF[word[i + 1]]
            out.append((word[i:i + 2], "final" if prev_joins else "isolated", fin if prev_joins else iso))
            i += 2
            continue
        j = joining(c) if c in LETTERS else "none"
        nxt = word[i + 1] if i + 1 < len(word) else ""
        next_joins = j == "dual" and nxt != "" and nxt in LETTERS and joining(nxt) != "none"
        if j == "none":
            form = "isolated"
        elif prev_joins:
            form = "medial" if next_joins else "final"
        else:
            form = "initial" if next_joins else "isolated"
        out.append((c, form, presentation_form(c, form) or c))
        i += 1
    return out


# ------------------------------------------------------------------------------------------------ data

def _glyph_parts(font_path: str, char: str, size: int = 160) -> dict:
    """One presentation form traced: body and mark strokes in em units relative to the glyph's advance box
    (x from its left edge, y down from the baseline), and its advance."""
    from . import outlines
    contours, baseline = outlines.glyph_contours(font_path, char)
    font = outlines._font(str(font_path))
    name = font.getBestCmap()[ord(char)]
    advance = font["hmtx"][name][0] / float(font["head"].unitsPerEm)
    img = outlines.rasterize_polygons(contours, size, rule="nonzero")
    comps = outlines._components(img)
    # The body is what sits on the baseline (every letter's rasm does; dots, hamza and madda float apart).
    row = baseline * size - 0.5
    band = MARK_BAND * size
    on_line = [bool((np.abs(c[:, 0] - row) <= band).any()) for c in comps]
    if comps and not any(on_line):  # a glyph off the line (a digit, hamza alone): its largest part
        on_line[max(range(len(comps)), key=lambda k: len(comps[k]))] = True
    body, marks = [], []
    for comp, is_body in zip(comps, on_line):
        one = np.zeros_like(img)
        one[comp[:, 0], comp[:, 1]] = True
        strokes = outlines.trace(outlines.thin(one), width=float(one.sum()) / max(1, int(outlines.thin(one).sum())))
        if not strokes:
            r, c = comp.mean(axis=0)
            strokes = [np.array([[(c + 0.5) / size, (r + 0.5) / size]])]
        # [0, 1] image box back to em units: x from the advance box's left, y from the baseline.
        conv = [np.column_stack([s[:, 0] - 0.5 + advance / 2, s[:, 1] - baseline]) for s in strokes]
        (body if is_body else marks).extend(conv)
    rnd = lambda ss: [np.round(s, 4).tolist() for s in ss]
    return {"advance": round(advance, 4), "body": rnd(body), "marks": rnd(marks)}


def build_forms(font_path: str = FONT, out: str = DATA) -> dict:
    """Traces every form ``forms`` can ask for (the letters' four forms, lam-alef, digits, punctuation) from
    ``font_path`` into ``out`` (JSON: {character: {advance, body, marks}})."""
    chars = set()
    for c in LETTERS:
        for f in FORM_NAMES:
            p = presentation_form(c, f)
            if p is not None:
                chars.add(p)
    chars |= {p for pair in LAM_ALEF.values() for p in pair}
    chars |= set(ARABIC_DIGITS + PERSIAN_DIGITS + PUNCTUATION)
    table = {c: _glyph_parts(font_path, c) for c in sorted(chars)}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"source": "Noto Naskh Arabic Regular (SIL OFL 1.1), traced by writing/outlines.py",
                   "units": "em; x from the advance box's left edge, y down from the baseline",
                   "forms": table}, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    return table


@lru_cache(maxsize=1)
def _table() -> dict:
    with open(DATA, encoding="utf-8") as f:
        return json.load(f)["forms"]


def glyph(char: str) -> Optional[tuple[float, list[np.ndarray], list[np.ndarray]]]:
    """(advance, body strokes, mark strokes) of presentation character ``char`` in x-height units (x from the
    advance box's left edge, y down, baseline 0), or None when it was not traced."""
    g = _table().get(char)
    if g is None:
        return None
    s = 1.0 / EM_PER_X
    return (g["advance"] * s, [np.asarray(p, dtype=np.float64) * s for p in g["body"]],
            [np.asarray(p, dtype=np.float64) * s for p in g["marks"]])


def covers(word: str) -> bool:
    """Whether every glyph of ``word`` has traced centre lines."""
    return all(_table().get(p) is not None for _, _, p in forms(word))


# -------------------------------------------------------------------------------------------- writing

def pieces(word: str) -> list[list[tuple[str, str, str]]]:
    """``forms(word)`` cut into connected pieces: a piece ends after a glyph in isolated or final form."""
    out, cur = [], []
    for g in forms(word):
        cur.append(g)
        if g[1] in ("isolated", "final"):
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def pen_order(fragments: Sequence[np.ndarray], reach: float = 0.35) -> list[np.ndarray]:
    """Body fragments of one piece as a right-to-left writer's pen strokes: the rightmost fragment first (by
    its right end), a mostly vertical fragment from its top, others from their right end; a fragment that
    starts within ``reach`` of the last stroke's end continues it (the pen did not lift)."""
    frags = [np.asarray(f, dtype=np.float64) for f in fragments if len(f)]
    frags.sort(key=lambda f: -float(f[:, 0].max()))
    out: list[np.ndarray] = []
    for f in frags:
        if len(f) >= 2:
            closed = np.linalg.norm(f[0] - f[-1]) < 1e-6
            dx, dy = f[-1] - f[0]
            if not closed and ((abs(dy) > abs(dx) and dy < 0) or (abs(dy) <= abs(dx) and dx > 0)):
                f = f[::-1].copy()
            if out and not closed and np.linalg.norm(f[-1] - out[-1][-1]) < np.linalg.norm(f[0] - out[-1][-1]) \
                    and np.linalg.norm(f[-1] - out[-1][-1]) < reach:
                f = f[::-1].copy()  # the end nearer the pen goes first
        if out and np.linalg.norm(f[0] - out[-1][-1]) < reach:
            out[-1] = np.concatenate([out[-1], f])
        else:
            out.append(f)
    return out


class Piece(NamedTuple):
    """One connected piece of a word as ``word_pieces`` lays it out (x-height units, right to left from 0)."""
    body: list[np.ndarray]   # pen strokes of its body (``pen_order``: fragments of several glyphs merged)
    marks: list[np.ndarray]  # its marks (dots, hamza, madda, bars), rightmost first
    width: float
    owners: list[int]        # per mark, the index in the word of the character it belongs to


def mark_owner(text: str, start: int) -> int:
    """The index in the word of the character that owns the marks of a glyph writing ``text`` from index
    ``start``: the glyph's last character. For a lam-alef that is the alef (أ's hamza, آ's madda); lam has no
    mark. Any other glyph writes one character."""
    return start + len(text) - 1


def word_pieces(w: str) -> Optional[list[Piece]]:
    """The pieces of ``w`` (``Piece``): its glyphs placed at the font's advances right to left from x = 0,
    each piece's body in pen order and its marks with the character each belongs to. None when a glyph was
    not traced."""
    if not covers(w):
        return None
    out, start = [], 0
    for piece in pieces(w):
        x, body, marks, owners = 0.0, [], [], []
        for text, _, p in piece:
            adv, b, m = glyph(p)
            shift = np.array([x - adv, 0.0])
            body += [s + shift for s in b]
            marks += [s + shift for s in m]
            owners += [mark_owner(text, start)] * len(m)
            x -= adv
            start += len(text)
        order = sorted(range(len(marks)), key=lambda k: -float(marks[k][:, 0].max()))  # rightmost first
        out.append(Piece(pen_order(body), [marks[k] for k in order], -x, [owners[k] for k in order]))
    return out


def word(w: str, rng: random.Random, heldout: bool = False, hold_out_forms: bool = False, owners: bool = False
         ) -> Optional[list[tuple]]:
    """The pieces of ``w`` as ``write_word`` takes them: per connected piece (pen strokes of its body in
    x-height units, its marks, its width), its glyphs placed at the font's advances right to left from x = 0;
    with ``owners``, a fourth item: per mark, the index in ``w`` of its character (``word_pieces``).
    None when a glyph was not traced. ``rng``, ``heldout`` and ``hold_out_forms`` are taken as the other
    scripts' ``word`` take them (one traced form per glyph: nothing to choose)."""
    got = word_pieces(w)
    if got is None:
        return None
    return [tuple(p) if owners else (p.body, p.marks, p.width) for p in got]


def written_order(parts: Sequence[np.ndarray], style, rng: random.Random, centre: Sequence[float]) -> list[int]:
    """For each stroke that ``writer.char_strokes(parts, style, rng, centre=centre, join_reach=0.0)`` will
    return, the index in ``parts`` of the stroke it writes: the writer may swap two neighbouring strokes
    (``Style.swap``), even a body stroke and a mark. Found without advancing ``rng``: stand-ins for
    ``parts`` (stroke k: as many points as it, all at x = k·10⁴, y = 0) are written with a copy of ``rng``'s
    state, which draws the same numbers (the draws depend on the strokes' count and lengths, not their
    points); the writer's small turns, shears and shifts keep the stand-ins' order in x."""
    from . import writer
    copy = random.Random()
    copy.setstate(rng.getstate())
    stand_ins = [np.column_stack([np.full(len(p), 1e4 * k), np.zeros(len(p))]) for k, p in enumerate(parts)]
    written = writer.char_strokes(stand_ins, style, copy, centre=centre, join_reach=0.0)
    if len(written) != len(parts):
        raise AssertionError(f"char_strokes wrote {len(written)} strokes for {len(parts)}")
    xs = [float(s[:, 0].mean()) for s in written]
    return [int(r) for r in np.argsort(np.argsort(xs))]


def write_word(w: str, rules, style, rng: random.Random, unit: float = 100.0) -> Optional[list[np.ndarray]]:
    """Word ``w`` written by ``style`` right to left: each connected piece varied as ``writer.char_strokes``
    varies a glyph (about its own centre), placed with the writer's gaps between pieces, its marks right
    after it or, for half the words, after the whole word. Returns ``[x, y, t]`` arrays, ``unit`` per
    x-height, or None when a glyph was not traced."""
    got = _write(w, rules, style, rng, unit, track=False)
    return None if got is None else got[0]


def write_word_with_owners(w: str, rules, style, rng: random.Random, unit: float = 100.0
                           ) -> Optional[tuple[list[np.ndarray], list[Optional[int]]]]:
    """``write_word``'s strokes (the same ones, from the same draws of ``rng``) and, per stroke, the index in
    ``w`` of the character a mark stroke (dot, hamza, madda, bar) belongs to, or None for a body stroke (a
    piece's body strokes run across its glyphs: no single owner). What an alignment of the marks is
    scored against (``families.scripts.alignment``)."""
    return _write(w, rules, style, rng, unit, track=True)


def _write(w: str, rules, style, rng: random.Random, unit: float, track: bool
           ) -> Optional[tuple[list[np.ndarray], list[Optional[int]]]]:
    """``write_word`` and, with ``track``, each stroke's owner (``write_word_with_owners``); without it the
    owners are all None. Tracking draws nothing from ``rng`` (``written_order``)."""
    from . import writer
    got = word_pieces(w)
    if got is None:
        return None
    late = rng.random() < 0.5  # this word's dots after the whole word, else after each piece
    strokes: list[np.ndarray] = []
    owners: list[Optional[int]] = []
    pauses: list[float] = []
    tail: list[tuple[np.ndarray, Optional[int]]] = []
    x, base = 0.0, 0.0
    for body, marks, width, mark_owners in got:
        parts = body + marks
        part_owners = [None] * len(body) + list(mark_owners)
        allp = np.concatenate(parts)
        centre = (0.5 * float(allp[:, 0].min() + allp[:, 0].max()), -0.5)
        order = written_order(parts, style, rng, centre) if track else None
        written = writer.char_strokes(parts, style, rng, centre=centre, join_reach=0.0)
        who = [None] * len(parts) if order is None else [part_owners[k] for k in order]
        if order is not None and [len(s) for s in written] != [len(parts[k]) for k in order]:
            raise AssertionError("written_order does not match the strokes char_strokes wrote")
        size = float(np.clip(math.exp(rng.gauss(0, style.size_var * 0.5)), 0.85, 1.2))
        base = float(np.clip(base + rng.gauss(0, style.drift), -0.2, 0.2))
        right = float(np.concatenate(written)[:, 0].max())
        placed = [(s - np.array([right, 0.0])) * size + np.array([x, base]) for s in written]
        nb = len(body)
        for s, o in zip(placed[:nb], who[:nb]):
            strokes.append(s)
            owners.append(o)
            pauses.append(rng.uniform(0.03, 0.1))
        for s, o in zip(placed[nb:], who[nb:]):
            if late:
                tail.append((s, o))
            else:
                strokes.append(s)
                owners.append(o)
                pauses.append(rng.uniform(0.05, 0.15))
        left = float(np.concatenate(placed)[:, 0].min())
        x = left - rng.uniform(*rules.letter_gap) * (0.5 + style.spacing * 2)
    for s, o in tail:
        strokes.append(s)
        owners.append(o)
        pauses.append(rng.uniform(0.05, 0.15))
    scale = np.array([unit, unit, 1.0])
    inks = writer.pen(strokes, np.asarray(pauses), style, rng)  # one ink stroke per stroke, in order
    return [p * scale for p in inks], owners


def main() -> None:
    import argparse
    ap = argparse.ArgumentParser(description="Traces Noto Naskh Arabic's joining forms into writing/data/arabic_forms.json")
    ap.add_argument("--font", default=FONT, help="NotoNaskhArabic-Regular.ttf (Debian fonts-noto-core)")
    ap.add_argument("--out", default=DATA)
    args = ap.parse_args()
    table = build_forms(args.font, args.out)
    print(f"{args.out}: {len(table)} glyphs traced from {args.font}")
