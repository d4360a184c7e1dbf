"""Internal contradictions between answer sentences, without a model."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.consistency import NEGATIONS, ConsistencyDetector
from hallucheck.text.opposites import NEGATION_WORDS
from hallucheck.types import Case


def _run(answer: str, **kw):  # type: ignore[no-untyped-def]
    return ConsistencyDetector(**kw).detect(CaseAnalysis(Case(question="q", contexts=["some source"], answer=answer)))


def test_different_numbers_for_the_same_attribute() -> None:
    f = _run("The company was founded in 1990 in Berlin. It has 300 staff. Founded in 1995 in Berlin, it grew fast.")
    assert f.risk == pytest.approx(0.8)
    assert [s.text for s in f.spans] == ["1995"]
    span = f.spans[0]
    assert span.label == "contradiction"
    assert span.evidence[0].source_id == "answer" and "1990" in span.evidence[0].text
    assert f.features["consistency_number_conflicts"] == 1.0


def test_numbers_that_differ_with_their_qualifier_are_not_conflicts() -> None:
    f = _run("In 2010 the revenue was 5 million dollars. In 2011 the revenue was 6 million dollars.")
    assert f.spans == [] and f.risk == 0.0


def test_negated_restatement() -> None:
    f = _run("The museum is open on Mondays. The museum is not open on Mondays.")
    assert len(f.spans) == 1 and f.spans[0].text.startswith("The museum is not")
    assert f.features["consistency_negation_conflicts"] == 1.0


def test_every_negation_word_of_the_shared_list_negates_a_sentence() -> None:
    # "nichts" was missing from the detector's own list (read from hallucheck.text.opposites now)
    f = _run("Der Dienst kostet Geld für Studenten. Der Dienst kostet nichts für Studenten.")
    assert f.features["consistency_negation_conflicts"] == 1.0
    assert NEGATION_WORDS <= NEGATIONS


def test_unrelated_sentences_are_not_compared() -> None:
    f = _run("Paris has 2 million people. The river is 700 km long.")
    assert f.spans == [] and f.features["consistency_related_pairs"] == 0.0


def test_chinese() -> None:
    f = _run("公司成立于1990年。公司成立于1995年。")
    assert [s.text for s in f.spans] == ["1995年"]


@pytest.mark.parametrize("answer", ["", "...", "One sentence only."])
def test_degenerate_answers(answer: str) -> None:
    f = _run(answer)
    assert f.risk == 0.0 and f.spans == []
    assert f.features["consistency_conflicts"] == 0.0
