"""The facts the safeguards read are set on the analysis before the verdict, where a rule can use them."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker
from hallucheck.types import Case, Finding
from hallucheck.verdict_facts import settle_facts

SOURCE = "该公司于2015年在杭州成立，主要从事云计算服务。"


def _analysis(answer: str) -> CaseAnalysis:
    return CaseAnalysis(Case(question="介绍一下这家公司。", contexts=[SOURCE], answer=answer))


def test_the_restatement_fact_is_set_when_only_word_order_flagged() -> None:
    word_order = [Finding(detector="model", role="tagger", risk=0.9, flagged=True)]
    restated, new = _analysis("该公司2015年成立于杭州。"), _analysis("该公司2016年成立于北京。")
    settle_facts(restated, word_order)
    settle_facts(new, word_order)
    assert restated.facts.every_sentence_restated is True and new.facts.every_sentence_restated is False


def test_no_fact_is_computed_where_no_rule_reads_it() -> None:
    analysis = _analysis("该公司2015年成立于杭州。")
    settle_facts(analysis, [Finding(detector="lexicon", role="phrases", risk=0.7, flagged=True)])
    assert analysis.facts.every_sentence_restated is None


def test_the_checker_settles_the_facts_before_the_verdict() -> None:
    seen: list[bool | None] = []

    class Recording:
        name = "recording"

        def decide(self, analysis: CaseAnalysis, findings: list[Finding]):  # type: ignore[no-untyped-def]
            from hallucheck.policies.weighted import WeightedPolicy

            seen.append(analysis.facts.every_sentence_restated)
            return WeightedPolicy().decide(analysis, findings)

        def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
            return True

    Checker(["ngram"], policy=Recording()).check(question="介绍一下这家公司。", contexts=[SOURCE], answer="该公司2015年成立于杭州。")
    assert seen == [True]
