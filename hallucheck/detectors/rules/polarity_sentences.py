"""Source sentences as polarity symbols, aligned with an answer sentence word by word.

The ``opposites`` rules and the model layer's check of restated sentences read a source the same
way: each sentence's lemmas with its negations made explicit
(:func:`hallucheck.text.opposites.polarity_symbols`; Chinese by characters), built once per source
and kept on its shared :class:`~hallucheck.analysis.SourceAnalysis`, so the two checks of one
answer pay for it once.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from typing import Literal

from hallucheck.analysis import SourceAnalysis, group_tokens
from hallucheck.text.opposites import Symbol, polarity_symbols

__all__ = ["Opcode", "SourceSentence", "matched_map", "source_sentences"]


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


def source_sentences(sa: SourceAnalysis, k: int, language: str) -> list[SourceSentence]:
    """The sentences of one source with their alignment symbols (cached on the source analysis,
    which is shared between checks of the same source)."""
    def build() -> list[SourceSentence]:
        out = []
        for seg, toks in zip(sa.sentences, group_tokens(sa.sentences, sa.tokens), strict=True):
            syms = polarity_symbols(toks, language)
            norms = frozenset(s.form for s in syms if s.content)
            if norms:
                out.append(SourceSentence(k, seg.start, seg.end, seg.text, norms, syms, [s.form for s in syms],
                                           sum(s.content for s in syms)))
        return out

    return sa.derived(f"_opposites_{language}_{k}", build)


Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]


def matched_map(a: list[str], b: SourceSentence) -> tuple[list[Opcode], dict[int, int]]:
    """The opcodes aligning answer symbols ``a`` with source sentence ``b``, and the answer
    positions matched (answer index -> source index)."""
    sm = b.aligner()
    sm.set_seq1(a)
    ops = sm.get_opcodes()
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, _j2 in ops:
        if tag == "equal":
            for d in range(i2 - i1):
                mapping[i1 + d] = j1 + d
    return ops, mapping
