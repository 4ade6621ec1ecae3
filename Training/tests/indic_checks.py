"""The three Indic scripts' test settings (``CASES``: what test_indic.py checks for each) and the checks that
test_devanagari.py, test_bengali.py and test_tamil.py share (writing/indic.py writes all three): each takes the
script's ``Case``."""
import dataclasses
import random

import numpy as np

from inkrec_training.writing import bengali, devanagari, indic, tamil, writer


@dataclasses.dataclass(frozen=True)
class Case:
    """A script and what its checks take."""
    module: object               # writing.devanagari, writing.bengali, writing.tamil
    lang: str                    # the language of the kit written in it: "hi"
    script: str                  # its script code: "Deva"
    charset: str                 # its charset: "devanagari"
    letter: str                  # a letter of it
    words: tuple                 # frequent words, written by the size check
    more_words: tuple = ()       # more words it covers and the charset holds
    one_each: bool = True        # the charset lists each character once
    heights: tuple = ()          # (highest point between these, lowest under this): unit 100, y down
    per_char: float = 100.0      # a word under this wide a character (+ 100)
    long_word: str = ""          # written twice with one seed
    not_written: tuple = ()      # words with a syllable outside the table
    unseen_share: float = 0.0    # of words 20,001-30,000 of wordfreq's list, more than this covered (0: no check)

    @property
    def rules(self):
        return writer.RULES[self.script]

    def __repr__(self):
        return self.lang


HINDI_WORDS = ("के है में की और नहीं लिए किया भारत सरकार क्षेत्र प्रदेश कर्म पत्नी हिंदी ज़िंदगी श्री कृष्ण "
               "राष्ट्रीय स्थिति विद्यालय ट्रक द्वारा उन्होंने").split()
BENGALI_WORDS = ("না করে এবং থেকে জন্য একটি আমাদের হয়েছে কিছু বাংলাদেশ সরকার কর্মী পৌঁছে বিদ্যুৎ ক্ষমতা নির্বাচনে "
                 "সত্ত্বেও নিয়ন্ত্রণ দুঃখ কৈশোর ব্যবহার প্রথম").split()
TAMIL_WORDS = ("ஒரு இந்த மற்றும் என்ற நான் வேண்டும் இருக்கும் இல்லை மக்கள் தமிழ் போது மேலும் கொண்டு அரசு வைத்து "
               "மாட்டேன் பௌத்தம் க்ஷேத்திரம் ஸ்ரீ அஃது செய்தி").split()
# baseline at 0, y down: Devanagari's bodies mostly above the baseline, the headline about 1.3 x-heights up;
# Bengali letters run wide (ক is 1.7 x-heights); Tamil bodies about one x-height tall, ெ ே ி and the pulli up to
# about 1.6
DEVANAGARI = Case(devanagari, "hi", "Deva", "devanagari", "क", tuple(HINDI_WORDS),
                  tuple(devanagari.MARATHI_WORDS) + tuple(devanagari.NEPALI_WORDS), one_each=False,
                  heights=((-260, -100), 90), per_char=100, long_word="राष्ट्रीय", not_written=("क्‍ष्ट्र्य्ण्",))
# Bengali and Tamil words 20,001-30,000: their syllables come from the consonant x vowel sign, phala and reph rows of
# the table: 99.74% when written; Tamil's 99.95% (the 5 left are typos: ா் for ர், a lone ு)
BENGALI = Case(bengali, "bn", "Beng", "bengali", "ক", tuple(BENGALI_WORDS), heights=((-260, -100), 110),
               per_char=200, long_word="নিয়ন্ত্রণ", not_written=("ক্‍ষ্ট্র্য্ণ্",), unseen_share=0.99)
TAMIL = Case(tamil, "ta", "Taml", "tamil", "க", tuple(TAMIL_WORDS), heights=((-220, -70), 90), per_char=250,
             long_word="க்ஷேத்திரம்", not_written=("க\u0B82",), unseen_share=0.995)  # ஂ: not Tamil's
CASES = (DEVANAGARI, BENGALI, TAMIL)


def labelled(case, w, seed=0, k=0):
    return case.module.write_labelled(w, case.rules, writer.heldout_writer(k), random.Random(seed))


def table(case, shapes: int, glyphs: int) -> dict:
    """The module's glyph table, with more than ``shapes`` syllables and ``glyphs`` glyphs, every one named traced."""
    d = indic.data(case.module.DATA)
    assert len(d["shapes"]) > shapes and len(d["glyphs"]) > glyphs
    assert set(d["names"]) == set(d["glyphs"])
    return d


def tops_after_their_syllable(w, strokes, labels, in_time: bool = True) -> list[int]:
    """Every top mark after the rest of its own syllable (``in_time``: in time too) and above 1 x-height; the
    syllable of each."""
    seen = []
    for i, l in enumerate(labels):
        if not l.startswith("top:"):
            continue
        j = l.split(":")[1]
        own = [k for k, m in enumerate(labels) if m.split(":")[-1] == j and not m.startswith("top")]
        assert own and i > max(own), (w, labels)
        if in_time:
            assert float(strokes[i][0, 2]) > max(float(strokes[k][-1, 2]) for k in own)
        assert float(np.median(strokes[i][:, 1])) < -1.0 * 100
        seen.append(int(j))
    return seen


def headline_after_bodies(case, w, spanning: bool = False):
    """The headline strokes after every body stroke, in time too, at the top of the bodies (``spanning``: from
    near the leftmost body ink to near the rightmost)."""
    strokes, labels = labelled(case, w, seed=3)
    assert len(strokes) == len(labels)
    heads = [i for i, l in enumerate(labels) if l == "head"]
    bodies = [i for i, l in enumerate(labels) if l.split(":")[0] in ("body", "pre")]
    assert heads and bodies
    assert min(heads) > max(bodies)
    t_body_end = max(float(strokes[i][-1, 2]) for i in bodies)
    assert all(float(strokes[i][0, 2]) > t_body_end for i in heads)
    unit = 100.0
    if spanning:
        hx = np.concatenate([strokes[i][:, 0] for i in heads])
        bx = np.concatenate([strokes[i][:, 0] for i in bodies])
        assert hx.min() <= bx.min() + 0.4 * unit and hx.max() >= bx.max() - 0.4 * unit
    # and it lies at the top of the bodies, not at the baseline
    hy = np.concatenate([strokes[i][:, 1] for i in heads])
    assert hy.mean() < -0.9 * unit


def pre_base_after_its_consonant(case, w, signs: str, slack: float) -> int:
    """Each syllable of ``w`` with one of ``signs`` (pre-base vowel signs): the sign written after its syllable's
    body though placed left of it (left of the body's left edge + ``slack``); how many were checked."""
    checked = 0
    for seed in range(4):
        strokes, labels = labelled(case, w, seed=seed, k=seed)
        for j, s in enumerate(case.module.syllables(w)):
            if not any(m in s for m in signs):
                continue
            pre = [i for i, l in enumerate(labels) if l == f"pre:{j}"]
            body = [i for i, l in enumerate(labels) if l == f"body:{j}"]
            assert pre and body, (w, s, labels)
            assert min(pre) > max(body)
            assert float(strokes[min(pre)][0, 2]) > float(strokes[max(body)][-1, 2])
            px = np.concatenate([strokes[i][:, 0] for i in pre])
            bx = np.concatenate([strokes[i][:, 0] for i in body])
            assert np.median(px) < np.median(bx) and px.min() < bx.min() + slack
            checked += 1
    return checked
