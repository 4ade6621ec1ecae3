"""Devanagari handwriting (Hindi, Marathi, Nepali): glyphs of a font traced once, words shaped as the script
shapes them, written as people write them (letter bodies left to right, the headline after them).
``writing/indic.py`` does the work (and Bengali's and Tamil's); this module holds Devanagari's particulars.

Devanagari is not written letter by letter in text order. The text (logical order, Unicode) is shaped into
glyphs: conjuncts (क्ष, त्र, द्व), half forms (the त् of पत्नी), the reph (the र् of कर्म, drawn as a hook above
the letter after it), and the i-matra ि drawn LEFT of the consonant it follows in text. A hand then writes
the glyphs' bodies left to right, and draws the headline (shirorekha) across the word after them. This module:

* **Syllables** (``syllables(word)``): a word cut into orthographic syllables (aksharas): ``(C nukta? virama)*
  C nukta? (virama | matra*) sign*``, an independent vowel with its signs, or any other single character. The
  shaping of Devanagari stays inside a syllable (the i-matra, the reph, a conjunct never reach beyond it).
* **Shaping** (``SHAPES`` in the data file): each syllable of the vocabulary (the 20,000 most frequent Hindi
  words of wordfreq, a list of frequent Marathi and Nepali words, and every consonant with every vowel sign,
  anusvara and candrabindu, every conjunct of the vocabulary and every reph + consonant with every vowel sign
  and sign) shaped once by HarfBuzz
  (``uharfbuzz``, Apache-2.0) with Noto Sans Devanagari (Debian fonts-noto-core, SIL OFL 1.1) into glyph names
  with their x positions and the syllable's advance. Generation looks syllables up: no font, no HarfBuzz; a
  word with a syllable outside the table is not covered (``covers``), as a word with an untraced glyph.
* **Glyphs** (``GLYPHS``): each glyph the table uses filled, its headline band (the bar at 0.551–0.622 em
  above the baseline) taken out, thinned and traced by ``outlines`` into centre lines, split into *body*
  (what reaches below the headline), *top* (what lies wholly above it: the e-matra, anusvara, candrabindu,
  reph, the e-hook of ो) and *below* (what lies wholly under the baseline: u-matras, virama, nukta); plus the
  x intervals where it has headline, and its advance. A stroke that crosses the band (the stem of ि or ी
  running into its hook) keeps its band pixels and stays one stroke.
* **Writing** (``word``, ``write_word``): per syllable, left to right: the bodies of its glyphs left to
  right (the vertical stems last inside a glyph, each open stroke from its top, or its left when flat), then
  the i-matra ि (stem and hook, one stroke) *after* the consonant it follows in text though it sits left of
  it (the order the brief of issue 40 chose: the letter first, as it is read), then the marks below (u, ū,
  ṛ, virama, nukta), then the marks above. The headline is one stroke per run of syllables that carry one
  (a digit, a danda or a syllable with no headline breaks it), drawn left to right after all the word's
  bodies; a third of the words have their top marks after the headline instead (a writer that finishes
  the word first), never before their syllable's body.

Units: x-height units as the rest of the kit (baseline y = 0, y down). The headline band's top is ``HEAD_X``
x-heights above the baseline (about a Latin capital's height), the headline stroke runs along the band's
middle, and stroke ends the band's removal cut are carried on to that line; ``EM_PER_X`` em of the font is one
x-height.

Rebuild the data (fontTools and uharfbuzz needed, wordfreq for the Hindi words)::

    PYTHONPATH=Training:/tmp/pylib python3 -m inkrec_training scripts data devanagari-glyphs
"""
from __future__ import annotations

import os
import re

from . import indic

VOWELS = "अआइईउऊऋएऐओऔऍऑॲ"                 # independent vowels (ऍ ऑ: English loans; ॲ: Marathi)
CONSONANTS = "".join(chr(c) for c in range(0x0915, 0x093A))  # क .. ह, with ऩ ऱ ळ ऴ
NUKTA_BASES = "कखगजडढफयन"                  # the consonants written with a nukta in these languages
MATRAS = "ािीुूृेैोौॅॉ"                       # dependent vowel signs
SIGNS = "ँंः"                               # candrabindu, anusvara, visarga
NUKTA, VIRAMA, AVAGRAHA = "\u093C", "\u094D", "\u093D"
DIGITS = "०१२३४५६७८९"
DANDAS = "।॥"
LETTERS = VOWELS + CONSONANTS + MATRAS + SIGNS + NUKTA + VIRAMA + AVAGRAHA + DIGITS + DANDAS

