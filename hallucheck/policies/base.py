"""The Policy protocol: how findings become a verdict, and whether a cascade should go on.

A policy is a small object with ``decide(analysis, findings) -> Verdict``. Policies that can say
"the cheap layers settle it" implement ``escalate`` so the Checker can skip expensive layers.
Policies are found by name in :mod:`hallucheck.policies.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from hallucheck.analysis import CaseAnalysis
from hallucheck.errors import HallucheckError
from hallucheck.types import Decision, Finding, RiskLevel, Span

__all__ = [
    "Verdict",
    "Policy",
    "level_for",
    "decision_for",
    "UnknownPolicyError",
]


class UnknownPolicyError(HallucheckError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown policy"


@dataclass
class Verdict:
    hallucinated: bool
    risk_score: float
    risk_level: RiskLevel
    decision: Decision
    notes: list[str] = field(default_factory=list)
    # Spans the policy chose for the report (e.g. fused from token probabilities and cheap
    # detectors); None means the report shows the union of all findings' spans.
    spans: list[Span] | None = None


@runtime_checkable
class Policy(Protocol):
    @property
    def name(self) -> str: ...

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict: ...

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        """Whether the detectors of ``next_layer`` should run, given what is known so far."""
        ...


def level_for(score: float, high: float = 0.6, moderate: float = 0.3) -> RiskLevel:
    """The guideline's tiers: ``> high`` is high, ``> moderate`` is moderate, otherwise low."""
    if score > high:
        return "high"
    if score > moderate:
        return "moderate"
    return "low"


_DECISIONS: dict[RiskLevel, Decision] = {"low": "accept", "moderate": "review", "high": "reject"}


def decision_for(level: RiskLevel) -> Decision:
    return _DECISIONS[level]
