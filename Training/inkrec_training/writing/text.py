"""Words of each language the kit makes models for, from wordfreq (data CC BY-SA 4.0), made right for its script.

``words(code, n)`` gives (words, frequencies), most frequent first, written only in the language's letters
(``alphabets.writes``). What wordfreq gives is not always what people write, so:

* **Greek** (``el``): wordfreq folds the final sigma (``τησ`` for ``της``); a σ that ends a word is written
  ς again (``final_sigma``). Polytonic, Latin and Cyrillic words are left out.
* **Serbian** (``sr``, Cyrillic): wordfreq has no Serbian list of its own; ``sr`` answers with ``sh``,
  Serbo-Croatian in Latin letters. The words are transliterated (``latin_to_serbian_cyrillic``: lj nj dž
  are one letter each, љ њ џ, except in the few words where they meet across a prefix, ``nadživeti`` →
  надживети). ``sh`` mixes the Serbian and Croatian standards (vreme and vrijeme, hiljada and tisuća), so
  the Serbian Cyrillic words hold some Croatian forms: the model card says so.
* **Korean** (``ko``): wordfreq's Korean list holds morphemes (이 는 을 하 …), split by MeCab, and
  ``word_frequency`` needs MeCab, which is not installed: the list comes from ``get_frequency_dict``.
  ``korean_phrases`` joins particles and endings to the word before them, as Korean is written
  (학교 + 에 → 학교에).
* **Vietnamese** (``vi``): a wordfreq word is one syllable, as a Vietnamese word is written.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import alphabets

_SERBIAN_DIGRAPHS = {"lj": "љ", "nj": "њ", "dž": "џ"}
_SERBIAN_LETTERS = {"a": "а", "b": "б", "c": "ц", "č": "ч", "ć": "ћ", "d": "д", "đ": "ђ", "e": "е", "f": "ф",
                    "g": "г", "h": "х", "i": "и", "j": "ј", "k": "к", "l": "л", "m": "м", "n": "н", "o": "о",
                    "p": "п", "r": "р", "s": "с", "š": "ш", "t": "т", "u": "у", "v": "в", "z": "з", "ž": "ж"}
# Where l+j, n+j or d+ž meet across a prefix or a loanword's syllables: two letters, not one.
_SERBIAN_SPLIT = ("nadž", "podž", "odživ", "injek", "konjug", "konjunk", "vanjezi", "tanjug")


def latin_to_serbian_cyrillic(word: str) -> str | None:
    """Serbian Latin (lowercase) → Cyrillic, or None when ``word`` has a letter Serbian does not write (q w x y)."""
    out = []
    i = 0
    split_at = set()
    for stem in _SERBIAN_SPLIT:
        k = word.find(stem)
        if k >= 0:
            j = stem.index("ž") if "ž" in stem else stem.index("j")
            split_at.add(k + j - 1)  # no digraph may start at the letter before
    while i < len(word):
        pair = word[i:i + 2]
        if pair in _SERBIAN_DIGRAPHS and i not in split_at:
            out.append(_SERBIAN_DIGRAPHS[pair])
            i += 2
            continue
        c = _SERBIAN_LETTERS.get(word[i])
        if c is None:
            return None
        out.append(c)
        i += 1
    return "".join(out)


def final_sigma(word: str) -> str:
    """σ at the end of a word (or before an apostrophe) written ς, as Greek is written."""
    return re.sub(r"σ(?=$|['’])", "ς", word)


# Korean particles and endings that wordfreq's morpheme list holds apart and that are written joined to
# the word before them.
KOREAN_ATTACHED = frozenset(
    "이 가 을 를 은 는 에 에서 의 로 으로 와 과 도 만 께 한테 에게 께서 처럼 보다 부터 까지 이나 나 라도 마다 "
    "고 다 며 면 서 지 게 기 어 아 었 았 였 겠 었다 았다 습니다 ㅂ니다 니다 요 죠 네 지만 는데 은데 던 든 라고 "
    "이다 였다 했 해 했다 한 할 된 될 적 들 님 씨 인 일 께요 세요 시 시고 잖아".split())


def korean_phrases(tokens: list[str]) -> list[str]:
    """``tokens`` (wordfreq morphemes) joined as Korean is spaced: each particle or ending of
    ``KOREAN_ATTACHED`` goes onto the token before it."""
    out: list[str] = []
    for t in tokens:
        if out and t in KOREAN_ATTACHED:
            out[-1] += t
        else:
            out.append(t)
    return out


# The particles written after a noun (what a generated eojeol attaches to a stem).
KOREAN_PARTICLES = frozenset("이 가 을 를 은 는 에 에서 의 로 으로 와 과 도 만 에게 한테 부터 까지 처럼 보다 께서 마다 이나 라도 들".split())
# Particles whose form follows the syllable before: (after a final consonant, after a vowel).
KOREAN_PAIRED = {"을": ("을", "를"), "를": ("을", "를"), "은": ("은", "는"), "는": ("은", "는"), "이": ("이", "가"),
                 "가": ("이", "가"), "과": ("과", "와"), "와": ("과", "와"), "으로": ("으로", "로"), "로": ("으로", "로")}


def korean_attach(stem: str, particle: str) -> str:
    """``stem`` with ``particle`` attached in the form its last syllable takes (책을, 학교를; 으로 after a
    final consonant other than ㄹ)."""
    if particle in KOREAN_PAIRED and stem:
        from .hangul import decompose
        final = (decompose(stem[-1]) or ("", "", ""))[2]
        after_consonant = final != "" and not (particle in ("으로", "로") and final == "ㄹ")  # ㄹ takes 로
        particle = KOREAN_PAIRED[particle][0 if after_consonant else 1]
    return stem + particle


@lru_cache(maxsize=None)
def _raw(code: str, n: int) -> tuple[tuple[str, float], ...]:
    from .. import wordlists
    return tuple(wordlists.top_words("sh" if code == "sr" else code, n))


def words(code: str, n: int = 30000) -> tuple[list[str], list[float]]:
    """Up to ``n`` of the language's most frequent words, written only in its letters, with their wordfreq
    frequencies (a word that two wordfreq entries turn into keeps their sum), most frequent first."""
    merged: dict[str, float] = {}
    for w, f in _raw(code, n):
        if f <= 0:
            continue
        if code == "sr":
            w = latin_to_serbian_cyrillic(w)
            if w is None:
                continue
        elif code == "el":
            w = final_sigma(w)
        if not alphabets.writes(code, w):
            continue
        merged[w] = merged.get(w, 0.0) + f
    ranked = sorted(merged.items(), key=lambda kv: -kv[1])
    return [w for w, _ in ranked], [f for _, f in ranked]
