"""The verifier's pass: which verdicts it may change and which sentences it reads."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.policies.base import Verdict
from hallucheck.types import Span
from hallucheck.verifier_pass import suspect_sentences, worth_verifying

ANSWER = "The plant opened in 2010. It employs 45 people. It is in Paris."


def _analysis(language: str = "en", source: str = "The plant opened in 2010 in Paris and employs 45 people.") -> CaseAnalysis:
    return CaseAnalysis(make_case(question="q", contexts=[source], answer=ANSWER, language=language))


def _verdict(decision: str, spans: list[Span] | None, risk: float = 0.5) -> Verdict:
    return Verdict(hallucinated=decision != "accept", risk_score=risk, risk_level="moderate", decision=decision,  # type: ignore[arg-type]
                   spans=spans)


def _span(start: int, end: int, kind: str | None = None, label: str = "baseless") -> Span:
    return Span(start=start, end=end, text=ANSWER[start:end], label=label, score=0.9, detector="model", kind=kind)  # type: ignore[arg-type]


def test_an_accepted_english_answer_is_not_read_but_a_german_one_is() -> None:
    assert worth_verifying(_analysis(), _verdict("accept", [])) is False
    assert worth_verifying(_analysis("de"), _verdict("accept", [])) is True


def test_a_flagged_answer_over_long_english_sources_is_read_only_below_the_risk_bound() -> None:
    long_source = " ".join(f"The plant in town {k} opened in {1990 + k} and employs {10 * k} people." for k in range(12))
    analysis = _analysis(source=long_source)
    assert worth_verifying(analysis, _verdict("reject", [], risk=0.5)) is True
    assert worth_verifying(analysis, _verdict("reject", [], risk=0.95)) is False
    assert worth_verifying(_analysis(), _verdict("reject", [], risk=0.95)) is True  # a short source is read whole


def test_the_sentences_read_are_those_the_word_level_spans_touch() -> None:
    analysis = _analysis()
    second = ANSWER.index("45")
    assert suspect_sentences(analysis, _verdict("accept", None), []) == [0, 1, 2]
    assert suspect_sentences(analysis, _verdict("reject", [_span(second, second + 2)]), []) == [1]
    # a precise finding needs no second opinion; with nothing else shown, no sentence is read
    assert suspect_sentences(analysis, _verdict("reject", [_span(second, second + 2, kind="contradicted_figure")]), []) == []
    assert suspect_sentences(analysis, _verdict("reject", []), []) == [0, 1, 2]
