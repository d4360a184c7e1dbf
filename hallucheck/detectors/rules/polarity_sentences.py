"""Answer and source sentences as polarity symbols, aligned with each other word by word.

The ``opposites`` rules, the model layer's check of restated sentences and the safeguard built on
it read sentences the same way: lemmas with negations made explicit
(:func:`hallucheck.text.opposites.polarity_symbols`; Chinese by characters). A source's sentences
are built once per source and kept on its shared :class:`~hallucheck.analysis.SourceAnalysis`; an
answer's once per check, in the case's facts (``analysis.facts.polarity_sources`` and
``polarity_symbols``); so the checks of one answer pay for them once.
"""

from __future__ import annotations

from typing import Literal

from hallucheck.analysis import CaseAnalysis, SourceAnalysis, group_tokens
from hallucheck.case_facts import PolaritySources, SourceSentence
from hallucheck.text.opposites import Symbol, polarity_symbols

__all__ = ["Opcode", "answer_sources", "answer_symbols", "matched_map", "source_sentences"]


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


def answer_sources(analysis: CaseAnalysis) -> PolaritySources:
    """Every sentence of the case's sources, and for each content form the indices of the
    sentences that hold it, built once per check (``opposites``, the restated check and its
    safeguard all ask)."""
    if analysis.facts.polarity_sources is None:
        language = analysis.language
        sources = [s for k, sa in enumerate(analysis.sources) for s in source_sentences(sa, k, language)]
        index: dict[str, list[int]] = {}
        for n, s in enumerate(sources):
            for w in s.norms:
                index.setdefault(w, []).append(n)
        analysis.facts.polarity_sources = sources, index
    return analysis.facts.polarity_sources


def answer_symbols(analysis: CaseAnalysis) -> list[list[Symbol]]:
    """The alignment symbols of each answer sentence (``analysis.sentences`` order; citation
    markers are masked out of the tokens already), built once per check."""
    if analysis.facts.polarity_symbols is None:
        analysis.facts.polarity_symbols = [polarity_symbols(toks, analysis.language) for toks in analysis.tokens_by_sentence]
    return analysis.facts.polarity_symbols


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
