"""Tiered guideline policy (detection guideline): every rule at its boundary, the LLM combination, the
conservative use of other detectors, escalation, and one run through the Checker."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.policies import get_policy, level_for
from hallucheck.policies.signals import notes_state_unsupported
from hallucheck.policies.tiered import TieredPolicy
from hallucheck.types import Finding

from .helpers import analysis, citations, finding, llm


def decide(*findings: Finding, **options: object):  # type: ignore[no-untyped-def]
    return TieredPolicy(**options).decide(analysis(), list(findings))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("risk", "level"),
    [(0.0, "low"), (0.3, "low"), (0.31, "moderate"), (0.6, "moderate"), (0.61, "high"), (1.0, "high")],
)
def test_rule_risk_tiers(risk: float, level: str) -> None:
    v = decide(citations(risk))
    assert v.risk_level == level
    assert v.hallucinated is (level == "high")
    assert v.decision == {"low": "accept", "moderate": "review", "high": "reject"}[level]
    assert level_for(v.risk_score) == level


def test_low_needs_ratio_of_at_least_0_7() -> None:
    assert decide(citations(0.3, ratio=0.7)).risk_level == "low"
    assert decide(citations(0.31, ratio=0.69)).risk_level == "moderate"


def test_any_invalid_citation_is_high_even_where_coverage_rules_do_not_apply() -> None:
    assert decide(citations(0.0, invalid=1)).risk_level == "high"
    assert decide(citations(0.0, invalid=1, applied=False)).risk_level == "high"


@pytest.mark.parametrize(("uncited", "level"), [(0, "low"), (1, "moderate"), (2, "moderate"), (3, "high"), (5, "high")])
def test_uncited_sentence_counts(uncited: int, level: str) -> None:
    assert decide(citations(0.1, uncited=uncited)).risk_level == level


def test_low_ratio_with_three_claims_is_high() -> None:
    # The ratio rule on its own (risk given apart from the ratio to isolate it).
    assert decide(citations(0.5, ratio=0.29, claims=3)).risk_level == "high"
    assert decide(citations(0.5, ratio=0.29, claims=2)).risk_level == "moderate"
    assert decide(citations(0.5, ratio=0.3, claims=3)).risk_level == "moderate"


def test_coverage_rules_ignored_where_citations_do_not_apply() -> None:
    v = decide(citations(0.9, uncited=4, ratio=0.0, applied=False))
    assert v.risk_level == "low" and not v.hallucinated


def test_no_claims_means_no_rule_risk() -> None:
    assert decide(citations(0.9, claims=0)).risk_level == "low"


@pytest.mark.parametrize(
    ("risk", "level"), [(0.0, "low"), (0.3, "low"), (0.31, "moderate"), (0.6, "moderate"), (0.61, "high")]
)
def test_llm_risk_tiers(risk: float, level: str) -> None:
    assert decide(citations(0.0), llm(risk)).risk_level == level


def test_llm_notes_stating_unsupported_claims_are_high() -> None:
    assert decide(llm(0.2, "The claim about the 2019 award is not supported by the sources.")).risk_level == "high"
    assert decide(llm(0.2, "No unsupported claims were found.")).risk_level == "low"
    assert decide(llm(0.2, "", claims_hallucination=1.0)).risk_level == "high"


@pytest.mark.parametrize(
    ("notes", "stated"),
    [
        ("Two claims are unsupported.", True),
        ("The founder's name is fabricated.", True),
        ("答案中的創辦人姓名未支持。", True),
        ("Die Lieferzeit ist nicht belegt.", True),
        ("La date est non étayée par le contexte.", True),
        ("All claims are supported; no hallucinations.", False),
        ("There is no unsupported claim.", False),
        ("Keine erfundenen Angaben.", False),
        ("", False),
    ],
)
def test_notes_reading(notes: str, stated: bool) -> None:
    assert notes_state_unsupported(notes) is stated


def test_combination_keeps_the_worst_tier() -> None:
    assert decide(citations(0.7), llm(0.1)).risk_level == "high"
    assert decide(citations(0.1), llm(0.45)).risk_level == "moderate"
    assert decide(citations(0.45), llm(0.1)).risk_level == "moderate"


def test_other_detectors_are_counted_conservatively() -> None:
    # One strong non-citation signal: at most moderate.
    assert decide(citations(0.0), finding("numbers", 0.9)).risk_level == "moderate"
    # Two families over 0.6: high.
    assert decide(finding("numbers", 0.9), finding("lexicon", 0.7)).risk_level == "high"
    assert decide(finding("numbers", 0.9), finding("ngram", 0.7)).risk_level == "high"
    # ngram and overlap are one family.
    assert decide(finding("ngram", 0.9), finding("overlap", 0.9)).risk_level == "moderate"
    # Weak signals: moderate over 0.3, low otherwise.
    assert decide(finding("ngram", 0.31)).risk_level == "moderate"
    assert decide(finding("ngram", 0.3), finding("overlap", 0.2)).risk_level == "low"
    # They never lower what the guideline decided.
    assert decide(citations(0.8), finding("ngram", 0.0)).risk_level == "high"
    # And can be switched off.
    assert decide(finding("numbers", 0.9), finding("lexicon", 0.9), other_signals=False).risk_level == "low"


def test_risk_score_lies_in_its_level_band() -> None:
    for fs in ([citations(0.9)], [citations(0.45)], [citations(0.1)], [finding("numbers", 0.95)], [llm(0.99)]):
        v = decide(*fs)
        assert level_for(v.risk_score) == v.risk_level
    assert decide(citations(0.9)).risk_score == 0.9
    assert decide(finding("numbers", 0.95)).risk_score == 0.6


def test_failed_detectors_are_left_out_with_a_note() -> None:
    broken = Finding(detector="citations", risk=0.0, error="RuntimeError: boom")
    v = decide(broken, finding("ngram", 0.1))
    assert v.risk_level == "low"
    assert any("citations failed" in n for n in v.notes)


def test_notes_give_the_reasons() -> None:
    v = decide(citations(0.7, uncited=3))
    assert v.notes[0] == "tiered: high"
    assert any("citation risk 0.70 > 0.6" in n for n in v.notes)
    assert any("3 uncited long sentences" in n for n in v.notes)


def test_escalate_stops_at_a_high_rule_result() -> None:
    p = TieredPolicy()
    a = analysis()
    assert p.escalate(a, [citations(0.61)], 5) is False
    assert p.escalate(a, [citations(0.1, invalid=1)], 5) is False
    assert p.escalate(a, [citations(0.6)], 5) is True
    assert p.escalate(a, [citations(0.1)], 2) is True
    assert p.escalate(a, [finding("numbers", 0.9)], 5) is True


def test_get_policy_by_name() -> None:
    assert isinstance(get_policy("tiered"), TieredPolicy)
    with pytest.raises(ValueError):
        TieredPolicy(moderate=0.7, high=0.6)


class FakeJudge:
    """An LLM-layer detector that records whether it was asked."""

    name = "llm_judge"
    layer = 5

    def __init__(self, risk: float) -> None:
        self.risk = risk
        self.calls = 0

    def detect(self, analysis: CaseAnalysis) -> Finding:
        self.calls += 1
        return Finding(detector=self.name, role="llm_judge", risk=self.risk, details={"hallucination_risk": self.risk})


def test_through_the_checker_with_the_citations_detector() -> None:
    pytest.importorskip("hallucheck.detectors.rules.citations")
    from hallucheck.checker import Checker

    contexts = [{"id": "1", "text": "The company was founded in 2010 in Paris."}]
    # An invalid citation: high at once, the judge is never asked.
    judge = FakeJudge(0.1)
    checker = Checker(detectors=["citations", judge], policy="tiered", cascade=True)
    report = checker.check(question="When?", contexts=contexts, answer="It was founded in 2010 in Paris [7].")
    assert report.risk_level == "high" and report.decision == "reject" and report.hallucinated
    assert judge.calls == 0
    assert report.citations is not None and report.citations.invalid == ["7"]
    # A valid citation: the rules are not conclusive, the judge runs and its risk counts.
    judge = FakeJudge(0.7)
    checker = Checker(detectors=["citations", judge], policy="tiered", cascade=True)
    report = checker.check(question="When?", contexts=contexts, answer="It was founded in 2010 in Paris [1].")
    assert judge.calls == 1
    assert report.risk_level == "high" and report.policy == "tiered"
    # the judge gave no span to show: the guideline's tier stays high, the decision is review
    assert report.decision == "review" and any("no span" in n for n in report.notes)
