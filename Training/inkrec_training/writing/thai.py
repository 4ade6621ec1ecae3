"""Thai handwriting (``th``): Noto Looped Thai's glyphs traced once, words shaped as the script shapes them,
written as people write them. ``writing/indic.py`` does the work; this module holds Thai's particulars.

Thai has no headline, no conjuncts and **no spaces between words** (spaces end phrases and sentences). Its
letters sit on the baseline one after another; vowel signs and tone marks **stack** above and below them:

* the leading vowels เ แ โ ใ ไ are stored in text in *visual* order, before the consonant they are spoken after,
  and are written first: they are simply the left glyph of a cluster (no pre-base reordering, ``Script.pre`` is
  empty);
* the above vowels ั ิ ี ึ ื ็, the below vowels ุ ู (and phinthu ฺ) and the tone marks ่ ้ ๊ ๋, thanthakhat ์ and
  nikhahit ํ sit over or under their consonant: written after the consonant's body, those below first, then those
  above **from the lowest up** (``Script.top_order = "height"``): the tone mark after the vowel it stands on;
* sara am ำ is a nikhahit circle over the consonant and an า after it (HarfBuzz splits it so): the า with the
  bodies, the circle with the marks above, under a tone mark (น้ำ: น, า, ํ, ้);
* ๆ (mai yamok, repeat), ฯ (paiyannoi, abbreviation), the following vowels า ะ ๅ and the Thai digits ๐–๙ are
  letters of their own.

A **cluster** (``SYLLABLE``), the unit shaped at once, is a leading vowel (or none), a consonant and the marks
stacked on it (and ำ); every other character is one of its own. Thai shaping is mark positioning inside such a
cluster, never across one.

* **Font**: Noto Looped Thai Regular (Debian fonts-noto-core, SIL OFL 1.1). The looped form, each letter started
  at a small head loop, is the form Thai schoolchildren learn and people write by hand; Noto Sans Thai is the
  loopless form of signs and screens, further from handwriting.
* **Stacked tone marks**: HarfBuzz 0.57 (uharfbuzz) with Noto Looped Thai picks the raised ``.small`` tone mark
  over an above vowel (กิ่, กั้, น้ำ) but then lowers it 283 units by the mark-to-base anchor, onto the vowel;
  ``_raise_stacked`` drops that offset, leaving the mark where the glyph draws it, above the vowel (what the font
  draws and a hand writes).
* **Table** (``writing/data/thai_glyphs.json.gz``): the clusters of the 20,000 most frequent words of the word list
  below, every consonant bare and with each above / below vowel, each with or without each tone mark and
  thanthakhat (and with ำ), the leading vowels before every consonant (with the tone marks; เ also with the
  above vowels of เ-ีย, เ-ือ, เ-ิ, เ-็, แ with ็), the following vowels, ๆ ฯ and the Thai digits, shaped with
  Noto Looped Thai by HarfBuzz. Generation needs neither.
* **Size**: the consonants' bodies reach 0.56 em above the baseline: that is one x-height here (the marks above
  reach up to 2 x-heights, ป ฝ ฟ's stems and ไ ใ's tails about 1.4).
* **Words** (``writing/data/thai_words.tsv.gz``, ``words``): the 30,000 most frequent words written in Thai
  letters only of the Thai National Corpus word frequencies, ``tnc_freq.txt`` of PyThaiNLP's corpus
  (``pythainlp/corpus/tnc_freq.txt`` in the pythainlp 5.4.0 wheel; declared CC0 1.0 by
  ``pythainlp/corpus/corpus_license.md``; PyThaiNLP's code Apache-2.0), with their counts, NFC. wordfreq has no
  Thai. ``save_words`` wrote the file (``scripts data thai-words``); nothing else reads pythainlp.

Rebuild the data (fontTools and uharfbuzz needed; pythainlp only for the word file)::

    PYTHONPATH=Training:/tmp/pylib python3 -m inkrec_training scripts data thai-words --tnc .../tnc_freq.txt
    PYTHONPATH=Training:/tmp/pylib python3 -m inkrec_training scripts data thai-glyphs
"""
from __future__ import annotations

import gzip
import os
import re
import unicodedata
from functools import lru_cache
from typing import Optional

