"""Reading findings the way the rule-given policies need them (shared by tiered, vote, weighted).

A finding that failed (``error`` set) is no evidence either way, so every policy works on the
usable findings only and says in its notes which detectors it had to leave out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hallucheck.types import Finding

__all__ = [
    "usable",
    "failed_notes",
    "CitationFacts",
    "citation_facts",
    "LLMFacts",
    "llm_facts",
    "notes_state_unsupported",
    "LLM_DETECTORS",
]

# Detectors whose finding is an LLM's judgement of the answer (risk = the judge's risk).
LLM_DETECTORS: frozenset[str] = frozenset({"llm_judge", "two_step"})


def usable(findings: Iterable[Finding]) -> list[Finding]:
    """Findings of detectors that ran (no error)."""
    return [f for f in findings if not f.error]


def failed_notes(findings: Iterable[Finding]) -> list[str]:
    return [f"{f.detector} failed and was left out: {f.error}" for f in findings if f.error]


@dataclass(frozen=True)
class CitationFacts:
    """The guideline's rule-based numbers, read from the citations detector's finding."""

    applied: bool
    risk: float
    invalid: int
    uncited: int
    ratio: float
    claims: int
    level: str


def citation_facts(findings: Iterable[Finding]) -> CitationFacts | None:
    """What the citations detector reported, or None when it did not run."""
    for f in findings:
        if f.detector != "citations" or f.error:
            continue
        summary: dict[str, Any] = dict(f.details.get("citations") or {})
        invalid = summary.get("invalid") or []
        return CitationFacts(
            applied=bool(summary.get("applied", False)),
            risk=float(summary.get("risk", f.risk)),
            invalid=len(invalid) if isinstance(invalid, list) else int(invalid),
            uncited=int(summary.get("uncited_count", 0)),
            ratio=float(summary.get("ratio", 0.0)),
            claims=int(summary.get("claims", 0)),
            level=str(f.details.get("level", "low")),
        )
    return None


# Notes "explicitly state unsupported claims" (detection guideline): the words a judge uses for that, in the
# five languages, unless negated right before ("no unsupported claims", "keine erfundenen ...").
_UNSUPPORTED = re.compile(
    r"unsupported|not supported|lacks? (?:any )?support|no (?:supporting )?evidence for|hallucinat|fabricat|made[- ]up|invented"
    r"|未支持|不支持|沒有支持|没有支持|無依據|无依据|幻覺|幻觉|捏造|編造|编造"
    r"|nicht (?:belegt|gestützt|unterstützt)|unbelegt|erfunden|halluzin"
    r"|non (?:étayé|soutenu|fondé)|sans fondement|inventé|halluciné",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"(?:\bno\b|\bnot any\b|\bwithout\b|\bnone\b|\bzero\b|\bfree of\b|\bkeine?n?\b|\baucune?\b|\bpas d[e']|\bsans\b"
    r"|沒有|没有|無|无|未發現|未发现)"
    r"[\w\s'-]{0,20}$",
    re.IGNORECASE,
)


def notes_state_unsupported(notes: str) -> bool:
    """Whether a judge's notes say that some claim is unsupported (negated mentions do not count)."""
    for m in _UNSUPPORTED.finditer(notes or ""):
        before = notes[max(0, m.start() - 24) : m.start()]
        if not _NEGATION.search(before):
            return True
    return False


@dataclass(frozen=True)
class LLMFacts:
    """The LLM layer's view: its risk and whether it named unsupported claims."""

    risk: float
    unsupported: bool
    detectors: tuple[str, ...]


def llm_facts(findings: Iterable[Finding], names: frozenset[str] = LLM_DETECTORS) -> LLMFacts | None:
    """The strongest LLM judgement among the findings, or None when no LLM judge ran.

    A finding counts as an LLM judgement when its detector is one of ``names`` or it carries
    ``details["hallucination_risk"]``. Unsupported claims are stated when the notes say so or
    the judge labelled a claim HALLUCINATION or CONTRADICTION.
    """
    judged = [
        f for f in findings if not f.error and (f.detector in names or "hallucination_risk" in f.details) and f.details.get("ran", True)
    ]
    if not judged:
        return None
    unsupported = False
    for f in judged:
        feats = f.details.get("features") or {}
        if notes_state_unsupported(str(f.details.get("hallucination_notes") or "")):
            unsupported = True
        if float(feats.get("claims_hallucination", 0.0)) > 0 or float(feats.get("claims_contradiction", 0.0)) > 0:
            unsupported = True
    return LLMFacts(risk=max(f.risk for f in judged), unsupported=unsupported, detectors=tuple(f.detector for f in judged))
