"""Tamil ink from the committed glyph table (writing/tamil.py through writing/indic.py): no font, no HarfBuzz.
What the three Indic scripts share is checked by test_indic.py."""
import pytest

from inkrec_training.writing import tamil

from . import indic_checks as checks
from .indic_checks import TAMIL as CASE, TAMIL_WORDS as WORDS


def test_data_loads_and_names_traced_glyphs():
    d = checks.table(CASE, shapes=300, glyphs=100)
    assert d["head_band"] is None
    assert d["glyphs"]["katamil"]["body"] and not d["glyphs"]["katamil"]["head"]
    assert d["glyphs"]["evowelsigntamil"]["pre"] and d["glyphs"]["aivowelsigntamil"]["pre"]
    assert not d["glyphs"]["aavowelsigntamil"]["pre"]
    assert d["glyphs"]["kaprehalftamil"]["top"]  # the pulli, a mark above


def test_syllables():
    assert tamil.syllables("மக்கள்") == ["ம", "க்", "க", "ள்"]
    assert tamil.syllables("கொண்டு") == ["கொ", "ண்", "டு"]
    assert tamil.syllables("க்ஷேத்திரம்") == ["க்ஷே", "த்", "தி", "ர", "ம்"]
    assert tamil.syllables("ஸ்ரீ") == ["ஸ்ரீ"]
    # ொ typed as its two halves is the composed sign (NFC)
    assert tamil.syllables("க\u0BC6\u0BBE") == ["கொ"]


def test_a_pulli_with_no_letter_is_not_covered():
    assert not tamil.covers("\u0BCD")


@pytest.mark.parametrize("w", ["வேண்டும்", "மேலும்", "கொண்டு", "இல்லை", "வைத்து", "போது", "பௌத்தம்", "செய்தி"])
def test_pre_base_sign_written_after_its_consonant_though_left_of_it(w):
    assert checks.pre_base_after_its_consonant(CASE, w, "ெேைொோௌ", slack=0)


def test_no_headline_and_pulli_after_its_letter():
    """The pulli after its letter, above the letters' bodies."""
    seen = 0
    for w in WORDS:
        for seed in range(3):
            strokes, labels = checks.labelled(CASE, w, seed=seed, k=seed)
            assert "head" not in labels
            tops = checks.tops_after_their_syllable(w, strokes, labels)
            seen += sum("\u0BCD" in tamil.syllables(w)[j] for j in tops)
    assert seen >= 20
