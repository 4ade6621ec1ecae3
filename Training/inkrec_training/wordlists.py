"""wordfreq's most frequent words of a language with their frequencies, from wordfreq itself or from a file
saved earlier by ``save`` (a lent GPU machine has no wordfreq and cannot fetch it).

The training mix reads words through ``top_words`` only (``synthetic.word_list``, ``languages.words_of``,
``accents.substitution_table``); ``use(path)`` makes every later call answer from the saved file, which
holds the same lists and frequencies that wordfreq gave when it was saved.
"""
from __future__ import annotations

import json
import lzma
from typing import Optional

_saved: Optional[dict] = None
_saved_path: Optional[str] = None


def use(path: Optional[str]) -> None:
    """Answer ``top_words`` from the file at ``path`` (``save``'s) from now on; None: from wordfreq again."""
    global _saved, _saved_path
    if path is None:
        _saved, _saved_path = None, None
        return
    with lzma.open(path, "rt", encoding="utf-8") as f:
        _saved, _saved_path = json.load(f), path


def top_words(lang: str, n: int) -> list[tuple[str, float]]:
    """The ``n`` most frequent words of ``lang`` with their wordfreq frequencies, most frequent first. Thai
    (``th``, which wordfreq lacks): the Thai National Corpus list the checkout holds (``writing.thai.words``,
    CC0 1.0), saved file or not."""
    if lang == "th":
        from .writing import thai
        return thai.words(n)
    if _saved is not None:
        entry = _saved.get(lang)
        if entry is None or entry["n"] < n:
            have = "none" if entry is None else f"only {entry['n']}"
            raise LookupError(f"{_saved_path} holds {have} words of {lang!r}, {n} were asked for")
        return [(w, f) for w, f in entry["words"][:n]]
    return _from_wordfreq(lang, n)


# Languages whose wordfreq tokenizer needs MeCab (not installed): their frequencies are read from the list
# itself (``get_frequency_dict``), which holds the same entries without tokenizing them again.
_NO_TOKENIZER = ("ko", "ja")


def _from_wordfreq(lang: str, n: int) -> list[tuple[str, float]]:
    from wordfreq import get_frequency_dict, top_n_list, word_frequency
    if lang in _NO_TOKENIZER:
        d = get_frequency_dict(lang)
        return sorted(d.items(), key=lambda kv: -kv[1])[:n]
    return [(w, word_frequency(w, lang)) for w in top_n_list(lang, n)]


def save(path: str, wanted: dict[str, int]) -> None:
    """Writes ``wanted`` ({language: how many words}) from wordfreq to ``path`` (LZMA-compressed JSON)."""
    out = {}
    for lang, n in wanted.items():
        out[lang] = {"n": n, "words": [[w, f] for w, f in _from_wordfreq(lang, n)]}
    with lzma.open(path, "wt", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
