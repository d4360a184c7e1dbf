"""Figures of any length: a digit string too long for a float is kept as its exact digits."""

from __future__ import annotations

import pytest

from hallucheck.text.durations import find_durations
from hallucheck.text.numbers import NumberMention, find_numbers, parse_chinese_numeral, same_value, scan_numbers

ONES = "1" * 310
LONG = "7" * 49_990


@pytest.mark.parametrize("digits", [ONES, LONG, "9" * 19, "1" * 400 + ".5"])
@pytest.mark.parametrize("language", ["en", "de", "fr", "zh-Hans", "zh-Hant"])
def test_a_long_digit_string_is_one_exact_figure(digits: str, language: str) -> None:
    text = f"The code is {digits} here."
    found = find_numbers(text, language)
    assert [m.text for m in found] == [digits]
    m = found[0]
    assert m.value is None  # no float can hold it exactly
    assert m.key.replace("e", "").replace("-", "").isdigit()
    assert find_durations(text, found, language) == {}
    assert scan_numbers(text, language).mentions == found


@pytest.mark.parametrize(
    "text",
    [
        "1,111,111," + ",".join(["111"] * 120),
        "1.111.111." + ".".join(["111"] * 120),
        "$" + ONES,
        ONES + " million dollars",
        ONES + "%",
        "第" + ONES + "条",
        ONES + "亿元",
        "一" * 5000,
        "一亿" * 60,
        "九千九百九十九万" * 40,
    ],
)
def test_no_length_of_digits_raises(text: str) -> None:
    for language in ("en", "de", "fr", "zh-Hans"):
        for m in find_numbers(text, language):
            assert m.value is None or abs(m.value) < 1e300


def test_long_figures_are_equal_by_their_digits() -> None:
    [a] = find_numbers(f"ID {ONES}.")
    [b] = find_numbers(f"the number {ONES}, again")
    [c] = find_numbers(f"ID {ONES[:-1]}2.")
    [d] = find_numbers("ID 1,111,111," + ",".join(["111"] * 101) + ".")
    assert same_value(a, b)
    assert not same_value(a, c)
    assert same_value(a, d)  # the same digits, grouped
    [e] = find_numbers(f"{'1' * 300} thousand")
    [f] = find_numbers(f"{'1' * 300}000")
    assert same_value(e, f)
    [small] = find_numbers("ID 111.")
    assert not same_value(a, small)
    assert not same_value(small, a)


def test_a_long_chinese_numeral_is_no_figure() -> None:
    assert parse_chinese_numeral("一" * 5000) is None
    assert parse_chinese_numeral("一亿" * 60) is None
    assert parse_chinese_numeral("三千五百万") == 35_000_000


def _one(text: str, at: int = 0) -> NumberMention:
    return find_numbers(text, "en")[at]


def test_an_amount_is_no_rounding_of_a_bare_whole_number() -> None:
    days = "Refunds take 3 to 5 business days."
    assert not same_value(_one("The fee is 4.90 EUR."), _one(days, 1))
    assert not same_value(_one("It costs $5.20."), _one("It takes 5 days."))
    assert not same_value(_one("It rose 4.5%."), _one("It took 5 days."))
    # the same value, or a bare figure with a scale word, still restates an amount
    assert same_value(_one("It costs 5 EUR."), _one(days, 1))
    assert same_value(_one("Revenue was 3.5 million."), _one("Revenue was $3.47 million."))
    assert same_value(_one("It costs $2.9 million."), _one("It costs 2.9 million."))
    # within one kind, rounding stays
    assert same_value(_one("It costs $5."), _one("It costs $4.90."))
    assert same_value(_one("It took 3.4 days."), _one("It took 3 days."))


def test_two_decimals_are_no_rounding_of_a_small_whole_number_ending_a_range() -> None:
    ranged = find_numbers("Shipping costs 3 to 5 EUR.", "en")
    assert [m.bound for m in ranged] == [True, True]
    assert not same_value(_one("Shipping costs 4.90 EUR."), ranged[1])
    assert same_value(_one("Shipping costs 5 EUR."), ranged[1])
    for text in ("3-5 Werktage", "3 bis 5 Tage", "de 3 à 5 jours", "3至5天", "3到5天", "3~5天"):
        assert [m.bound for m in find_numbers(text, "de")] == [True, True], text
    assert [m.bound for m in find_numbers("It costs 5 EUR for 3 days.", "en")] == [False, False]


def test_a_rounding_that_changes_a_figure_by_more_than_its_share_is_another_figure() -> None:
    # rounded to the last written digit, and close: the same figure
    assert same_value(_one("The town has 1.2 million people."), _one("The town has 1,234,567 people."))
    assert same_value(_one("It took 3 days."), _one("It took 3.4 days."))
    # rounded to the last written digit, but a third or more off: another figure
    assert not same_value(_one("Revenue was 2 billion dollars."), _one("Revenue was 1.5 billion dollars."))
    assert not same_value(_one("Revenue was 1 billion dollars."), _one("Revenue was 1.4 billion dollars."))
    zh = find_numbers("公司去年营收2亿元。", "zh-Hans")[0], find_numbers("公司去年营收1.5亿元。", "zh-Hans")[0]
    assert not same_value(*zh)
