"""Bengali ink from the committed glyph table (writing/bengali.py through writing/indic.py): no font, no HarfBuzz.
What the three Indic scripts share is checked by test_indic.py."""
import numpy as np
import pytest

from inkrec_training.writing import bengali

from . import indic_checks as checks
from .indic_checks import BENGALI as CASE, BENGALI_WORDS as WORDS


def test_data_loads_and_names_traced_glyphs():
    d = checks.table(CASE, shapes=5000, glyphs=200)
    g = d["glyphs"]["kabeng"]
    assert g["body"] and g["head"] and not g["pre"]
    assert d["glyphs"]["ivowelsignbeng"]["pre"] and d["glyphs"]["evowelsigninibeng"]["pre"]
    assert not d["glyphs"]["iivowelsignbeng"]["pre"]
    assert not d["glyphs"]["anusvarabeng"]["head"]  # a round top crossing the band is not headline


def test_syllables():
    assert bengali.syllables("কিছু") == ["কি", "ছু"]
    assert bengali.syllables("কর্মী") == ["ক", "র্মী"]
    assert bengali.syllables("বিদ্যুৎ") == ["বি", "দ্যু", "ৎ"]
    assert bengali.syllables("দুঃখ") == ["দু", "ঃ", "খ"]
    assert bengali.syllables("পৌঁছে") == ["পৌঁ", "ছে"]
    # য় written precomposed is য + nukta (NFC)
    assert bengali.syllables("\u09DF\u09BE") == ["য\u09BC\u09BE"]


@pytest.mark.parametrize("w", WORDS[:12])
def test_headline_after_bodies_and_spanning_them(w):
    checks.headline_after_bodies(CASE, w)


@pytest.mark.parametrize("w", ["কিছু", "থেকে", "কৈশোর", "পৌঁছে", "নির্বাচনে", "সত্ত্বেও", "তেমন"])
def test_pre_base_sign_written_after_its_consonant_though_left_of_it(w):
    assert checks.pre_base_after_its_consonant(CASE, w, "িেৈোৌ", slack=5)


def test_top_marks_after_their_syllable():
    """Reph, candrabindu, the loop of ৈ: after the rest of their own syllable (with it, or after the word)."""
    seen = 0
    for w in WORDS + ["বর্ণনা", "কাঁদে", "কর্ম"]:
        for seed in range(4):
            strokes, labels = checks.labelled(CASE, w, seed=seed, k=seed)
            seen += len(checks.tops_after_their_syllable(w, strokes, labels))
    assert seen >= 20


def test_below_marks_after_their_syllables_body():
    """u-signs, hasanta, nukta under the baseline: after their syllable's body and pre-base sign."""
    seen = 0
    for w in WORDS + ["দিন", "কুমার", "সুন্দর", "মূল্য"]:
        strokes, labels = checks.labelled(CASE, w, seed=2)
        for i, l in enumerate(labels):
            if not l.startswith("below:"):
                continue
            j = l.split(":")[1]
            own = [k for k, m in enumerate(labels) if m in (f"body:{j}", f"pre:{j}")]
            assert own and i > max(own), (w, labels)
            assert float(np.median(strokes[i][:, 1])) > -0.3 * 100
            seen += 1
    assert seen >= 4
