"""Tamil handwriting (``ta``): Noto Sans Tamil's glyphs traced once, words shaped as the script shapes them,
written as people write them. ``writing/indic.py`` does the work; this module holds Tamil's particulars.

Tamil has no headline and almost no conjuncts: a consonant with the pulli (், a dot above: the vowel killed) is
written on its own, the next consonant after it, so a syllable is a consonant with its pulli or its vowel sign
(க்ஷ and ஸ்ரீ, the two ligatures of everyday text, are one syllable each). Vowel signs are written right of their
consonant (ா ீ ு ூ, the last two fused with it into one glyph per consonant), above-right (ி), LEFT of it (ெ ே ை)
or around it (ொ = ெ + consonant + ா, ோ = ே + consonant + ா, ௌ = ெ + consonant + ள-like ௗ). A hand writes a
syllable's bodies left to right, then its pre-base sign (after the consonant it follows in text), then the
pulli.

* **Table** (``writing/data/tamil_glyphs.json.gz``): the syllables of wordfreq's 20,000 most frequent Tamil words
  (CC BY-SA 4.0), every consonant (Grantha ஜ ஶ ஷ ஸ ஹ and க்ஷ included) bare, with the pulli and with every
  vowel sign, the vowels, aytham, Tamil digits, shaped with Noto Sans Tamil Regular (SIL OFL 1.1) by HarfBuzz.
  Generation needs neither.
* **Size**: the letters' bodies reach 0.55 em above the baseline: that is one x-height here (ெ ே ி ீ and the
  pulli reach above it, as ascenders).

Rebuild the data (fontTools and uharfbuzz needed, wordfreq for the words)::

    PYTHONPATH=Training:/tmp/pylib python3 -m inkrec_training scripts data tamil-glyphs
"""
from __future__ import annotations

import os
import re

from . import indic

VOWELS = "அஆஇஈஉஊஎஏஐஒஓஔ"
CONSONANTS = "கஙசஜஞடணதநனபமயரறலளழவஶஷஸஹ"
AYTHAM, PULLI, AU_LENGTH = "\u0B83", "\u0BCD", "\u0BD7"
MATRAS = "ாிீுூெேைொோௌ"
DIGITS = "௦௧௨௩௪௫௬௭௮௯"
LETTERS = VOWELS + CONSONANTS + AYTHAM + MATRAS + AU_LENGTH + PULLI + DIGITS
KSSA, SHRI = "க்ஷ", "ஸ்ரீ"

FONT = "/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf"
DATA = os.path.join(os.path.dirname(__file__), "data", "tamil_glyphs.json.gz")
BODY_TOP = 0.55   # em: the top of the letters' bodies, one x-height

_C = f"[{CONSONANTS}]"
_M = f"[{MATRAS}{AU_LENGTH}]"
SYLLABLE = re.compile(f"[ஸஶ]{PULLI}ரீ|க{PULLI}ஷ(?:{PULLI}|{_M}*)|{_C}(?:{PULLI}|{_M}*)|[{VOWELS}]|.", re.S)


def _vocabulary(n_words: int = 20000) -> list[str]:
    from . import text
    words = text.words("ta", n_words)[0]
    return indic.vocabulary(words, SCRIPT, list(CONSONANTS), VOWELS, MATRAS, PULLI, (), (), re.compile("(?!)"),
                            [KSSA], list(AYTHAM + DIGITS) + [SHRI, "ஶ" + PULLI + "ரீ"])


SCRIPT = indic.Script(
    name="Tamil", font=FONT, data=DATA, syllable=SYLLABLE,
    pre=("evowelsign", "eevowelsign", "aivowelsign"),   # ெ ே ை, the left halves of ொ ோ ௌ
    em_per_x=BODY_TOP, top_em=0.60, head_band=None, centre_y=-0.5, vocabulary=_vocabulary)
# the module's functions: the script's (``indic.Script``)
syllables, covers, word, write_word, write_labelled, build, main = (
    SCRIPT.syllables, SCRIPT.covers, SCRIPT.word, SCRIPT.write_word, SCRIPT.write_labelled, SCRIPT.build, SCRIPT.main)

if __name__ == "__main__":
    main()
