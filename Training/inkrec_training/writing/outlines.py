"""Font outlines turned into centre lines: the script kit's last letter source.

When a letter has no real ink, no Hershey centre line and no drawn template, a font still draws it: its
outline (``sources.NOTO``, Noto Sans from Debian's fonts-noto-core, SIL OFL 1.1) is filled, thinned to a
one-pixel skeleton and traced into pen strokes. The parts, each usable alone:

* ``glyph_contours`` / ``rasterize_font_glyph``: a TrueType/OpenType glyph read with fontTools (an optional
  dependency, imported only here), its Bézier curves flattened into polylines in the em box, and filled;
* ``rasterize_polygons``: closed contours filled into a square boolean image by scanline (pure numpy);
* ``thin``: Zhang–Suen thinning, vectorized, to a skeleton one pixel wide;
* ``trace``: the skeleton as strokes: the 8-connected pixel graph cut at its end points and junctions, spurs
  dropped, the edges through a junction that continue most straightly merged into one stroke (an X gives
  two strokes, a T its bar and its stem), closed loops as closed strokes, each simplified (Douglas–Peucker);
* ``centre_lines``: thin + trace, then the strokes ordered and directed by a script's ``writer.RULES``.

Limits: junction merging is a heuristic (a Ж gives its stem and four arms, not the two angles a hand
writes), and the stroke order and direction come from the rules (rows top to bottom, each stroke from its top
or left), not from any knowledge of the letter. Thin features of a glyph smaller than a few pixels at the
chosen size vanish or turn into dots.

Use::

    img = rasterize_font_glyph("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "Л", size=96)
    strokes = centre_lines(img)          # (N, 2) arrays in [0, 1], x right, y down, in writing order

Coordinates: image row r, column c is the pixel whose centre is ``((c + 0.5) / size, (r + 0.5) / size)``.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Optional, Sequence

import numpy as np

from .writer import RULES, ScriptRules, normalize

SPUR_WIDTHS = 0.6   # a spur shorter than this many stroke widths is dropped (trace's width), at least min_spur
JOIN_WIDTHS = 1.6   # junctions joined by an edge no longer than this many stroke widths are one (an X
                    # crossing at 50 degrees thins into two forks joined by a short edge)
# Offsets of the 8 neighbours, as (row, column), clockwise from north: P2 .. P9 of Zhang and Suen.
_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


# ---------------------------------------------------------------------------------------------- filling

def rasterize_polygons(contours: Sequence[Sequence[Sequence[float]]], size: int,
                       rule: str = "evenodd") -> np.ndarray:
    """Fills closed contours into a ``size`` x ``size`` boolean image.

    - Parameters:
      - contours: each a sequence of ``(x, y)`` points in [0, 1]², y down; closed implicitly (last to first).
      - size: the image's side in pixels; a pixel is inside when its centre is.
      - rule: ``"evenodd"`` (a contour inside another cuts a hole) or ``"nonzero"`` (TrueType's rule: a hole
        only where the inner contour runs the other way round).
    - Returns: ``(size, size)`` bool array, row = y.
    """
    if rule not in ("evenodd", "nonzero"):
        raise ValueError(f"rule must be 'evenodd' or 'nonzero', not {rule!r}")
    segs = []
    for c in contours:
        p = np.asarray(c, dtype=np.float64).reshape(-1, 2) * size
        if len(p) >= 2:
            segs.append(np.concatenate([p, np.roll(p, -1, axis=0)], axis=1))
    if not segs:
        return np.zeros((size, size), dtype=bool)
    x0, y0, x1, y1 = np.concatenate(segs).T
    yc = np.arange(size) + 0.5                                   # scanlines through the pixel centres
    lo, hi = np.minimum(y0, y1), np.maximum(y0, y1)
    hit = (yc[:, None] >= lo) & (yc[:, None] < hi)               # half-open: a vertex counts once
    rows, k = np.nonzero(hit)
    t = (yc[rows] - y0[k]) / (y1[k] - y0[k])
    x = x0[k] + t * (x1[k] - x0[k])
    first = np.clip(np.floor(x - 0.5).astype(np.int64) + 1, 0, size)  # first pixel whose centre is right of x
    sign = np.where(y1[k] > y0[k], 1, -1) if rule == "nonzero" else np.ones(len(k), dtype=np.int64)
    acc = np.zeros((size, size + 1), dtype=np.int64)
    np.add.at(acc, (rows, first), sign)
    wind = np.cumsum(acc, axis=1)[:, :size]
    return (wind % 2 == 1) if rule == "evenodd" else (wind != 0)


def _flatten_pen_class():
    from fontTools.pens.basePen import BasePen

    class FlatPen(BasePen):
        """Records a glyph's contours with each Bézier segment flattened into ``steps`` lines."""

        def __init__(self, glyph_set, steps: int):
            super().__init__(glyph_set)
            self.steps = steps
            self.contours: list[list[tuple[float, float]]] = []
            self._cur: Optional[list] = None

        def _moveTo(self, p):
            self._cur = [p]

        def _lineTo(self, p):
            self._cur.append(p)

        def _curveToOne(self, p1, p2, p3):
            p0 = self._getCurrentPoint()
            for i in range(1, self.steps + 1):
                t = i / self.steps
                u = 1 - t
                self._cur.append(tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                                       for a, b, c, d in zip(p0, p1, p2, p3)))

        def _qCurveToOne(self, p1, p2):
            p0 = self._getCurrentPoint()
            for i in range(1, self.steps + 1):
                t = i / self.steps
                u = 1 - t
                self._cur.append(tuple(u * u * a + 2 * u * t * b + t * t * c for a, b, c in zip(p0, p1, p2)))

        def _closePath(self):
            if self._cur and len(self._cur) >= 3:
                self.contours.append(self._cur)
            self._cur = None

        _endPath = _closePath

    return FlatPen


