"""The script kit: what any writing system needs to become generated (or composed) training ink.

A script is made of the same parts whatever its letters:

* ``alphabets``: each language's letters and the script they belong to (Cyrillic, Greek, Hangul, Latin);
* ``text``: words and running text per language from wordfreq, made right for the script (word-final ς in
  Greek, Serbian Cyrillic from wordfreq's Latin ``sh``, Korean particles attached to their word, Vietnamese
  syllables), with no tokenizer that needs MeCab;
* ``sources``: the letter sources of each script in order of preference (real UNIPEN letters where the
  script shares a handwritten form with Latin, stroke-ordered centre lines from Hershey fonts or drawn
  templates, font outlines as a fallback), each with the licence its model card names;
* ``hershey``: the Hershey fonts' Cyrillic and Greek glyphs, reached through their ASCII slot layouts;
* ``homoglyphs``: Cyrillic and Greek words composed from real UNIPEN letters (а from a, т from a
  cursive m, ά from a with an acute), the real-ink evaluation that is reported apart from generated ink;
* ``writer``: the writer model (lifted from ``cjk.py``) with the rules of each script as data, and
  ``write_word`` for scripts written on a baseline;
* ``greek``: Greek letters for the writer (Hershey simplex, a drawn ς, tonos and dialytika as marks);
* ``hangul``: Hangul syllables from 24 drawn jamo and the six block layouts, in the CJK glyphs' form;
* ``outlines``: the last letter source, font outlines (Noto, SIL OFL) filled, thinned (Zhang–Suen) and traced
  into strokes ordered by the script's rules (tested on shapes with known strokes; no model uses it yet);
* ``training``: a script's generated words and lines and its real-letter words (``ScriptSources``), for
  ``latin train --scripts`` and the held-out figures of ``scripts evaluate models``.

The CJK generator (``cjk.py``) and the accent composer (``accents.py``, ``compose.py``) are the first users
of these ideas; Vietnamese reads through ``accents`` (stacked marks) and the Latin pipeline.
"""
