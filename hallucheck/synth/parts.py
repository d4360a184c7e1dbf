"""The train / calib / dev part of a generated case, decided by its source document alone.

Like the RAGTruth split (:mod:`hallucheck.eval.split`), by a hash, in the same proportions (80 /
10 / 10), so it is the same on every machine. The key of a section does not depend on its
language, so a section and its translations fall in the same part: a cross-lingual case never
has its source text in one part and its translation in another.
"""

from __future__ import annotations

import hashlib

from hallucheck.eval.split import Part

__all__ = ["part_of_key"]


def part_of_key(key: str) -> Part:
    """The part of the section (or document) named ``key``."""
    bucket = int(hashlib.sha1(("hallucheck-synth\x1f" + key).encode("utf-8")).hexdigest()[:8], 16) % 20
    if bucket < 2:
        return "dev"
    if bucket < 4:
        return "calib"
    return "train"
