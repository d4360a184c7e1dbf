"""What holds under every policy: nothing checked is reviewed, unchecked text is not accepted."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker
from hallucheck.detectors import available_detectors, detector_layer
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.model.restated import every_sentence_restated
from hallucheck.policies.base import Verdict
from hallucheck.policies.safeguards import restated_review
from hallucheck.policies.vote import VotePolicy
from hallucheck.types import Case, Coverage, Finding, Span

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
        span = Span(start=0, end=10, text=analysis.case.answer[:10], label="baseless", score=0.95, detector=self.name)
        return super()._detect(analysis).model_copy(update={"detector": self.name, "risk": 0.95, "flagged": True, "spans": [span]})


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


# --- rule 3: a restated answer is not rejected on word order alone --------------------------------

_RESTATED_SOURCE = "该公司于2015年在杭州成立，主要从事云计算服务。2020年，公司员工人数超过五百人，并在上海设立了研发中心。"


def _reject() -> Verdict:
    return Verdict(hallucinated=True, risk_score=0.9, risk_level="high", decision="reject", notes=["policy"])


def _analysis(answer: str) -> CaseAnalysis:
    """The case's analysis with the facts the safeguards read, as the Checker sets them."""
    analysis = CaseAnalysis(Case(question="介绍一下这家公司。", contexts=[_RESTATED_SOURCE], answer=answer))
    analysis.facts.every_sentence_restated = every_sentence_restated(analysis)
    return analysis


def test_a_restated_answer_flagged_only_by_word_order_goes_to_review() -> None:
    findings = [Finding(detector="ngram", role="lexical", risk=0.8, flagged=True),
                Finding(detector="model", role="tagger", risk=0.9, flagged=True)]
    v = restated_review(_reject(), _analysis("该公司2015年成立于杭州。"), findings)
    assert (v.decision, v.hallucinated, v.risk_level) == ("review", False, "moderate")
    assert v.risk_score <= 0.6
    assert any("restates a source sentence" in n for n in v.notes)


@pytest.mark.parametrize("answer", [
    "该公司2016年成立于杭州。",  # a figure the source sentence lacks
    "该公司2015年成立于北京。",  # a word the source sentence lacks
    "该公司2015年成立于杭州。它在北京有分公司。",  # one sentence restates, the other does not
])
def test_an_answer_with_something_new_keeps_its_reject(answer: str) -> None:
    findings = [Finding(detector="model", role="tagger", risk=0.9, flagged=True)]
    assert restated_review(_reject(), _analysis(answer), findings).decision == "reject"


def test_a_rule_finding_keeps_the_reject() -> None:
    findings = [Finding(detector="model", role="tagger", risk=0.9, flagged=True),
                Finding(detector="lexicon", role="phrases", risk=0.7, flagged=True)]
    assert restated_review(_reject(), _analysis("该公司2015年成立于杭州。"), findings).decision == "reject"


def test_review_and_accept_verdicts_are_left_alone() -> None:
    v = Verdict(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept")
    assert restated_review(v, _analysis("该公司2015年成立于杭州。"), []) is v


def test_the_default_checker_reviews_a_reordered_chinese_answer_and_still_rejects_a_changed_figure() -> None:
    checker = Checker()
    kept = checker.check(question="介绍一下这家公司。", contexts=[_RESTATED_SOURCE], answer="该公司2015年成立于杭州。")
    assert kept.decision != "reject" and not kept.hallucinated
    changed = checker.check(question="介绍一下这家公司。", contexts=[_RESTATED_SOURCE], answer="该公司2016年成立于杭州。")
    assert changed.decision == "reject" and changed.hallucinated
    assert any("2016" in s.text and s.label == "contradiction" for s in changed.spans)
