"""assert_grounded: passes grounded answers, fails the others with a message that says why."""

from __future__ import annotations

import pytest

from hallucheck import Checker
from hallucheck.testing import GroundednessError, assert_grounded, format_report
from tests.scripted_checker import ScriptedChecker

SOURCE = "The Eiffel Tower was completed in 1889 in Paris. It is 330 metres tall and was designed by the company of Gustave Eiffel."
BAD = "The Eiffel Tower was completed in 1889. It is 450 metres tall and was built by Napoleon. It is in Paris [3]."


@pytest.fixture(scope="module")
def rules() -> Checker:
    return Checker(["numbers", "citations"], "vote")


def test_grounded_answer_passes_and_returns_the_report(rules: Checker) -> None:
    report = assert_grounded(question="q", contexts=[SOURCE], answer="The tower was completed in 1889 in Paris.", checker=rules)
    assert report.decision == "accept"


def test_failure_names_spans_labels_reasons_evidence_and_risk(rules: Checker) -> None:
    with pytest.raises(GroundednessError) as info:
        assert_grounded(question="q", contexts=[SOURCE], answer=BAD, checker=rules)
    message = str(info.value)
    assert message.startswith("answer is not grounded in its sources: the report says hallucinated")
    assert "risk 1.000 (high), decision reject, policy vote" in message
    assert "[46:49] contradiction (score 0.80, numbers): '450'" in message
    assert "reason: the sources give '330' where the answer says '450'" in message
    assert "contradicts (source 1): 'It is 330 metres tall" in message
    assert "invalid_citation" in message and "invalid citations: 3" in message
    assert "answer: The Eiffel Tower was completed in 1889. It is >>450<< metres tall" in message
    assert isinstance(info.value, AssertionError) and info.value.report.hallucinated


def test_threshold_and_labels() -> None:
    checker = ScriptedChecker()  # "MOD" -> risk 0.45 moderate, flagged as fabrication
    case = {"question": "q", "contexts": ["s"], "answer": "A MOD answer."}
    with pytest.raises(GroundednessError, match="the report says hallucinated"):
        assert_grounded(case, checker=checker)
    assert_grounded(case, checker=checker, threshold=0.5)  # a threshold replaces the report's verdict
    with pytest.raises(GroundednessError, match=r"risk 0.450 is above the threshold 0.4"):
        assert_grounded(case, checker=checker, threshold=0.4)
    with pytest.raises(GroundednessError, match="spans labelled fabrication"):
        assert_grounded(case, checker=checker, threshold=0.5, labels={"fabrication", "contradiction"})
    with pytest.raises(ValueError):
        assert_grounded(case, checker=checker, threshold=2)


def test_format_report_marks_the_answer() -> None:
    report = ScriptedChecker().check(_case("Fine. A HIGH claim."))
    text = format_report(report, "Fine. A HIGH claim.")
    assert "answer: Fine. A >>HIGH<< claim." in text and "1 flagged span:" in text


def _case(answer: str):  # type: ignore[no-untyped-def]
    from hallucheck.cases import make_case

    return make_case(question="q", contexts=["s"], answer=answer)
