"""Repairing risky answers (production pipeline guide): strategies chosen by severity, with a retry limit.

    >>> from hallucheck.prevent.mitigate import Mitigator
    >>> result = Mitigator(llm, checker).mitigate(question, contexts, answer)
    >>> result.answer, result.report.risk_level, [a.strategy for a in result.attempts]
"""

from hallucheck.prevent.mitigate.base import MitigationStrategy, Repair, RepairState, flagged_spans
from hallucheck.prevent.mitigate.correction import FactualCorrection, remove_spans
from hallucheck.prevent.mitigate.mitigator import Mitigator, abstention_report, default_strategies
from hallucheck.prevent.mitigate.records import Attempt, MitigationResult
from hallucheck.prevent.mitigate.repair_strategies import (
    Abstain,
    DecomposeRetry,
    PassThrough,
    SourceReinforcement,
    TemperatureAdjustment,
)
from hallucheck.prevent.mitigate.severity import CRITICAL_SCORE, DEFAULT_PLAN, Severity, severity_for

__all__ = [
    "Abstain",
    "Attempt",
    "CRITICAL_SCORE",
    "DEFAULT_PLAN",
    "DecomposeRetry",
    "FactualCorrection",
    "MitigationResult",
    "MitigationStrategy",
    "Mitigator",
    "PassThrough",
    "Repair",
    "RepairState",
    "Severity",
    "SourceReinforcement",
    "TemperatureAdjustment",
    "abstention_report",
    "default_strategies",
    "flagged_spans",
    "remove_spans",
    "severity_for",
]
