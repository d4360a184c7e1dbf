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
