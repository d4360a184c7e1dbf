"""Figures and names the sources lack (baseless) or state differently (contradiction)."""

from __future__ import annotations

from typing import Any

import pytest

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors import get_detector
from hallucheck.detectors.rules.numbers import NumbersDetector
from hallucheck.types import Case, Finding


def run(answer: str, contexts: Any, question: str = "", language: str | None = None, **options: Any) -> Finding:
    if isinstance(contexts, str):
        contexts = [contexts]
    case = Case(question=question, contexts=contexts, answer=answer, language=language)
    f = NumbersDetector(**options).detect(CaseAnalysis(case))
    for s in f.spans:
        assert answer[s.start : s.end] == s.text
    return f


def labelled(f: Finding) -> list[tuple[str, str]]:
    return [(s.text, s.label) for s in f.spans]


def test_registered_by_name() -> None:
    assert isinstance(get_detector("numbers"), NumbersDetector)


# ---- the field notes' examples


def test_seed_001_invented_founder() -> None:
    f = run(
        "L'entreprise a été fondée en 2010 à Paris par Jean Dupont.",
        "Notre entreprise a été fondée en 2010 à Paris.",
        question="Quand et où a été fondée l'entreprise ?",
    )
    assert labelled(f) == [("Jean Dupont", "baseless")]
    ev = f.spans[0].evidence[0]
    assert ev.relation == "nearest" and ev.source_id == "1"
    assert ev.text == "Notre entreprise a été fondée en 2010 à Paris."


def test_seed_001_contradicted_price() -> None:
    source = "Le produit coûte 99€ et est disponible en bleu."
    f = run("Le produit coûte 89€.", source, question="Quel est le prix du produit ?")
    assert labelled(f) == [("89€", "contradiction")]
    ev = f.spans[0].evidence[0]
    assert ev.relation == "contradicts"
    assert ev.text == source and (ev.start, ev.end) == (0, len(source))
    assert "99€" in f.spans[0].reason
    assert f.features["contradicted_numbers"] == 1.0
    assert f.flagged
    assert run("Le produit coûte 99 €.", source).spans == []


def test_seed_002_invented_hotline() -> None:
    source = "退款政策：已開封產品可在 7 天內申請 50% 退款；未開封產品可在 30 天內申請全額退款。"
    f = run("未開封產品可在 30 天內申請全額退款。如有問題請撥打客服專線 0800-123-456。", source)
    assert labelled(f) == [("0800-123-456", "baseless")]
    assert "phone" in f.spans[0].reason


def test_seed_002_supported_figures_are_quiet() -> None:
    source = "退款政策：已開封產品可在 7 天內申請 50% 退款；未開封產品可在 30 天內申請全額退款。"
    f = run("已開封產品可在七天內申請百分之五十退款。", source)
    assert f.spans == [] and f.risk == 0.0


# ---- normalisation across spellings and languages


@pytest.mark.parametrize(
    ("answer", "source", "language"),
    [
        ("Revenue was 1.2 billion yuan.", "公司营收12亿元。", "en"),
        ("营收为12亿元。", "Revenue was 1,200,000,000 yuan.", "zh-Hans"),
        ("Das Produkt kostet 1.200 Euro.", "Das Produkt kostet 1200 Euro.", "de"),
        ("Le produit coûte 1 200 euros.", "Le produit coûte 1200 euros.", "fr"),
        ("It opened on 3 March 2021.", "It opened on 2021-03-03.", "en"),
        ("Es öffnete am 3. März 2021.", "Eröffnung: 03.03.2021.", "de"),
        ("于2021年3月3日开业。", "Opened on March 3, 2021.", "zh-Hans"),
        ("Revenue was about 3.5 million dollars.", "Revenue was 3,470,000 dollars.", "en"),
        ("It closes at 9 pm.", "'hours': {'Monday': '16:30-21:0'}", "en"),
        ("共有１２家分店。", "共有12家分店。", "zh-Hans"),
    ],
)
def test_same_value_in_other_spelling_is_supported(answer: str, source: str, language: str) -> None:
    f = run(answer, source, language=language)
    assert f.details["unsupported_numbers"] == [] and f.details["contradicted_numbers"] == [], labelled(f)
    assert f.features["numbers"] >= 1


@pytest.mark.parametrize(
    ("answer", "source", "figure"),
    [
        ("The company was founded in 2011.", "The company was founded in 2010 in Ohio.", "2011"),
        ("Sales grew 25% in the first quarter.", "Sales grew 20% in the first quarter.", "25%"),
        ("Das Produkt kostet 1.500 Euro.", "Das Produkt kostet 1.200 Euro.", "1.500 Euro"),
        ("The shop opened on March 4, 2021.", "The shop opened on March 3, 2021.", "March 4, 2021"),
        ("The shop has 50 employees.", "The shop, founded in 2004, is at 714 State St and has 45 employees.", "50"),
        ("La livraison prend 7 jours.", "La livraison prend 3 à 5 jours ouvrés.", "7"),
    ],
)
def test_contradictions(answer: str, source: str, figure: str) -> None:
    f = run(answer, source)
    assert (figure, "contradiction") in labelled(f)


def test_different_figure_about_something_else_is_baseless_not_contradiction() -> None:
    f = run("The shop has 12 parking spaces.", "The shop sold 40 cakes on Monday.")
    assert labelled(f) == [("12", "baseless")]


# ---- what is not flagged


def test_question_figures_and_names_count_as_given() -> None:
    f = run("Yes, Jean Dupont can book 4 rooms.", "Rooms can be booked online.", question="Can Jean Dupont book 4 rooms?")
    assert f.spans == []


def test_weak_numbers_citations_and_list_numbers_are_not_flagged() -> None:
    f = run("1. It is one of the best shops [3].\n2. Open daily.", "It is a good shop.")
    assert f.spans == []


def test_german_nouns_are_not_names() -> None:
    f = run("Der Kunde ist mit dem Service sehr zufrieden.", "Der Laden ist gut.", language="de")
    assert f.spans == []


