"""Lengths of time and other figures the sources give in another form, and the tagger's marks on them."""

from __future__ import annotations

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.model.model import ModelDetector
from hallucheck.detectors.model.restated import RESTATED_CAP
from hallucheck.detectors.rules.numbers import durations_in_other_units, figures_in_other_forms
from hallucheck.models.tagger import tagger_available
from hallucheck.types import Case

SOURCES = [
    "本款净水器的PP棉滤芯建议每6个月更换一次，活性炭滤芯每12个月更换一次，RO反渗透膜滤芯每24个月更换一次。实际更换周期受当地水质影响。",
    "整机保修2年，RO膜滤芯保修1年；滤芯属于耗材，人为损坏不在保修范围内。购买后30天内可无理由退货。",
]
ANSWER = "PP棉滤芯每6个月换一次，活性炭滤芯一年换一次，RO膜两年换一次[1]。整机保修3年，滤芯人为损坏也可免费更换[2]。"


def _analysis(answer: str = ANSWER) -> CaseAnalysis:
    return CaseAnalysis(Case(question="滤芯多久换一次？保修多久？", contexts=SOURCES, answer=answer))


def test_only_lengths_given_in_another_unit_are_listed() -> None:
    ranges = durations_in_other_units(_analysis())
    assert [ANSWER[a:b] for a, b in ranges] == ["一年", "两年"]  # not 6个月 (written so), not 3年 (contradicted)


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
def test_the_tagger_keeps_no_mark_on_them_and_says_so() -> None:
    on = ModelDetector().detect(_analysis())
    off = ModelDetector(converted=False).detect(_analysis())
    shown = {s.text for s in on.spans}
    assert "一年" not in shown and "两年" not in shown
    assert "免费" in shown  # the real error stays
    probs = on.details["token_probs"]
    for a, b in durations_in_other_units(_analysis()):
        inside = [p for (s, e), p in zip(probs["offsets"], probs["probs"]) if a <= s and e <= b]
        assert inside and max(inside) <= RESTATED_CAP + 1e-4
    if any(s.text in ("一年", "两年") for s in off.spans):
        note = next(n for n in on.notes if "another form" in n)
        # the note names the answer's own figures, not examples
        assert "'一年'" in note or "'两年'" in note
        assert "百分之十二" not in note


def test_clock_times_discounts_shares_and_halved_figures_are_not_listed() -> None:
    # a quarter of the clock times RAGTruth calib answers give another way are hallucinated
    answer = "门店下午3点开门，团体可打8.5折，约3成用户选年付，儿童10元。"
    sources = ["门店营业时间为每天15:00至22:00。团体可享85折。约30%的用户选择了年付。成人20元，儿童半价。"]
    assert durations_in_other_units(CaseAnalysis(Case(contexts=sources, answer=answer, language="zh-Hans"))) == []


FIGURE_ANSWER = "门店下午3点开门，团体可打8.5折，约3成用户选年付，营收1250亿元，同比增长百分之十二，净利润45亿元，2年保修。"
FIGURE_SOURCES = ["门店营业时间为每天15:00至22:00。团体可享85折。约30%的用户选择了年付。"
                  "营收为1,250亿元，同比增长12%，净利润为45亿元。保修24个月。"]


def test_figures_given_in_another_form_are_listed_but_not_clock_times() -> None:
    an = CaseAnalysis(Case(contexts=FIGURE_SOURCES, answer=FIGURE_ANSWER, language="zh-Hans"))
    # not 下午3点 (a clock time), 45亿元 (written so), 2年 (a length of time: durations_in_other_units)
    assert [FIGURE_ANSWER[a:b] for a, b in figures_in_other_forms(an)] == ["8.5折", "3成", "1250亿元", "百分之十二"]
    # a figure of another value, or one inside a longer figure of the sources, is not given
    other = CaseAnalysis(Case(contexts=["营收为1,250亿元，同比增长12%。"], answer="营收1350亿元，同比增长百分之二十。", language="zh-Hans"))
    assert figures_in_other_forms(other) == []


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
def test_the_tagger_keeps_no_mark_on_a_figure_written_another_way() -> None:
    answer = "2023年第四季度营收1250亿元，同比增长百分之十二。"
    an = CaseAnalysis(Case(contexts=FIGURE_SOURCES, answer=answer, language="zh-Hans"))
    on = ModelDetector().detect(an)
    probs = on.details["token_probs"]
    ranges = figures_in_other_forms(an)
    assert [answer[a:b] for a, b in ranges] == ["1250亿元", "百分之十二"]
    for a, b in ranges:
        inside = [p for (s, e), p in zip(probs["offsets"], probs["probs"]) if a <= s and e <= b]
        assert inside and max(inside) <= RESTATED_CAP + 1e-4
    off = ModelDetector(converted=False).detect(CaseAnalysis(Case(contexts=FIGURE_SOURCES, answer=answer, language="zh-Hans")))
    off_probs = off.details["token_probs"]
    marked = [p for (s, e), p in zip(off_probs["offsets"], off_probs["probs"]) if any(a <= s and e <= b for a, b in ranges)]
    assert max(marked) > RESTATED_CAP  # without the cap the tagger marks them (what the cap is for)
    note = next(n for n in on.notes if "another form" in n)
    assert note.startswith("2 figure(s)") and "'1250亿元'" in note and "'百分之十二'" in note


@pytest.mark.skipif(not tagger_available(), reason="shipped tagger files missing")
@pytest.mark.parametrize(("source", "answer", "language"), [
    ("The shop is open Monday to Friday from 9 am to 6 pm.", "The shop is open on weekdays from 9 am to 6 pm.", "en"),
    ("Der Laden ist Montag bis Freitag von 9 bis 18 Uhr geöffnet.", "Der Laden ist werktags von 9 bis 18 Uhr geöffnet.", "de"),
    ("Le magasin est ouvert du lundi au vendredi de 9 h à 18 h.", "Le magasin est ouvert en semaine de 9 h à 18 h.", "fr"),
    ("商店周一至周五上午9点到下午6点营业。", "商店工作日上午9点到下午6点营业。", "zh-Hans"),
    ("商店週一至週五上午9點到下午6點營業。", "商店工作日上午9點到下午6點營業。", "zh-Hant"),
])
def test_the_tagger_keeps_no_mark_on_a_weekday_range_written_another_way(source: str, answer: str, language: str) -> None:
    an = CaseAnalysis(Case(contexts=[source], answer=answer, language=language))
    probs = ModelDetector().detect(an).details["token_probs"]
    ranges = figures_in_other_forms(an)
    assert len(ranges) == 1
    a, b = ranges[0]
    inside = [p for (s, e), p in zip(probs["offsets"], probs["probs"]) if a <= s and e <= b]
    assert inside and max(inside) <= RESTATED_CAP + 1e-4
