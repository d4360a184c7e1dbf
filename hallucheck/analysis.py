"""Shared, lazily computed views of one case (sentences, tokens, n-grams) that detectors reuse.

Detectors never tokenise the same text twice: each asks the CaseAnalysis, which computes a view
on first use and keeps it. Source-side views are also cached across cases keyed by the source
text, because a RAG log repeats the same retrieved passages for many answers.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import cached_property
from itertools import compress
from operator import itemgetter
from threading import Lock
from typing import TypeVar

from hallucheck.case_facts import CaseFacts
from hallucheck.lru import trim
from hallucheck.text import Segment, Token, detect_language, split_sentences, tokenize
from hallucheck.text.citations import CitationMarker, find_citations, mask_citations
from hallucheck.text.language import normalize_language, same_language
from hallucheck.text.tokens import TokenColumns, token_columns
from hallucheck.types import Case

__all__ = ["CaseAnalysis", "SourceAnalysis", "group_tokens", "join_ngrams", "source_analysis", "string_set"]


def string_set(items: Iterable[str]) -> Collection[str]:
    """A read-only set of strings, for membership tests, that the garbage collector never scans.

    A dict with None values: the collector untracks a dict that holds only strings and None,
    while it walks a (frozen)set entry by entry in every collection of its generation. Source views
    live in the analysis cache through many collections, so a frozenset there costs collector
    time over and over; ``in`` costs the same on both.
    """
    return dict.fromkeys(items)


_T = TypeVar("_T")


class SourceAnalysis:
    """Views of one source text: sentences and tokens with offsets into that text.

    The cheap detectors read the tokens as ``columns`` (parallel tuples): a cached source then
    holds a few tuples instead of a namedtuple per token, and the garbage collector stops
    scanning them after its first look (see TokenColumns). ``tokens`` is there for other callers
    and is only built when asked for.
    """

    def __init__(self, text: str, language: str) -> None:
        self.text = text
        self.language = language

    @cached_property
    def sentences(self) -> list[Segment]:
        return split_sentences(self.text, self.language)

    @cached_property
    def tokens(self) -> list[Token]:
        return tokenize(self.text, self.language)

    @cached_property
    def columns(self) -> TokenColumns:
        """The tokens as parallel lists (offsets, lemmas, and which are words / content / facts)."""
        return token_columns(self.text, self.language)

    @property
    def token_starts(self) -> tuple[int, ...]:
        """Start offset of every token, for bisection."""
        return self.columns.starts

    @property
    def sentence_ranges(self) -> list[tuple[int, int]]:
        """Per sentence, the token index range ``[lo, hi)`` of the tokens wholly inside it.

        Not cached: the source index reads it once, and a cached list of pairs would be a few
        dozen more objects per cached source for the garbage collector to keep visiting.
        """
        starts, ends = self.columns.starts, self.columns.ends
        out: list[tuple[int, int]] = []
        lo = 0
        for seg in self.sentences:  # as group_tokens, on indices
            lo = bisect_left(starts, seg.start, lo)
            hi = bisect_left(starts, seg.end, lo)
            out.append((lo, hi - 1 if hi > lo and ends[hi - 1] > seg.end else hi))
            lo = hi
        return out

    @cached_property
    def norms(self) -> frozenset[str]:
        """Lemmas of all non-punctuation tokens."""
        return frozenset(compress(self.columns.norms, self.columns.words))

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    def derived(self, key: str, build: Callable[[], _T]) -> _T:
        """What ``build`` makes of this source, made once and kept under ``key``: a source analysis
        is shared by every check of the same source (the source cache), so a detector's own view
        of a source (parsed figures, aligned sentences) is kept here rather than rebuilt."""
        cached: _T | None = self.__dict__.get(key)
        if cached is None:
            cached = self.__dict__[key] = build()
        return cached

    def content_ngrams(self, n: int) -> Collection[str]:
        """Lemma n-grams over content tokens (stop words and punctuation removed), as the n-gram novelty guide builds
        them; a ``string_set``, because it stays in the source cache."""
        return self.derived(f"_ngrams_{n}", lambda: string_set(join_ngrams(self.content_norms, n)))

    @cached_property
    def content_norms(self) -> tuple[str, ...]:
        """Lemmas of the content tokens (no stop words, no punctuation), in text order (a tuple,
        which the garbage collector stops scanning, as the columns)."""
        return tuple(compress(self.columns.norms, self.columns.content))


def join_ngrams(words: Sequence[str], n: int) -> Sequence[str]:
    """The space-joined ``n``-grams of ``words`` in order (``words`` itself for ``n == 1``).

    Built with ``zip`` and ``map`` so that the loop runs in C: this is done for every source
    text and every answer sentence.
    """
    if n == 1:
        return words
    return list(map(" ".join, zip(*[words[k:] for k in range(n)])))


_CACHE: OrderedDict[tuple[str, str], SourceAnalysis] = OrderedDict()
_CACHE_LOCK = Lock()
_CACHE_SIZE = 256
# The source characters the cache holds in all. A cached source keeps what the default detectors
# built from it (sentences, token columns and tokens, n-gram sets, figures, opposite pairs):
# about 120 bytes per character of source (bench/memory_parts.py), so 256 sources of 20,000
# characters held 600 MB. 300,000 characters are about 36 MB, and a hundred RAGTruth-sized
# sources; a RAG log repeats a source for the answers that follow each other, which is what the
# cache is for.
_CACHE_CHARS = 300_000


def source_analysis(text: str, language: str) -> SourceAnalysis:
    """A SourceAnalysis for ``text``, shared with earlier cases that had the same source (LRU:
    at most ``_CACHE_SIZE`` sources and ``_CACHE_CHARS`` characters, the newest source always
    kept, whatever its length, so that the detectors of one check share it)."""
    key = (language, text)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    sa = SourceAnalysis(text, language)
    with _CACHE_LOCK:
        _CACHE[key] = sa
        trim(_CACHE, _CACHE_SIZE, _CACHE_CHARS, lambda k: len(k[1]))
    return sa


class CaseAnalysis:
    """One case plus everything detectors compute from it and may share.

    ``facts`` holds what one part of the check computes for others, each fact in a typed field
    (:class:`~hallucheck.case_facts.CaseFacts`): the semantic layer's sentence alignment, which the
    model and LLM layers reuse as evidence, the answer's figures and claims, the LLM call budget.

    Detectors read the answer through ``answer``: the answer with its citation markers masked
    (replaced by spaces, so every offset still points into ``case.answer``). ``sentences`` and
    ``tokens`` are views of that masked text. A marker is a reference, not a claim: whether it
    names a real source is the citation rules' question alone (they read ``case.answer`` and
    ``marked_sentences``), and for every other check an answer must score the same with or
    without correct markers.
    """

    def __init__(self, case: Case) -> None:
        self.case = case
        self.facts = CaseFacts()
        # The time.monotonic() instant the check must be done by (None: no limit); the Checker
        # sets it from its budget and the caller's deadline (hallucheck.deadline).
        self.deadline: float | None = None

    def out_of_time(self) -> bool:
        """Whether the check's deadline has passed: a long detector asks between its windows,
        stops there, and reports the part it did not read as unchecked coverage."""
        return self.deadline is not None and time.monotonic() >= self.deadline

    @cached_property
    def language(self) -> str:
        if self.case.language:
            return normalize_language(self.case.language)
        return detect_language(self.answer if self.answer.strip() else self.case.source_text)

    @cached_property
    def source_language(self) -> str:
        """The language the sources are written in (the answer's when there are none)."""
        text = self.case.source_text.strip()
        return detect_language(text[:3000]) if text else self.language

    @property
    def cross_lingual(self) -> bool:
        """Whether the answer and its sources are in different languages (Chinese scripts count
        as one): word-overlap evidence says nothing then, and policies may weigh it otherwise."""
        return not same_language(self.language, self.source_language)

    @cached_property
    def citation_markers(self) -> list[CitationMarker]:
        """Citation markers of the answer, found knowing the sources' ids and parent ids (so
        ``[intro]`` and letter ids ``[a]`` count where sources carry such ids). The citation rules
        look again with the section numbers of the sources as well."""
        if not self.case.answer:
            return []
        known = {k for src in self.case.contexts for k in (src.id, src.parent_id) if k}
        return find_citations(self.case.answer, known)

    @cached_property
    def answer(self) -> str:
        """The answer with its citation markers replaced by spaces: what detectors read."""
        return mask_citations(self.case.answer, self.citation_markers)

    def plain_answer(self, start: int = 0, end: int | None = None) -> str:
        """``case.answer[start:end]`` with its citation markers, and the blanks before them, cut out.

        What an LLM prompt shows: prose without references and without the runs of spaces of the
        masked view. Quotes an LLM copies from it are placed in ``answer`` by the quote matcher,
        which forgives white space.
        """
        end = len(self.case.answer) if end is None else end
        text = self.case.answer
        parts: list[str] = []
        pos = start
        for mk in self.citation_markers:
            if mk.end <= pos or mk.start >= end:
                continue
            cut = max(mk.start, pos)
            parts.append(text[pos:cut].rstrip(" \t"))
            pos = min(mk.end, end)
        parts.append(text[pos:end])
        return "".join(parts)

    @cached_property
    def answer_chars(self) -> int:
        """Characters of the answer without its citation markers and the blanks before them (a
        length a fitted policy may use: the same with or without correct markers)."""
        return len(self.plain_answer()) if self.citation_markers else len(self.case.answer)

    @cached_property
    def sentences(self) -> list[Segment]:
        """Sentences of the masked answer, with offsets into ``case.answer``."""
        return split_sentences(self.answer, self.language)

    @cached_property
    def marked_sentences(self) -> list[Segment]:
        """Sentences of the answer as written, markers included (a marker after a full stop
        stays with the sentence it cites): what the citation rules count."""
        if not self.citation_markers:
            return self.sentences
        return split_sentences(self.case.answer, self.language)

    @cached_property
    def tokens(self) -> list[Token]:
        """Tokens of the masked answer, with offsets into ``case.answer``."""
        return tokenize(self.answer, self.language)

    @cached_property
    def sources(self) -> list[SourceAnalysis]:
        return [source_analysis(s.text, self.language) for s in self.case.contexts]

    @cached_property
    def source(self) -> SourceAnalysis:
        """All sources as one text (what lexical checks compare against)."""
        return source_analysis(self.case.source_text, self.language)

    def sentence_tokens(self, sentence: Segment) -> list[Token]:
        """Answer tokens that fall inside ``sentence``."""
        return [t for t in self.tokens if t.start >= sentence.start and t.end <= sentence.end]

    @cached_property
    def tokens_by_sentence(self) -> list[list[Token]]:
        """Answer tokens per sentence (tokens inside a sentence; none crosses a sentence end)."""
        return group_tokens(self.sentences, self.tokens)

    @cached_property
    def content_by_sentence(self) -> list[list[Token]]:
        """Answer content tokens (no punctuation, no stop words) per sentence: what the n-gram
        and overlap checks compare. Shared, so read-only."""
        return [[t for t in toks if not t.is_punct and not t.is_stop] for toks in self.tokens_by_sentence]


def group_tokens(segments: list[Segment], tokens: list[Token], starts: list[int] | None = None) -> list[list[Token]]:
    """The tokens that lie wholly inside each segment (sorted, disjoint segments such as sentences).

    Tokens are sorted and do not overlap, so each segment's tokens are one slice, found by
    bisection on the token starts (``starts``, when the caller has them already).
    """
    if starts is None:
        starts = list(map(itemgetter(0), tokens))  # Token.start
    out: list[list[Token]] = []
    lo = 0
    for seg in segments:
        lo = bisect_left(starts, seg.start, lo)
        hi = bisect_left(starts, seg.end, lo)
        chunk = tokens[lo:hi]
        if chunk and chunk[-1].end > seg.end:  # only the last token can run past the end
            chunk = [t for t in chunk if t.end <= seg.end]
        out.append(chunk)
        lo = hi
    return out