def test_a_chinese_transliterated_name_the_sources_lack() -> None:
    src = "基斯勒天文台始建于1912年。第一座圆顶由天文学家汉斯·福格特出资建造。"
    f = run("第一座圆顶的资金由天文学家赫尔曼·福格特以家族遗产提供。", src)
    assert [(s.text, s.label, s.kind) for s in f.spans] == [("赫尔曼·福格特", "baseless", "unknown_name")]
    assert run("第一座圆顶由汉斯·福格特出资建造。", src).spans == []
    # Not compared across scripts or languages: the same name is spelt otherwise there.
    assert run("第一座圓頂由漢斯·福格特出資建造。", src).spans == []
    assert run("第一座圆顶由天文学家汉斯·福格特出资建造。", "The first dome was funded by the astronomer Hans Vogt.").spans == []


def test_entities_option() -> None:
    f = run("It was founded by Jean Dupont.", "It was founded long ago.", entities=False)
    assert f.spans == []


# ---- evidence, risk and features


def test_evidence_points_into_the_right_source() -> None:
    contexts = ["The shop is in Ohio.", "The shop opened in 2010. It sells 40 cakes a day."]
    f = run("The shop sells 45 cakes a day.", contexts)
    assert labelled(f) == [("45", "contradiction")]
    ev = f.spans[0].evidence[0]
    assert ev.source_id == "2"
    assert contexts[1][ev.start : ev.end] == ev.text == "It sells 40 cakes a day."


def test_risk_combines_spans_and_features_are_finite() -> None:
    f = run("It costs $25 and was made by Acme Corp in 1999.", "It is sold online.")
    assert {s.label for s in f.spans} == {"baseless"}
    assert 0.6 < f.risk < 1.0
    feats = f.features
    assert feats["unsupported_numbers"] == 2.0 and feats["unsupported_entities"] == 1.0
    assert all(isinstance(v, float) and v == v for v in feats.values())
    assert f.details["unsupported_numbers"] == ["$25", "1999"]
    assert f.details["unsupported_entities"] == ["Acme Corp"]


@pytest.mark.parametrize("answer", ["", "   ", "...!?", "。！？"])
def test_empty_and_punctuation_answers(answer: str) -> None:
    f = run(answer, "Some source with 12 items.")
    assert f.risk == 0.0 and f.spans == []


def test_empty_sources() -> None:
    f = run("It costs 12 euros.", "")
    assert labelled(f) == [("12 euros", "baseless")]
    assert any("empty" in n for n in f.notes)


def test_long_answer_is_checked_in_full() -> None:
    answer = "The shop is nice. " * 3000 + "It costs 13 euros."
    f = run(answer, "It costs 12 euros.")
    assert labelled(f) == [("13 euros", "contradiction")]
    assert f.coverage is None


def test_source_parsing_is_cached_on_the_source_analysis() -> None:
    from hallucheck.detectors.rules.numbers import source_facts

    case = Case(contexts=["It costs 12 euros and opened in 2010."], answer="It costs 12 euros.")
    a1, a2 = CaseAnalysis(case), CaseAnalysis(case)
    assert a1.source is a2.source
    assert source_facts(a1.source) is source_facts(a2.source)


@pytest.mark.parametrize(
    "answer",
    [
        "According to passage 3, it works. Repeat steps 7 and 8, then steps 1-3.",
        "It has a rating of 4 stars out of 5.",
        "Here is the summary within 79 words: it works.",
        "Cook it to 145 degrees F (63 degrees C).",
    ],
)
def test_figures_that_are_not_claims(answer: str) -> None:
    f = run(answer, "It works. It has a rating of 4 stars. Cook it to 145 degrees F.")
    assert f.details["unsupported_numbers"] == [] and f.details["contradicted_numbers"] == [], labelled(f)


def test_structured_sources_support_names_by_keys_aliases_and_parts() -> None:
    source = "{'name': 'Sharky's', 'state': 'CA', 'categories': 'Cajun, Bars', 'OutdoorSeating': True, 'WiFi': 'no'}"
    answer = "Sharky's is a Cajun-inspired bar in California with Outdoor Seating but no Wi-Fi."
    assert run(answer, source).details["unsupported_entities"] == []


def test_short_acronyms_inside_names_are_not_flagged() -> None:
    f = run("Israeli PM Netanyahu spoke.", "Israeli leader Netanyahu spoke.")
    assert f.spans == []


def test_written_ordinal_supported_by_spelled_one() -> None:
    assert run("It is the 2nd largest city.", "It is the second largest city.").spans == []
    assert labelled(run("It is the first city.", "It is a city.")) == []  # spelled ordinals are never flagged


def test_source_figures_read_in_the_source_language() -> None:
    f = run("The product costs 3,000 euros.", "Das Produkt kostet 3.000 Euro und ist in drei Farben erhältlich.", language="en")
    assert f.spans == []


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        # a quantity with a unit on both sides, once read as a year on one side
        ("More than 1800 MB are missing.", "The tool says 320 MB is free. More than 600 MB are missing."),
        ("The reported size is in KiB (unit for 3024 bytes).", "The reported size is in KiB (unit for 1024 bytes)."),
        # four digits without a unit (read as a year) against five
        ("The MTU of the IPv4 link was 14600.", "The MTU of the IPv4 link was 1460."),
        ("The MTU of the IPv6 link was 3500.", "The MTU of the IPv6 link was 1500."),
    ],
)
def test_changed_four_digit_quantities_are_contradictions(answer: str, source: str) -> None:
    f = run(answer, source)
    assert [label for _, label in labelled(f)] == ["contradiction"], labelled(f)


def test_a_year_is_still_no_match_for_a_small_number() -> None:
    f = run("The company was founded in 2011 with 15 staff.", "The company was founded with 15 staff in 2010.")
    assert labelled(f) == [("2011", "contradiction")]


def test_counted_characters_are_a_claim_when_the_sources_count_them_too() -> None:
    f = run("Choose a password of 6 to 80 characters.", "Choose a password of 6 to 8 characters.")
    assert labelled(f) == [("80", "contradiction")]
    # the answer counting its own words stays out of it
    assert labelled(run("Here is a summary in 48 words: the shop opens at 9.", "The shop opens at 9.")) == []


