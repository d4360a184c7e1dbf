"""Bit-parallel LCS against the textbook dynamic programme, on random sequences."""

from __future__ import annotations

import random

from hallucheck.detectors.lexical.lcs import PackedSequences, lcs_alignment, lcs_length


def dp(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def test_packed_lengths_match_dynamic_programme() -> None:
    rng = random.Random(0)
    for _ in range(500):
        seqs = [[rng.choice("abcde") for _ in range(rng.randint(0, 14))] for _ in range(rng.randint(1, 6))]
        query = [rng.choice("abcdef") for _ in range(rng.randint(0, 16))]
        assert PackedSequences.build(seqs).lcs_lengths(query) == [dp(query, s) for s in seqs]


def test_pairwise_helpers() -> None:
    rng = random.Random(1)
    for _ in range(200):
        a = [rng.choice("abcd") for _ in range(rng.randint(0, 12))]
        b = [rng.choice("abcd") for _ in range(rng.randint(0, 40))]
        assert lcs_length(a, b) == lcs_length(b, a) == dp(a, b)
        marks = lcs_alignment(a, b)
        assert sum(marks) == dp(a, b)
        picked = [x for x, m in zip(a, marks) if m]
        assert dp(picked, b) == len(picked)  # the marked words form a common subsequence


def test_wide_vectors() -> None:
    long_seq = [f"w{i % 97}" for i in range(5000)]
    query = [f"w{i}" for i in range(0, 97, 3)]
    assert PackedSequences.build([long_seq, ["w0"], []]).lcs_lengths(query) == [len(query), 1, 0]


def test_segment_counts_agree_on_short_and_long_vectors() -> None:
    import random

    from hallucheck.detectors.lexical import lcs

    rng = random.Random(7)
    vocab = list("abcdefgh")
    for n_seqs in (1, 5, lcs._FEW_SEGMENTS, lcs._FEW_SEGMENTS + 1, 120):
        seqs = [[rng.choice(vocab) for _ in range(rng.randint(0, 12))] for _ in range(n_seqs)]
        packed = lcs.PackedSequences.build(seqs)
        query = [rng.choice(vocab) for _ in range(15)]
        expected = [lcs.lcs_length(query, s) for s in seqs]
        assert packed.lcs_lengths(query) == expected
