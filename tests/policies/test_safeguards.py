"""What holds under every policy: nothing checked is reviewed, unchecked text is not accepted."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker
from hallucheck.detectors import available_detectors, detector_layer
from hallucheck.detectors.base import BaseDetector
from hallucheck.policies.vote import VotePolicy
from hallucheck.types import Coverage, Finding

SOURCE = ("The plant opened in 2011 in Lyon. It employs 240 people and makes bicycle frames. "
          "Most frames are sold in France and Germany.")


def test_llm_detector_without_an_llm_checks_nothing_and_is_reviewed() -> None:
    report = Checker(["llm_judge"]).check(contexts=[SOURCE], answer=SOURCE)
    assert (report.hallucinated, report.decision) == (False, "review")
    assert any("nothing was checked" in n and "llm_judge" in n for n in report.notes)


class _Partial(BaseDetector):
    """Reads only the first sentence of the answer and says it is fine."""

    name = "partial"
    layer = 2
    role = "lexical"

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        n = len(analysis.case.answer)
        return Finding(detector=self.name, risk=0.0, coverage=Coverage(
            answer_chars=n, checked_chars=20, unchecked=[(20, n)], note="windows beyond the limit were not read"))


def test_unchecked_text_is_never_accepted() -> None:
    answer = SOURCE + " It was founded by Jean Dupont, who invented the carbon frame."
    report = Checker([_Partial()], policy=VotePolicy()).check(contexts=[SOURCE], answer=answer)
    assert report.decision == "review" and report.coverage is not None
    assert report.coverage.unchecked == [(20, len(answer))]
    assert any(f"characters 20-{len(answer)} were not checked" in n for n in report.notes)


class _PartialAlarm(_Partial):
    """Reads only the first sentence and flags it."""

    name = "partial_alarm"

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        return super()._detect(analysis).model_copy(update={"detector": self.name, "risk": 0.95, "flagged": True})


def test_unchecked_text_is_named_also_when_the_answer_is_rejected() -> None:
    answer = SOURCE + " It was founded by Jean Dupont, who invented the carbon frame."
    report = Checker([_PartialAlarm()], policy="weighted").check(contexts=[SOURCE], answer=answer)
    assert report.decision == "reject"
    assert any(f"characters 20-{len(answer)} were not checked" in n for n in report.notes), report.notes


def _copy_checker(name: str) -> Checker:
    return Checker([name])


@pytest.mark.parametrize("name", sorted(n for n in available_detectors() if detector_layer(n) < 5))
def test_any_single_detector_never_flags_a_copied_answer(name: str) -> None:
    """Every detector alone, under the default policy, on an answer copied from its source."""
    try:
        checker = _copy_checker(name)
    except (ImportError, ValueError, FileNotFoundError) as exc:  # an optional extra is not installed
        pytest.skip(f"{name}: {exc}")
    report = checker.check(question="Where is the plant?", contexts=[SOURCE], answer=SOURCE)
    assert not report.hallucinated and report.decision != "reject", (name, report.risk_score, report.notes)


@pytest.mark.parametrize("name", sorted(n for n in available_detectors() if detector_layer(n) == 5))
def test_any_single_llm_detector_without_an_llm_never_flags(name: str) -> None:
    report = Checker([name]).check(question="Where is the plant?", contexts=[SOURCE], answer=SOURCE)
    assert not report.hallucinated and report.decision != "reject", (name, report.notes)