from . import indic

CONSONANTS = "".join(chr(c) for c in range(0x0E01, 0x0E2F))   # ก–ฮ, with ฤ ฦ (vowels written as letters)
LEADING = "เแโใไ"                                           # written before the consonant, stored before it
FOLLOWING = "ะาๅ"                                            # sara a, sara aa, lakkhangyao
SARA_AM = "\u0E33"                                           # ำ
ABOVE = "\u0E31\u0E34\u0E35\u0E36\u0E37\u0E47"               # ั ิ ี ึ ื ็
BELOW = "\u0E38\u0E39\u0E3A"                                 # ุ ู ฺ
TONES = "\u0E48\u0E49\u0E4A\u0E4B"                           # ่ ้ ๊ ๋
SIGNS = "\u0E4C\u0E4D\u0E4E"                                 # ์ (thanthakhat) ํ (nikhahit) ๎ (yamakkan)
MAI_YAMOK, PAIYANNOI = "\u0E46", "\u0E2F"                    # ๆ ฯ
DIGITS = "๐๑๒๓๔๕๖๗๘๙"
BAHT = "\u0E3F"                                              # ฿
# the characters a Thai word is written in (``alphabets.ALPHABETS["th"]``): no digits
WORD_LETTERS = CONSONANTS + LEADING + FOLLOWING + SARA_AM + ABOVE + BELOW + TONES + SIGNS + MAI_YAMOK + PAIYANNOI
LETTERS = WORD_LETTERS + DIGITS

FONT = "/usr/share/fonts/truetype/noto/NotoLoopedThai-Regular.ttf"
HERE = os.path.join(os.path.dirname(__file__), "data")
DATA = os.path.join(HERE, "thai_glyphs.json.gz")
WORDS = os.path.join(HERE, "thai_words.tsv.gz")
BODY_TOP = 0.56   # em: the top of the consonants' bodies, one x-height

_MARKS = f"[{ABOVE}{BELOW}{TONES}{SIGNS}]"
SYLLABLE = re.compile(f"[{LEADING}]?[{CONSONANTS}]{_MARKS}*{SARA_AM}?|.", re.S)


def _raise_stacked(glyphs: list) -> list:
    """(``Script.reshape``) A raised ``.small`` tone mark keeps the height its glyph draws it at (above the
    vowel it stands on) instead of the mark-to-base offset HarfBuzz gives it (onto the vowel)."""
    return [(n, x, 0, a, c) if n.endswith(".small") and n[:7] in ("uni0E48", "uni0E49", "uni0E4A", "uni0E4B",
                                                                "uni0E4C") else (n, x, y, a, c)
            for n, x, y, a, c in glyphs]


def _vocabulary(n_words: int = 20000) -> list[str]:
    """The clusters of the ``n_words`` most frequent words, then every consonant with each above / below vowel,
    tone mark, thanthakhat and ำ, the leading vowels with every consonant, and the single characters."""
    from . import text
    seen: dict[str, None] = {}
    for w in text.words("th", n_words)[0]:
        for s in syllables(w):
            if not unicodedata.category(s[0]).startswith("M"):
                seen[s] = None
    finals = [""] + list(TONES) + ["\u0E4C"]
    for c in CONSONANTS:
        for v in [""] + list(ABOVE) + list(BELOW[:2]):
            for t in finals:
                seen[c + v + t] = None
        for t in [""] + list(TONES):
            seen[c + t + SARA_AM] = None
        for lead in LEADING:
            for t in [""] + list(TONES):
                seen[lead + c + t] = None
        for v in "\u0E34\u0E35\u0E36\u0E37\u0E47":   # เ-ิ เ-ี(ย) เ-ึ เ-ื(อ) เ-็
            for t in [""] + list(TONES):
                seen["เ" + c + v + t] = None
        seen["แ" + c + "\u0E47"] = None
    for s in FOLLOWING + LEADING + SARA_AM + MAI_YAMOK + PAIYANNOI + DIGITS + BAHT:
        seen[s] = None
    return list(seen)


