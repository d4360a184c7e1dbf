"""Citations that name a real source which does not say the cited text, while another source does."""

from __future__ import annotations

from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.checker import Checker
from hallucheck.detectors.rules.citations import CitationDetector
from hallucheck.types import Case, Finding

ZH_SOURCES = [
    {"id": "6", "text": "Debian 系统中许多的帮助页面和信息页面被用来作为这个文档的主要参考。"},
    {"id": "7", "text": "gdb调试器的描述使用了扩展Debian 维基内容的回溯系统，这是被Ari Pollak 同意的。"},
    {"id": "8", "text": "除了上面提到的部分之外，大部分内容是我自己的工作。一些贡献者也会对内容进行更新。"},
]
EN_SOURCES = [
    {"id": "1", "text": "The warehouse in Leeds ships every order within two working days."},
    {"id": "2", "text": "Returns are accepted for thirty days when the original receipt is shown."},
]


def run(answer: str, contexts: Any, language: str | None = None, **options: Any) -> Finding:
    case = Case(contexts=contexts, answer=answer, language=language)
    return CitationDetector(**options).detect(CaseAnalysis(case))


def misattributed(f: Finding) -> list[str]:
    return [s.text for s in f.spans if s.kind == "misattributed_citation"]


def test_a_copied_sentence_cited_to_the_wrong_source_is_marked_on_its_marker() -> None:
    answer = "gdb调试器的描述使用了扩展Debian 维基内容的回溯系统[来源 7]。一些贡献者也会对内容进行更新[来源 7]。"
    f = run(answer, ZH_SOURCES, "zh-Hans")
    spans = [s for s in f.spans if s.kind == "misattributed_citation"]
    assert [s.text for s in spans] == ["[来源 7]"]
    assert spans[0].start == answer.rindex("[来源 7]") and spans[0].label == "invalid_citation"
    assert spans[0].evidence[0].source_id == "8" and "8" in spans[0].reason
    assert f.flagged and f.details["counts"]["n_misattributed"] == 1.0
    # the id is valid: the guideline's invalid-id rule has nothing to say, nor its feature
    assert f.citations.invalid == [] and f.features["invalid_markers"] == 0.0


def test_correct_citations_are_left_alone() -> None:
    answer = "gdb调试器的描述使用了扩展Debian 维基内容的回溯系统[来源 7]。一些贡献者也会对内容进行更新[来源 8]。"
    assert misattributed(run(answer, ZH_SOURCES, "zh-Hans")) == []
    en = "Every order ships within two working days [1]. Returns are accepted for thirty days [2]."
    assert misattributed(run(en, EN_SOURCES)) == []


def test_markers_side_by_side_cite_together_and_a_citation_of_several_sources_counts() -> None:
    en = "Returns are accepted for thirty days when the original receipt is shown [1][2]."
    assert misattributed(run(en, EN_SOURCES)) == []
    wrong = "Returns are accepted for thirty days when the original receipt is shown [1]."
    assert misattributed(run(wrong, EN_SOURCES)) == ["[1]"]


def test_text_no_source_holds_whole_is_not_called_misattributed() -> None:
    # a paraphrase, and a sentence joining both sources: neither says where it came from
    para = "You can send things back within a month if you still have the receipt [1]."
    joined = "Orders leave Leeds within two working days and returns are accepted for thirty days [1]."
    assert misattributed(run(para, EN_SOURCES)) == []
    assert misattributed(run(joined, EN_SOURCES)) == []


def test_a_marker_copied_from_the_sources_is_not_read_as_a_citation_of_them() -> None:
    sources = [EN_SOURCES[0], {"id": "2", "text": "[1] Returns are accepted for thirty days when the original receipt is shown."}]
    answer = "The warehouse in Leeds ships every order within two working days. [1] Returns are accepted for thirty days."
    assert misattributed(run(answer, sources)) == []


