"""Pictures of ink for the documentation: a grid of labelled inks as one SVG file."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np


@dataclass(frozen=True)
class Grid:
    """The layout of a picture: ``cols`` cells a row, each ``cell_w`` × ``cell_h``, the ink scaled to fit the
    cell less ``margin_w`` across and 40 down; a label of ``label_size`` above each ink, ``label_gap`` above it."""
    cols: int
    cell_w: int
    cell_h: int
    margin_w: int = 20
    label_size: int = 13
    label_gap: int = 10


def ink_grid_svg(cells: Sequence[tuple[str, Sequence]], grid: Grid,
                 colour: Callable[[int, int, object], str] = lambda cell, k, stroke: "black") -> str:
    """An SVG of ``cells`` (label, strokes: each an array of points whose first two columns are x, y), row
    by row. ``label`` is put in as it is (escape it first where it may hold markup); ``colour(cell index,
    stroke index, stroke)`` picks each stroke's colour."""
    rows = (len(cells) + grid.cols - 1) // grid.cols
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{grid.cols * grid.cell_w}" height="{rows * grid.cell_h}" '
           f'style="background:white" font-family="sans-serif">']
    for i, (label, strokes) in enumerate(cells):
        allp = np.concatenate([np.asarray(s)[:, :2] for s in strokes])
        mn, mx = allp.min(0), allp.max(0)
        sc = min((grid.cell_h - 40) / max(mx[1] - mn[1], 1e-6), (grid.cell_w - grid.margin_w) / max(mx[0] - mn[0], 1e-6))
        ox, oy = (i % grid.cols) * grid.cell_w + 10, (i // grid.cols) * grid.cell_h + 28
        out.append(f'<text x="{ox}" y="{oy - grid.label_gap}" font-size="{grid.label_size}" fill="#444">{label}</text>')
        for k, s in enumerate(strokes):
            pts = " ".join(f"{ox + (p[0] - mn[0]) * sc:.1f},{oy + (p[1] - mn[1]) * sc:.1f}" for p in s)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour(i, k, s)}" stroke-width="2" '
                       f'stroke-linecap="round" stroke-linejoin="round"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_ink_grid(path: str, cells: Sequence[tuple[str, Sequence]], grid: Grid,
                   colour: Callable[[int, int, object], str] = lambda cell, k, stroke: "black") -> None:
    """``ink_grid_svg`` into the file ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(ink_grid_svg(cells, grid, colour))
