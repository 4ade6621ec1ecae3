"""Brahmic scripts written from a font's glyphs traced once (Devanagari, Bengali, Tamil, Thai): the machinery, with
each script's particulars as data (``Script``); ``devanagari.py``, ``bengali.py``, ``tamil.py`` and ``thai.py`` hold
those. Thai's differences are settings too, each off for the other three: its marks above written from the lowest up
(``Script.top_order``: a tone mark after the vowel it stands on), a stacked tone mark's shaping offset mended
(``Script.reshape``), strokes started at their head loop (``Script.loop_start``).

A Hindi network trains on Devanagari's ink, and it ships: ``tests/test_indic.py`` pins the ink of Hindi, Bengali and
Tamil byte for byte, so that nothing one script needs changes another's ink (Devanagari's differences are settings:
``Script.head_rule``, ``Script.late_pause``).

* **Syllables**: each script's own pattern (``Script.syllable``); shaping never reaches across one.
* **Shaping** (``Script.build``): each syllable of a vocabulary (``vocabulary``) shaped once by HarfBuzz
  (``uharfbuzz``, Apache-2.0) with the script's Noto Sans font (Debian fonts-noto-core, SIL OFL 1.1) into glyph
  names, x positions and advance, stored with the traced glyphs in ``writing/data/<script>_glyphs.json.gz``.
  Generation needs no font, no HarfBuzz: a word with a syllable outside the table is not covered (``covers``).
* **Glyphs**: each glyph filled, thinned and traced into centre lines by ``outlines``. A script with a headline
  (``Script.head_band``: Devanagari, Bengali) has the band taken out first (strokes running through it kept whole,
  stroke ends the removal cut carried on to the band's middle line) and the x runs where the glyph has headline
  recorded. Each traced part is *top* (wholly above ``Script.top_em``: reph, candrabindu, e-matra, the Tamil
  pulli), *below* (wholly under the baseline: u-signs, virama / hasanta, nukta) or *body*; a glyph named with one
  of ``Script.pre`` is a pre-base vowel sign (Devanagari ि; Bengali ি ে ৈ, the left halves of ো ৌ; Tamil ெ ே ை,
  the left halves of ொ ோ ௌ).
* **Writing** (``Script.write_labelled``): per syllable, left to right: the bodies of its glyphs left to right (the
  vertical stems last inside a glyph, each open stroke from its top, or its left when flat), then the pre-base
  vowel sign *after* the consonant it follows in text though it sits left of it (the letter first, as it is read:
  the order issue 40 chose for Devanagari's ि), then the marks below, then the marks above. A script with a
  headline gets it as one stroke per run of syllables carrying one (a digit, a danda or a syllable with no
  headline breaks it), after all the word's bodies; a third of the words have their top marks after everything
  else (a writer that finishes the word first), never before their own syllable.

Units: x-height units as the rest of the kit (baseline y = 0, y down); ``Script.em_per_x`` em of the font is one
x-height.
"""
from __future__ import annotations

import dataclasses
import gzip
import json
import math
import os
import random
import re
import unicodedata
from functools import lru_cache
from typing import Callable, Optional, Sequence

import numpy as np

UPM = 1000.0      # the data's units: 1/1000 em (the fonts' own units; ``build`` checks)
PX_PER_EM = 160   # rasterizing resolution when tracing


@dataclasses.dataclass
class Akshara:
    """One syllable's strokes in writing order, in x-height units (x from its origin, y down, baseline 0)."""
    text: str
    body: list          # the bodies of its glyphs other than the pre-base vowel sign, left to right
    pre: list           # the pre-base vowel sign's strokes (drawn left of the consonant, written after it)
    below: list         # u-signs, virama, nukta
    top: list           # e-matras, anusvara, candrabindu, reph, the hook of o/au, the pulli
    head: Optional[tuple[float, float]]  # the headline's x extent, or None
    advance: float


