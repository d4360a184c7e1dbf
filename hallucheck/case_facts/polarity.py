"""A source sentence as polarity symbols (lemmas with negations made explicit), ready to align with
an answer sentence.

Below the detectors because the case's facts (:class:`~hallucheck.case_facts.CaseFacts`) keep the
sentences of a case's sources for the ``opposites`` rules, the restated check and its safeguard;
:mod:`hallucheck.detectors.rules.polarity_sentences` builds them.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass

from hallucheck.text.opposites import Symbol

__all__ = ["PolaritySources", "SourceSentence"]


@dataclass
class SourceSentence:
    source: int
    start: int
    end: int
    text: str
    norms: frozenset[str]
    symbols: list[Symbol]
    forms: list[str]
    content: int  # content symbols
    # A matcher holding this sentence as its second sequence: its index of the sentence's symbols
    # is built once and shared (read only) by shallow copies, one per comparison (matched_map).
    matcher: difflib.SequenceMatcher[str] | None = None

    def aligner(self) -> difflib.SequenceMatcher[str]:
        if self.matcher is None:
            self.matcher = difflib.SequenceMatcher(None, [], self.forms, autojunk=False)
        return copy.copy(self.matcher)


# Every sentence of a case's sources, and for each content form the indices of the sentences that hold it.
PolaritySources = tuple[list[SourceSentence], dict[str, list[int]]]