def test_unknown_ids_stay_the_invalid_id_rule_s_and_one_source_says_nothing() -> None:
    wrong_and_unknown = "Returns are accepted for thirty days when the original receipt is shown [1, 9]."
    f = run(wrong_and_unknown, EN_SOURCES)
    assert misattributed(f) == [] and [s.kind for s in f.spans] == ["invalid_citation"]
    assert misattributed(run("Returns are accepted for thirty days when the receipt is shown [1].", EN_SOURCES[1:])) == []


def test_the_check_can_be_switched_off() -> None:
    wrong = "Returns are accepted for thirty days when the original receipt is shown [1]."
    assert misattributed(run(wrong, EN_SOURCES, attribution=False)) == []


def test_the_floor_table_makes_a_misattributed_citation_reject_a_chinese_answer() -> None:
    answer = "gdb调试器的描述使用了扩展Debian 维基内容的回溯系统[来源 7]。一些贡献者也会对内容进行更新[来源 7]。"
    report = Checker().check(Case(contexts=ZH_SOURCES, answer=answer, language="zh-Hans"))
    assert report.hallucinated and report.decision == "reject"
    marked = [s for s in report.spans if s.kind == "misattributed_citation"]
    assert [s.text for s in marked] == ["[来源 7]"] and marked[0].label == "invalid_citation"
    assert any("misattributed citation" in n for n in report.notes)
    # the same answer with the right source cited is accepted or sent to review, never rejected for it
    fixed = answer[: answer.rindex("[来源 7]")] + "[来源 8]。"
    ok = Checker().check(Case(contexts=ZH_SOURCES, answer=fixed, language="zh-Hans"))
    assert not any(s.kind == "misattributed_citation" for s in ok.spans)


def test_where_it_is_no_floor_a_misattributed_citation_still_keeps_the_answer_from_accept() -> None:
    # English: no floor (RAGTruth's labels veto it), but the answer is not accepted either
    wrong = "Returns are accepted for thirty days when the original receipt is shown [1]."
    report = Checker().check(Case(contexts=EN_SOURCES, answer=wrong, language="en"))
    assert report.decision in ("review", "reject")
    assert [s.text for s in report.spans if s.kind == "misattributed_citation"] == ["[1]"]
    right = Checker().check(Case(contexts=EN_SOURCES, answer=wrong.replace("[1]", "[2]"), language="en"))
    assert right.decision == "accept" and not right.spans


def test_markers_after_the_full_stop_cite_the_sentence_before_them() -> None:
    answer = ("The warehouse in Leeds ships every order within two working days. [2] "
              "Returns are accepted for thirty days when the original receipt is shown. [2]")
    f = run(answer, EN_SOURCES)
    assert [(s.text, s.start) for s in f.spans if s.kind == "misattributed_citation"] == [("[2]", answer.index("[2]"))]
    glued = answer.replace(". [2] ", ".[2] ")
    assert misattributed(run(glued, EN_SOURCES)) == ["[2]"]


def test_passages_packed_in_one_source_are_compared_passage_by_passage() -> None:
    packed = [{"id": "ctx", "text": "passage 1: " + EN_SOURCES[0]["text"] + "\npassage 2: " + EN_SOURCES[1]["text"]},
              {"id": "faq", "text": "Gift cards never expire and can be used online."}]
    answer = "Returns are accepted for thirty days when the original receipt is shown (passage 1)."
    f = run(answer, packed)
    spans = [s for s in f.spans if s.kind == "misattributed_citation"]
    assert [s.text for s in spans] == ["(passage 1)"]
    assert "ctx (section 1)" in spans[0].reason and "ctx (section 2)" in spans[0].reason
    assert spans[0].evidence[0].text.startswith("Returns are accepted")
    # the right passage, or the whole source, is a correct citation
    assert misattributed(run(answer.replace("passage 1", "passage 2"), packed)) == []
    assert misattributed(run(answer.replace("(passage 1)", "[ctx]"), packed)) == []
    # a source that is the wrong one altogether is still found
    assert misattributed(run(answer.replace("(passage 1)", "[faq]"), packed)) == ["[faq]"]
