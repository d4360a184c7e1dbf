"""Sentences that say the opposite of their source: a negation added or removed, a word swapped
for its opposite.

"The restaurant is not suitable for groups" against "The restaurant is suitable for groups", or
"prices fell" against "prices rose": every word but one is in the source, so n-gram novelty and
embedding similarity call such a sentence supported. This check aligns each answer sentence with
its best-matching source sentences (shared content lemmas, the top ``max_source_sentences``),
word by word (:class:`difflib.SequenceMatcher` over lemmas, negations made explicit by
:func:`hallucheck.text.opposites.polarity_symbols`), and looks at each place where they differ:

- **flipped negation** (kind ``flipped_negation``): the two sides differ only by negation words
  (an odd number of them) and the do-support that comes with them;
- **opposite word** (kind ``opposite_word``): one word against its opposite
  (:func:`hallucheck.text.opposites.are_opposites`), both sides negated alike.

A difference counts only inside an agreeing context: words matched in order right before and
right after it, with at least ``min_context`` content words among the ``window`` nearest ones —
so the sentence really says the same thing about the same subject except for the polarity. It
is dropped when another of the best source sentences states the answer's version (a source may
say both). Each finding is a ``contradiction`` span with the source sentence as evidence; the
policies' floor table (measured precision) decides whether such a span alone rejects an answer.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from hallucheck.analysis import CaseAnalysis, SourceAnalysis, group_tokens
from hallucheck.detectors.base import BaseDetector
from hallucheck.text.opposites import FRAME_WORDS, NEG, Symbol, are_opposites, negation_load, polarity_symbols
from hallucheck.types import Evidence, Finding, Role, Span

__all__ = ["OPPOSITE_FEATURES", "OppositesDetector"]

OPPOSITE_FEATURES: tuple[str, ...] = ("opposites_checked", "opposites_negations", "opposites_words")

_SCORES = {"flipped_negation": 0.9, "opposite_word": 0.9}
_REASONS = {
    "flipped_negation": "the source says the same without this negation (or with one this sentence lacks)",
    "opposite_word": "the source says the same with the opposite word",
}


@dataclass
class _SourceSentence:
    source: int
    start: int
    end: int
    text: str
    norms: frozenset[str]
    symbols: list[Symbol]
    forms: list[str]


@dataclass
class _Conflict:
    kind: str
    start: int  # answer character offsets
    end: int
    first: int  # answer symbol range of the difference
    last: int
    evidence: _SourceSentence


def _source_sentences(sa: SourceAnalysis, k: int, language: str) -> list[_SourceSentence]:
    """The sentences of one source with their alignment symbols (cached on the source analysis,
    which is shared between checks of the same source)."""
    key = f"_opposites_{language}_{k}"
    cached: list[_SourceSentence] | None = sa.__dict__.get(key)
    if cached is not None:
        return cached
    out = []
    for seg, toks in zip(sa.sentences, group_tokens(sa.sentences, sa.tokens), strict=True):
        syms = polarity_symbols(toks, language)
        norms = frozenset(s.form for s in syms if s.content)
        if norms:
            out.append(_SourceSentence(k, seg.start, seg.end, seg.text, norms, syms, [s.form for s in syms]))
    sa.__dict__[key] = out
    return out


def _matched_map(a: list[str], b: list[str]) -> tuple[list[tuple[str, int, int, int, int]], dict[int, int]]:
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ops = sm.get_opcodes()
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, _j2 in ops:
        if tag == "equal":
            for d in range(i2 - i1):
                mapping[i1 + d] = j1 + d
    return ops, mapping


def _supported(mapping: dict[int, int], lo: int, hi: int) -> bool:
    """Whether answer symbols ``lo..hi-1`` are matched, in order and contiguously, in a source sentence."""
    if lo < 0 or hi <= lo:
        return False
    first = mapping.get(lo)
    return first is not None and all(mapping.get(i) == first + (i - lo) for i in range(lo, hi))


class OppositesDetector(BaseDetector):
    """Options: ``max_source_sentences`` (3), ``min_overlap`` (content lemmas an answer sentence
    and a source sentence share before they are aligned; 2), ``window`` (matched symbols on each
    side of a difference that count as its context; 4), ``min_context`` (content words needed
    among them; 2), ``min_matched`` (share of the answer sentence's content words, but one, that
    the source sentence must match in order; 0.8)."""

    name: ClassVar[str] = "opposites"
    role: ClassVar[Role] = "facts"
    layer: ClassVar[int] = 1

    def __init__(self, max_source_sentences: int = 3, min_overlap: int = 2, window: int = 4, min_context: int = 2,
                 min_matched: float = 0.8) -> None:
        if max_source_sentences < 1:
            raise ValueError("max_source_sentences must be at least 1")
        if window < 1 or min_context < 1:
            raise ValueError("window and min_context must be at least 1")
        self.max_source_sentences = max_source_sentences
        self.min_overlap = min_overlap
        self.window = window
        self.min_context = min_context
        self.min_matched = min_matched

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        feats = {k: 0.0 for k in OPPOSITE_FEATURES}
        if not case.answer.strip() or not any(c.text.strip() for c in case.contexts):
            return Finding(detector=self.name, risk=0.0, notes=["nothing to compare: empty answer or no source"],
                           flagged=False, features=feats)
        language = analysis.language
        sources = [s for k, sa in enumerate(analysis.sources) for s in _source_sentences(sa, k, language)]
        index: dict[str, list[int]] = {}
        for n, s in enumerate(sources):
            for w in s.norms:
                index.setdefault(w, []).append(n)
        markers = [(m.start, m.end) for m in analysis.citation_markers]
        conflicts: list[_Conflict] = []
        for si in range(len(analysis.sentences)):
            toks = [t for t in analysis.tokens_by_sentence[si] if not any(a <= t.start < b for a, b in markers)]
            syms = polarity_symbols(toks, language)
            content = {s.form for s in syms if s.content}
            counts: Counter[int] = Counter()
            for w in content:
                counts.update(index.get(w, ()))
            best = [n for n, c in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[: self.max_source_sentences]
                    if c >= self.min_overlap]
            if not best:
                continue
            feats["opposites_checked"] += 1
            forms = [s.form for s in syms]
            aligned = [(sources[n], *_matched_map(forms, sources[n].forms)) for n in best]
            found: list[_Conflict] = []
            n_content = sum(s.content for s in syms)
            for src, ops, mapping in aligned:
                if sum(syms[i].content for i in mapping) < self.min_matched * (n_content - 1):
                    continue  # the two sentences do not say the same thing (one word may differ)
                for c in self._differences(syms, src, ops, mapping):
                    others = [m for s2, _, m in aligned if s2 is not src]
                    lo, hi = c.first - 1, c.last + 1
                    if any(_supported(m, lo, hi) for m in others):
                        continue
                    found.append(c)
            conflicts.extend(found)
        spans: list[Span] = []
        seen: set[tuple[int, int]] = set()
        for c in conflicts:
            if any(c.start < e and s < c.end for s, e in seen):
                continue
            seen.add((c.start, c.end))
            feats["opposites_negations" if c.kind == "flipped_negation" else "opposites_words"] += 1
            src = case.contexts[c.evidence.source]
            spans.append(Span(
                start=c.start, end=c.end, text=case.answer[c.start : c.end], label="contradiction",
                score=_SCORES[c.kind], detector=self.name, reason=_REASONS[c.kind], kind=c.kind,  # type: ignore[arg-type]
                evidence=[Evidence(source_id=src.id, text=c.evidence.text, relation="contradicts",
                                   start=c.evidence.start, end=c.evidence.end)],
            ))
        risk = max((s.score for s in spans), default=0.0)
        return Finding(detector=self.name, risk=risk, spans=spans, flagged=bool(spans), features=feats)

    def _differences(self, syms: list[Symbol], src: _SourceSentence, ops: list[tuple[str, int, int, int, int]],
                     mapping: dict[int, int]) -> list[_Conflict]:
        out: list[_Conflict] = []
        s_matched = set(mapping.values())
        a_load = negation_load(syms, [i for i in range(len(syms)) if i not in mapping])
        s_load = negation_load(src.symbols, [j for j in range(len(src.symbols)) if j not in s_matched])
        for n, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag == "equal":
                continue
            a_side, s_side = syms[i1:i2], src.symbols[j1:j2]
            kind = _kind(a_side, s_side)
            # a negation elsewhere in either sentence ("no X was issued" / "X was not issued",
            # "failed to provide accurate" / "provided inaccurate") may carry the same meaning:
            # a flip counts only where the two sentences' negations differ by an odd number, an
            # opposite only where they differ by an even one
            if kind is None or (kind == "flipped_negation" and ((a_load - s_load) % 2 == 0)) \
                    or (kind == "opposite_word" and (a_load - s_load) % 2 == 1):
                continue
            if kind == "flipped_negation" and (_framed(syms, i1, i2) or _framed(src.symbols, j1, j2)):
                continue
            before = ops[n - 1] if n > 0 else None
            after = ops[n + 1] if n + 1 < len(ops) else None
            # the difference must sit between words both sentences have, or at the start or end of both
            if (before is None and (i1 or j1)) or (after is None and (i2 < len(syms) or j2 < len(src.symbols))):
                continue
            if (before is not None and before[0] != "equal") or (after is not None and after[0] != "equal"):
                continue
            left = syms[max(before[1], i1 - self.window) : i1] if before is not None else []
            right = syms[i2 : min(after[2], i2 + self.window)] if after is not None else []
            if sum(s.content for s in left + right) < self.min_context or not (left or right):
                continue
            if i2 > i1:
                start, end = syms[i1].start, syms[i2 - 1].end
            else:  # the answer lacks the source's negation: the words on both sides of where it was
                start, end = syms[max(i1 - 1, 0)].start, syms[min(i1, len(syms) - 1)].end
            out.append(_Conflict(kind, start, end, i1, max(i2, i1 + 1) if i2 > i1 else i1, src))
        return out


def _framed(syms: list[Symbol], lo: int, hi: int, reach: int = 8) -> bool:
    """Whether a negation at symbols ``lo..hi-1`` stands in a condition or a correction: a frame
    word (:data:`FRAME_WORDS`) in the ``reach`` symbols before it, or a "but" after it."""
    near = syms[max(0, lo - reach) : lo] + syms[hi : hi + reach]
    return any(s.form in FRAME_WORDS or s.word in FRAME_WORDS for s in near)


def _kind(a_side: list[Symbol], s_side: list[Symbol]) -> str | None:
    """What one difference between an answer and a source sentence is, if it flips the polarity."""
    if len(a_side) == 1 and len(s_side) == 1:
        a, s = a_side[0], s_side[0]
        if are_opposites(a.word, s.word, a.form, s.form):
            return "opposite_word"
    a_rest = [s.form for s in a_side if s.form != NEG]
    s_rest = [s.form for s in s_side if s.form != NEG]
    a_neg = sum(s.form == NEG for s in a_side)
    s_neg = sum(s.form == NEG for s in s_side)
    if a_rest == s_rest and (a_neg - s_neg) % 2 == 1:
        return "flipped_negation"
    if len(a_rest) == 1 and len(s_rest) == 1 and (a_neg - s_neg) % 2 == 0:
        a = next(s for s in a_side if s.form != NEG)
        s = next(x for x in s_side if x.form != NEG)
        if are_opposites(a.word, s.word, a.form, s.form):
            return "opposite_word"
    return None
