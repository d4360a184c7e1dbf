"""Sentences that restate a source sentence in another word order, and the tagger's marks there."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.model import ModelDetector
from hallucheck.detectors.model.restated import RESTATED_CAP, restated_sentences
from hallucheck.models.tagger import tagger_available
from hallucheck.types import Case

ZH_SOURCE = "该公司于2015年在杭州成立，主要从事云计算服务。2020年，公司员工人数超过五百人，并在上海设立了研发中心。"


def _restated(answer: str, source: str, language: str | None = None) -> set[int]:
    return restated_sentences(CaseAnalysis(Case(contexts=[source], answer=answer, language=language)))


def test_a_reordered_chinese_sentence_restates_its_source() -> None:
    assert _restated("该公司2015年成立于杭州。", ZH_SOURCE) == {0}


def test_a_reordered_english_sentence_restates_its_source() -> None:
    src = "The company was founded in Hangzhou in 2015. It sells cloud services."
    assert _restated("In 2015, the company was founded in Hangzhou.", src) == {0}


def test_a_changed_figure_is_no_restatement() -> None:
    assert _restated("该公司2016年成立于杭州。", ZH_SOURCE) == set()
    assert _restated("The company was founded in Hangzhou in 2016.", "The company was founded in Hangzhou in 2015.") == set()


def test_a_dropped_or_added_negation_is_no_restatement() -> None:
    assert _restated("该服务支持退款和换货。", "该服务不支持退款和换货。") == set()
    assert _restated("The plan does not cover dental care for children.", "The plan covers dental care for children.") == set()


def test_swapped_sides_are_no_restatement() -> None:
    assert _restated("饿了么收购了阿里巴巴。", "阿里巴巴收购了饿了么。") == set()


def test_a_word_the_sentence_lacks_is_no_restatement() -> None:
    assert _restated("该公司2015年成立于北京。", ZH_SOURCE) == set()


def test_words_picked_from_far_apart_in_a_long_sentence_are_no_restatement() -> None:
    src = ("The museum opened in the old harbour district, and after a long dispute about funding, heating, staff, "
           "tickets, parking and the roof, the city council finally approved a new library wing.")
    assert _restated("The museum approved a new library.", src) == set()


def test_each_sentence_is_judged_on_its_own() -> None:
    # the second sentence's 北京 is in no source sentence
    assert _restated("该公司2015年成立于杭州。公司在北京设立了研发中心。", ZH_SOURCE) == {0}


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
def test_the_tagger_keeps_no_mark_in_a_restated_sentence() -> None:
    case = Case(question="介绍一下这家公司。", contexts=[ZH_SOURCE], answer="该公司2015年成立于杭州。")
    on = ModelDetector().detect(CaseAnalysis(case))
    off = ModelDetector(restated=False).detect(CaseAnalysis(case))
    assert on.features["model_max"] <= RESTATED_CAP + 1e-6
    assert not on.spans
    assert any("restate a source sentence" in n for n in on.notes)
    assert off.features["model_max"] >= on.features["model_max"]


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
def test_the_tagger_keeps_its_marks_beside_a_restated_sentence() -> None:
    answer = "该公司2015年成立于杭州。2020年，公司员工人数超过五百人，并在北京设立了研发中心。"
    case = Case(question="介绍一下这家公司。", contexts=[ZH_SOURCE], answer=answer)
    f = ModelDetector().detect(CaseAnalysis(case))
    assert f.features["model_max"] > 0.5
    assert all(s.start >= answer.index("2020") for s in f.spans)


def test_terms_that_trade_places_around_a_function_word_are_no_restatement() -> None:
    src = "Abfragen werden mittels HTML-Formularen dem Browser-Nutzer präsentiert."
    assert _restated("Abfragen werden mittels Browser-Nutzer dem HTML-Formularen präsentiert.", src) == set()
    assert _restated("Mittels HTML-Formularen werden dem Browser-Nutzer Abfragen präsentiert.", src) == {0}


def test_a_chinese_demonstrative_with_its_measure_word_restates_another_demonstrative() -> None:
    assert _restated("这家公司2015年成立于杭州。", ZH_SOURCE) == {0}
    assert _restated("这家公司2015年成立于北京。", ZH_SOURCE) == set()
    # a measure word that is no demonstrative's stays a content word
    assert _restated("该公司2015年在杭州成立了一家店。", ZH_SOURCE) == set()


FILTERS = "RO膜滤芯建议每24个月更换一次，活性炭滤芯每12个月更换一次。"


def test_a_figure_from_another_clause_is_no_restatement() -> None:
    assert _restated("RO膜每24个月换一次。", FILTERS) == {0}
    # every word and figure is in the source sentence, but 24个月 is the other filter's
    assert _restated("活性炭滤芯每24个月换一次。", FILTERS) == set()


def test_a_length_of_time_in_another_unit_restates_the_sources_figure() -> None:
    assert _restated("RO膜每2年换一次。", FILTERS) == {0}
    assert _restated("活性炭滤芯一年换一次。", FILTERS) == {0}
    assert _restated("The filter is replaced every 2 years.", "The filter is replaced every 24 months.") == {0}
    assert _restated("The filter is replaced every 24 months.", "The filter is replaced every two years.") == {0}
    # as long as a figure of the other clause, or of none
    assert _restated("活性炭滤芯每2年换一次。", FILTERS) == set()
    assert _restated("RO膜每3年换一次。", FILTERS) == set()


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
def test_a_faithful_answer_in_another_unit_is_not_rejected() -> None:
    from hallucheck.checker import Checker

    checker = Checker()
    faithful = checker.check(contexts=[FILTERS], answer="RO膜每2年换一次。")
    assert faithful.decision != "reject" and not faithful.spans, faithful.notes
    assert checker.check(contexts=[FILTERS], answer="活性炭滤芯每2年换一次。").decision == "reject"


@pytest.mark.parametrize("digits", ["1" * 310, "7" * 49_990])
def test_a_long_digit_string_is_read_as_a_figure_of_its_own(digits: str) -> None:
    source = f"The register lists {digits} as the code. The filter warranty lasts 24 months."
    assert _restated(f"As the code, the register lists {digits}.", source) == {0}
    assert _restated(f"As the code, the register lists {digits[:-1]}2.", source) == set()
    assert _restated("The filter warranty lasts 2 years.", source) == {0}


@pytest.mark.parametrize(("source", "faithful", "changed", "language"), [
    ("售價為新台幣25,900元。", "售價為新台幣兩萬五千九百元。", "售價為新台幣兩萬六千九百元。", "zh-Hant"),
    ("列车每天上午8点出发。", "列车每天早上八点出发。", "列车每天早上九点出发。", "zh-Hans"),
    ("列車每天上午8點出發。", "列車每天早上八點出發。", "列車每天早上九點出發。", "zh-Hant"),
    ("公司营收为1.2亿元。", "公司营收为一亿两千万元。", "公司营收为一亿三千万元。", "zh-Hans"),
    ("The hall seats 2,000 people.", "The hall seats two thousand people.", "The hall seats three thousand people.", "en"),
    ("Die neue Halle bietet 2.000 Plätze für Gäste.", "Die neue Halle bietet zweitausend Plätze für Gäste.",
     "Die neue Halle bietet dreitausend Plätze für Gäste.", "de"),
])
def test_a_figure_written_another_way_is_restated(source: str, faithful: str, changed: str, language: str) -> None:
    from hallucheck.detectors.model.restated import every_sentence_restated

    def restated(answer: str) -> bool:
        return every_sentence_restated(CaseAnalysis(Case(contexts=[source], answer=answer, language=language)))

    assert restated(faithful)
    assert not restated(changed)
    assert _restated(faithful, source, language) == {0}
