"""The typed facts of a case: each part of a check that computes one for others fills its field
once, and every reader gets that value."""

from __future__ import annotations

import dataclasses

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import AnswerFigures, CaseFacts, Claim
from hallucheck.checker import Budget, Checker
from hallucheck.detectors.llm.claims import answer_claims
from hallucheck.detectors.rules.answer_figures import answer_figures, converted_durations, figures_in_other_forms
from hallucheck.detectors.rules.polarity_sentences import answer_sources, answer_symbols
from hallucheck.detectors.rules.weekday_ranges import answer_weekdays
from hallucheck.types import Case, Finding

CASE = Case(contexts=["The warranty runs for 24 months. The shop opens Monday to Friday."],
            answer="The warranty runs for 2 years. The shop opens on weekdays.")


def test_nothing_is_known_of_a_new_case_and_each_case_has_its_own_facts() -> None:
    a, b = CaseAnalysis(CASE), CaseAnalysis(CASE)
    assert all(getattr(a.facts, f.name) is None for f in dataclasses.fields(CaseFacts))
    a.facts.llm_calls_left = 3
    assert b.facts.llm_calls_left is None
    assert not hasattr(a, "shared")  # one typed object, no string-keyed dictionary beside it


def test_each_fact_is_computed_once_and_kept_in_its_field() -> None:
    analysis = CaseAnalysis(CASE)
    facts = analysis.facts
    figures = answer_figures(analysis)
    assert facts.answer_figures is figures and answer_figures(analysis) is figures
    assert len(figures.durations) == 1
    durations = converted_durations(analysis)
    assert facts.converted_durations is durations and [d.text for d in durations] == ["2 years"]
    other = figures_in_other_forms(analysis)
    assert facts.figures_in_other_forms is other and figures_in_other_forms(analysis) is other
    weekdays = answer_weekdays(analysis)
    assert facts.answer_weekdays is weekdays and [w.text for w in weekdays] == ["weekdays"]
    sources = answer_sources(analysis)
    assert facts.polarity_sources is sources and answer_sources(analysis) is sources
    symbols = answer_symbols(analysis)
    assert facts.polarity_symbols is symbols and len(symbols) == len(analysis.sentences)
    claims = answer_claims(analysis)
    assert facts.claims is claims and answer_claims(analysis) is claims


def test_readers_get_the_fact_that_is_there_and_compute_nothing() -> None:
    analysis = CaseAnalysis(CASE)
    given = AnswerFigures(found=[], durations={}, halves=[])
    claims = [Claim(0, 12, "The warranty", origin="llm")]
    analysis.facts.answer_figures, analysis.facts.claims = given, claims
    assert answer_figures(analysis) is given
    assert converted_durations(analysis) == []  # read from the empty figures given
    assert answer_claims(analysis) is claims


def test_an_empty_fact_is_known_and_not_computed_again() -> None:
    analysis = CaseAnalysis(Case(contexts=["No dates here."], answer="Nothing about days."))
    assert answer_weekdays(analysis) == []
    analysis.facts.answer_weekdays.append(None)  # type: ignore[union-attr, arg-type]
    assert answer_weekdays(analysis) == [None]


class _Reader:
    """A detector that records the facts the Checker set before it ran."""

    name, layer, role = "reader", 1, "other"

    def __init__(self) -> None:
        self.seen: list[tuple[int | None, float | None]] = []

    def detect(self, analysis: CaseAnalysis) -> Finding:
        self.seen.append((analysis.facts.llm_calls_left, analysis.facts.llm_deadline))
        return Finding(detector=self.name, risk=0.0)


def test_the_checker_sets_the_llm_budget_and_deadline_before_the_detectors() -> None:
    reader = _Reader()
    Checker([reader], budget=Budget(max_llm_calls=4, max_seconds=60.0)).check(CASE)
    [(calls, deadline)] = reader.seen
    assert calls == 4 and deadline is not None
    Checker([reader]).check(CASE)
    assert reader.seen[-1] == (None, None)