@lru_cache(maxsize=8)
def _font(font_path: str):
    try:
        from fontTools.ttLib import TTFont
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise RuntimeError("reading font outlines needs fontTools: pip install fonttools") from e
    return TTFont(font_path, lazy=True)


def glyph_contours(font_path: str, char: str, steps: int = 8) -> tuple[list[np.ndarray], float]:
    """A font's outline of ``char`` as flattened closed contours in its em box.

    - Parameters:
      - font_path: a TrueType/OpenType file (``.ttf``, ``.otf``; a ``.ttc`` is not read).
      - char: one character; the font's best cmap must map it.
      - steps: lines per quadratic or cubic Bézier segment.
    - Returns: (contours, baseline): ``(N, 2)`` arrays in em units, x right, y down; the em box is [0, 1]²,
      centred horizontally on the glyph's advance and vertically on the font's typographic ascender and
      descender; ``baseline`` is the baseline's y in the same units. Ink outside the box (a glyph wider than
      its em) lies outside [0, 1].
    - Throws: ``RuntimeError`` when fontTools is missing, ``KeyError`` when the font has no such glyph.
    """
    font = _font(str(font_path))
    name = font.getBestCmap().get(ord(char))
    if name is None:
        raise KeyError(f"{font_path} has no glyph for {char!r}")
    glyph_set = font.getGlyphSet()
    pen = _flatten_pen_class()(glyph_set, steps)
    glyph = glyph_set[name]
    glyph.draw(pen)
    upm = float(font["head"].unitsPerEm)
    if "OS/2" in font:
        asc, desc = font["OS/2"].sTypoAscender, font["OS/2"].sTypoDescender
    else:
        asc, desc = font["hhea"].ascent, font["hhea"].descent
    top = (asc + desc) / 2 + upm / 2
    half = glyph.width / 2
    contours = [np.column_stack([(np.array(c)[:, 0] - half) / upm + 0.5, (top - np.array(c)[:, 1]) / upm])
                for c in pen.contours]
    return contours, top / upm


def rasterize_font_glyph(font_path: str, char: str, size: int = 96) -> np.ndarray:
    """``char``'s outline in ``font_path`` filled (nonzero rule, as TrueType fills) into a ``size`` x ``size``
    image of its em box (``glyph_contours``). fontTools is needed (``pip install fonttools``)."""
    contours, _ = glyph_contours(font_path, char)
    return rasterize_polygons(contours, size, rule="nonzero")


# --------------------------------------------------------------------------------------------- thinning