SCRIPT = indic.Script(
    name="Thai", font=FONT, data=DATA, syllable=SYLLABLE, pre=(),
    em_per_x=BODY_TOP, top_em=0.60, head_band=None, centre_y=-0.5, vocabulary=_vocabulary,
    top_order="height", reshape=_raise_stacked, loop_start=True,
    source="NotoLoopedThai-Regular.ttf (Noto Looped Thai, SIL OFL 1.1), shaped by HarfBuzz (uharfbuzz), stacked "
           "tone marks kept at their drawn height, traced by writing/indic.py with writing/outlines.py")
# the module's functions: the script's (``indic.Script``)
syllables, covers, word, write_word, write_labelled, build = (
    SCRIPT.syllables, SCRIPT.covers, SCRIPT.word, SCRIPT.write_word, SCRIPT.write_labelled, SCRIPT.build)


# ---------------------------------------------------------------------------------------------- words

@lru_cache(maxsize=None)
def _saved_words() -> tuple[tuple[str, float], ...]:
    """(word, frequency) of ``WORDS``, most frequent first; frequency = count / the corpus list's total count."""
    total, out = None, []
    with gzip.open(WORDS, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                if line.startswith("# total"):
                    total = float(line.split()[2])
                continue
            w, c = line.rstrip("\n").split("\t")
            out.append((w, float(c)))
    total = total or sum(c for _, c in out)
    return tuple((w, c / total) for w, c in out)


def words(n: int) -> list[tuple[str, float]]:
    """The ``n`` most frequent Thai words of ``WORDS`` with their frequencies (``wordlists.top_words("th", n)``)."""
    got = _saved_words()
    if n > len(got):
        raise LookupError(f"{WORDS} holds {len(got)} Thai words, {n} were asked for")
    return list(got[:n])


def save_words(tnc_path: str, out: str = WORDS, n: int = 30000) -> int:
    """Writes the ``n`` most frequent words of ``tnc_path`` (PyThaiNLP's ``tnc_freq.txt``: word TAB count) that
    are written in Thai letters only (NFC; ํา as ำ; words whose clusters a hand cannot write, such as a tone mark
    with no consonant, left out) to ``out`` (gzip TSV, most frequent first, counts merged), with the list's total
    count; the number written."""
    merged: dict[str, int] = {}
    total = 0
    allowed = set(WORD_LETTERS)
    with open(tnc_path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2 or not parts[1].strip().isdigit():
                continue
            c = int(parts[1])
            total += c
            w = unicodedata.normalize("NFC", parts[0].strip().replace("\u0E4D\u0E32", SARA_AM))
            if not w or not all(ch in allowed for ch in w):
                continue
            if any(unicodedata.category(s[0]).startswith("M") for s in syllables(w)):
                continue
            merged[w] = merged.get(w, 0) + c
    ranked = sorted(merged.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with gzip.GzipFile(out, "wb", mtime=0) as raw:
        body = (f"# Thai National Corpus word frequencies: the {len(ranked)} most frequent words in Thai letters "
                f"only, of tnc_freq.txt in PyThaiNLP's corpus (pythainlp 5.4.0; CC0 1.0, "
                f"pythainlp/corpus/corpus_license.md)\n# total {total}\n"
                + "".join(f"{w}\t{c}\n" for w, c in ranked))
        raw.write(body.encode("utf-8"))
    return len(ranked)


def main(argv: Optional[list[str]] = None) -> None:
    """``scripts data thai-glyphs`` (``indic.Script.main``) and, after its fixed first word ``words``,
    ``scripts data thai-words``."""
    import argparse
    import sys
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["words"]:
        argv = argv[1:]
        ap = argparse.ArgumentParser(description="Saves the most frequent Thai words of PyThaiNLP's tnc_freq.txt "
                                                 "(CC0 1.0) into writing/data/thai_words.tsv.gz")
        ap.add_argument("--tnc", required=True, help="pythainlp/corpus/tnc_freq.txt")
        ap.add_argument("--out", default=WORDS)
        ap.add_argument("--words", type=int, default=30000)
        args = ap.parse_args(argv)
        k = save_words(args.tnc, args.out, args.words)
        _saved_words.cache_clear()
        print(f"{args.out}: {k} words, {os.path.getsize(args.out)} bytes")
        return
    SCRIPT.main(argv)


if __name__ == "__main__":
    main()
