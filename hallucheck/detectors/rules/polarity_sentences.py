"""Answer and source sentences as polarity symbols, aligned with each other word by word.

The ``opposites`` rules, the model layer's check of restated sentences and the safeguard built on
it read sentences the same way: lemmas with negations made explicit
(:func:`hallucheck.text.opposites.polarity_symbols`; Chinese by characters). A source's sentences
are built once per source and kept on its shared :class:`~hallucheck.analysis.SourceAnalysis`; an
answer's once per check, in ``CaseAnalysis.shared``; so the checks of one answer pay for them once.
"""

from __future__ import annotations

import copy
import difflib
from dataclasses import dataclass
from typing import Literal

from hallucheck.analysis import CaseAnalysis, SourceAnalysis, group_tokens
from hallucheck.text.opposites import Symbol, polarity_symbols

__all__ = ["Opcode", "SourceSentence", "answer_sources", "answer_symbols", "matched_map", "source_sentences"]


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


def answer_sources(analysis: CaseAnalysis) -> tuple[list[SourceSentence], dict[str, list[int]]]:
    """Every sentence of the case's sources, and for each content form the indices of the
    sentences that hold it, built once per check (``opposites``, the restated check and its
    safeguard all ask)."""
    def build() -> tuple[list[SourceSentence], dict[str, list[int]]]:
        language = analysis.language
        sources = [s for k, sa in enumerate(analysis.sources) for s in source_sentences(sa, k, language)]
        index: dict[str, list[int]] = {}
        for n, s in enumerate(sources):
            for w in s.norms:
                index.setdefault(w, []).append(n)
        return sources, index

    return analysis.shared_result("polarity_sources", build)


def answer_symbols(analysis: CaseAnalysis) -> list[list[Symbol]]:
    """The alignment symbols of each answer sentence (``analysis.sentences`` order; citation
    markers are masked out of the tokens already), built once per check."""
    return analysis.shared_result(
        "polarity_symbols", lambda: [polarity_symbols(toks, analysis.language) for toks in analysis.tokens_by_sentence])


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
