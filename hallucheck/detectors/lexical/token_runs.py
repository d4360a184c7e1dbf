"""Runs of marked words inside one sentence, as character ranges: the short spans detectors emit.

Labelled hallucinations are phrases ("at sea for 66 days"), not whole sentences, so the lexical
detectors report the runs of words they found unsupported. A run goes on across words the
detector did not judge (stop words, in-phrase punctuation) and stops at a judged, supported word
or at a clause-ending mark.
"""

from __future__ import annotations

from collections.abc import Iterable

from hallucheck.text import Token

__all__ = ["marked_runs", "CLAUSE_ENDS"]

CLAUSE_ENDS = frozenset(".;:!?。；：！？\n")


def marked_runs(tokens: Iterable[Token], marked: set[int], judged: set[int]) -> list[tuple[int, int]]:
    """``[start, end)`` ranges covering consecutive marked tokens (tokens known by start offset).

    ``judged`` holds the start offsets of every token the detector scored; an unmarked judged
    token ends a run, unjudged tokens between two marked ones are absorbed into it.
    """
    runs: list[tuple[int, int]] = []
    cur_start = cur_end = -1
    for t in tokens:
        if t.start in marked:
            if cur_start < 0:
                cur_start = t.start
            cur_end = t.end
        elif t.start in judged or (t.is_punct and t.text in CLAUSE_ENDS):
            if cur_start >= 0:
                runs.append((cur_start, cur_end))
                cur_start = -1
    if cur_start >= 0:
        runs.append((cur_start, cur_end))
    return runs
