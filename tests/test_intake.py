"""Detectors read the case without the characters nobody sees; the report points into the case as written."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.checker import Checker, check
from hallucheck.intake import take_in
from hallucheck.policies.base import Verdict
from hallucheck.types import Coverage, Evidence, Finding, Span

ZWSP, SHY, LRO, PDF, BOM = "\u200b", "\u00ad", "\u202d", "\u202c", "\ufeff"
SOURCE = "Lyon is a city in France. It has 500 thousand inhabitants."
QUESTION = "How big is Lyon?"


def _shy(text: str) -> str:
    return text.replace("France", f"Fran{SHY}ce").replace("inhabitants", f"in{SHY}hab{SHY}i{SHY}tants").replace("city", f"ci{SHY}ty")


FAITHFUL = {
    "zero-width space in the answer's figure": (SOURCE, SOURCE.replace("500", f"5{ZWSP}00")),
    "zero-width space in the source's figure": (SOURCE.replace("500", f"5{ZWSP}00"), SOURCE),
    "bidi override around the answer's figure": (SOURCE, SOURCE.replace("500", f"{LRO}500{PDF}")),
    "bidi override around the source's figure": (SOURCE.replace("500", f"{LRO}500{PDF}"), SOURCE),
    "soft hyphens in the source's words": (_shy(SOURCE), SOURCE),
    "soft hyphens in the answer's words": (SOURCE, _shy(SOURCE)),
    "byte order marks at the starts": (BOM + SOURCE, BOM + SOURCE),
}


def test_a_verbatim_copy_is_accepted() -> None:
    assert check(question=QUESTION, contexts=[SOURCE], answer=SOURCE).decision == "accept"


@pytest.mark.parametrize("name", list(FAITHFUL))
def test_invisible_characters_do_not_make_a_faithful_answer_a_contradiction(name: str) -> None:
    source, answer = FAITHFUL[name]
    report = check(question=QUESTION, contexts=[source], answer=answer)
    assert report.decision == "accept", (name, report.risk_score, [s.text for s in report.spans])
    assert report.spans == []


@pytest.mark.parametrize("where", ["answer", "source", "both"])
def test_a_changed_figure_with_invisible_characters_is_still_a_contradiction_placed_in_the_answer_as_written(where: str) -> None:
    source = SOURCE.replace("500", f"5{ZWSP}00") if where in ("source", "both") else SOURCE
    answer = SOURCE.replace("500", f"9{ZWSP}00") if where in ("answer", "both") else SOURCE.replace("500", "900")
    answer = f"{LRO}{answer[:10]}{PDF}{answer[10:]}"  # more invisible characters before the figure
    report = check(question=QUESTION, contexts=[source], answer=answer)
    assert report.decision == "reject"
    figure = answer.index("9")
    hit = [s for s in report.spans if s.start <= figure < s.end]
    assert hit and hit[0].label == "contradiction"
    for span in report.spans + [s for f in report.findings for s in f.spans]:
        assert span.text == answer[span.start : span.end]
    numbers = report.finding("numbers")
    assert numbers is not None
    [claim] = [s for s in numbers.spans if s.kind == "contradicted_figure"]
    assert answer[claim.start : claim.end].replace(ZWSP, "").startswith("900")
    assert not answer[claim.start].isspace() and answer[claim.start] not in (ZWSP, LRO, PDF)
    # the evidence points into the source as written
    [ev] = [e for e in claim.evidence if e.start is not None]
    assert ev.source_id == "1" and source[ev.start : ev.end] == ev.text and "5" in ev.text


# ---------------------------------------------------------------- the mapping, with a scripted detector


class Marks:
    """A detector that marks a word of the answer it reads and cites a word of the source it reads."""

    name = "marks"
    layer = 1
    role = "facts"

    def __init__(self, word: str, source_word: str, coverage_from: str | None = None) -> None:
        self.word, self.source_word, self.coverage_from = word, source_word, coverage_from

    def detect(self, analysis: CaseAnalysis) -> Finding:
        answer, source = analysis.case.answer, analysis.case.contexts[0].text
        assert ZWSP not in answer + source and SHY not in answer + source  # detectors read the cut text
        a = answer.index(self.word)
        s = source.index(self.source_word)
        ev = [Evidence(source_id="1", text=self.source_word, relation="contradicts", start=s, end=s + len(self.source_word)),
              Evidence(source_id=None, text=self.source_word, start=s, end=s + len(self.source_word)),
              Evidence(source_id="answer", text=answer[:4], start=0, end=4)]
        span = Span(start=a, end=a + len(self.word), text=self.word, label="contradiction", score=0.9, detector=self.name,
                    evidence=ev)
        coverage = None
        if self.coverage_from is not None:
            c = answer.index(self.coverage_from)
            coverage = Coverage(answer_chars=len(answer), checked_chars=c, unchecked=[(c, len(answer))], note="window")
        return Finding(detector=self.name, role="facts", risk=0.9, spans=[span], coverage=coverage)


class Reject:
    name = "reject"

    def decide(self, analysis: CaseAnalysis, findings: list[Finding]) -> Verdict:
        return Verdict(hallucinated=True, risk_score=0.9, risk_level="high", decision="reject")

    def escalate(self, analysis: CaseAnalysis, findings: list[Finding], next_layer: int) -> bool:
        return True


def test_span_evidence_and_coverage_offsets_point_into_the_texts_as_written() -> None:
    answer = f"{BOM}Lyon{ZWSP} has 9{ZWSP}00 thou{SHY}sand in{SHY}habitants, a big{ZWSP} city."
    source = f"Lyon is a city in Fran{SHY}ce. It has 5{ZWSP}00 thou{SHY}sand inhabitants."
    checker = Checker(detectors=[Marks("900 thousand", "500 thousand", coverage_from="big")], policy=Reject())
    report = checker.check(question="q", contexts=[source], answer=answer)
    [span] = report.findings[0].spans
    assert (span.start, span.end) == (answer.index("9"), answer.index("sand") + 4)
    assert span.text == answer[span.start : span.end] == f"9{ZWSP}00 thou{SHY}sand"
    first, joined, own = span.evidence
    assert (first.start, first.end, first.text) == (source.index("5"), source.index("sand") + 4, f"5{ZWSP}00 thou{SHY}sand")
    assert source[first.start : first.end] == first.text
    assert (joined.start, joined.end, joined.text) == (first.start, first.end, first.text)  # one source: joined == it
    assert (own.start, own.end, own.text) == (1, 5, "Lyon")  # past the byte order mark, before the zero-width space
    assert [(s.start, s.end, s.text) for s in report.spans] == [(span.start, span.end, span.text)]
    cov = report.coverage
    assert cov is not None and cov.answer_chars == len(answer)
    assert cov.unchecked == [(answer.index("big"), len(answer))]
    assert cov.checked_chars == answer.index("big")
    assert f"answer characters {answer.index('big')}-{len(answer)} were not checked (window)" in report.notes
    fcov = report.findings[0].coverage
    assert fcov is not None and fcov.unchecked == cov.unchecked


def test_a_case_without_invisible_characters_is_read_as_it_is() -> None:
    case = make_case(question="q", contexts=[SOURCE], answer=SOURCE)
    intake = take_in(case)
    assert intake.case is case and not intake.changed
    marked = make_case(question=f"q{ZWSP}", contexts=[{"text": SOURCE, "title": f"Ly{SHY}on"}], answer=SOURCE)
    read = take_in(marked).case
    assert read.question == "q" and read.contexts[0].title == "Lyon" and read.answer == SOURCE