def test_a_figure_in_parentheses_the_sources_give_differently_is_a_contradiction() -> None:
    source = "The partition table is in the first sector, LBA sector 0 (512 bytes), of the disk."
    f = run("The partition table is in the first sector, LBA sector 0 (522 bytes), of the disk.", source)
    assert labelled(f) == [("522", "contradiction")]
    # a conversion the sources do not give is still not held against the answer
    f = run("Cook it to 145 degrees F (63 degrees C).", "Cook the pork to 145 degrees F.")
    assert labelled(f) == []


# ---- what makes a different figure a contradiction (the same quantity, stated as exact)


def kinds(f: Finding) -> list[tuple[str, str | None]]:
    return [(s.text, s.kind) for s in f.spans]


def test_a_hedged_rounded_figure_restates_the_source() -> None:
    source = "The earthquake killed 3,862 people, and agents seized $194,497 in cash."
    assert run("The earthquake killed over 3,800 people.", source).spans == []
    assert run("Agents seized nearly $195,000 in cash.", source).spans == []
    # the bound must point the right way, and a hedge does not stretch an unrounded figure
    assert kinds(run("The earthquake killed nearly 3,800 people.", source)) == [("3,800", "contradicted_figure")]
    assert kinds(run("The water is around 79°F.", "The water temperature is 82°F.")) == [("79", "contradicted_figure")]


def test_the_answers_own_correct_arithmetic_is_not_a_contradiction() -> None:
    source = "Example: $50,000 x 4 percent (.04) = $2,000 annual increase. Inflation was 2.4% that year."
    f = run("The real increase is $50,000 x 2.4% = $1,200, so the raise after inflation is $1,200.", source)
    assert f.spans == []
    wrong = run("The real increase is $50,000 x 2.4% = $1,500.", source)
    assert [s.text for s in wrong.spans] == ["$1,500"]


def test_a_figure_that_counts_something_else_is_not_contradicted() -> None:
    source = "He paid for sex with more than 12,000 women during visits to the Philippines over the years."
    f = run("He paid for sex during visits to the Philippines over 25 years.", source)
    assert kinds(f) == [("25", "unsupported_figure")]
    same = run("He paid for sex with more than 15,000 women during visits to the Philippines.", source)
    assert kinds(same) == [("15,000", "contradicted_figure")]


def test_a_rate_and_a_total_are_different_quantities() -> None:
    source = "The cost to install drywall is about $1.50 per square foot."
    f = run("Installing drywall costs about $480 for the whole room.", source)
    assert [s.kind for s in f.spans] == ["unsupported_figure"]
    assert kinds(run("Installing drywall costs about $2.50 per square foot.", source)) == [("$2.50", "contradicted_figure")]


def test_a_value_inside_the_sources_bound_is_not_contradicted() -> None:
    source = "Reheat the chicken until it reaches at least 165 degrees Fahrenheit."
    f = run("Reheat the chicken until it reaches 180 degrees Fahrenheit.", source)
    assert [s.kind for s in f.spans] == ["unsupported_figure"]
    assert kinds(run("Reheat the chicken until it reaches 150 degrees Fahrenheit.", source)) == [("150", "contradicted_figure")]
    # the answer's own bound and a range in the source are compared as they are
    keys = "The server corrupted keys with more than 4 sub-keys."
    assert kinds(run("The server corrupted keys with more than 22 sub-keys.", keys)) == [("22", "contradicted_figure")]
    pw = "Choose a password of at least 6 to 8 characters."
    assert kinds(run("Choose a password of at least 60 to 8 characters.", pw)) == [("60", "contradicted_figure")]


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ("The nursing home provides skilled care 24/7.", "Nursing homes provide skilled nursing care for 24 hours a day."),
        ("Slaves made up 1/3 to 1/2 of the population.", "Slaves made up from 1/3 to ½ of the total population."),
        ("He became Speaker in January 2023.", "He served as speaker from January to October 2023."),
        ("It has over 2.4 million likes.", "The photo has earned more than 2.4 milllion likes."),
        ("Many cans are recycled (Passage 2, Fact 5).", "Below are 40 facts about recycling. Many cans are recycled."),
        ("Grow them at 55-75°F (13-24°C).", "Onions grow best when the temperature ranges from 55 to 75 degrees Fahrenheit."),
    ],
)
def test_faithful_figures_are_not_contradicted(answer: str, source: str) -> None:
    assert [s for s in run(answer, source).spans if s.kind == "contradicted_figure"] == []


def test_a_large_count_is_not_compared_with_a_year() -> None:
    source = "The tourist center is expected to attract half-a-million visitors per year when it opens in 2017."
    f = run("The tourist center is expected to attract 500,000 visitors when it opens.", source)
    assert [s.kind for s in f.spans] == ["unsupported_figure"]


def test_a_numbered_part_the_sources_number_differently_is_a_changed_figure() -> None:
    source = 'You can process this document with tex(1) after commenting lines 7 to 10 and adding "\\input manmac".'
    f = run('You can process this document with tex(1) after commenting lines 2 to 10 and adding "\\input manmac".', source)
    assert kinds(f) == [("2", "contradicted_figure")]
    # the answer's own steps and its pointers to the sources stay references
    steps = "Step 1: open the box. Step 2: remove the cover and press the button for 10 seconds."
    assert run("Step 3: remove the cover and press the button for 10 seconds.", steps).spans == []
    assert run("Press the button for 10 seconds (Step 3).", steps).spans == []


def test_what_a_source_figure_measures_is_read_in_its_own_sentence() -> None:
    # one short line a context: the words of the line before do not describe the next figure
    contexts = ["Optimistic storage life of archive media.", "100+ years : Acid free paper with ink",
                "100 years : Optical storage (CD/DVD, CD/DVD-R)", "20 years : Phase change optical storage (CD-RW)"]
    f = run("300+ years : Acid free paper with ink", contexts)
    assert kinds(f) == [("300", "contradicted_figure")]
    assert run("100+ years : Acid free paper with ink", contexts).spans == []


