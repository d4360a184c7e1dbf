"""The split part of generated cases: by a hash of the section key, every part filled when it can be."""

from __future__ import annotations

from collections import Counter

from hallucheck.synth.parts import MIN_SECTIONS, assign_parts, part_of_key


def test_a_corpus_the_hash_splits_well_keeps_the_hash_parts() -> None:
    keys = [f"doc{i}#s{j}" for i in range(40) for j in range(5)]
    assert assign_parts(keys) == {k: part_of_key(k) for k in keys}


def test_every_part_gets_a_section_when_there_are_enough() -> None:
    for n in range(MIN_SECTIONS, 12):
        for start in range(0, 60, 7):
            keys = [f"note{start + i}#s0" for i in range(n)]
            parts = assign_parts(keys)
            counts = Counter(parts.values())
            assert set(counts) == {"train", "calib", "dev"}, keys
            moved = [k for k in keys if parts[k] != part_of_key(k)]
            assert len(moved) <= 2  # only what the empty parts needed
            assert assign_parts(reversed(keys)) == parts  # the keys alone decide


def test_too_few_sections_leave_a_part_empty() -> None:
    assert len(set(assign_parts(["a#s0", "b#s0"]).values())) <= 2