def _neighbours(img: np.ndarray) -> list[np.ndarray]:
    """P2 .. P9 of every pixel (outside the image is background), as uint8 arrays of the image's shape."""
    h, w = img.shape
    p = np.pad(img.astype(np.uint8), 1)
    return [p[1 + dr:1 + dr + h, 1 + dc:1 + dc + w] for dr, dc in _RING]


def thin(image: np.ndarray) -> np.ndarray:
    """Zhang–Suen thinning: pixels are peeled off the shape's boundary in two alternating sub-iterations
    (south-east, then north-west) until neither removes any, leaving a skeleton one pixel wide that keeps
    the shape's connections. A 2 x 2 blob disappears (a known property of the method; ``centre_lines`` puts
    such vanished parts back as dots).

    - Parameters:
      - image: 2-D bool array, ink True.
    - Returns: the skeleton, bool, same shape.
    """
    img = np.asarray(image, dtype=bool).copy()
    while True:
        changed = False
        for step in (0, 1):
            p2, p3, p4, p5, p6, p7, p8, p9 = _neighbours(img)
            ring = (p2, p3, p4, p5, p6, p7, p8, p9, p2)
            b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9
            a = sum(((ring[i] == 0) & (ring[i + 1] == 1)).astype(np.uint8) for i in range(8))
            if step == 0:
                c = (p2 * p4 * p6 == 0) & (p4 * p6 * p8 == 0)
            else:
                c = (p2 * p4 * p8 == 0) & (p2 * p6 * p8 == 0)
            kill = img & (b >= 2) & (b <= 6) & (a == 1) & c
            if kill.any():
                img &= ~kill
                changed = True
        if not changed:
            return img


# ---------------------------------------------------------------------------------------------- tracing

def _adjacency(skel: np.ndarray) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The skeleton's pixel graph: 4-neighbours always, a diagonal neighbour only when no pixel they share
    as 4-neighbours is set (so a staircase is a path, not a chain of triangles)."""
    h, w = skel.shape
    adj: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r, c in zip(*np.nonzero(skel)):
        r, c = int(r), int(c)
        out = []
        for dr, dc in _RING:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < h and 0 <= cc < w and skel[rr, cc]):
                continue
            if dr and dc and (skel[r + dr, c] or skel[r, c + dc]):
                continue
            out.append((rr, cc))
        adj[(r, c)] = out
    return adj


def _arc(path: Sequence) -> float:
    p = np.asarray(path, dtype=np.float64)
    return float(np.sqrt((np.diff(p, axis=0) ** 2).sum(axis=1)).sum()) if len(p) > 1 else 0.0


class _Graph:
    """Nodes (end points and junction clusters) and the pixel paths (edges) between them."""

    def __init__(self):
        self.nodes: dict[int, list[tuple[int, int]]] = {}   # node -> its pixels
        self.edges: dict[int, list] = {}                      # edge -> [node a, node b, path of pixels a..b]

    def degree(self, n: int) -> int:
        return sum((a == n) + (b == n) for a, b, _ in self.edges.values())

    def centre(self, n: int) -> np.ndarray:
        return np.mean(np.asarray(self.nodes[n], dtype=np.float64), axis=0)

    def ends_at(self, n: int) -> list[tuple[int, int]]:
        """(edge, side) of every edge end at node n; side 0 is the path's start, 1 its end."""
        out = []
        for e, (a, b, _) in self.edges.items():
            if a == n:
                out.append((e, 0))
            if b == n:
                out.append((e, 1))
        return out


