"""Opposite words next to a word both sentences share, found however the sentences are ordered."""

from __future__ import annotations

import pytest

from hallucheck import Case
from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.opposites import OppositesDetector

PROFIT = "In 2022 the firm's profit rose 8% to 2.1 billion dollars, driven mainly by strong demand in Europe."


def _spans(answer: str, source: str, language: str = "en") -> list[tuple[str, str | None]]:
    case = Case(question="q", contexts=[source], answer=answer, language=language)
    return [(s.text, s.kind) for s in OppositesDetector().detect(CaseAnalysis(case)).spans]


def test_each_opposite_of_a_reordered_sentence_is_marked_on_its_own() -> None:
    answer = "Profit fell by 8 percent in 2022 to $2.1 billion because of weak demand in Europe."
    assert _spans(answer, PROFIT) == [("fell", "opposite_word"), ("weak", "opposite_word")]


@pytest.mark.parametrize(
    ("answer", "source", "language", "text"),
    [
        ("Profit fell in 2022 to $2.1 billion.", PROFIT, "en", "fell"),
        ("Eine schwache Nachfrage in Europa meldete das Unternehmen 2022, bei einem Gewinn von 2,1 Milliarden.",
         "Das Unternehmen meldete 2022 eine starke Nachfrage in Europa und einen Gewinn von 2,1 Milliarden.", "de", "schwache"),
        ("En 2022, le bénéfice a baissé de 8 %, porté par une demande faible en Europe.",
         "Le bénéfice a augmenté de 8 % en 2022, porté par une demande forte en Europe.", "fr", "faible"),
    ],
)
def test_an_opposite_moved_away_from_the_alignment_is_found(answer: str, source: str, language: str, text: str) -> None:
    assert (text, "opposite_word") in _spans(answer, source, language)


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        # the same meaning in other words: no opposite
        ("Profit grew 8% in 2022 to $2.1 billion, largely thanks to robust European demand.", PROFIT),
        # a negation in the same clause keeps the sense: "not weak" / "strong"
        ("Profit rose 8% in 2022 to $2.1 billion, and demand in Europe was not weak demand.", PROFIT),
        # the source says the answer's word too (of another thing)
        ("Sales fell in Asia in 2022.", "In 2022 sales rose in Europe, while sales fell in Asia."),
        # the answer's pair is stated by another source sentence
        ("Demand was weak in 2022, with weak demand in Europe.",
         "In 2022 strong demand in Asia lifted sales. Europe saw weak demand in 2022."),
        # too little else in common: not the same statement
        ("Weak demand hurt the car makers of Japan last winter.", PROFIT),
    ],
)
def test_no_opposite_where_the_sentences_agree_or_say_other_things(answer: str, source: str) -> None:
    assert ("weak", "opposite_word") not in _spans(answer, source) and ("fell", "opposite_word") not in _spans(answer, source)


ZH_PROFIT = "2022年，该公司利润增长8%，达到21亿美元，主要得益于欧洲需求强劲。"


def test_chinese_words_and_their_opposites_next_to_the_same_two_characters_are_marked() -> None:
    spans = _spans("由于欧洲需求疲软，该公司2022年利润下降8%，为21亿美元。", ZH_PROFIT, "zh-Hans")
    assert ("疲软", "opposite_word") in spans and ("下降", "opposite_word") in spans
    spans = _spans("由於歐洲需求疲軟，該公司2022年利潤下降8%。", "2022年，該公司利潤增長8%，主要得益於歐洲需求強勁。", "zh-Hant")
    assert ("疲軟", "opposite_word") in spans and ("下降", "opposite_word") in spans


@pytest.mark.parametrize(
    "answer",
    [
        "由于欧洲需求强劲，该公司2022年利润增长8%，达到21亿美元。",  # the same, reordered
        "由于欧洲需求并不疲软，该公司2022年利润增长8%。",  # "not weak" for "strong"
        "该公司2022年上午利润增长8%，欧洲需求强劲。",  # one character's opposite (上 / 下) is not enough
    ],
)
def test_no_chinese_opposite_where_the_sentences_agree(answer: str) -> None:
    assert all(kind != "opposite_word" for _, kind in _spans(answer, ZH_PROFIT, "zh-Hans"))