def test_a_spelled_ordinal_does_not_give_a_counted_figure() -> None:
    source = "Older PCs keep the partition table in the first sector, i.e., LBA sector 0 (512 bytes)."
    f = run("Older PCs keep the partition table in the first sector, i.e., LBA sector 1 (512 bytes).", source)
    assert kinds(f) == [("1", "contradicted_figure")]
    assert run("Older PCs keep the partition table in the first sector, i.e., LBA sector 0 (512 bytes).", source).spans == []
    assert run("It is the 2nd largest city.", "It is the second largest city.").spans == []


def test_a_hedge_does_not_stretch_an_unrounded_whole_number() -> None:
    source = "Now, the loop device can manage up to 16 partitions."
    assert kinds(run("Now, the loop device can manage up to 17 partitions.", source)) == [("17", "contradicted_figure")]
    ascii_ = "ASCII uses less than 127 characters (representable with 7 bits)."
    assert kinds(run("ASCII uses less than 128 characters (representable with 7 bits).", ascii_)) == [("128", "contradicted_figure")]
    # a hedge still rounds a figure the sources give with decimals
    assert run("The tank holds nearly 17 litres.", "The tank holds 16.6 litres.").spans == []


def test_a_full_stop_before_a_figure_is_not_a_reference() -> None:
    source = ["A fire-resistant safe is meant for paper documents. Most storage media stand less heat than paper.",
              "100+ years : Acid free paper with ink", "20 years : Phase change optical storage (CD-RW)"]
    f = run("A fire-resistant safe is meant for paper documents. 27 years : Phase change optical storage (CD-RW)", source)
    assert kinds(f) == [("27", "contradicted_figure")]
    # an abbreviation still makes a reference: the answer's own "Fig. 3" is not a claim
    assert run("The layout is shown in Fig. 3 of the manual.", "The layout is shown in the manual.").spans == []


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ('The "/usr/sbin/policy-rc.d" file which always exits with 1010 stops daemons.',
         'The "/usr/sbin/policy-rc.d" file which always exits with 101 stops daemons.'),
        ("Use SMTP with STARTTLS on port 1174 instead of plain SMTP.", "Use SMTP with STARTTLS on port 587 instead of plain SMTP."),
        ("UPG makes it safe to set umask to 2002 for every user.", "UPG makes it safe to set umask to 0002 for every user."),
    ],
)
def test_a_four_digit_figure_read_as_a_year_against_a_number_next_to_the_same_word(answer: str, source: str) -> None:
    assert [s.kind for s in run(answer, source).spans] == ["contradicted_figure"]


def test_a_decade_or_a_year_in_another_place_is_no_count() -> None:
    source = "It is the first sitcom with an Asian-American cast since the 1990s."
    assert [s.kind for s in run("It is the first sitcom with an Asian-American cast since the 90s.", source).spans] \
        != ["contradicted_figure"]
    source = "Lewis had appeared on such 1970s TV shows as Bonanza."
    assert [s.kind for s in run("Lewis appeared in over 200 TV shows.", source).spans] == ["unsupported_figure"]


@pytest.mark.parametrize(
    ("answer", "source", "language"),
    [
        ("RO膜每2年换一次。", "RO反渗透膜滤芯每24个月更换一次。", "zh-Hans"),
        ("RO膜两年换一次。", "RO反渗透膜滤芯每24个月更换一次。", "zh-Hans"),
        ("Replace the membrane every 2 years.", "Replace the RO membrane every 24 months.", "en"),
        ("The battery charges in 1.5 hours.", "The battery charges in 90 minutes.", "en"),
        ("Die Membran wird alle 2 Jahre gewechselt.", "Die Membran sollte alle 24 Monate gewechselt werden.", "de"),
        ("La membrane est remplacée tous les 2 ans.", "La membrane doit être remplacée tous les 24 mois.", "fr"),
    ],
)
def test_a_duration_in_another_unit_is_supported(answer: str, source: str, language: str) -> None:
    f = run(answer, source, language=language)
    assert f.spans == [] and not f.flagged


@pytest.mark.parametrize(
    ("answer", "source", "language", "figure", "reason"),
    [
        ("RO膜三年换一次。", "RO反渗透膜滤芯每24个月更换一次。", "zh-Hans", "三", "'24个月' where the answer says '三年'"),
        ("RO膜每3年换一次。", "RO反渗透膜滤芯每24个月更换一次。", "zh-Hans", "3", "'24个月' where the answer says '3年'"),
        ("The warranty covers 36 months.", "The warranty covers 2 years.", "en", "36", "'2 years' where the answer says '36 months'"),
        ("The battery charges in 2 hours.", "The warranty covers 2 years. The battery charges in 90 minutes.", "en", "2",
         "'90 minutes' where the answer says '2 hours'"),
        ("Replace the membrane every three years.", "Replace the membrane every 24 months.", "en", "three",
         "'24 months' where the answer says 'three years'"),
        ("Die Membran wird alle drei Jahre gewechselt.", "Die Membran sollte alle 24 Monate gewechselt werden.", "de", "drei",
         "'24 Monate' where the answer says 'drei Jahre'"),
    ],
)
def test_a_duration_of_another_length_is_contradicted(answer: str, source: str, language: str, figure: str, reason: str) -> None:
    f = run(answer, source, language=language)
    assert labelled(f) == [(figure, "contradiction")]
    assert f.spans[0].kind == "contradicted_figure" and reason in (f.spans[0].reason or "")


def test_weak_durations_without_a_conflicting_source_duration_stay_quiet() -> None:
    # a spelled or one-character figure is never "unsupported", and a month is no whole number of days
    assert run("The offer runs for two years.", "The offer has no end date.").spans == []
    assert run("退货期一个月。", "购买后30天内可无理由退货。", language="zh-Hans").spans == []


def test_chinese_halves_are_lengths_of_time() -> None:
    source = "PP棉滤芯建议每6个月更换一次，活性炭滤芯每12个月更换一次。充电约90分钟。"
    assert run("PP棉滤芯半年换一次，充电一个半小时。", source, language="zh-Hans").spans == []
    # (half a year is given above, for the other filter: a figure anywhere in the sources supports it)
    f = run("活性炭滤芯半年换一次。", "活性炭滤芯每12个月更换一次。", language="zh-Hans")
    assert labelled(f) == [("半", "contradiction")] and "'12个月' where the answer says '半年'" in (f.spans[0].reason or "")
    assert run("滤芯每6个月更换一次。", "滤芯建议半年更换一次。", language="zh-Hans").spans == []


