"""Speculation and unnamed-authority phrases the sources do not use (the RAG prompting guide's rule checker).

A grounded answer restates its sources; it has no reason to hedge ("probably", 可能) or to lean on
an authority nobody cited ("studies show", 專家表示). Either is a cheap sign that the writer went
beyond the sources. A phrase that the sources themselves use is not flagged: the answer is then
repeating the source, not inventing. Risk follows the RAG prompting guide: 0.1 per distinct speculation phrase
plus 0.3 per distinct fabrication phrase, capped at 1; levels < 0.2 low, < 0.5 moderate (the
guide's "medium"), else high.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from hallucheck.analysis import CaseAnalysis, SourceAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.rules.phrases import phrases_for
from hallucheck.text.phrases import compile_phrases, lower_keep_offsets
from hallucheck.types import Finding, Role, Span

__all__ = ["LexiconDetector", "PhraseMatch", "find_phrases", "seed_level"]


class PhraseMatch(NamedTuple):
    start: int
    end: int
    text: str
    phrase: str  # the list entry it matched (lower case)
    kind: str  # "speculation" | "fabrication"


class _Matcher(NamedTuple):
    pattern: re.Pattern[str]
    kinds: dict[str, str]  # normalised phrase -> kind
    blockers: dict[str, tuple[str, ...]]


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


@lru_cache(maxsize=16)
def _matcher(language: str) -> _Matcher:
    ps = phrases_for(language)
    kinds: dict[str, str] = {}
    for p in ps.speculation:
        kinds[_norm(p)] = "speculation"
    for p in ps.fabrication:
        kinds[_norm(p)] = "fabrication"  # a phrase in both lists counts as the stronger sign
    ordered = list(kinds)
    return _Matcher(compile_phrases(ordered), kinds, ps.blockers)


def _blocked(text: str, start: int, phrase: str, blockers: dict[str, tuple[str, ...]]) -> bool:
    for word in blockers.get(phrase, ()):
        k = word.find(phrase)
        while k >= 0:
            a = start - k
            if a >= 0 and text[a : a + len(word)] == word:
                return True
            k = word.find(phrase, k + 1)
    return False


def find_phrases(text: str, language: str) -> list[PhraseMatch]:
    """Every speculation or fabrication phrase in ``text`` with exact offsets, in order."""
    m = _matcher(language)
    out: list[PhraseMatch] = []
    low = lower_keep_offsets(text)
    for hit in m.pattern.finditer(low):
        key = _norm(hit.group())
        kind = m.kinds.get(key)
        if kind is None or _blocked(low, hit.start(), key, m.blockers):
            continue
        out.append(PhraseMatch(hit.start(), hit.end(), text[hit.start() : hit.end()], key, kind))
    return out


@lru_cache(maxsize=1024)
def _single(phrase: str) -> re.Pattern[str]:
    return compile_phrases([phrase])


def _in_source(source: SourceAnalysis, phrase: str, language: str) -> bool:
    """Whether the sources use ``phrase`` (same matching rules), cached on the shared source analysis."""
    cache: dict[tuple[str, str], bool] = source.__dict__.setdefault("_hc_lexicon", {})
    key = (language, phrase)
    hit = cache.get(key)
    if hit is None:
        hit = False
        if phrase in source.lower or "'" in phrase or " " in phrase:
            m = _matcher(language)
            low = lower_keep_offsets(source.text)
            hit = any(not _blocked(low, x.start(), phrase, m.blockers) for x in _single(phrase).finditer(low))
        cache[key] = hit
    return hit


def seed_level(risk: float) -> str:
    """The RAG prompting guide's level names: < 0.2 low, < 0.5 medium, else high."""
    return "low" if risk < 0.2 else "medium" if risk < 0.5 else "high"


class LexiconDetector(BaseDetector):
    """Hedging and unnamed-authority phrases in the answer that the sources do not contain.

    Options:
      speculation_weight: risk per distinct speculation phrase (0.1, the RAG prompting guide).
      fabrication_weight: risk per distinct fabrication phrase (0.3, the RAG prompting guide).
      speculation_score / fabrication_score: span scores (0.3 / 0.6).
      check_sources: skip phrases the sources use (True); False reproduces the RAG prompting
        guide's speculation rule, which flags hedges even when the sources hedge too.
    """

    name = "lexicon"

    role: ClassVar[Role] = "phrases"
    layer = 1

    def __init__(
        self,
        speculation_weight: float = 0.1,
        fabrication_weight: float = 0.3,
        speculation_score: float = 0.3,
        fabrication_score: float = 0.6,
        check_sources: bool = True,
    ) -> None:
        self.speculation_weight = speculation_weight
        self.fabrication_weight = fabrication_weight
        self.speculation_score = speculation_score
        self.fabrication_score = fabrication_score
        self.check_sources = check_sources

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        answer = analysis.answer
        language = analysis.language
        matches = find_phrases(answer, language) if answer.strip() else []
        spans: list[Span] = []
        speculation: dict[str, None] = {}
        fabrication: dict[str, None] = {}
        skipped: dict[str, None] = {}
        for pm in matches:
            if self.check_sources and _in_source(analysis.source, pm.phrase, language):
                skipped[pm.phrase] = None
                continue
            if pm.kind == "speculation":
                speculation[pm.phrase] = None
                label, score = "speculation", self.speculation_score
                reason = f"hedging phrase {pm.text!r}, which the sources do not use"
            else:
                fabrication[pm.phrase] = None
                label, score = "fabrication", self.fabrication_score
                reason = f"appeal to an unnamed authority {pm.text!r}, which the sources do not contain"
            spans.append(
                Span(start=pm.start, end=pm.end, text=pm.text, label=label, score=score, detector=self.name, reason=reason)
            )
        risk = round(min(len(speculation) * self.speculation_weight + len(fabrication) * self.fabrication_weight, 1.0), 6)
        level = seed_level(risk)
        notes: list[str] = []
        if not answer.strip():
            notes.append("Answer is empty, nothing to check")
        if skipped:
            notes.append(f"Not flagged because the sources use them too: {', '.join(skipped)}")
        n_words = max(len([t for t in analysis.tokens if not t.is_punct]), 1) if matches else 1
        features: dict[str, float] = {
            "speculation": float(len(speculation)),
            "fabrication": float(len(fabrication)),
            "speculation_occurrences": float(sum(1 for s in spans if s.label == "speculation")),
            "fabrication_occurrences": float(sum(1 for s in spans if s.label == "fabrication")),
            "in_sources": float(len(skipped)),
            "per_100_words": 100.0 * len(spans) / n_words,
        }
        details: dict[str, Any] = {
            "level": {"medium": "moderate"}.get(level, level),
            "seed_level": level,
            "speculation_indicators": list(speculation),
            "fabrication_indicators": list(fabrication),
        }
        return Finding(detector=self.name, risk=risk, flagged=risk >= 0.2, features=features, spans=spans, notes=notes,
                       details=details)
