"""Character language models, the decoder's prior.

- ``ngram``: counting, Witten-Bell estimation, pruning and quantization, and the INKLM1 file;
- ``inklm2``: the compact INKLM2 file with its own alphabet (``LM_FORMAT.md``);
- ``languages`` and ``cjk``: the text each language's model is counted from;
- ``build``, ``build_cjk``, ``build_all``: the tools that write the shipped files.

``read_file``/``read_bytes`` read either format; ``write_v2`` writes INKLM2.
"""
from __future__ import annotations

from inkrec_training.lm import inklm2, ngram


def read_bytes(data: bytes) -> "ngram.CharNgramLM":
    """The model in an INKLM1 or INKLM2 file's bytes; ``ValueError`` for anything else."""
    if data[:8] == inklm2.MAGIC:
        return inklm2.from_bytes(data)
    if data[:8] != ngram.MAGIC:
        raise ValueError("not an INKLM1 or INKLM2 file")
    return ngram.CharNgramLM.from_bytes(data)


def read_file(path: str) -> "ngram.CharNgramLM":
    """The model in the INKLM1 or INKLM2 file at ``path``."""
    with open(path, "rb") as f:
        return read_bytes(f.read())


def write_v2(model: "ngram.CharNgramLM", path: str) -> None:
    """Writes ``model`` as INKLM2 (``inklm2.to_bytes``); the model must have an ``alphabet``."""
    with open(path, "wb") as f:
        f.write(inklm2.to_bytes(model))