FONT = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"
DATA = os.path.join(os.path.dirname(__file__), "data", "devanagari_glyphs.json.gz")
UPM = indic.UPM                 # the data's units: 1/1000 em (the font's own units)
HEAD_TOP, HEAD_BOTTOM = 622, 551  # the headline band of Noto Sans Devanagari, font units above the baseline
HEAD_MID = (HEAD_TOP + HEAD_BOTTOM) / 2  # the headline stroke's centre line
HEAD_X = 1.3                    # the headline band's top, in x-heights above the baseline
EM_PER_X = HEAD_TOP / UPM / HEAD_X

# Frequent Marathi and Nepali words written here (wordfreq has neither language: ``mr`` answers with Hindi's list,
# ``ne`` with English's), shaped into the table with the Hindi words so that it holds the syllables of those
# languages too (ळ, ऱ्ह, …), and used by the tests and the picture. Not a word list to train or measure on: no model
# for mr or ne exists until a real word list with a licence does.
MARATHI_WORDS = ("आहे आणि या हे की ते करण्यात त्यांनी मी तो ती आम्ही तुम्ही काय नाही होते होता आहेत असे केले "
                 "त्या एक दोन पाणी घर शाळा महाराष्ट्र मराठी मुंबई पुणे सरकार लोक वेळ दिवस काम मुलगा मुलगी बाळ "
                 "पोळी सकाळ केळी डोळे ऱ्हास आपल्या त्यांच्या झाले म्हणून पण काही कोणत्याही येथे आज उद्या").split()
NEPALI_WORDS = ("छ हो र को मा ले लाई पनि गर्न भएको थियो छन् हुन्छ नेपाल नेपाली काठमाडौं सरकार मान्छे घर पानी "
                "राम्रो धेरै अहिले कुरा गरेको हुने आफ्नो उनी हामी तपाईं यो त्यो के किन कहाँ भन्ने गर्दै रहेको देश "
                "जनता प्रधानमन्त्री मन्त्री बाट सँग तर भने").split()

_M = f"[{MATRAS}\u0962\u0963\u093A\u093B\u094E\u094F\u0955-\u0957]"
_B = f"[{SIGNS}]"
_CLUSTER, _CONJUNCT = indic.consonant_syllable(CONSONANTS, NUKTA, VIRAMA, _M, _B)
_SYLLABLE = re.compile(f"{_CLUSTER}|[{VOWELS}\u0904-\u0914\u0960\u0961\u0972-\u0977]{NUKTA}?{_M}*{_B}*|.", re.S)


def _vocabulary(n_hindi: int = 20000) -> list[str]:
    """The syllables the table holds, most needed first: those of the Hindi, Marathi and Nepali words, every
    consonant (and nukta consonant) with every vowel sign and sign, the independent vowels with signs, every
    conjunct of the words and every consonant under a reph with every vowel sign and sign, digits, dandas."""
    from . import text
    words = list(text.words("hi", n_hindi)[0]) + list(MARATHI_WORDS) + list(NEPALI_WORDS)
    bases = list(CONSONANTS) + [b + NUKTA for b in NUKTA_BASES]
    return indic.vocabulary(words, SCRIPT, bases, VOWELS, MATRAS, VIRAMA, ("ं", "ँ"), ("ः",), _CONJUNCT,
                            ["र" + VIRAMA + b for b in bases], DIGITS + DANDAS + AVAGRAHA, lone_marks=True,
                            vowels_first=True)


SCRIPT = indic.Script(
    name="Devanagari", font=FONT, data=DATA, syllable=_SYLLABLE, pre=("ivowelsign",), em_per_x=EM_PER_X,
    top_em=HEAD_TOP / UPM, head_band=(HEAD_BOTTOM, HEAD_TOP), head_rule="row", head_join=0.6, centre_y=-0.65,
    late_pause=False, vocabulary=_vocabulary,
    source="Noto Sans Devanagari Regular (SIL OFL 1.1), shaped by HarfBuzz (uharfbuzz), traced by "
           "writing/devanagari.py with writing/outlines.py")
Akshara = indic.Akshara
# the module's functions: the script's (``indic.Script``)
syllables, covers, word, write_word, write_labelled, build, main = (
    SCRIPT.syllables, SCRIPT.covers, SCRIPT.word, SCRIPT.write_word, SCRIPT.write_labelled, SCRIPT.build, SCRIPT.main)

if __name__ == "__main__":
    main()
