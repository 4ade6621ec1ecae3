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
NOTO_NASKH = Source("Noto Naskh Arabic", "font outlines", "SIL OFL 1.1", "Debian fonts-noto-core",
                    "each joining form's outline rasterized and thinned to centre lines once "
                    "(`Training/inkrec_training/writing/data/arabic_forms.json`, `scripts data arabic-forms`); "
                    "pieces joined and written right to left, dots and marks after the piece or the word")
def _noto_indic(name: str, module: str, headline: bool) -> Source:
    return Source(f"Noto Sans {name}", "font outlines", "SIL OFL 1.1", "Debian fonts-noto-core",
                  "each glyph's outline rasterized and thinned to centre lines once"
                  + (", the headline band apart" if headline else "")
                  + f" (`Training/inkrec_training/writing/data/{module}_glyphs.json.gz`, `scripts data {module}-glyphs`); "
                  "syllables shaped by HarfBuzz, bodies left to right, vowel signs placed left of a consonant written "
                  "after it, marks after their syllable" + (", the headline after the word's bodies" if headline else ""))


NOTO_DEVANAGARI = _noto_indic("Devanagari", "devanagari", headline=True)
NOTO_BENGALI = _noto_indic("Bengali", "bengali", headline=True)
NOTO_TAMIL = _noto_indic("Tamil", "tamil", headline=False)
NOTO_LOOPED_THAI = Source("Noto Looped Thai", "font outlines", "SIL OFL 1.1", "Debian fonts-noto-core",
                          "each glyph's outline rasterized and thinned to centre lines once, the looped form Thai "
                          "children learn (`Training/inkrec_training/writing/data/thai_glyphs.json.gz`, `scripts data "
                          "thai-glyphs`); clusters shaped by HarfBuzz, bodies left to right, marks below then above "
                          "from the lowest up after their consonant")
THAI_NATIONAL_CORPUS = Source("Thai National Corpus word frequencies", "text",
                              "CC0 1.0 (pythainlp/corpus/corpus_license.md; PyThaiNLP's code Apache-2.0)",
                              "tnc_freq.txt of PyPI pythainlp 5.4.0",
                              "the 30,000 most frequent words in Thai letters only "
                              "(`Training/inkrec_training/writing/data/thai_words.tsv.gz`); wordfreq has no Thai")
HARFBUZZ = Source("HarfBuzz (uharfbuzz)", "text shaping", "uharfbuzz Apache-2.0, HarfBuzz Old MIT", "PyPI uharfbuzz",
                  "shapes each syllable into the font's glyphs once, when the glyph tables are built; not at training time")
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
    "Arab": (NOTO_NASKH, WORDFREQ),
    "Deva": (NOTO_DEVANAGARI, HARFBUZZ, WORDFREQ),
    "Beng": (NOTO_BENGALI, HARFBUZZ, WORDFREQ),
    "Taml": (NOTO_TAMIL, HARFBUZZ, WORDFREQ),
    "Thai": (NOTO_LOOPED_THAI, HARFBUZZ, THAI_NATIONAL_CORPUS),
}


def card_lines(script: str) -> list[str]:
    """One line per source of ``script``, in order of preference, for a model card's data section."""
    return [s.card_line() for s in SCRIPTS[script]]
