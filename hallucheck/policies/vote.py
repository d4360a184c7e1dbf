"""The signal vote (RAG detection guide): every detector's own verdict is one signal.

Each usable finding votes with ``Finding.flagged`` (its detector's verdict at its own
threshold; it falls back to ``risk > 0.5`` when a detector gives none).
Two or more signals: reject (hallucinated, high). One: review (moderate). None: accept (low).
``confidence`` — and ``risk_score`` — is ``signals / voters``, as in the RAG detection guide; note that the
level comes from the count, so two signals out of six are "high" with a risk score of 0.33.
Detectors that failed do not vote.

``escalate``: once two signals are in, further layers can only add signals, so the verdict
(reject) is settled and no further layer runs; otherwise it goes on.
"""

from __future__ import annotations

from typing import ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies.base import Verdict
from hallucheck.policies.signals import failed_notes, usable
from hallucheck.types import Finding

__all__ = ["VotePolicy"]


class VotePolicy:
    """≥ ``reject_at`` signals reject, ≥ 1 review, 0 accept."""

    name: ClassVar[str] = "vote"

    def __init__(self, *, reject_at: int = 2) -> None:
        if isinstance(reject_at, bool) or not isinstance(reject_at, int) or reject_at < 1:
            raise ValueError(f"reject_at must be a positive integer, got {reject_at!r}")
        self.reject_at = reject_at

    def signals(self, findings: list[Finding]) -> tuple[list[str], int]:
        """Names of the detectors that flagged, and the number of detectors that voted."""
        ok = usable(findings)
        return [f.detector for f in ok if f.flagged], len(ok)

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        flagged, total = self.signals(findings)
        n = len(flagged)
        confidence = n / total if total else 0.0
        notes = [f"vote: {n} of {total} signals" + (f" ({', '.join(flagged)})" if flagged else "")]
        notes.append(f"vote: confidence {confidence:.2f}")
        notes.extend(failed_notes(findings))
        if n >= self.reject_at:
            return Verdict(True, round(confidence, 6), "high", "reject", notes)
        if n >= 1:
            return Verdict(False, round(confidence, 6), "moderate", "review", notes)
        return Verdict(False, 0.0, "low", "accept", notes)

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        return len(self.signals(findings)[0]) < self.reject_at