@pytest.mark.parametrize(
    ("answer", "source", "expected"),
    [
        ("门店每天下午3点开门，晚上10点关门。", "门店营业时间为每天15:00至22:00。", []),
        ("门店晚上9点关门。", "门店营业时间为每天15:00至22:00。", [("晚上9点", "contradiction")]),
        ("团体订票可打8.5折。", "12人以上团体如提前至少10天订票，可享85折。", []),
        ("团体订票可打九折。", "12人以上团体如提前至少10天订票，可享85折。", [("九折", "contradiction")]),
    ],
)
def test_chinese_clock_times_and_discounts_compare_by_value(answer: str, source: str, expected: list[tuple[str, str]]) -> None:
    assert labelled(run(answer, source, language="zh-Hans")) == expected


@pytest.mark.parametrize(
    ("answer", "source", "language"),
    [
        ("Children pay $10.", "Tickets cost $20 for adults; children pay half price.", "en"),
        ("Kinder zahlen 7,50 Euro.", "Das Ticket kostet 15 Euro; Kinder zahlen die Hälfte.", "de"),
        ("Les enfants paient 10 €.", "Le billet coûte 20 € ; les enfants paient demi-tarif.", "fr"),
        ("儿童票10元。", "成人票价20元，1.2米以下儿童半价。", "zh-Hans"),
        ("Weekend entry is $30.", "Weekday entry is $15; on weekends it costs double.", "en"),
    ],
)
def test_a_figure_the_source_says_to_halve_or_double_is_given(answer: str, source: str, language: str) -> None:
    assert run(answer, source, language=language).spans == []


def test_half_of_a_figure_without_a_word_that_halves_it_is_still_contradicted() -> None:
    assert labelled(run("Children pay $10.", "Tickets cost $20 for adults and for children.")) == [("$10", "contradiction")]


def test_a_date_written_with_the_same_digits_is_given_whatever_the_language_reads() -> None:
    # English reads "9.4.11" as 4 September, Chinese as 9 April: a copied section number was unsupported
    source = "Press Enter on a file (see Section 9.4.11, “Customizing program to be started”)."
    assert labelled(run("用适当的程序来处理文件的内容 (查看 第 9.4.11 节 “自定义被启动的程序”)。", source, language="zh-Hans")) == []
    # other digits, or the same digits inside a longer figure, are still not given
    assert labelled(run("查看 第 9.4.12 节。", source, language="zh-Hans")) == [("9.4.12", "baseless")]
    longer = "Press Enter on a file (see Section 29.4.11)."
    assert labelled(run("查看 第 9.4.11 节。", longer, language="zh-Hans")) == [("9.4.11", "baseless")]


# ---- figures of any length


LYON = "Lyon is a city in France. It has 500 thousand inhabitants. Its postcode register lists {code}."


@pytest.mark.parametrize("digits", ["1" * 310, "7" * 49_990])
def test_a_long_digit_string_in_the_answer_is_checked_by_its_digits(digits: str) -> None:
    source = LYON.format(code=digits)
    assert labelled(run(f"Its postcode register lists {digits}.", source)) == []
    changed = digits[:-1] + "2"
    assert labelled(run(f"Its postcode register lists {changed}.", source)) == [(changed, "contradiction")]
    assert labelled(run(f"Its postcode register lists {digits}.", LYON.format(code="12345"))) == [(digits, "contradiction")]


def test_a_long_digit_string_in_the_source_does_not_blind_the_figure_checks() -> None:
    source = LYON.format(code="1" * 310)
    f = run("Lyon has 9 million inhabitants.", source)
    assert labelled(f) == [("9 million", "contradiction")]
    assert f.flagged
    assert labelled(run("Lyon has 500 thousand inhabitants.", source)) == []


# ---- the same quantity in other words: faithful gives nothing, a changed figure a contradiction

EQUAL_QUANTITIES = [
    # (language, source, faithful answer, changed answer, the changed figure)
    ("en", "The drone flies for up to 90 minutes.", "The drone flies for up to an hour and a half.",
     "The drone flies for up to two hours.", "two"),
    ("en", "The trip takes one and a half hours.", "The trip takes 90 minutes.", "The trip takes 60 minutes.", "60"),
    ("en", "The hall seats 2,000 people.", "The hall seats two thousand people.", "The hall seats three thousand people.",
     "three thousand"),
    ("en", "The battery lasts 2 hours.", "The battery lasts 120 minutes.", "The battery lasts 100 minutes.", "100"),
    ("en", "The store opens at 8 a.m.", "The store opens at 8:00 am.", "The store opens at 9 a.m.", "9 a.m."),
    ("de", "Die Drohne fliegt bis zu 90 Minuten.", "Die Drohne fliegt bis zu anderthalb Stunden.",
     "Die Drohne fliegt bis zu zwei Stunden.", "zwei"),
    ("de", "Die Fahrt dauert 2 Stunden.", "Die Fahrt dauert zwei Stunden.", "Die Fahrt dauert drei Stunden.", "drei"),
    ("de", "Die Halle hat 2.000 Plätze.", "Die Halle hat zweitausend Plätze.", "Die Halle hat dreitausend Plätze.", "dreitausend"),
    ("de", "Der Laden öffnet um 8 Uhr.", "Der Laden öffnet um 8:00 Uhr.", "Der Laden öffnet um 9 Uhr.", "9 Uhr"),
    ("fr", "Le drone vole jusqu'à 90 minutes.", "Le drone vole jusqu'à une heure et demie.",
     "Le drone vole jusqu'à deux heures.", "deux"),
    ("fr", "Le trajet dure 2 heures.", "Le trajet dure deux heures.", "Le trajet dure trois heures.", "trois"),
    ("fr", "La salle compte 2 000 places.", "La salle compte deux mille places.", "La salle compte trois mille places.",
     "trois mille"),
    ("zh-Hans", "列车每天上午8点出发。", "列车每天早上八点出发。", "列车每天早上九点出发。", "早上九点"),
    ("zh-Hans", "无人机最长可飞行90分钟。", "无人机最长可飞行一个半小时。", "无人机最长可飞行两个小时。", "两"),
    ("zh-Hans", "公司营收为1.2亿元。", "公司营收为一亿两千万元。", "公司营收为一亿三千万元。", "一亿三千万元"),
    ("zh-Hans", "公司营收为12000万元。", "公司营收为1.2亿元。", "公司营收为1.3亿元。", "1.3亿元"),
    ("zh-Hant", "售價為新台幣25,900元。", "售價為新台幣兩萬五千九百元。", "售價為新台幣兩萬六千九百元。", "兩萬六千九百元"),
    ("zh-Hant", "列車每天上午8點出發。", "列車每天早上八點出發。", "列車每天早上九點出發。", "早上九點"),
    ("zh-Hant", "無人機最長可飛行90分鐘。", "無人機最長可飛行一個半小時。", "無人機最長可飛行兩個小時。", "兩"),
]


