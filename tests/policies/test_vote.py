"""Signal vote (RAG detection guide): two or more signals reject, one reviews, none accepts."""

from __future__ import annotations

import pytest

from hallucheck.policies import get_policy
from hallucheck.policies.vote import VotePolicy
from hallucheck.types import Finding

from .helpers import analysis, finding


def findings(flags: list[bool]) -> list[Finding]:
    return [finding(f"d{i}", 0.9 if f else 0.1, flagged=f) for i, f in enumerate(flags)]


@pytest.mark.parametrize(
    ("flags", "decision", "level"),
    [
        ([False, False, False], "accept", "low"),
        ([True, False, False], "review", "moderate"),
        ([True, True, False], "reject", "high"),
        ([True, True, True], "reject", "high"),
    ],
)
def test_two_one_zero(flags: list[bool], decision: str, level: str) -> None:
    v = VotePolicy().decide(analysis(), findings(flags))
    assert v.decision == decision and v.risk_level == level
    assert v.hallucinated is (decision == "reject")
    assert v.risk_score == pytest.approx(sum(flags) / len(flags))
    assert any(f"confidence {sum(flags) / len(flags):.2f}" in n for n in v.notes)


def test_flag_comes_from_details_not_risk() -> None:
    # High risk but the detector's own verdict says no: not a signal.
    fs = [finding("a", 0.9, flagged=False), finding("b", 0.9, flagged=False), finding("c", 0.2, flagged=True)]
    v = VotePolicy().decide(analysis(), fs)
    assert v.decision == "review"


def test_without_details_the_flag_falls_back_to_risk_over_one_half() -> None:
    fs = [Finding(detector="a", risk=0.51), Finding(detector="b", risk=0.5)]
    assert VotePolicy().decide(analysis(), fs).decision == "review"


def test_failed_detectors_do_not_vote() -> None:
    fs = findings([True, False]) + [Finding(detector="broken", risk=0.0, error="boom", flagged=True)]
    v = VotePolicy().decide(analysis(), fs)
    assert v.decision == "review" and v.risk_score == 0.5
    assert any("broken failed" in n for n in v.notes)


def test_no_findings_accepts() -> None:
    v = VotePolicy().decide(analysis(), [])
    assert v.decision == "accept" and v.risk_score == 0.0


def test_escalate_stops_once_two_signals_are_in() -> None:
    p = VotePolicy()
    assert p.escalate(analysis(), findings([True, False]), 3) is True
    assert p.escalate(analysis(), findings([True, True]), 3) is False


def test_reject_at_option() -> None:
    assert VotePolicy(reject_at=3).decide(analysis(), findings([True, True, False])).decision == "review"
    with pytest.raises(ValueError):
        VotePolicy(reject_at=0)


def test_registered() -> None:
    assert isinstance(get_policy("vote"), VotePolicy)
