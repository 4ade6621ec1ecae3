"""Where each script's letters come from, in order of preference, with the licence a model card must name.

``SCRIPTS[script]`` lists the sources a script's generator draws on, the preferred first: real ink where it
exists, stroke-ordered centre lines next, font outlines turned into centre lines last. A model card names
every source its model was trained on (``Source.card_line``). Nothing here may be a research-only set
(IAM-OnDB, CASIA, …): each source's ``licence`` allows shipping a model trained on it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    name: str
    kind: str          # "real ink", "centre lines", "drawn templates", "font outlines", "text"
    licence: str
    where: str         # the package or folder it comes from
    note: str = ""

    def card_line(self) -> str:
        """The sentence a model card carries for this source."""
        return f"{self.name} ({self.kind}; {self.where}; {self.licence}){': ' + self.note if self.note else ''}"


UNIPEN = Source("UNIPEN train_r01_v07", "real ink", "CC BY 4.0", "../shared/data/unipen",
                "isolated letters of the training writers, for letters whose handwritten form a Latin letter shares")
HERSHEY = Source("Hershey fonts", "centre lines", "free for any use with this acknowledgement: the Hershey Fonts were "
                 "originally created by Dr. A. V. Hershey while working at the U. S. National Bureau of Standards; "
                 "the format of the font data was originally created by James Hurt, Cognition, Inc.",
                 "PyPI hershey-fonts (the same 32 fonts as Debian's hershey-fonts-data)",
                 "Greek simplex (`greeks`) is single-line ink; the Cyrillic fonts are serifed double-line "
                 "(complex) glyphs, a shape reference only")
DRAWN = Source("the project's drawn templates", "drawn templates", "this repository's licence",
               "Training/inkrec_training/writing/", "control points of handwritten letter forms, in stroke order")
NOTO = Source("Noto Sans", "font outlines", "SIL OFL 1.1", "Debian fonts-noto-core",
              "outlines rasterized and thinned to centre lines; stroke order and direction by the script's rules")
NANUM_PEN = Source("Nanum Pen", "font outlines", "SIL OFL 1.1 (NAVER Corporation)", "Debian fonts-nanum-extra",
                   "a handwriting-style Hangul font, for checking generated syllables")
MAKE_ME_A_HANZI = Source("Make Me a Hanzi", "centre lines", "Arphic Public License", "../shared/data/cjk")
KANJIVG = Source("KanjiVG", "centre lines", "CC BY-SA 3.0", "../shared/data/cjk")
WORDFREQ = Source("wordfreq", "text", "data CC BY-SA 4.0, code Apache-2.0", "PyPI wordfreq")

SCRIPTS: dict[str, tuple[Source, ...]] = {
    "Latn": (UNIPEN, HERSHEY, WORDFREQ),
    "Cyrl": (UNIPEN, DRAWN, HERSHEY, NOTO, WORDFREQ),
    "Grek": (UNIPEN, HERSHEY, DRAWN, NOTO, WORDFREQ),
    "Hang": (DRAWN, NANUM_PEN, WORDFREQ),
    "Hani": (MAKE_ME_A_HANZI, KANJIVG, WORDFREQ),
    "Hebr": (DRAWN, WORDFREQ),
}


def card_lines(script: str) -> list[str]:
    """One line per source of ``script``, in order of preference, for a model card's data section."""
    return [s.card_line() for s in SCRIPTS[script]]
