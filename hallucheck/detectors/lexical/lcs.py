"""Bit-parallel longest common subsequence over token sequences, for ROUGE-L.

ROUGE-L needs the LCS of an answer sentence with every source sentence. The textbook dynamic
programme costs O(n·m) per pair; here every source sentence is a segment of one packed bit
vector and one pass over the answer tokens computes the LCS with all segments at once
(Hyyrö's bit-vector recurrence, ``V' = (V + (V & M)) | (V & ~M)``, with a guard bit above each
segment that swallows the carry so segments stay independent). Python's big integers do the word
arithmetic, so the cost is a handful of big-int operations per answer token whatever the number
of source sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat

__all__ = ["PackedSequences", "lcs_length", "lcs_alignment"]


# Up to this many packed sequences the per-segment counts are read with shifts and popcounts,
# above it from one bit string (with 18-word sentences the shifts were twice as fast at 16-32
# sentences and as fast at about 150).
_FEW_SEGMENTS = 128


@dataclass(frozen=True)
class PackedSequences:
    """Several token sequences packed into one bit vector (one segment each, plus a guard bit).

    ``masks[token]`` has bit ``offsets[i] + j`` set when ``sequences[i][j] == token``.
    """

    masks: dict[str, int]
    offsets: tuple[int, ...]
    lengths: tuple[int, ...]
    guards: int
    width: int

    @classmethod
    def build(cls, sequences: Sequence[Sequence[str]]) -> PackedSequences:
        masks: dict[str, int] = {}
        get = masks.get
        offsets: list[int] = []
        lengths: list[int] = []
        guards = 0
        pos = 0
        for seq in sequences:
            offsets.append(pos)
            lengths.append(len(seq))
            # This runs for every token of every new source: the bit moves one place per token
            # instead of being shifted out from 1 each time.
            bit = 1 << pos
            for tok in seq:
                masks[tok] = get(tok, 0) | bit
                bit <<= 1
            pos += len(seq)
            guards |= 1 << pos
            pos += 1
        return cls(masks, tuple(offsets), tuple(lengths), guards, pos)

    def run(self, tokens: Sequence[str]) -> int:
        """The final bit vector after reading ``tokens``; zeros inside a segment count LCS length."""
        full = (1 << self.width) - 1
        keep = full & ~self.guards
        v = keep
        masks = self.masks
        for tok in tokens:
            m = masks.get(tok)
            if m is None:
                continue
            u = v & m
            v = ((v + u) | (v - u)) & keep
        return v

    def lcs_lengths(self, tokens: Sequence[str]) -> list[int]:
        """LCS length of ``tokens`` with every packed sequence, in order."""
        zeros = ~self.run(tokens) & ((1 << self.width) - 1)
        if len(self.offsets) <= _FEW_SEGMENTS:
            # A shift, a mask and a popcount per segment: cheapest while the vector is short.
            return [((zeros >> off) & mask).bit_count() for off, mask in self._segment_masks]
        # One conversion to a bit string, then a cheap count per segment: on long vectors a
        # shift per segment would copy the big integer every time.
        bits = format(zeros, "b").zfill(self.width)[::-1]
        return list(map(bits.count, repeat("1"), self.offsets, self._ends))

    @cached_property
    def _ends(self) -> tuple[int, ...]:
        """Where each segment ends (its guard bit)."""
        return tuple(off + n for off, n in zip(self.offsets, self.lengths))

    @cached_property
    def _segment_masks(self) -> tuple[tuple[int, int], ...]:
        """``(offset, mask of its length)`` per segment."""
        return tuple((off, (1 << n) - 1) for off, n in zip(self.offsets, self.lengths))


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """LCS length of two token sequences (bit-parallel over the shorter one)."""
    if not a or not b:
        return 0
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return PackedSequences.build([short]).lcs_lengths(long_)[0]


def lcs_alignment(a: Sequence[str], b: Sequence[str]) -> list[bool]:
    """For each position of ``a``, whether it belongs to one LCS of ``a`` and ``b``.

    Plain dynamic programme with a traceback; used only on the few sentence pairs whose
    unmatched tokens become spans, so O(n·m) is fine there.
    """
    n, m = len(a), len(b)
    matched = [False] * n
    if not n or not m:
        return matched
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        ai = a[i]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if ai == b[j] else max(below[j], row[j + 1])
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            matched[i] = True
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return matched