@pytest.mark.parametrize(("language", "source", "faithful", "changed", "figure"), EQUAL_QUANTITIES)
def test_the_same_quantity_in_other_words_is_given(language: str, source: str, faithful: str, changed: str, figure: str) -> None:
    assert labelled(run(faithful, source, language=language)) == []
    assert labelled(run(changed, source, language=language)) == [(figure, "contradiction")]


@pytest.mark.parametrize(("language", "source", "faithful", "changed", "figure"), EQUAL_QUANTITIES)
def test_the_model_layer_keeps_its_marks_off_a_figure_given_in_other_words(
    language: str, source: str, faithful: str, changed: str, figure: str,
) -> None:
    from hallucheck.detectors.rules.numbers import durations_in_other_units, figures_in_other_forms

    an = CaseAnalysis(Case(contexts=[source], answer=faithful, language=language))
    kept_off = {faithful[a:b] for a, b in [*figures_in_other_forms(an), *durations_in_other_units(an)]}
    if ":" not in faithful:  # clock times such as "8:00" stay with the reader
        assert kept_off, faithful
    changed_an = CaseAnalysis(Case(contexts=[source], answer=changed, language=language))
    assert figures_in_other_forms(changed_an) == [] and durations_in_other_units(changed_an) == []


def test_a_spelled_duration_in_the_source_gives_the_answer_its_minutes() -> None:
    source = "The drone flies for up to an hour and a half."
    assert labelled(run("The drone flies for up to 90 minutes.", source)) == []
    changed = run("The drone flies for up to 80 minutes.", source)
    assert labelled(changed) == [("80", "contradiction")]  # a length the source gives otherwise
    assert "'an hour and a half'" in changed.spans[0].reason and "'80 minutes'" in changed.spans[0].reason
    assert changed.spans[0].evidence[0].text == source
    assert labelled(run("Le drone vole une demi-heure.", "Le drone vole 30 minutes.", language="fr")) == []
    assert labelled(run("Die Drohne fliegt eine halbe Stunde.", "Die Drohne fliegt 30 Minuten.", language="de")) == []


def test_a_price_is_not_read_as_a_rounding_of_a_count_of_days() -> None:
    source = "Refunds take 3 to 5 business days. The fee is 2.50 EUR."
    f = run("The fee is 4.90 EUR.", source)
    assert labelled(f) == [("4.90 EUR", "contradiction")]
    assert "2.50 EUR" in f.spans[0].reason
    assert labelled(run("The fee is 2.50 EUR.", source)) == []
    assert labelled(run("Refunds take 3 to 5 business days.", source)) == []


@pytest.mark.parametrize(("language", "source", "answer", "figure"), [
    ("en", "The flight lasts an hour and a half.", "The flight lasts 80 minutes.", "80"),
    ("en", "The battery lasts half an hour.", "The battery lasts 45 minutes.", "45"),
    ("de", "Der Flug dauert anderthalb Stunden.", "Der Flug dauert 80 Minuten.", "80"),
    ("de", "Der Akku hält eine halbe Stunde.", "Der Akku hält 45 Minuten.", "45"),
    ("fr", "Le vol dure une heure et demie.", "Le vol dure 80 minutes.", "80"),
    ("zh-Hans", "电池可以使用半小时。", "电池可以使用45分钟。", "45"),
    ("zh-Hant", "電池可以使用半年。", "電池可以使用8個月。", "8"),
])
def test_a_length_the_source_writes_without_a_figure_contradicts_another(
    language: str, source: str, answer: str, figure: str,
) -> None:
    assert labelled(run(answer, source, language=language)) == [(figure, "contradiction")]


def test_a_length_without_a_figure_in_another_context_contradicts_nothing() -> None:
    source = "The meeting lasts an hour and a half. Tickets are sold online."
    assert labelled(run("Tickets cost 80 dollars.", source)) == [("80 dollars", "baseless")]
    assert labelled(run("The flight lasts 80 minutes.", source)) == [("80", "baseless")]


WEEKDAYS = [
    # (language, source, faithful answers, changed answer, the changed range)
    ("en", "The shop is open Monday to Friday.",
     ["The shop is open on weekdays.", "The shop is open Mon–Fri.", "The shop is open weekdays.",
      "The shop is open Monday through Friday.", "The shop is open every weekday."],
     "The shop is open Monday to Saturday.", "Monday to Saturday"),
    ("en", "The shop is open on weekdays.", ["The shop is open Monday to Friday.", "The shop is open Mon-Fri."],
     "The shop is open Mon–Sat.", "Mon–Sat"),
    ("de", "Der Laden ist Montag bis Freitag geöffnet.",
     ["Der Laden ist werktags geöffnet.", "Der Laden ist Mo–Fr geöffnet.", "Der Laden ist wochentags geöffnet."],
     "Der Laden ist Montag bis Samstag geöffnet.", "Montag bis Samstag"),
    ("de", "Der Laden ist werktags geöffnet.", ["Der Laden ist Montag bis Freitag geöffnet."],
     "Der Laden ist Dienstag bis Freitag geöffnet.", "Dienstag bis Freitag"),
    ("fr", "Le magasin est ouvert du lundi au vendredi.",
     ["Le magasin est ouvert en semaine.", "Le magasin est ouvert lun.-ven.", "Le magasin est ouvert de lundi à vendredi."],
     "Le magasin est ouvert du lundi au samedi.", "lundi au samedi"),
    ("zh-Hans", "商店周一至周五营业。", ["商店工作日营业。", "商店星期一到星期五营业。", "商店周一到周五营业。"],
     "商店周一至周六营业。", "周一至周六"),
    ("zh-Hant", "商店週一至週五營業。", ["商店工作日營業。", "商店星期一到星期五營業。", "商店禮拜一到禮拜五營業。"],
     "商店週一至週六營業。", "週一至週六"),
]


