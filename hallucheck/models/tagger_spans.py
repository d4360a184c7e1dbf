"""Token probabilities -> character spans (shared by the model detector, export checks and tests).

Word pieces at or above the threshold are grown to whole words (a span never ends inside a word),
and neighbouring flagged words are merged when only whitespace or light punctuation (",", "-",
"'") separates them, because labelled hallucinations are phrases, not isolated pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from hallucheck.text.tokens import Token

__all__ = ["ProbSpan", "probs_to_spans"]

_JOINABLE = set(" \t,-'’/")


class ProbSpan(NamedTuple):
    start: int
    end: int
    score: float  # max word-piece probability inside
    mean: float  # mean word-piece probability inside


def probs_to_spans(
    answer: str,
    offsets: Sequence[tuple[int, int]],
    probs: np.ndarray,
    threshold: float,
    tokens: Sequence[Token] | None = None,
    max_gap: int = 2,
) -> list[ProbSpan]:
    """Flagged character spans of ``answer`` from word-piece ``offsets`` and ``probs``."""
    raw: list[tuple[int, int, float]] = [
        (s, e, float(p)) for (s, e), p in zip(offsets, probs) if p >= threshold and e > s
    ]
    if not raw:
        return []
    if tokens:  # grow to word boundaries
        grown = []
        j = 0
        for s, e, p in raw:
            while j < len(tokens) and tokens[j].end <= s:
                j += 1
            if j < len(tokens) and tokens[j].start <= s < tokens[j].end:
                s, e = min(s, tokens[j].start), max(e, tokens[j].end)
            grown.append((s, e, p))
        raw = grown
    raw.sort()
    out: list[list[float]] = []
    for s, e, p in raw:
        if out:
            last = out[-1]
            gap = answer[int(last[1]) : s]
            if s <= last[1] or (len(gap) <= max_gap and set(gap) <= _JOINABLE):
                last[1] = max(last[1], e)
                last[2] = max(last[2], p)
                last[3] += p
                last[4] += 1
                continue
        out.append([s, e, p, p, 1])
    spans = []
    for start, end, mx, total, n in out:
        a, b = int(start), int(end)
        while b > a and answer[b - 1] in " \t\n,;:":
            b -= 1
        if b > a:
            spans.append(ProbSpan(a, b, mx, total / n))
    return spans