@dataclasses.dataclass(frozen=True)
class Script:
    """What differs between the Brahmic scripts this module writes, and the script's functions (its module's)."""
    name: str                                  # "Bengali"
    font: str                                  # the Noto Sans font traced by ``build``
    data: str                                  # the JSON table ``build`` writes and generation reads
    syllable: "re.Pattern"                     # one orthographic syllable (or any other single character)
    pre: tuple                                 # glyph name prefixes of the pre-base vowel signs
    em_per_x: float                            # em of the font per x-height
    top_em: float                              # a traced part wholly above this height (em) is a top mark
    head_band: Optional[tuple] = None          # (bottom, top) of the headline band, font units, or None
    # Where a glyph has headline: "full", columns where the band is inked through its whole height, in runs of at
    # least 0.115 em, the band taken out over those runs only (Bengali: the flat top of ং (0.106 em) or ঃ (0.112),
    # a danda's stem (0.075) fill the band without being headline; the shortest true headline, the stub of ধ, is
    # 0.118 em); "row", any ink on the band's middle row, in runs of at least 0.04 em, the band taken out across
    # the glyph (Devanagari, whose table was traced so)
    head_rule: str = "full"
    head_join: float = 0.6                     # syllables' headlines closer than this (x-heights) are one stroke
    centre_y: float = -0.65                    # a syllable's centre of variation (x-heights, y down)
    late_pause: bool = True                    # a longer pause before top marks left for after the word (not
    #                                            Devanagari's: its ink was pinned without it)
    vocabulary: Optional[Callable[[int], list]] = None  # the syllables ``build`` shapes, of the n most frequent words
    source: Optional[str] = None               # the table's "source" line (None: named after the font)
    # the order of a syllable's marks above: "x", left to right (Devanagari, Bengali, Tamil); "height", the lowest
    # first (Thai: a tone mark after the vowel sign it stands on)
    top_order: str = "x"
    # ``build``: the shaped glyphs of a syllable, (name, x, y, advance, cluster) each, mended before they are stored
    # (Thai: a stacked tone mark's offset); None: as HarfBuzz gives them
    reshape: Optional[Callable[[list], list]] = None
    # an open stroke with a small loop (a head) at one end only starts there (Thai: "the head first"); False:
    # from its top or its left end (``_pen_order``)
    loop_start: bool = False

    def syllables(self, word: str) -> list[str]:
        """``word`` (NFC) cut into orthographic syllables; characters outside the script come one each."""
        return self.syllable.findall(unicodedata.normalize("NFC", word))

    @property
    def head_mid(self) -> Optional[float]:
        """The headline stroke's height, x-heights above the baseline (None: no headline)."""
        return None if self.head_band is None else sum(self.head_band) / 2 / UPM / self.em_per_x

    # -------------------------------------------------------------------------------------------- data

    def shaped(self, syllable: str) -> Optional[list[tuple[str, float, float]]]:
        """The glyphs of ``syllable`` as (glyph name, x, y) in x-height units (x from the syllable's start, y up
        as HarfBuzz gives offsets), or None when the table lacks it."""
        d = data(self.data)
        got = d["shapes"].get(syllable)
        if got is None:
            return None
        s = 1.0 / (UPM * self.em_per_x)
        return [(d["names"][got[k]], got[k + 1] * s, got[k + 2] * s) for k in range(1, len(got), 3)]

    def covers(self, word: str) -> bool:
        """Whether every syllable of ``word`` is in the table (every glyph the table names is traced)."""
        shapes = data(self.data)["shapes"]
        sy = self.syllables(word)
        return bool(sy) and all(s in shapes for s in sy)

    def akshara(self, syllable: str) -> Optional[Akshara]:
        """``syllable``'s glyphs placed and sorted into the writing order's groups, or None when not in the
        table."""
        got = self.shaped(syllable)
        if got is None:
            return None
        d = data(self.data)
        table = d["glyphs"]
        s = 1.0 / (UPM * self.em_per_x)
        body_glyphs, pre, below, top, heads = [], [], [], [], []
        for name, x, y in got:
            g = table.get(name)
            if g is None:
                return None
            shift = np.array([x, -y])
            conv = lambda ss: [np.asarray(p, dtype=np.float64).reshape(-1, 2) * s + shift for p in ss]
            b = conv(g["body"])
            if g["pre"]:
                pre += _pen_order(b, self.loop_start)
            elif b:
                body_glyphs.append((x + float(np.mean([p[:, 0].mean() for p in b])), _pen_order(b, self.loop_start)))
            below += conv(g["below"])
            top += conv(g["top"])
            heads += [(a * s + x, c * s + x) for a, c in g["head"]]
        body = [p for _, ps in sorted(body_glyphs, key=lambda t: t[0]) for p in ps]
        below.sort(key=lambda p: float(p[:, 0].mean()))
        if self.top_order == "height":  # y down: the lowest (largest y) first
            top.sort(key=lambda p: (-float(p[:, 1].mean()), float(p[:, 0].mean())))
        else:
            top.sort(key=lambda p: float(p[:, 0].mean()))
        head = (min(a for a, _ in heads), max(c for _, c in heads)) if heads else None
        adv = d["shapes"][syllable][0] / (UPM * self.em_per_x)
        return Akshara(syllable, body, pre, below, top, head, adv)

    def word(self, w: str, rng: Optional[random.Random] = None, heldout: bool = False,
             hold_out_forms: bool = False) -> Optional[list[Akshara]]:
        """The syllables of ``w`` (``Akshara``, each from its own origin), or None when one is not in the table.
        ``rng``, ``heldout`` and ``hold_out_forms`` are taken as the other scripts' ``word`` take them (one traced
        form per glyph: nothing to choose)."""
        out = []
        for sy in self.syllables(w):
            a = self.akshara(sy)
            if a is None:
                return None
            out.append(a)
        return out or None

    # ----------------------------------------------------------------------------------------- writing

    def write_word(self, w: str, rules, style, rng: random.Random, unit: float = 100.0
                   ) -> Optional[list[np.ndarray]]:
        """Word ``w`` written by ``style`` (``write_labelled``): ``[x, y, t]`` arrays, ``unit`` per x-height, or
        None when ``w`` is not covered."""
        got = self.write_labelled(w, rules, style, rng, unit)
        return None if got is None else got[0]

    def write_labelled(self, w: str, rules, style, rng: random.Random, unit: float = 100.0
                       ) -> Optional[tuple[list[np.ndarray], list[str]]]:
        """Word ``w`` written by ``style`` left to right (module doc, "Writing"): each syllable varied as
        ``writer.char_strokes`` varies a glyph (about its own centre, no strokes swapped across its groups),
        placed at its advance with the writer's size changes, baseline drift and a small gap; the headline after
        the bodies. ``[x, y, t]`` arrays (``unit`` per x-height) and for each stroke what it draws: ``"body:i"``,
        ``"pre:i"``, ``"below:i"``, ``"top:i"`` for syllable i of ``syllables(w)``, or ``"head"``; None when ``w``
        is not covered."""
        from . import writer
        got = self.word(w)
        if got is None:
            return None
        labels: list[str] = []
        tail_labels: list[str] = []
        late_top = rng.random() < 1 / 3
        still = dataclasses.replace(style, swap=0.0)
        strokes: list[np.ndarray] = []
        pauses: list[float] = []
        tail: list[np.ndarray] = []
        segments: list[Optional[np.ndarray]] = []   # each syllable's placed headline segment, or None
        head_y = None if self.head_mid is None else -self.head_mid
        x, base, size = 0.0, 0.0, 1.0
        for j, a in enumerate(got):
            body = list(a.body)
            if len(body) >= 2 and rng.random() < style.swap:  # the writer's swaps, inside the body only
                k = rng.randrange(len(body) - 1)
                body[k], body[k + 1] = body[k + 1], body[k]
            parts = body + a.pre + a.below + a.top
            head = [_line(a.head[0], a.head[1], head_y)] if a.head and head_y is not None else []
            if not parts:
                x += a.advance
                segments.append(None)
                continue
            allp = np.concatenate(parts)
            centre = (0.5 * float(allp[:, 0].min() + allp[:, 0].max()), self.centre_y)
            written = writer.char_strokes(parts + head, still, rng, centre=centre, join_reach=0.0)
            size = float(np.clip(size * math.exp(rng.gauss(0, style.size_var * 0.5)), 0.85, 1.18))
            base = float(np.clip(base + rng.gauss(0, style.drift), -0.2, 0.2))
            placed = [s * size + np.array([x, base]) for s in written]
            nb, npre, nbelow = len(body), len(a.pre), len(a.below)
            for i, s in enumerate(placed[:len(parts)]):
                group = ("body" if i < nb else "pre" if i < nb + npre else "below" if i < nb + npre + nbelow
                         else "top")
                if group == "top" and late_top:
                    tail.append(s)
                    tail_labels.append(f"top:{j}")
                    continue
                strokes.append(s)
                labels.append(f"{group}:{j}")
                pauses.append(rng.uniform(0.05, 0.15) if i >= nb else rng.uniform(0.03, 0.1))
            segments.append(placed[-1] if head else None)
            gap = rng.uniform(*rules.letter_gap) * (0.5 + style.spacing)
            x += a.advance * size + gap
        heads = _headlines(segments, self.head_join)
        if strokes and heads:
            pauses[-1] = rng.uniform(0.1, 0.25)
        for h in heads:
            strokes.append(h)
            labels.append("head")
            pauses.append(rng.uniform(0.05, 0.15))
        if self.late_pause and strokes and tail:
            pauses[-1] = max(pauses[-1], rng.uniform(0.08, 0.2))
        for s in tail:
            strokes.append(s)
            pauses.append(rng.uniform(0.05, 0.15))
        labels += tail_labels
        if not strokes:
            return None
        scale = np.array([unit, unit, 1.0])
        return [p * scale for p in writer.pen(strokes, np.asarray(pauses), style, rng)], labels

    # ------------------------------------------------------------------------------------------- build

    def build(self, font_path: Optional[str] = None, out: Optional[str] = None, n_words: int = 20000) -> dict:
        """Shapes the syllables of ``vocabulary(n_words)`` and traces every glyph they use into ``out`` (JSON)."""
        from fontTools.ttLib import TTFont
        font_path, out = font_path or self.font, out or self.data
        font = TTFont(font_path, lazy=True)
        if font["head"].unitsPerEm != UPM:
            raise ValueError(f"{font_path}: {font['head'].unitsPerEm} units per em, the tracer expects {UPM:g}")
        shape = _shaper(font_path)
        shaped_all, used = {}, {}
        for s in self.vocabulary(n_words):
            got = shape(s)
            if self.reshape is not None:
                got = self.reshape(got)
            if any(g[0] == ".notdef" or "dottedcircle" in g[0] for g in got):
                continue
            shaped_all[s] = got
            for g in got:
                used[g[0]] = g[3]
        names = sorted(used)
        index = {n: i for i, n in enumerate(names)}
        # a syllable: [its advance, then (glyph index, x, y) of each glyph], flat, in 1/1000 em
        shapes = {s: [sum(g[3] for g in got)] + [v for g in got for v in (index[g[0]], g[1], g[2])]
                  for s, got in shaped_all.items()}
        gs = font.getGlyphSet()
        glyphs = {n: trace_glyph(self, gs, n, font["hmtx"][n][0]) for n in names}
        for n, e in glyphs.items():
            e["pre"] = n.startswith(self.pre)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        source = self.source or (f"{os.path.basename(font_path)} (Noto Sans {self.name}, SIL OFL 1.1), shaped by "
                                 "HarfBuzz (uharfbuzz), traced by writing/indic.py with writing/outlines.py")
        doc = {"source": source,
               "units": "1/1000 em; x from the glyph's origin, y down from the baseline",
               "shapes_format": "syllable: [advance, glyph index in names, x, y, glyph index, x, y, ...]",
               "head_band": list(self.head_band) if self.head_band else None, "names": names, "glyphs": glyphs,
               "shapes": shapes}
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
        with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:  # the same bytes every build
            f.write(text.encode("utf-8"))
        return doc

    def main(self, argv: Optional[list[str]] = None) -> None:
        """The command line of ``build`` (``scripts data <script>-glyphs``)."""
        import argparse
        name = os.path.basename(self.data)
        ap = argparse.ArgumentParser(description=f"Shapes {self.name} syllables with HarfBuzz and traces the glyphs of "
                                                 f"{os.path.basename(self.font)} into writing/data/{name}")
        ap.add_argument("--font", default=self.font, help=f"{os.path.basename(self.font)} (Debian fonts-noto-core)")
        ap.add_argument("--out", default=self.data)
        ap.add_argument("--words", type=int, default=20000, help="the most frequent words whose syllables are shaped")
        args = ap.parse_args(argv)
        doc = self.build(args.font, args.out, args.words)
        print(f"{args.out}: {len(doc['shapes'])} syllables, {len(doc['glyphs'])} glyphs from {args.font}, "
              f"{os.path.getsize(args.out)} bytes")


