"""The Policy protocol: how findings become a verdict, and whether a cascade should go on.

A policy is a small object with ``decide(analysis, findings) -> Verdict``. Policies that can say
"the cheap layers settle it" implement ``escalate`` so the Checker can skip expensive layers.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from hallucheck.analysis import CaseAnalysis
from hallucheck.errors import HallucheckError
from hallucheck.types import Decision, Finding, RiskLevel, Span

__all__ = [
    "Verdict",
    "Policy",
    "level_for",
    "decision_for",
    "get_policy",
    "available_policies",
    "register_policy",
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


_POLICIES: dict[str, str] = {
    "tiered": "hallucheck.policies.tiered:TieredPolicy",
    "vote": "hallucheck.policies.vote:VotePolicy",
    "weighted": "hallucheck.policies.weighted:WeightedPolicy",
    "learned": "hallucheck.policies.learned:LearnedPolicy",
}


def register_policy(name: str, path: str) -> None:
    """Make a policy class available by name (``"module:Class"``)."""
    _POLICIES[name] = path


def available_policies() -> list[str]:
    return sorted(_POLICIES)


def get_policy(name: str, **options: Any) -> Policy:
    """A policy by name, or a fitted policy file (``POLICY.json`` from ``hallucheck calibrate``).

    ``"default"`` is what ``HALLUCHECK_POLICY`` names when set, else the learned policy when
    shipped, else the weighted one.
    """
    from hallucheck.policies.policy_file import (
        default_override,
        is_policy_file,
        load_policy_file,
    )

    if name == "default":
        from hallucheck.policies.default import default_policy_name

        name = default_override() or default_policy_name()
    if is_policy_file(name):
        from hallucheck.policies.learned import LearnedPolicy

        return LearnedPolicy(spec=load_policy_file(name), **options)
    if name not in _POLICIES:
        raise UnknownPolicyError(f"unknown policy {name!r} (known: {', '.join(available_policies())})")
    module, _, attr = _POLICIES[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**options)  # type: ignore[no-any-return]