@pytest.mark.parametrize(("language", "source", "faithful", "changed", "days"), WEEKDAYS)
def test_a_weekday_range_in_other_words_is_given_and_a_changed_one_contradicted(
    language: str, source: str, faithful: list[str], changed: str, days: str,
) -> None:
    for answer in faithful:
        assert labelled(run(answer, source, language=language)) == [], answer
    f = run(changed, source, language=language)
    assert labelled(f) == [(days, "contradiction")]
    assert f.spans[0].evidence[0].text == source and f.features["contradicted_numbers"] == 1.0


def test_days_one_source_sentence_names_together_give_their_range() -> None:
    source = "We are open Monday to Friday from 9 am to 5 pm and on Saturday from 10 am to 2 pm."
    assert labelled(run("We are open Monday to Saturday.", source)) == []
    # a weekday range no source range states is no contradiction (its day names are checked as names)
    assert labelled(run("The museum is open Tuesday to Sunday.", "The museum opened in 1990.")) == [
        ("Tuesday", "baseless"), ("Sunday", "baseless")]
    # a range about something else contradicts nothing
    assert labelled(run("Deliveries arrive Monday to Saturday.", "The shop is open Monday to Friday. Deliveries are free.")) == [
        ("Saturday", "baseless")]


def test_a_weekday_range_the_question_gives_is_given() -> None:
    f = run("Yes, it is open Monday to Saturday.", "The shop is open Monday to Friday.",
            question="Is the shop open Monday to Saturday?")
    assert labelled(f) == []


@pytest.mark.parametrize(("language", "source", "faithful", "changed", "days"), WEEKDAYS)
def test_the_model_layer_keeps_its_marks_off_a_weekday_range_in_other_words(
    language: str, source: str, faithful: list[str], changed: str, days: str,
) -> None:
    from hallucheck.detectors.rules.numbers import figures_in_other_forms

    for answer in faithful:
        an = CaseAnalysis(Case(contexts=[source], answer=answer, language=language))
        kept_off = [answer[a:b] for a, b in figures_in_other_forms(an)]
        assert len(kept_off) == 1 and kept_off[0] in answer and kept_off[0] not in source, answer
    assert figures_in_other_forms(CaseAnalysis(Case(contexts=[source], answer=changed, language=language))) == []


def test_a_name_the_chinese_sources_transliterate_is_no_unknown_name() -> None:
    src = "今天在保守党大会上，奈杰尔·法拉奇发誓要动员人民军队。他随后与亨利克·斯滕森会面。"
    kept = run("今天在保守党大会上，Nigel Farage 发誓要动员人民军队。他随后与亨瑞克·史坦森会面。", src)
    assert [s.kind for s in kept.spans] == []
    swapped = run("今天在保守党大会上，Boris Johnson 发誓要动员人民军队。他随后与汤姆·克鲁斯会面。", src)
    assert [(s.text, s.kind) for s in swapped.spans] == [("Boris Johnson", "unknown_name"), ("汤姆·克鲁斯", "unknown_name")]


def test_german_compounds_and_nouns_side_by_side_are_not_names() -> None:
    f = run("Ein Mann sitzt an einem Tisch mit einem Laptop.", "Eine Gruppe Männer schaut auf einen Laptop-Computer.", language="de")
    assert f.spans == []


@pytest.mark.parametrize(
    ("answer", "source"),
    [
        ("La capitale de l'Autriche est Vienne.", "Vienna is the capital of Austria."),
        ("The capital of Austria is Vienna.", "维也纳是奥地利的首都。"),
        ("La capitale du Royaume-Uni est Londres.", "London is the capital of the United Kingdom."),
    ],
)
def test_a_place_the_sources_name_in_another_language_is_no_unknown_name(answer: str, source: str) -> None:
    assert [s.kind for s in run(answer, source).spans] == []


def test_a_place_the_sources_do_not_name_in_any_language_is_still_an_unknown_name() -> None:
    f = run("La capitale de l'Autriche est Prague.", "Vienna is the capital of Austria.")
    assert [(s.text, s.kind) for s in f.spans] == [("Prague", "unknown_name")]


@pytest.mark.parametrize(("answer", "source"), [
    ("七月份蓬佩奥离开平壤时表示此次访问已经取得了进展。", "He left Pyongyang in July saying that progress had been made."),
    ("数据显示，7月份酒吧的营业额增长2.7%。", "Pub and bar groups saw sales rise 2.7 per cent in July."),
    ("他在八月末曾信誓旦旦地说。", "He vowed in late August."),
    ("他在三月说。", "Il l'a dit en mars."),
])
def test_a_bare_chinese_month_the_sources_name_in_words_is_given(answer: str, source: str) -> None:
    assert labelled(run(answer, source)) == []


@pytest.mark.parametrize(("answer", "source", "figure"), [
    ("数据显示，6月份酒吧的营业额增长2.7%。", "Pub and bar groups saw sales rise 2.7 per cent in July.", "6月"),
    # "may" in lower case is a verb, not the month
    ("他说五月会下雨。", "He said it may rain.", "五月"),
])
def test_a_bare_chinese_month_the_sources_do_not_name_is_not_given(answer: str, source: str, figure: str) -> None:
    assert [t for t, _ in labelled(run(answer, source))] == [figure]


