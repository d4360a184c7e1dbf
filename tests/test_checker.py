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
                       notes=[f"{self.name} looked"], details={"llm_calls_left": analysis.facts.llm_calls_left})


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


@dataclass
class SettlingPolicy(MaxPolicy):
    """Names ``tagger`` as not needed once ``ngram`` ran (``not_needed``), or raises."""

    fail: bool = False

    def not_needed(self, analysis: CaseAnalysis, findings: list[Finding]) -> frozenset[str]:
        if self.fail:
            raise RuntimeError("no probability")
        return frozenset({"tagger"}) if any(f.detector == "ngram" for f in findings) else frozenset()


def test_a_settling_policy_skips_only_the_detectors_it_names_without_the_cascade() -> None:
    log: list[str] = []
    dets = [Scripted("rule", 1, log), Scripted("ngram", 2, log), Scripted("tagger", 4, log), Scripted("other", 4, log),
            Scripted("llm", 5, log)]
    report = _checker(dets, SettlingPolicy()).check(CASE)
    assert log == ["rule", "ngram", "other", "llm"]  # what the policy does not name still runs
    assert "tagger not run: the layers before it settle this answer" in report.notes
    log.clear()
    # under the cascade, escalate alone decides (MaxPolicy: every layer)
    _checker(dets, SettlingPolicy(), cascade=True).check(CASE)
    assert log == ["rule", "ngram", "tagger", "other", "llm"]
    log.clear()
    # settle=False runs every detector, as a per-detector evaluation needs
    _checker(dets, SettlingPolicy(), settle=False).check(CASE)
    assert log == ["rule", "ngram", "tagger", "other", "llm"]
    log.clear()
    # a settling question that fails lets every detector run, with a note
    report = _checker(dets, SettlingPolicy(fail=True)).check(CASE)
    assert log == ["rule", "ngram", "tagger", "other", "llm"]
    assert any(n.startswith("settling failed: ") for n in report.notes)


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


# ---------------------------------------------------------------- every step after the detectors is guarded