# ------------------------------------------------------------------------------------------------ data

@lru_cache(maxsize=None)
def data(path: str) -> dict:
    """A glyph table (``Script.build``'s gzipped JSON)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _pen_order(strokes: Sequence[np.ndarray], loop_start: bool = False) -> list[np.ndarray]:
    """One glyph's strokes as a hand writes them: left to right by their middle, a tall stem after what lies
    left of it; each open stroke from its top (mostly vertical) or its left end (mostly flat), or (``loop_start``)
    from the one of its ends that curls into a small loop (``_curls``)."""
    out = []
    for s in strokes:
        if len(s) >= 2 and np.linalg.norm(s[0] - s[-1]) > 1e-9:
            dx, dy = s[-1] - s[0]
            first, last = (_curls(s), _curls(s[::-1])) if loop_start else (False, False)
            if first != last:
                if last:
                    s = s[::-1].copy()
            elif (abs(dy) >= 0.7 * abs(dx) and dy < 0) or (abs(dy) < 0.7 * abs(dx) and dx < 0):
                s = s[::-1].copy()
        out.append(s)

    def key(s):
        w, h = np.ptp(s[:, 0]), np.ptp(s[:, 1])
        stem = h > 3 * max(w, 1e-9) and h > 0.5
        return (float(s[:, 0].mean()) + (0.4 if stem else 0.0))
    return sorted(out, key=key)


def _curls(s: np.ndarray, reach: float = 1.0, step: float = 0.03) -> bool:
    """Whether open stroke ``s`` (x-heights) curls into a loop within ``reach`` of its start: its direction turns
    by more than 1.25 half-turns one way over that length (a loop, entered from the stroke, turns about 1.5 as
    traced; a corner, a V, a bow or the pixel steps of a traced line do not)."""
    seg = np.linalg.norm(np.diff(s, axis=0), axis=1)
    arc = np.concatenate([[0.0], np.cumsum(seg)])
    if arc[-1] < 4 * step:
        return False
    u = np.arange(0.0, min(reach, arc[-1]), step)
    p = np.column_stack([np.interp(u, arc, s[:, 0]), np.interp(u, arc, s[:, 1])])
    d = np.diff(p, axis=0)
    ang = np.arctan2(d[:, 1], d[:, 0])
    turn = (np.diff(ang) + np.pi) % (2 * np.pi) - np.pi
    return bool(len(turn) and np.abs(np.cumsum(turn)).max() > 1.25 * np.pi)


def _line(a: float, b: float, y: float, n: int = 6) -> np.ndarray:
    return np.column_stack([np.linspace(a, b, n), np.full(n, y)])


def _headlines(segments: list[Optional[np.ndarray]], join: float) -> list[np.ndarray]:
    """The word's headline strokes from its syllables' placed segments (None: a syllable without one): one stroke
    per run of segments less than ``join`` apart, left to right."""
    runs: list[list[np.ndarray]] = []
    prev = None
    for seg in segments:
        if seg is None:
            prev = None
            continue
        if prev is None or seg[0, 0] - prev[-1, 0] > join:
            runs.append([])
        runs[-1].append(seg)
        prev = seg
    heads = []
    for run in runs:  # the segments in turn, each from where the last one ended (overlaps dropped)
        pts = [run[0][np.argsort(run[0][:, 0])]]
        for seg in run[1:]:
            seg = seg[np.argsort(seg[:, 0])]
            seg = seg[seg[:, 0] > pts[-1][-1, 0] + 0.02]
            if len(seg):
                pts.append(seg)
        pts = np.concatenate(pts)
        if len(pts) >= 3:  # evened out as a hand draws one line: every 0.1 x-height, y smoothed
            xs = np.linspace(pts[0, 0], pts[-1, 0], max(3, int((pts[-1, 0] - pts[0, 0]) / 0.1) + 1))
            ys = np.interp(xs, pts[:, 0], pts[:, 1])
            k = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
            sm = np.convolve(np.pad(ys, 2, mode="edge"), k / k.sum(), "valid")
            pts = np.column_stack([xs, sm])
        heads.append(pts)
    return heads


def consonant_syllable(consonants: str, nukta: str, virama: str, matras: str, signs: str) -> tuple[str, "re.Pattern"]:
    """The pattern of a syllable that is a consonant cluster, ``(C nukta? virama ZWJ/ZWNJ?)* C nukta? (virama
    ZWJ/ZWNJ? | matra*) sign*`` (``matras``, ``signs``: character classes), and the pattern of its conjunct (its
    consonants and viramas, group 1)."""
    c = f"[{consonants}]"
    syllable = f"(?:{c}{nukta}?{virama}[\u200c\u200d]?)*{c}{nukta}?(?:{virama}[\u200c\u200d]?|{matras}*){signs}*"
    return syllable, re.compile(f"((?:{c}{nukta}?{virama})+{c}{nukta}?)")


# ---------------------------------------------------------------------------------------------- build

def vocabulary(words: Sequence[str], sc: Script, consonants: Sequence[str], vowels: str, matras: str, virama: str,
               signs: tuple, final_signs: tuple, conjunct: "re.Pattern", more_conjuncts: Sequence[str], singles,
               lone_marks: bool = False, vowels_first: bool = False) -> list[str]:
    """The syllables a table holds, most needed first: those of ``words`` (a syllable that is a sign with no
    letter before it, a typo, only when ``lone_marks``); every consonant (in ``consonants``) bare, with each vowel
    sign and with the virama, each with or without each of ``signs``, then with each of ``final_signs``; every
    conjunct matched by ``conjunct`` in the words or listed in ``more_conjuncts`` as the consonants; the
    independent vowels with each sign (before the conjuncts when ``vowels_first``, Devanagari's order); each of
    ``singles`` (digits, dandas, ligatures such as ஸ்ரீ) as it is."""
    seen: dict[str, None] = {}
    conjuncts: dict[str, None] = {}
    for w in words:
        for s in sc.syllables(w):
            if not lone_marks and unicodedata.category(s[0]).startswith("M"):
                continue
            seen[s] = None
            m = conjunct.match(s)
            if m:
                conjuncts[m.group(1)] = None

    def forms(bases, finals=()):
        for b in bases:
            for m in [""] + list(matras) + [virama]:
                for sign in ("",) + tuple(signs) if m != virama else ("",):
                    seen[b + m + sign] = None
            for sign in finals:
                seen[b + sign] = None

    def vowel_forms():
        for v in vowels:
            for sign in ("",) + tuple(signs) + tuple(final_signs):
                seen[v + sign] = None
    forms(consonants, final_signs)
    if vowels_first:
        vowel_forms()
    forms(list(conjuncts) + list(more_conjuncts))
    if not vowels_first:
        vowel_forms()
    for c in singles:
        seen[c] = None
    return list(seen)


def _shaper(font_path: str):
    import uharfbuzz as hb
    from fontTools.ttLib import TTFont
    font = hb.Font(hb.Face(hb.Blob.from_file_path(font_path)))
    order = TTFont(font_path, lazy=True).getGlyphOrder()

    def shape(s: str) -> list[tuple[str, int, int, int, int]]:
        """(glyph name, x, y, advance, cluster) of each glyph of ``s``, x from the start of ``s``."""
        buf = hb.Buffer()
        buf.add_str(s)
        buf.guess_segment_properties()
        hb.shape(font, buf, {})
        out, x = [], 0
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            out.append((order[info.codepoint], x + pos.x_offset, pos.y_offset, pos.x_advance, info.cluster))
            x += pos.x_advance
        return out
    return shape


def _glyph_image(glyph_set, name: str):
    """The glyph filled at ``PX_PER_EM``: (image, x0, y0, side) with pixel (r, c) centred at em
    ``(x0 + (c + 0.5) / size * side, y0 + (r + 0.5) / size * side)`` (y down, baseline 0); None when empty."""
    from . import outlines
    pen = outlines._flatten_pen_class()(glyph_set, 8)
    glyph_set[name].draw(pen)
    if not pen.contours:
        return None
    cs = [np.column_stack([np.array(c)[:, 0] / UPM, -np.array(c)[:, 1] / UPM]) for c in pen.contours]
    allp = np.concatenate(cs)
    margin = 0.03
    x0, y0 = float(allp[:, 0].min()) - margin, float(allp[:, 1].min()) - margin
    side = max(float(allp[:, 0].max()) - x0, float(allp[:, 1].max()) - y0) + margin
    size = int(math.ceil(side * PX_PER_EM))
    side = size / PX_PER_EM
    img = outlines.rasterize_polygons([(c - [x0, y0]) / side for c in cs], size, rule="nonzero")
    return img, x0, y0, side


def _to_headline(sc: Script, em: np.ndarray, reach: float = 0.06) -> np.ndarray:
    """An open stroke (em, y down) whose end stops at the edge of the taken-out headline band, carried on to the
    band's middle line, where the headline stroke runs (so stems and marks meet it)."""
    bottom, top = sc.head_band
    mid = -(bottom + top) / 2 / UPM
    edges = (-bottom / UPM, -top / UPM)
    out = em
    # (thinning leaves a stroke's end about half its width short of where the ink ended)
    if abs(out[0, 1] - edges[0]) <= reach or abs(out[0, 1] - edges[1]) <= 0.025:
        out = np.concatenate([[[out[0, 0], mid]], out])
    if abs(out[-1, 1] - edges[0]) <= reach or abs(out[-1, 1] - edges[1]) <= 0.025:
        out = np.concatenate([out, [[out[-1, 0], mid]]])
    return out


def trace_glyph(sc: Script, glyph_set, name: str, advance: int) -> dict:
    """One glyph as the data file holds it: ``adv``, ``body`` / ``top`` / ``below`` strokes and the ``head`` runs
    (module doc, "Glyphs"), coordinates in 1/1000 em, y down."""
    from . import outlines
    got = _glyph_image(glyph_set, name)
    entry = {"adv": int(advance), "body": [], "top": [], "below": [], "head": []}
    if got is None:
        return entry
    img, x0, y0, side = got
    size = img.shape[0]
    yc = y0 + (np.arange(size) + 0.5) / size * side            # em, y down, of each row
    xc = x0 + (np.arange(size) + 0.5) / size * side
    tol = 0.012
    work = img.copy()
    band = []
    if sc.head_band is not None:
        bottom, top = sc.head_band
        band = np.nonzero((yc >= -top / UPM - tol) & (yc <= -bottom / UPM + tol))[0]
    if len(band):
        # the headline: where the band is inked (``Script.head_rule``), in runs of a least length
        r0, r1 = int(band[0]), int(band[-1])
        if sc.head_rule == "row":
            inked, least = img[(r0 + r1) // 2], 0.04
        else:
            core = img[(yc >= -top / UPM) & (yc <= -bottom / UPM)]
            inked, least = core.mean(axis=0) >= 0.85 if len(core) else np.zeros(size, bool), 0.115
        runs, start, cut = [], None, np.zeros(size, bool)
        margin = int(round(0.02 * PX_PER_EM))
        for c in range(size + 1):
            on = c < size and inked[c]
            if on and start is None:
                start = c
            elif not on and start is not None:
                if (c - start) / PX_PER_EM >= least:
                    runs.append([int(round(xc[start] * UPM)), int(round(xc[c - 1] * UPM))])
                    cut[max(0, start - margin):min(size, c + margin)] = True
                start = None
        entry["head"] = runs
        if sc.head_rule == "row":
            cut[:] = True
        # the band taken out (where cut), except in columns where a stroke runs through it (ink just above and below)
        above = img[r0 - 1] if r0 > 0 else np.zeros(size, bool)
        below = img[r1 + 1] if r1 + 1 < size else np.zeros(size, bool)
        k = 2
        near = lambda a: np.convolve(a.astype(int), np.ones(2 * k + 1, int), "same") > 0
        through = near(above) & near(below) & above & below
        for c in range(size):
            if cut[c] and not through[c]:
                work[r0:r1 + 1, c] = False
        if not runs and sc.head_rule != "row":
            band = []  # no headline: nothing cut, no stroke end carried to it
    top_y, base_y = -sc.top_em, 0.0
    for comp in outlines._components(work):
        if len(comp) < 25:  # crumbs left by the band's removal
            continue
        one = np.zeros_like(work)
        one[comp[:, 0], comp[:, 1]] = True
        skel = outlines.thin(one)
        strokes = outlines.trace(skel, width=float(one.sum()) / max(1, int(skel.sum())))
        if not strokes:
            r, c = comp.mean(axis=0)
            strokes = [np.array([[(c + 0.5) / size, (r + 0.5) / size]])]
        ys = yc[comp[:, 0]]
        kind = "top" if ys.max() <= top_y + tol else "below" if ys.min() >= base_y - 0.02 else "body"
        for s in strokes:
            em = np.column_stack([x0 + s[:, 0] * side, y0 + s[:, 1] * side])
            if len(band) and len(em) >= 2 and np.linalg.norm(em[0] - em[-1]) > 1e-9:
                em = _to_headline(sc, em)
            entry[kind].append(np.round(em * UPM).astype(int).tolist())
    return entry