@pytest.mark.parametrize(("answer", "source", "spans"), [
    ("1920 年代，多数公民的普遍态度是和平主义。", "在 20 世纪 20 年代，大多市民的主流态度是和平主义的。", []),
    ("在 1980 年代，他开发了 AI 系统。", "上世纪 八十年代，他开发了 AI 系统。", []),
    ("1930 年代，多数公民的普遍态度是和平主义。", "在 20 世纪 20 年代，大多市民的主流态度是和平主义的。", ["1930 年"]),
    ("Le conflit du milieu du 17e siècle a formé notre nation.",
     "Le conflit qui éclata au milieu du XVIIe siècle a façonné notre nation.", []),
    ("Le conflit du milieu du 18e siècle a formé notre nation.", "Le conflit qui éclata au milieu du XVIIe siècle a façonné notre nation.",
     ["18e"]),
])
def test_decades_and_centuries_in_other_words(answer: str, source: str, spans: list[str]) -> None:
    assert [t for t, _ in labelled(run(answer, source))] == spans


@pytest.mark.parametrize(("answer", "source", "language"), [
    ("Dog in green is winning Greyhound race at track", "Greyhounds race on a sandy track with the dog in green taking the lead.", "en"),
    ("Wir hatten einen Grill mit Rippen und Kabobs.", "Grillen von Rippen, Hähnchen-Kabobs und Gemüse-Kabobs.", "de"),
    ("Zwei Leute sind in der Nähe eines Sonoma-Ladens.", "Zwei Personen stehen hinter einem Sonoma Display.", "de"),
])
def test_a_name_in_another_number_or_compound_is_given(answer: str, source: str, language: str) -> None:
    assert labelled(run(answer, source, language=language)) == []


def test_a_german_compound_needs_its_name_part() -> None:
    assert [t for t, _ in labelled(run("Zwei Leute sind in der Nähe eines Napa-Ladens.",
                                       "Zwei Personen stehen hinter einem Sonoma Display.", language="de"))] == ["Napa-Ladens"]


def test_a_bracketed_gloss_of_the_sources_words_is_no_unknown_name() -> None:
    source = "湖人队教练卢克·沃顿已宣布詹姆斯将于周日在圣地亚哥迎战丹佛掘金者队的季前赛揭幕战中出场。"
    assert labelled(run("湖人教练路克·华顿已宣布詹姆士将出战礼拜天对战丹佛金块队 (Denver Nuggets) 的季前开幕战。", source)) == []
    # without the brackets it is a name of the answer's own (丹佛 transliterates Denver)
    assert [t for t, _ in labelled(run("湖人教练路克·华顿已宣布詹姆士将出战礼拜天对战 Denver Nuggets 的季前开幕战。", source))] \
        == ["Nuggets"]


def test_over_sources_in_another_language_a_dictionary_word_is_no_unknown_name() -> None:
    source = "Fleischer was appearing to compare Waters' reaction to the Democrats' criticism of Judge Kavanaugh."
    answer = "Fleischer schien Waters‘ Reaktion mit der Kritik der Demokraten an Richter Kavanaugh zu vergleichen."
    assert labelled(run(answer, source, language="de")) == []
    # a name the dictionary does not know is still one the sources lack
    answer = "Fleischer schien Waters‘ Reaktion mit der Kritik der Demokraten an Richter Kavanaugh und Bernsteinova zu vergleichen."
    assert [t for t, _ in labelled(run(answer, source, language="de"))] == ["Bernsteinova"]


@pytest.mark.parametrize(("answer", "source", "spans"), [
    ("官方要求他们必须在一个月内出庭，而不是在原本标准的 60 天后。", "官员们要求其中一些人在一个月内出庭受审，而不是之前的两个月。", []),
    ("The trial period is three months.", "The trial period is 90 days.", []),
    ("The warranty lasts 365 days.", "The warranty lasts one year.", []),
    ("The trial period is 4 months.", "The trial period is 90 days.", ["4"]),
])
def test_days_and_months_by_the_writers_conventions(answer: str, source: str, spans: list[str]) -> None:
    assert [t for t, _ in labelled(run(answer, source))] == spans


def test_a_name_chinese_gives_by_meaning_is_given() -> None:
    source = "奈杰尔·法拉奇在保守党大会上抗议时发誓要“动员人民军队”。"
    assert labelled(run("今天在 Tory 会议抗议期间，Nigel Farage 发誓要「动员人民军」。", source)) == []
    assert [t for t, _ in labelled(run("今天在 Labour 会议抗议期间，Nigel Farage 发誓要「动员人民军」。", source))] == ["Labour"]


def test_a_place_the_sources_name_by_its_adjective_is_given() -> None:
    source = "Le Président macédonien, Gjorge Ivanov, opposé au référendum, a indiqué qu’il ne tiendrait pas compte des résultats."
    answer = "Le Président de la Macédoine, Gjorge Ivanov, a déclaré qu’il va ignorer le vote."
    assert labelled(run(answer, source, language="fr")) == []
    assert [t for t, _ in labelled(run(answer.replace("Macédoine", "Bulgarie"), source, language="fr"))] == ["Bulgarie"]


@pytest.mark.parametrize(("answer", "source", "spans"), [
    ("More than 30% of the Canadians worry about global warming.", "More than 50% but less than 65% of Canadians worry about it.", []),
    ("Plus de 30% des Canadiens s’inquiètent.", "Plus de 50 % mais moins de 65 % des Canadiens s’inquiètent.", []),
    ("Less than 80% of the Canadians worry about global warming.", "More than 50% but less than 65% of Canadians worry about it.", []),
    ("The bag weighs more than 10 kg.", "The bag weighs 12 kg.", []),
    # a bound the sources' figure does not imply
    ("More than 70% of the Canadians worry about global warming.", "More than 50% but less than 65% of Canadians worry about it.", ["70%"]),
    ("The bag weighs less than 10 kg.", "The bag weighs 12 kg.", ["10"]),
    # a capacity is no bound: "up to 20 users" claims more than "up to 15 users"
    ("The plan supports up to 20 users.", "The plan supports up to 15 users.", ["20"]),
])
def test_a_weaker_bound_than_the_sources_is_implied(answer: str, source: str, spans: list[str]) -> None:
    assert [t for t, _ in labelled(run(answer, source))] == spans