def _build_graph(adj) -> tuple[_Graph, list[list[tuple[int, int]]], list[tuple[int, int]]]:
    """The graph, the closed loops with no node on them (as pixel cycles), and the isolated pixels."""
    g = _Graph()
    deg = {p: len(n) for p, n in adj.items()}
    node_of: dict[tuple[int, int], int] = {}
    dots = [p for p, d in deg.items() if d == 0]
    for p, d in sorted(deg.items()):
        if d == 1:
            node_of[p] = len(g.nodes)
            g.nodes[node_of[p]] = [p]
    for p, d in sorted(deg.items()):                          # junction pixels, clustered when adjacent
        if d >= 3 and p not in node_of:
            n = len(g.nodes)
            g.nodes[n], stack = [], [p]
            node_of[p] = n
            while stack:
                q = stack.pop()
                g.nodes[n].append(q)
                for r in adj[q]:
                    if deg[r] >= 3 and r not in node_of:
                        node_of[r] = n
                        stack.append(r)
    seen: set = set()
    direct: set = set()
    for p in sorted(node_of):
        for q in adj[p]:
            if q in node_of:
                key = frozenset((p, q))
                if node_of[q] != node_of[p] and key not in direct:
                    direct.add(key)
                    g.edges[len(g.edges)] = [node_of[p], node_of[q], [p, q]]
                continue
            if q in seen:
                continue
            path, prev, cur = [p], p, q
            while cur not in node_of:
                seen.add(cur)
                path.append(cur)
                nxt = [r for r in adj[cur] if r != prev]
                prev, cur = cur, nxt[0]
            path.append(cur)
            g.edges[len(g.edges)] = [node_of[p], node_of[cur], path]
    loops = []
    for p in sorted(adj):                                     # what is left: cycles of degree-2 pixels
        if deg[p] == 2 and p not in seen and p not in node_of:
            cyc, prev, cur = [p], p, adj[p][0]
            seen.add(p)
            while cur != p:
                seen.add(cur)
                cyc.append(cur)
                prev, cur = cur, [r for r in adj[cur] if r != prev][0]
            loops.append(cyc)
    return g, loops, dots


def _prune(g: _Graph, min_spur: float, join: float) -> None:
    """Drops spurs (an end point's edge shorter than ``min_spur`` into a junction, keeping one edge there),
    small holes (a junction's edge back to itself shorter than ``3 * min_spur``) and contracts junctions
    joined by an edge no longer than ``join`` into one, until nothing changes."""
    changed = True
    while changed:
        changed = False
        deg = {n: g.degree(n) for n in g.nodes}
        for n in list(g.nodes):
            if deg[n] < 3:
                continue
            ends = g.ends_at(n)
            spurs = [e for e, _ in ends if g.edges[e][0] != g.edges[e][1]
                     and deg[g.edges[e][1 if g.edges[e][0] == n else 0]] == 1 and _arc(g.edges[e][2]) < min_spur]
            holes = [e for e, s in ends if s == 0 and g.edges[e][0] == g.edges[e][1] == n
                     and _arc(g.edges[e][2]) < 3 * min_spur]
            drop = spurs + holes
            if not drop:
                continue
            if len(ends) - len(spurs) - 2 * len(holes) < 1:      # all short: keep the longest as the stroke
                drop = sorted(drop, key=lambda e: _arc(g.edges[e][2]))[:-1]
            if drop:
                for e in drop:
                    other = g.edges[e][1 if g.edges[e][0] == n else 0]
                    del g.edges[e]
                    if other != n and g.degree(other) == 0:
                        del g.nodes[other]
                changed = True
                break
        if changed:
            continue
        for e, (a, b, path) in sorted(g.edges.items(), key=lambda kv: _arc(kv[1][2])):
            if a != b and deg[a] >= 3 and deg[b] >= 3 and _arc(path) <= join:
                g.nodes[a] = g.nodes[a] + g.nodes[b] + list(path[1:-1])
                del g.nodes[b], g.edges[e]
                for f in g.edges.values():
                    f[0] = a if f[0] == b else f[0]
                    f[1] = a if f[1] == b else f[1]
                changed = True
                break


def _oriented(g: _Graph, e: int, side: int) -> list:
    path = g.edges[e][2]
    return list(path) if side == 0 else list(path[::-1])


def _direction(g: _Graph, n: int, e: int, side: int, reach: float) -> np.ndarray:
    """The way edge ``e`` leaves node ``n``: towards its point ``reach`` pixels along the path."""
    path = np.asarray(_oriented(g, e, side), dtype=np.float64)
    c = g.centre(n)
    d = np.sqrt(((path - c) ** 2).sum(axis=1))
    far = np.nonzero(d >= reach)[0]
    v = path[far[0] if len(far) else len(path) - 1] - c
    nv = np.linalg.norm(v)
    return v / nv if nv > 0 else v


