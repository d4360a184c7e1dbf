"""The engine on its own: layer order, cascade, budget, coverage, and a failing detector."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Budget, Checker
from hallucheck.errors import InputError
from hallucheck.policies.base import Verdict
from hallucheck.types import Coverage, Finding, Span

CASE = {"question": "When?", "contexts": ["It was founded in 2010 in Paris."], "answer": "It was founded in 2012 in Lyon."}


@dataclass
class Scripted:
    """A detector that records when it ran and returns what it is told."""

    name: str
    layer: int
    log: list[str]
    risk: float = 0.0
    spans: list[tuple[int, int]] = field(default_factory=list)
    coverage: Coverage | None = None
    sleep: float = 0.0
    fail: Exception | None = None

    def detect(self, analysis: CaseAnalysis) -> Finding:
        self.log.append(self.name)
        if self.sleep:
            time.sleep(self.sleep)
        if self.fail is not None:
            raise self.fail
        answer = analysis.case.answer
        spans = [Span(start=a, end=b, text=answer[a:b], label="baseless", score=self.risk, detector=self.name) for a, b in self.spans]
        return Finding(detector=self.name, risk=self.risk, spans=spans, coverage=self.coverage,
                       notes=[f"{self.name} looked"], details={"llm_calls_left": analysis.shared.get("llm_calls_left")})


@dataclass
class MaxPolicy:
    """Flags at risk > 0.5; escalates past ``stop_after`` only when told to."""

    stop_after: int | None = None
    spans: list[Span] | None = None
    asked: list[int] = field(default_factory=list)
    name: str = "max"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        risk = max((f.risk for f in findings), default=0.0)
        return Verdict(hallucinated=risk > 0.5, risk_score=risk, risk_level="high" if risk > 0.5 else "low",
                       decision="reject" if risk > 0.5 else "accept", notes=["max decided"], spans=self.spans)

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        self.asked.append(next_layer)
        return self.stop_after is None or next_layer <= self.stop_after


def _checker(dets: list[Scripted], policy: Any = None, **kw: Any) -> Checker:
    return Checker(detectors=dets, policy=policy or MaxPolicy(), **kw)  # type: ignore[arg-type,list-item]


def test_detectors_run_cheapest_layer_first_whatever_the_order_given() -> None:
    log: list[str] = []
    dets = [Scripted("llm", 5, log), Scripted("rule", 1, log), Scripted("tagger", 4, log), Scripted("ngram", 2, log)]
    report = _checker(dets).check(CASE)
    assert log == ["rule", "ngram", "tagger", "llm"]
    assert [f.detector for f in report.findings] == ["rule", "ngram", "tagger", "llm"]
    assert set(report.timings_ms) == {"rule", "ngram", "tagger", "llm", "total"}


def test_cascade_stops_where_the_policy_says_earlier_layers_settled_it() -> None:
    log: list[str] = []
    policy = MaxPolicy(stop_after=2)
    dets = [Scripted("rule", 1, log), Scripted("rule2", 1, log), Scripted("ngram", 2, log), Scripted("tagger", 4, log)]
    report = _checker(dets, policy, cascade=True).check(CASE)
    assert log == ["rule", "rule2", "ngram"]
    assert policy.asked == [2, 4]  # asked once per new layer, never before the first
    assert "cascade stopped before layer 4: earlier layers were conclusive" in report.notes
    log.clear()
    _checker(dets, MaxPolicy(stop_after=2), cascade=False).check(CASE)
    assert log == ["rule", "rule2", "ngram", "tagger"]  # without cascade every layer runs


def test_time_budget_is_checked_between_layers_not_inside_one() -> None:
    log: list[str] = []
    dets = [Scripted("slow", 1, log, sleep=0.05), Scripted("same_layer", 1, log), Scripted("later", 2, log)]
    report = _checker(dets, budget=Budget(max_seconds=0.01)).check(CASE)
    assert log == ["slow", "same_layer"]
    assert "time budget spent before layer 2" in report.notes
    log.clear()
    _checker(dets, budget=Budget(max_seconds=5.0)).check(CASE)
    assert log == ["slow", "same_layer", "later"]


def test_llm_call_budget_is_handed_to_the_detectors() -> None:
    det = Scripted("judge", 1, [])
    report = _checker([det], budget=Budget(max_llm_calls=3)).check(CASE)
    assert report.findings[0].details["llm_calls_left"] == 3


def test_a_failing_detector_becomes_a_finding_and_the_check_goes_on() -> None:
    log: list[str] = []
    dets = [Scripted("broken", 1, log, fail=RuntimeError("model file missing")), Scripted("ngram", 2, log, risk=0.8)]
    report = _checker(dets).check(CASE)
    broken = report.findings[0]
    assert broken.error == "RuntimeError: model file missing" and broken.risk == 0.0
    assert "broken: detector failed: RuntimeError: model file missing" in report.notes
    assert log == ["broken", "ngram"] and report.hallucinated


def test_bad_input_from_a_detector_is_not_swallowed() -> None:
    det = Scripted("strict", 1, [], fail=InputError("language not supported"))
    with pytest.raises(InputError, match="language not supported"):
        _checker([det]).check(CASE)


def test_coverage_is_the_least_any_detector_checked() -> None:
    answer_chars = len(CASE["answer"])
    dets = [
        Scripted("full", 1, []),
        Scripted("windowed", 2, [], coverage=Coverage(answer_chars=answer_chars, checked_chars=20, unchecked=[(20, 31)], note="window")),
        Scripted("shorter", 3, [], coverage=Coverage(answer_chars=answer_chars, checked_chars=10, unchecked=[(10, 20), (20, 31)])),
    ]
    cov = _checker(dets).check(CASE).coverage
    assert cov is not None and not cov.complete
    assert (cov.answer_chars, cov.checked_chars, cov.unchecked, cov.note) == (answer_chars, 10, [(10, 20), (20, 31)], "window")
    assert _checker([Scripted("full", 1, [])]).check(CASE).coverage is None


def test_report_spans_are_the_policys_choice_or_else_all_findings_merged() -> None:
    dets = [Scripted("a", 1, [], risk=0.9, spans=[(18, 22)]), Scripted("b", 2, [], risk=0.6, spans=[(20, 31)])]
    merged = _checker(dets).check(CASE).spans
    # merged, then kept to whole words: "2012 in Lyon." with the closing period detector b marked
    assert [(s.start, s.end, s.detector) for s in merged] == [(18, 31, "a+b")]
    chosen = Span(start=26, end=30, text="Lyon", label="baseless", score=0.9, detector="policy")
    assert [(s.start, s.end) for s in _checker(dets, MaxPolicy(spans=[chosen])).check(CASE).spans] == [(26, 30)]


def test_an_empty_answer_runs_no_detector() -> None:
    log: list[str] = []
    report = _checker([Scripted("rule", 1, log)]).check({**CASE, "answer": "  "})
    assert log == [] and not report.hallucinated and report.findings == []
    # nothing was checked, so it is not accepted: review, with a note that says why
    assert report.decision == "review" and report.risk_score == 0.0
    assert report.notes[0] == "the answer is empty: nothing to check, so it goes to review"


def test_a_reject_whose_only_span_is_a_dropped_fragment_goes_to_review() -> None:
    # "in" alone is a stop word: tidying the report's spans drops it, so nothing would show why
    stop_word = Span(start=15, end=17, text="in", label="baseless", score=0.9, detector="policy")
    report = _checker([Scripted("rule", 1, [], risk=0.9)], MaxPolicy(spans=[stop_word])).check(CASE)
    assert report.spans == [] and report.decision == "review"
    assert any("no span shows" in n for n in report.notes)
    shown = Span(start=25, end=29, text="Lyon", label="baseless", score=0.9, detector="policy")
    assert _checker([Scripted("rule", 1, [], risk=0.9)], MaxPolicy(spans=[shown])).check(CASE).decision == "reject"