class Raising(MaxPolicy):
    """MaxPolicy whose decide or escalate raises, or whose verdict carries a risk that is no number."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        if self.where == "decide":
            raise ZeroDivisionError("division by zero")
        verdict = super().decide(analysis, findings)
        if self.where == "nan":
            verdict.risk_score = float("nan")
        return verdict

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        if self.where == "escalate":
            raise KeyError("band")
        return super().escalate(analysis, findings, next_layer)


@pytest.mark.parametrize("where", ["decide", "nan"])
def test_a_failing_policy_gives_a_review_with_a_note_and_keeps_the_findings(where: str) -> None:
    log: list[str] = []
    report = _checker([Scripted("rule", 1, log, risk=0.1, spans=[(26, 30)])], Raising(where)).check(CASE)
    assert report.decision == "review" and report.risk_level == "moderate" and not report.hallucinated
    expected = "policy failed: ZeroDivisionError: division by zero" if where == "decide" else "policy failed: returned the risk nan"
    assert any(n.startswith(expected) and n.endswith("the answer needs review") for n in report.notes), report.notes
    assert log == ["rule"] and report.findings[0].detector == "rule" and "rule: rule looked" in report.notes
    assert [(s.start, s.end) for s in report.spans] == [(26, 30)]


def test_a_failing_escalate_lets_the_next_layer_run() -> None:
    log: list[str] = []
    report = _checker([Scripted("rule", 1, log), Scripted("ngram", 2, log)], Raising("escalate"), cascade=True).check(CASE)
    assert log == ["rule", "ngram"] and report.decision == "accept"
    assert "cascade failed: KeyError: 'band'; the next layer runs" in report.notes


@pytest.mark.parametrize("step", ["restated_review", "_not_accepted"])
def test_a_failing_safeguard_gives_a_review_with_a_note(monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    from hallucheck.policies import safeguards

    def boom(*_: Any) -> Verdict:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(safeguards, step, boom)
    for risk in (0.1, 0.9):  # an accept and a reject both go to review
        report = _checker([Scripted("rule", 1, [], risk=risk)]).check(CASE)
        assert report.decision == "review" and report.risk_score <= 0.6
        name = {"restated_review": "restated review", "_not_accepted": "never accepted"}[step]
        assert f"{name} failed: OverflowError: cannot convert float infinity to integer; the answer needs review" in report.notes
        assert "max decided" in report.notes  # the policy's own verdict went on


def test_the_floors_still_apply_after_a_step_before_them_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck.policies import safeguards

    def boom(*_: Any) -> Verdict:
        raise RuntimeError("broken rule")

    monkeypatch.setattr(safeguards, "restated_review", boom)

    class Floored:
        def apply(self, verdict: Verdict, findings: list[Finding], language: str) -> Verdict:
            figure = Span(start=18, end=22, text="2012", label="contradiction", score=1.0, detector="numbers", kind="contradicted_figure")
            return Verdict(hallucinated=True, risk_score=0.95, risk_level="high", decision="reject", notes=[*verdict.notes, "floor"],
                           spans=[figure])

    report = _checker([Scripted("rule", 1, [], risk=0.9)], floors=Floored()).check(CASE)
    assert report.decision == "reject" and "floor" in report.notes
    assert "restated review failed: RuntimeError: broken rule; the answer needs review" in report.notes


def test_failing_floors_leave_the_verdict_before_them_for_review() -> None:
    class Broken:
        def apply(self, verdict: Verdict, findings: list[Finding], language: str) -> Verdict:
            raise ValueError("no table for xx")

    report = _checker([Scripted("rule", 1, [], risk=0.1)], floors=Broken()).check(CASE)
    assert report.decision == "review"
    assert "floors failed: ValueError: no table for xx; the answer needs review" in report.notes


def test_failing_span_merging_shows_the_spans_unmerged_and_keeps_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck import checker

    def boom(*_: Any) -> list[Span]:
        raise IndexError("list index out of range")

    monkeypatch.setattr(checker, "merge_spans", boom)
    dets = [Scripted("a", 1, [], risk=0.9, spans=[(20, 31)]), Scripted("b", 2, [], risk=0.6, spans=[(18, 22)])]
    report = _checker(dets).check(CASE)
    assert report.decision == "reject"
    assert [(s.start, s.end) for s in report.spans] == [(18, 22), (20, 31)]
    assert "span merging failed: IndexError: list index out of range; spans shown unmerged" in report.notes


def test_failing_coverage_keeps_an_answer_from_accept(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck import checker

    def boom(*_: Any) -> None:
        raise TypeError("bad range")

    monkeypatch.setattr(checker, "merge_coverage", boom)
    report = _checker([Scripted("rule", 1, [], risk=0.1)]).check(CASE)
    assert report.decision == "review" and report.coverage is None
    assert "coverage failed: TypeError: bad range; the answer is not accepted" in report.notes


def test_bad_input_from_a_policy_is_not_swallowed() -> None:
    class Strict(MaxPolicy):
        def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
            raise InputError("task not supported")

    with pytest.raises(InputError, match="task not supported"):
        _checker([Scripted("rule", 1, [])], Strict()).check(CASE)


class FakeVerifier:
    """Entails every sentence but those listed; records which sentences it was asked about."""

    name = "nli"
    threshold = 0.5

    def __init__(self, unsupported: set[int]) -> None:
        self.unsupported = unsupported
        self.asked: list[list[int]] = []

    def verify(self, analysis: CaseAnalysis, rows: Any) -> Finding:
        from hallucheck.types import SentenceVerdict

        self.asked.append(list(rows))
        verdicts = [SentenceVerdict(start=analysis.sentences[i].start, end=analysis.sentences[i].end,
                                    entailment=0.1 if i in self.unsupported else 0.95, neutral=0.05 if i not in self.unsupported else 0.8,
                                    contradiction=0.1 if i in self.unsupported else 0.0) for i in rows]
        return Finding(detector="nli", role="entailment", risk=0.5, sentence_verdicts=verdicts)


# a source too long for the verifier to read whole (policies.entailment.source_read_whole)
LONG_SOURCE = " ".join(f"It rained on day {i} of the month." for i in range(1, 31))
EIGHT = {"question": "q", "contexts": [LONG_SOURCE], "answer": " ".join(f"Sentence number {w} is here." for w in
                                                                        "one two three four five six seven eight".split())}


def _eight_checker(unsupported: set[int]) -> tuple[Checker, FakeVerifier]:
    answer = EIGHT["answer"]
    marks = [Span(start=answer.index(w), end=answer.index(w) + len(w), text=w, label="baseless", score=0.9, detector="model")
             for w in "one two three four five six seven eight".split()]
    # a reject below the risk at which English answers are read by the verifier (ENGLISH_VERIFY_BELOW)
    checker = _checker([Scripted("rule", 1, [], risk=0.6)], MaxPolicy(spans=marks))
    fake = FakeVerifier(unsupported)
    checker.verifier = fake
    return checker, fake


def test_the_verifier_reads_a_few_sentences_at_a_time_and_stops_at_one_not_entailed() -> None:
    checker, fake = _eight_checker({3})
    report = checker.check(EIGHT)
    assert fake.asked == [[0, 1], [2, 3, 4, 5]]
    assert report.decision == "reject"
    # an English answer that stays flagged keeps its marks (policies.entailment: keep_marks)
    assert [s.text for s in report.spans] == "one two three four five six seven eight".split()
    nli = next(f for f in report.findings if f.detector == "nli")
    assert len(nli.sentence_verdicts or []) == 6
    assert any("read 6 of the 8 sentences" in n for n in nli.notes)
    assert nli.features["nli_frac_not_entailed"] == pytest.approx(1 / 6)  # over every sentence read, not the last few


def test_a_verdict_whose_every_sentence_is_entailed_is_accepted() -> None:
    checker, fake = _eight_checker(set())
    report = checker.check(EIGHT)
    assert sum(len(a) for a in fake.asked) == 8
    assert report.decision == "accept" and report.spans == [] and report.risk_score <= 0.29


def test_each_verdict_reads_facts_settled_for_its_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck import checker as checker_module

    settled: list[list[str]] = []
    monkeypatch.setattr(checker_module, "settle_facts", lambda analysis, findings: settled.append([f.detector for f in findings]))
    checker, _ = _eight_checker({3})
    checker.check(EIGHT)
    assert settled == [["rule"], ["rule", "nli"]]  # before the first verdict, and again with the verifier's finding


def test_facts_that_cannot_be_settled_keep_an_answer_from_accept(monkeypatch: pytest.MonkeyPatch) -> None:
    from hallucheck import checker as checker_module

    def boom(*_: Any) -> None:
        raise MemoryError("no room")

    monkeypatch.setattr(checker_module, "settle_facts", boom)
    report = _checker([Scripted("rule", 1, [], risk=0.1)]).check(CASE)
    assert report.decision == "review" and "max decided" in report.notes
    assert ("restatement facts failed: MemoryError: no room; a restated answer is not told apart; the answer is not accepted"
            in report.notes)


def test_an_english_reject_at_high_risk_is_not_read_by_the_verifier() -> None:
    answer = EIGHT["answer"]
    marks = [Span(start=0, end=8, text=answer[:8], label="baseless", score=0.9, detector="model")]
    checker = _checker([Scripted("rule", 1, [], risk=0.95)], MaxPolicy(spans=marks))
    fake = FakeVerifier(set())
    checker.verifier = fake
    report = checker.check(EIGHT)
    assert fake.asked == [] and report.decision == "reject"


def test_an_english_reject_at_high_risk_over_a_source_read_whole_is_read_and_its_marks_in_entailed_sentences_go() -> None:
    case = {**EIGHT, "contexts": ["Sentences one to eight are here."]}
    answer = EIGHT["answer"]
    marks = [Span(start=answer.index(w), end=answer.index(w) + len(w), text=w, label="baseless", score=0.9, detector="model")
             for w in ("one", "four")]
    checker = _checker([Scripted("rule", 1, [], risk=0.95)], MaxPolicy(spans=marks))
    fake = FakeVerifier({3})
    checker.verifier = fake
    report = checker.check(case)
    assert fake.asked and fake.asked[0] == [0, 3]
    assert report.decision == "reject"
    assert [s.text for s in report.spans] == ["four"]  # the mark in the entailed first sentence is dropped


def test_a_pass_in_several_chunks_that_reads_no_sentence_has_the_empty_features() -> None:
    class Nothing(FakeVerifier):
        def verify(self, analysis: CaseAnalysis, rows: Any) -> Finding:
            self.asked.append(list(rows))
            return Finding(detector="nli", role="entailment", risk=0.0, sentence_verdicts=[])

    checker, _ = _eight_checker(set())
    checker.verifier = Nothing(set())
    report = checker.check(EIGHT)
    nli = next(f for f in report.findings if f.detector == "nli")
    assert nli.sentence_verdicts == [] and nli.features["nli_min_entailment"] == 1.0
