"""Bengali handwriting (``bn``): Noto Sans Bengali's glyphs traced once, words shaped as the script shapes them,
written as people write them (letter bodies left to right, the headline after them). ``writing/indic.py`` does
the work; this module holds Bengali's particulars.

Bengali is written as Devanagari is (``devanagari.py``): a headline (matra) joins the letters of a word, and the
shaping works in orthographic syllables: conjuncts (ক্ষ, ন্ত, ন্দ্র), the ya-, ra- and ba-phala (্য ্র ্ব), the reph
(the র্ of কর্ম, a stroke above the letter after it), hasanta (্), candrabindu (ঁ), khanda ta (ৎ), and vowel signs
placed LEFT of their consonant (ি ে ৈ) or split around it (ো = ে + consonant + া, ৌ = ে + consonant + ৗ). A hand
writes a syllable's bodies left to right, then its pre-base sign (after the consonant it follows in text), the
marks below (ু ূ ৃ, hasanta, nukta), the marks above (reph, candrabindu, the loop of ৈ), and the headline across
the word last.

* **Table** (``writing/data/bengali_glyphs.json.gz``): the syllables of wordfreq's 20,000 most frequent Bengali words
  (CC BY-SA 4.0; NFC: ড় ঢ় য় as consonant + nukta), every consonant with every vowel sign, hasanta and
  candrabindu / anusvara, every conjunct of those words (and the ya-, ra-, ba-phala of every consonant) with
  every vowel sign, the reph on every consonant with every vowel sign, the independent vowels with the signs,
  digits and dandas, shaped with Noto Sans Bengali Regular (SIL OFL 1.1) by HarfBuzz. Generation needs
  neither: a word with a syllable outside the table is not covered (``covers``).
* **Headline band**: 0.551–0.622 em above the baseline in Noto Sans Bengali, as in Noto Sans Devanagari; one
  x-height is the same 0.478 em (the headline's top 1.3 x-heights up).

Rebuild the data (fontTools and uharfbuzz needed, wordfreq for the words)::

    PYTHONPATH=Training:/tmp/pylib python3 -m inkrec_training scripts data bengali-glyphs
"""
from __future__ import annotations

import os
import re

from . import indic

VOWELS = "অআইঈউঊঋএঐওঔ"                    # independent vowels (ঌ ৠ ৡ: Sanskrit only, left out)
CONSONANTS = "".join(chr(c) for c in range(0x0995, 0x09BA) if c not in (0x09A9, 0x09B1, 0x09B3, 0x09B4, 0x09B5))
NUKTA, HASANTA, KHANDA_TA = "\u09BC", "\u09CD", "\u09CE"
NUKTA_LETTERS = ["ড" + NUKTA, "ঢ" + NUKTA, "য" + NUKTA]  # ড় ঢ় য় as NFC writes them
MATRAS = "ািীুূৃেৈোৌ"                          # dependent vowel signs (ৄ: Sanskrit only)
SIGNS = "ঁংঃ"                                 # candrabindu, anusvara, visarga
DIGITS = "০১২৩৪৫৬৭৮৯"
DANDAS = "।॥"
LETTERS = VOWELS + CONSONANTS + KHANDA_TA + MATRAS + SIGNS + NUKTA + HASANTA + DIGITS + DANDAS

FONT = "/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf"
DATA = os.path.join(os.path.dirname(__file__), "data", "bengali_glyphs.json.gz")
HEAD_BAND = (551, 622)
HEAD_X = 1.3

_M = f"[{MATRAS}\u09C4\u09D7\u09E2\u09E3]"
_CLUSTER, _CONJUNCT = indic.consonant_syllable(CONSONANTS, NUKTA, HASANTA, _M, "[ঁং]")
# (the visarga ঃ, a spacing sign that shaping never joins to anything, is a syllable of its own: ছাঃ is ছা + ঃ;
# অ্যা, the æ of English loans (অ্যাপ), is a vowel with the ya-phala)
SYLLABLE = re.compile(f"{_CLUSTER}|[অএ]{HASANTA}য{_M}*[ঁং]*|[{VOWELS}\u098C\u09E0\u09E1]{_M}*[ঁং]*|.", re.S)


def _vocabulary(n_words: int = 20000) -> list[str]:
    from . import text
    words = text.words("bn", n_words)[0]
    bases = list(CONSONANTS) + NUKTA_LETTERS
    phala = ([b + HASANTA + p for b in bases for p in "যরব"] + ["র" + HASANTA + b for b in bases]
             + ["অ" + HASANTA + "য", "এ" + HASANTA + "য"])
    return indic.vocabulary(words, SCRIPT, bases, VOWELS, MATRAS, HASANTA, ("ং", "ঁ"), (), _CONJUNCT, phala,
                            "ঃ" + KHANDA_TA + DIGITS + DANDAS)


SCRIPT = indic.Script(
    name="Bengali", font=FONT, data=DATA, syllable=SYLLABLE,
    pre=("ivowelsign", "evowelsign", "aivowelsign"),   # ি (its variants), ে ৈ (the "ini" forms HarfBuzz picks)
    em_per_x=HEAD_BAND[1] / indic.UPM / HEAD_X, top_em=HEAD_BAND[1] / indic.UPM, head_band=HEAD_BAND,
    head_join=0.45, centre_y=-0.65, vocabulary=_vocabulary)
# the module's functions: the script's (``indic.Script``)
syllables, covers, word, write_word, write_labelled, build, main = (
    SCRIPT.syllables, SCRIPT.covers, SCRIPT.word, SCRIPT.write_word, SCRIPT.write_labelled, SCRIPT.build, SCRIPT.main)

if __name__ == "__main__":
    main()
