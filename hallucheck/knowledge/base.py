"""The KnowledgeSource protocol: look passages up, and say whether they support a claim.

Why a protocol: the knowledge a deployment trusts lives in many places (a search engine, a
product database, a wiki). Anything with ``search(query, k)`` and ``verify(claim)`` plugs into the
``knowledge`` detector; :class:`hallucheck.knowledge.bm25.BM25Index` is the built-in local one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

from hallucheck.text import split_sentences, tokenize

__all__ = ["Passage", "Verification", "KnowledgeSource", "lexical_verify"]


@dataclass(frozen=True)
class Passage:
    """A retrieved passage: its id (document id plus position), text and retrieval score."""

    id: str
    text: str
    score: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)


class Verification(NamedTuple):
    """``(supported, confidence, evidence)`` as the production pipeline guide defines it; evidence is the best passage
    sentence (or an empty string)."""

    supported: bool
    confidence: float
    evidence: str


@runtime_checkable
class KnowledgeSource(Protocol):
    def search(self, query: str, k: int = 5) -> list[Passage]: ...

    def verify(self, claim: str) -> Verification | tuple[bool, float, str]: ...


def lexical_verify(claim: str, passages: list[Passage], language: str = "en", threshold: float = 0.6) -> Verification:
    """Support by content-lemma overlap with the best passage sentence (no model, any language).
    Confidence is the overlap share; evidence the best sentence."""
    toks = [t for t in tokenize(claim, language) if not t.is_punct and not t.is_stop]
    if not toks or not passages:
        return Verification(not toks, 0.0 if toks else 1.0, "")
    want = {t.norm for t in toks}
    best, best_text = 0.0, ""
    for p in passages:
        for seg in split_sentences(p.text, language) or []:
            have = {t.norm for t in tokenize(seg.text, language) if not t.is_punct}
            share = len(want & have) / len(want)
            if share > best:
                best, best_text = share, seg.text
    return Verification(best >= threshold, round(best, 4), best_text)
