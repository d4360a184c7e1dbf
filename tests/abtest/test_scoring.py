"""The RAG prompting guide's weighted score, configurable weights, keyword coverage."""

from __future__ import annotations

import pytest

from hallucheck.abtest.scoring import CaseRun, Weights, keyword_coverage, parse_weights, summarize
from hallucheck.errors import InputError


def run(strategy: str, **kw) -> CaseRun:
    base = dict(case_id="c", strategy=strategy, language="en", raw="", answer="x", keyword_coverage=1.0, cited=True,
                risk_score=0.0, risk_level="low", decision="accept", hallucinated=False, latency_ms=0.0,
                prompt_tokens=0, completion_tokens=0)
    base.update(kw)
    return CaseRun(**base)


def test_seed_formula_with_default_weights():
    runs = [run("a", keyword_coverage=0.5, cited=False, risk_score=0.2, latency_ms=2500, completion_tokens=250)]
    (s,) = summarize(runs, Weights(), ["a"])
    expected = 0.5 * 0.30 + 0.0 * 0.25 + 0.8 * 0.25 + 0.5 * 0.10 + 0.5 * 0.10
    assert s.score == pytest.approx(expected)
    assert sum(s.components.values()) == pytest.approx(s.score)


def test_ranking_budgets_and_custom_weights():
    runs = [run("slow", latency_ms=10_000), run("fast", latency_ms=0)]
    ranked = summarize(runs, Weights(), ["slow", "fast"])
    assert [s.strategy for s in ranked] == ["fast", "slow"]
    assert ranked[1].components["latency"] == 0.0  # capped at the budget
    only_latency = parse_weights("keyword=0,citation=0,hallucination=0,tokens=0,latency=1,latency_budget_ms=20000")
    slow = summarize(runs, only_latency, ["slow"])[0]
    assert slow.score == pytest.approx(0.5)


def test_weights_are_normalised():
    w = parse_weights("keyword=3,citation=1,hallucination=0,latency=0,tokens=0")
    (s,) = summarize([run("a", cited=False)], w, ["a"])
    assert s.score == pytest.approx(0.75)


@pytest.mark.parametrize("text", ["speed=1", "keyword", "keyword=x", "keyword=-1", "latency_budget_ms=0",
                                  "keyword=0,citation=0,hallucination=0,latency=0,tokens=0"])
def test_bad_weights(text):
    with pytest.raises(InputError):
        parse_weights(text)


def test_keyword_coverage_ignores_case_and_spaces():
    assert keyword_coverage("Valid for 24hours via the LINK", ["24 hours", "link", "e-mail"]) == pytest.approx(2 / 3)
    assert keyword_coverage("有效期為24 小時", ["24 小時"]) == 1.0
    assert keyword_coverage("anything", []) == 1.0


def test_errors_and_parse_rate():
    runs = [run("s", error="empty answer", risk_score=1.0, parse_ok=False), run("s", parse_ok=True)]
    (s,) = summarize(runs, Weights(), ["s"])
    assert s.errors == 1 and s.parse_rate == 0.5 and s.hallucination_risk == 0.5
