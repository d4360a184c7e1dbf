"""Reading findings the way the rule-given policies need them (shared by tiered, vote, weighted).

A finding that failed (``error`` set) is no evidence either way, so every policy works on the
usable findings only and says in its notes which detectors it had to leave out. Findings are
chosen by their role (what kind of evidence they are), never by the detector's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hallucheck.text.unsupported import notes_state_unsupported
from hallucheck.types import Finding, Role

__all__ = [
    "usable",
    "failed_notes",
    "CitationFacts",
    "citation_facts",
    "LLMFacts",
    "llm_facts",
    "notes_state_unsupported",
    "LLM_ROLES",
]

# Roles whose finding is an LLM's judgement of the answer (risk = the judge's risk).
LLM_ROLES: frozenset[Role] = frozenset({"llm_judge"})


def usable(findings: Iterable[Finding]) -> list[Finding]:
    """Findings of detectors that ran (no error, and something was checked)."""
    return [f for f in findings if f.usable]


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
    """What the citation rules reported (the first usable finding with a citation summary), or
    None when no such detector ran."""
    for f in findings:
        if f.citations is None or not f.usable:
            continue
        summary = f.citations
        return CitationFacts(
            applied=summary.applied,
            risk=summary.risk,
            invalid=len(summary.invalid),
            uncited=summary.uncited_count,
            ratio=summary.ratio,
            claims=summary.claims,
            level=summary.level,
        )
    return None


@dataclass(frozen=True)
class LLMFacts:
    """The LLM layer's view: its risk and whether it named unsupported claims."""

    risk: float
    unsupported: bool
    detectors: tuple[str, ...]


def llm_facts(findings: Iterable[Finding], roles: frozenset[Role] = LLM_ROLES) -> LLMFacts | None:
    """The strongest LLM judgement among the findings, or None when no LLM judge ran.

    A finding counts as an LLM judgement when its role is one of ``roles``. Unsupported claims
    are stated when the judge's notes say so (feature ``notes_unsupported``) or it labelled a
    claim HALLUCINATION or CONTRADICTION (``claims_hallucination`` / ``claims_contradiction``).
    """
    judged = [f for f in findings if f.usable and f.role in roles]
    if not judged:
        return None
    unsupported = False
    for f in judged:
        feats = f.features
        if feats.get("notes_unsupported", 0.0) > 0:
            unsupported = True
        if feats.get("claims_hallucination", 0.0) > 0 or feats.get("claims_contradiction", 0.0) > 0:
            unsupported = True
    return LLMFacts(risk=max(f.risk for f in judged), unsupported=unsupported, detectors=tuple(f.detector for f in judged))
