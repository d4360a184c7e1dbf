"""Severity of a checked answer, and which repairs each severity calls for (production pipeline guide).

The production pipeline guide grades a fused detection score into four levels and maps each to an ordered list of
mitigation strategies. Our reports carry the guideline's three risk levels plus a score; the
fourth level, ``critical``, is a high-risk answer whose score is at or above ``critical``
(0.8, the production pipeline guide's cut-off), where rewording is hopeless and only decomposing the question or
abstaining is worth trying.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from hallucheck.types import Report

__all__ = ["Severity", "severity_for", "DEFAULT_PLAN", "CRITICAL_SCORE", "normalize_plan"]

CRITICAL_SCORE = 0.8


class Severity(str, Enum):
    LOW = "low"
    MODERATE = "moderate"
    HIGH = "high"
    CRITICAL = "critical"

    def __str__(self) -> str:
        return self.value

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.LOW: 0, Severity.MODERATE: 1, Severity.HIGH: 2, Severity.CRITICAL: 3}


def severity_for(report: Report, critical: float = CRITICAL_SCORE) -> Severity:
    """``critical`` when the risk score reaches ``critical``, else the report's risk level."""
    if report.risk_score >= critical and report.hallucinated:
        return Severity.CRITICAL
    return Severity(report.risk_level)


# The production pipeline guide's table. The production pipeline guide lists "abstain" before "decompose_retry" for critical answers; we
# try decomposing first because abstaining ends the repair and would leave it unreachable.
DEFAULT_PLAN: dict[Severity, tuple[str, ...]] = {
    Severity.LOW: ("pass_through",),
    Severity.MODERATE: ("source_reinforcement", "pass_through"),
    Severity.HIGH: ("temperature_adjustment", "source_reinforcement", "factual_correction"),
    Severity.CRITICAL: ("decompose_retry", "abstain"),
}


def normalize_plan(plan: Mapping[str | Severity, Sequence[str]] | None, known: Sequence[str]) -> dict[Severity, tuple[str, ...]]:
    """DEFAULT_PLAN with the given severities replaced; ValueError naming an unknown level or strategy."""
    out = dict(DEFAULT_PLAN)
    for level, names in (plan or {}).items():
        try:
            sev = Severity(str(level).lower())
        except ValueError:
            raise ValueError(f"unknown severity {level!r} (known: {', '.join(s.value for s in Severity)})") from None
        bad = [n for n in names if n not in known]
        if bad:
            raise ValueError(f"unknown mitigation strategy {bad[0]!r} (known: {', '.join(known)})")
        out[sev] = tuple(names)
    return out
