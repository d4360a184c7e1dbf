"""The train / calib / dev part of a generated case, decided by its source section alone.

Like the RAGTruth split (:mod:`hallucheck.eval.split`), by a hash, in the same proportions (80 /
10 / 10), so it is the same on every machine. The key of a section does not depend on its
language, so a section and its translations fall in the same part: a cross-lingual case never
has its source text in one part and its translation in another.

A small folder (two documents of a few sections) can leave a part with no section at all, and
then ``hallucheck eval --split dev`` has nothing to read. :func:`assign_parts` fills such a part
from the others, one section at a time, so any corpus of ``MIN_SECTIONS`` sections or more has
all three parts; where the hash already gave every part a section, it changes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from hallucheck.eval.split import Part

__all__ = ["MIN_SECTIONS", "PARTS", "assign_parts", "part_of_key"]

PARTS: tuple[Part, ...] = ("train", "calib", "dev")
MIN_SECTIONS = len(PARTS)  # one section a part


def _bucket(key: str) -> int:
    return int(hashlib.sha1(("hallucheck-synth\x1f" + key).encode("utf-8")).hexdigest()[:8], 16)


def part_of_key(key: str) -> Part:
    """The part of the section (or document) named ``key`` by the hash alone."""
    bucket = _bucket(key) % 20
    if bucket < 2:
        return "dev"
    if bucket < 4:
        return "calib"
    return "train"


def assign_parts(keys: Iterable[str]) -> dict[str, Part]:
    """The part of every key of one corpus: :func:`part_of_key`'s, except that a part the hash
    left empty takes a section from the part with the most (of those, the one whose hash is
    lowest, so the choice depends on the keys alone). With fewer than ``MIN_SECTIONS`` keys some
    part stays empty."""
    parts = {key: part_of_key(key) for key in sorted(set(keys))}
    for empty in ("dev", "calib", "train"):
        members = {p: sorted((k for k, q in parts.items() if q == p), key=_bucket) for p in PARTS}
        if members[empty]:
            continue
        donor = max(PARTS, key=lambda p: len(members[p]))
        if len(members[donor]) < 2:
            break
        parts[members[donor][0]] = empty
    return parts