def _pairs(g: _Graph, max_turn: float, reach: float) -> dict:
    """At every node, the edge ends that continue into each other: both ends at a node of degree 2, else
    greedily the pairs that turn least, when they turn less than ``max_turn`` degrees."""
    pair: dict = {}
    for n in g.nodes:
        ends = g.ends_at(n)
        if len(ends) == 2:
            pair[ends[0]], pair[ends[1]] = ends[1], ends[0]
            continue
        if len(ends) < 3:
            continue
        dirs = [_direction(g, n, e, s, reach) for e, s in ends]
        cand = []
        for i in range(len(ends)):
            for j in range(i + 1, len(ends)):
                turn = math.degrees(math.acos(float(np.clip(-dirs[i] @ dirs[j], -1.0, 1.0))))
                cand.append((turn, i, j))
        used: set = set()
        for turn, i, j in sorted(cand):
            if turn > max_turn:
                break
            if i in used or j in used:
                continue
            used |= {i, j}
            pair[ends[i]], pair[ends[j]] = ends[j], ends[i]
    return pair


def _chains(g: _Graph, pair: dict) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The edges joined through the paired ends: open strokes (from an unpaired end to another) and closed
    ones (every end paired), as pixel (row, col) arrays."""
    used: set = set()
    opened, closed = [], []

    def walk(e, side):                  # until an unpaired end, or back at the first edge of a cycle
        pts = []
        while True:
            used.add(e)
            seg = _oriented(g, e, side)
            pts.extend(seg)
            far = (e, 1 - side)
            if far not in pair:
                return pts
            e2, s2 = pair[far]
            pts.append(tuple(g.centre(g.edges[e][1 - side])))
            if e2 in used:
                return pts
            e, side = e2, s2

    for n in sorted(g.nodes):
        for e, s in g.ends_at(n):
            if e not in used and (e, s) not in pair:
                opened.append(np.asarray(walk(e, s), dtype=np.float64))
    for e in sorted(g.edges):
        if e not in used:
            closed.append(np.asarray(walk(e, 0), dtype=np.float64))
    return opened, closed


def _dedupe(p: np.ndarray) -> np.ndarray:
    if len(p) < 2:
        return p
    keep = np.concatenate([[True], np.any(np.diff(p, axis=0) != 0, axis=1)])
    return p[keep]


def _close(p: np.ndarray) -> np.ndarray:
    """A closed stroke starting (and ending) at its topmost, then leftmost point, running anticlockwise as
    seen on the page (from the top towards the left, as a hand writes an o)."""
    p = _dedupe(p)
    if len(p) > 1 and np.all(p[0] == p[-1]):
        p = p[:-1]
    x, y = p[:, 1], -p[:, 0]                                   # (row, col) -> y up for the area's sign
    if 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) < 0:
        p = p[::-1]
    start = int(np.lexsort((p[:, 1], p[:, 0]))[0])
    p = np.roll(p, -start, axis=0)
    return np.concatenate([p, p[:1]])


def simplify(points: np.ndarray, tolerance: float) -> np.ndarray:
    """Ramer–Douglas–Peucker: the fewest of ``points`` (kept in order, ends kept) such that no dropped point
    lies farther than ``tolerance`` from the polyline through the kept ones."""
    p = np.asarray(points, dtype=np.float64)
    if len(p) < 3:
        return p.copy()
    keep = np.zeros(len(p), dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(p) - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        a, b, q = p[i], p[j], p[i + 1:j]
        ab = b - a
        L = float(ab @ ab)
        if L == 0:
            d = np.sqrt(((q - a) ** 2).sum(axis=1))
        else:
            t = np.clip((q - a) @ ab / L, 0.0, 1.0)
            d = np.sqrt(((q - (a + t[:, None] * ab)) ** 2).sum(axis=1))
        k = int(np.argmax(d))
        if d[k] > tolerance:
            keep[i + 1 + k] = True
            stack += [(i, i + 1 + k), (i + 1 + k, j)]
    return p[keep]


def trace(skeleton: np.ndarray, min_spur: float = 3.0, tolerance: float = 1.0, max_turn: float = 50.0,
          width: float = 1.0) -> list[np.ndarray]:
    """A one-pixel skeleton (``thin``) as strokes.

    The 8-connected pixel graph is cut at its end points (one neighbour) and junctions (three or more;
    adjacent junction pixels are one junction) into edges. Spurs (an edge from an end point into a junction
    shorter than the spur length) are dropped, junctions joined by an edge no longer than the junction reach
    become one, and at each junction the edges that continue most straightly (turning less than
    ``max_turn``) are joined into one stroke; an edge that finds no partner ends there. Loops become closed
    strokes (first point = last) that start at their topmost, then leftmost point and run anticlockwise on
    the page. Isolated pixels are dots (one-point strokes).

    - Parameters:
      - skeleton: 2-D bool array, one pixel wide.
      - min_spur: spurs shorter than this (pixels) are dropped; raised to ``SPUR_WIDTHS * width`` when that
        is larger.
      - tolerance: Douglas–Peucker tolerance (pixels).
      - max_turn: the largest turn (degrees) at which two edges through a junction are joined.
      - width: the ink's stroke width in pixels (``centre_lines`` estimates it); sets how far junctions
        reach (``JOIN_WIDTHS * width``, at least 2 pixels), the spur length (``SPUR_WIDTHS * width``) and
        how far from a junction an edge's way is read (``1.5 * width``, at least 4 pixels).
    - Returns: ``(N, 2)`` float arrays ``(x, y)``, x right, y down, scaled by the image's larger side into
      [0, 1] (pixel centres at ``(c + 0.5) / size``): open strokes first, then closed ones, then dots.
    """
    skel = np.asarray(skeleton, dtype=bool)
    scale = float(max(skel.shape))
    spur = max(float(min_spur), SPUR_WIDTHS * float(width))
    g, loops, dots = _build_graph(_adjacency(skel))
    _prune(g, spur, max(2.0, JOIN_WIDTHS * width))
    pair = _pairs(g, max_turn, reach=max(4.0, 1.5 * width))
    opened, closed = _chains(g, pair)
    closed += [np.asarray(c, dtype=np.float64) for c in loops if _arc(c) >= 3 * spur]
    strokes = [simplify(_dedupe(p), tolerance) for p in opened]
    strokes += [simplify(_close(p), tolerance) for p in closed]
    strokes += [np.asarray([p], dtype=np.float64) for p in dots]
    # Pixels (row, col) to (x, y) in [0, 1].
    return [np.column_stack([(s[:, 1] + 0.5) / scale, (s[:, 0] + 0.5) / scale]) for s in strokes]


def _components(image: np.ndarray) -> list[np.ndarray]:
    """The 8-connected components of ``image``, each as an (M, 2) array of (row, col)."""
    h, w = image.shape
    todo = set(zip(*map(lambda a: a.tolist(), np.nonzero(image))))
    out = []
    while todo:
        stack = [todo.pop()]
        comp = []
        while stack:
            r, c = stack.pop()
            comp.append((r, c))
            for dr, dc in _RING:
                q = (r + dr, c + dc)
                if q in todo:
                    todo.remove(q)
                    stack.append(q)
        out.append(np.asarray(comp))
    return out


def centre_lines(image: np.ndarray, rules: Optional[ScriptRules] = None, min_spur: float = 3.0,
                 tolerance: float = 1.0, max_turn: float = 50.0) -> list[np.ndarray]:
    """A filled glyph image as pen strokes: ``thin``, then ``trace`` (with the ink's stroke width estimated
    as its area over its skeleton's length), then ``writer.normalize`` by ``rules``. A part of the ink that
    thinning wipes out (a blob of 2 x 2 pixels) comes back as a dot at its centre.

    - Parameters:
      - image: 2-D bool array, ink True (``rasterize_font_glyph``, ``rasterize_polygons``).
      - rules: stroke order and direction; ``RULES["Grek"]`` (rows top to bottom, then left to right; each
        open stroke from its top, or its left when flat) when None.
      - min_spur, tolerance, max_turn: as ``trace`` takes them (pixels, pixels, degrees).
    - Returns: ``(N, 2)`` arrays in [0, 1], x right, y down, in writing order and direction.
    """
    img = np.asarray(image, dtype=bool)
    skel = thin(img)
    for comp in _components(img):
        if not skel[comp[:, 0], comp[:, 1]].any():
            r, c = np.round(comp.mean(axis=0)).astype(int)
            skel[r, c] = True
    width = float(img.sum()) / max(1, int(skel.sum()))
    strokes = trace(skel, min_spur=min_spur, tolerance=tolerance, max_turn=max_turn, width=width)
    return normalize(strokes, rules if rules is not None else RULES["Grek"])
