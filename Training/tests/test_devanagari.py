"""Devanagari ink from the committed glyph table (writing/devanagari.py through writing/indic.py): no font, no
HarfBuzz needed. What the three Indic scripts share is checked by test_indic.py."""
import pytest

from inkrec_training.writing import alphabets, devanagari

from . import indic_checks as checks
from .indic_checks import DEVANAGARI as CASE, HINDI_WORDS as HINDI


def test_data_loads_and_names_traced_glyphs():
    g = checks.table(CASE, shapes=5000, glyphs=200)["glyphs"]["kadeva"]
    assert g["body"] and g["head"] and g["adv"] == 762


def test_syllables():
    assert devanagari.syllables("किताब") == ["कि", "ता", "ब"]
    assert devanagari.syllables("पत्नी") == ["प", "त्नी"]
    assert devanagari.syllables("कर्म") == ["क", "र्म"]
    assert devanagari.syllables("छन्") == ["छ", "न्"]
    assert devanagari.syllables("हिंदी") == ["हिं", "दी"]
    # a precomposed nukta letter is its consonant + nukta (NFC)
    assert devanagari.syllables("\u095B\u093F") == ["ज\u093C\u093F"]


def test_marathi_and_nepali_are_not_languages_of_the_kit():
    # wordfreq has no mr or ne list: neither is a language of the kit (nothing to train or measure on)
    assert "mr" not in alphabets.SCRIPTS and "ne" not in alphabets.SCRIPTS


@pytest.mark.parametrize("w", HINDI[:12] + ["महाराष्ट्र", "काठमाडौं"])
def test_headline_after_bodies_and_spanning_them(w):
    checks.headline_after_bodies(CASE, w, spanning=True)


@pytest.mark.parametrize("w", ["किताब", "हिंदी", "क्षत्रिय", "ज़िंदगी", "स्थिति"])
def test_i_matra_written_after_its_consonant_though_left_of_it(w):
    assert checks.pre_base_after_its_consonant(CASE, w, "\u093F", slack=5)


@pytest.mark.parametrize("w", ["प्रेम", "कर्म", "में", "सँग", "हैं", "नेपाली", "उन्होंने"])
def test_top_marks_after_their_akshara(w):
    for seed in range(6):
        strokes, labels = checks.labelled(CASE, w, seed=seed, k=seed)
        assert checks.tops_after_their_syllable(w, strokes, labels, in_time=False), (w, labels)


def test_nukta_after_its_letter():
    strokes, labels = checks.labelled(CASE, "ज़िंदगी", seed=1)
    below = [i for i, l in enumerate(labels) if l == "below:0"]
    body = [i for i, l in enumerate(labels) if l == "body:0"]
    assert below and min(below) > max(body)
    assert float(strokes[below[0]][:, 1].mean()) > 0  # under the baseline
