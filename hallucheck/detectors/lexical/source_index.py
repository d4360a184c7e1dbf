"""Source-side views the lexical detectors share, built once per source text and cached on it.

A RAG log repeats the same retrieved passages for many answers (RAGTruth: six answers per
source), so everything that depends only on the source — its sentences as lemma sequences, the
packed bit vectors for ROUGE-L — is computed on first use and kept on the cached
``SourceAnalysis`` object, next to its tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, compress
from typing import TypeVar

from hallucheck.analysis import SourceAnalysis, group_tokens
from hallucheck.detectors.lexical.lcs import PackedSequences
from hallucheck.text import Segment, Token
from hallucheck.types import Case

__all__ = ["SourceIndex", "source_index", "memo", "locate_in_sources", "sentence_tokens"]

T = TypeVar("T")


def memo(sa: SourceAnalysis, key: str, build: Callable[[SourceAnalysis], T]) -> T:
    """``build(sa)`` computed once per SourceAnalysis object (which is itself LRU-cached by text)."""
    store = vars(sa)
    full_key = f"_hallucheck_{key}"
    hit = store.get(full_key)
    if hit is None:
        hit = build(sa)
        store[full_key] = hit
    return hit


def sentence_tokens(sentences: list[Segment], tokens: list[Token]) -> list[list[Token]]:
    """Tokens grouped by the sentence that contains them (tokens between sentences are dropped)."""
    return group_tokens(sentences, tokens)


@dataclass
class SourceIndex:
    """The source as sentences of lemmas: ``words`` keeps stop words, ``content`` drops them.

    Tuples, not lists: this lives in the source cache, and the garbage collector stops scanning a
    tuple of strings after its first look but walks a list in every collection. ``words`` is built
    on first use from the token columns and the sentences' token ranges (kept as one flat tuple of
    bounds): only the stop-word variant of the overlap check reads it.
    """

    sentences: list[Segment]
    content: tuple[tuple[str, ...], ...]
    all_words: tuple[str, ...]
    norms: tuple[str, ...] = field(repr=False, compare=False)
    is_word: bytes = field(repr=False, compare=False)
    bounds: tuple[int, ...] = field(repr=False, compare=False)  # lo, hi of each sentence, in a row

    @cached_property
    def words(self) -> tuple[tuple[str, ...], ...]:
        """Per sentence, the lemmas of its words, stop words included."""
        norms, is_word, b = self.norms, self.is_word, self.bounds
        return tuple([tuple(compress(norms[lo:hi], is_word[lo:hi])) for lo, hi in zip(b[0::2], b[1::2])])

    @cached_property
    def packed_words(self) -> PackedSequences:
        return PackedSequences.build(self.words)

    @cached_property
    def packed_content(self) -> PackedSequences:
        return PackedSequences.build(self.content)

    @cached_property
    def packed_all(self) -> PackedSequences:
        """The whole source as one sequence (the RAG detection guide's answer-vs-context ROUGE-L)."""
        return PackedSequences.build([self.all_words])

    @cached_property
    def postings(self) -> dict[str, list[int]]:
        """Content lemma -> indices of the source sentences that contain it."""
        out: dict[str, list[int]] = {}
        for i, seq in enumerate(self.content):
            for w in set(seq):
                out.setdefault(w, []).append(i)
        return out


def _build(sa: SourceAnalysis) -> SourceIndex:
    cols = sa.columns
    norms, is_word, is_content = cols.norms, cols.words, cols.content
    ranges = sa.sentence_ranges
    content = tuple([tuple(compress(norms[a:b], is_content[a:b])) for a, b in ranges])
    all_words = tuple(compress(norms, is_word))
    return SourceIndex(list(sa.sentences), content, all_words, norms, is_word, tuple(chain.from_iterable(ranges)))


def source_index(sa: SourceAnalysis) -> SourceIndex:
    """The SourceIndex of a source text, cached with it."""
    return memo(sa, "source_index", _build)


def locate_in_sources(case: Case, start: int, end: int) -> tuple[str | None, int, int]:
    """Map offsets into ``case.source_text`` (sources joined by a blank line) to one source.

    Returns the source id and the offsets inside that source's own text; the id is None when
    the range straddles two sources.
    """
    pos = 0
    for src in case.contexts:
        stop = pos + len(src.text)
        if start < stop or src is case.contexts[-1]:
            if end <= stop:
                return src.id, start - pos, end - pos
            return None, start, end
        pos = stop + 2
    return None, start, end
