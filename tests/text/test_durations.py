"""Lengths of time read from a figure and its unit, and compared by length."""

from __future__ import annotations

import pytest

from hallucheck.text.durations import duration_of, find_durations, half_durations, same_length, spelled_durations
from hallucheck.text.numbers import find_numbers


def durations(text: str, language: str) -> list[tuple[str, str, float]]:
    found = find_durations(text, find_numbers(text, language), language)
    return [(d.text, d.unit, d.length) for d in found.values()]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("every 24 months", "en", [("24 months", "month", 24.0)]),
        ("a 24-month warranty", "en", [("24-month", "month", 24.0)]),
        ("within two years", "en", [("two years", "year", 24.0)]),
        ("charges in 1.5 hours", "en", [("1.5 hours", "hour", 5400.0)]),
        ("alle 24 Monate", "de", [("24 Monate", "month", 24.0)]),
        ("nach drei Jahren", "de", [("drei Jahren", "year", 36.0)]),
        ("tous les 2 ans", "fr", [("2 ans", "year", 24.0)]),
        ("sous 14 jours", "fr", [("14 jours", "day", 14 * 86400.0)]),
        ("每24个月更换一次", "zh-Hans", [("24个月", "month", 24.0)]),
        ("两年换一次", "zh-Hans", [("两年", "year", 24.0)]),
        ("保修十二個月", "zh-Hant", [("十二個月", "month", 12.0)]),
        ("约90分钟充满", "zh-Hans", [("90分钟", "minute", 5400.0)]),
        ("两个星期内", "zh-Hans", [("两个星期", "week", 14 * 86400.0)]),
    ],
)
def test_durations_are_read_with_their_unit(text: str, language: str, expected: list[tuple[str, str, float]]) -> None:
    assert durations(text, language) == expected


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("2015年成立", "zh-Hans"),  # a year, not a length of time
        ("6月开业", "zh-Hans"),  # June
        ("3 monthly payments", "en"),  # not a unit word
        ("on 3 March 2021", "en"),  # a date
        ("12 people", "en"),
        ("三年级学生", "zh-Hans"),  # third grade
        ("80年代", "zh-Hans"),  # the eighties
        ("成立10周年", "zh-Hans"),  # tenth anniversary
        ("年满18周岁", "zh-Hans"),  # aged 18
    ],
)
def test_not_durations(text: str, language: str) -> None:
    assert durations(text, language) == []


def test_lengths_compare_within_one_scale_and_across_by_the_writers_conventions() -> None:
    def one(text: str, language: str = "en") -> object:
        m = find_numbers(text, language)[0]
        d = duration_of(text, m, language)
        assert d is not None
        return d

    assert same_length(one("24 months"), one("2 years")) is True  # type: ignore[arg-type]
    assert same_length(one("90 minutes"), one("1.5 hours")) is True  # type: ignore[arg-type]
    assert same_length(one("90 minutes"), one("2 hours")) is False  # type: ignore[arg-type]
    assert same_length(one("30 months"), one("2 years")) is False  # type: ignore[arg-type]
    # across the scales only by the conventions: 30 days a month, 365 days or 52 weeks a year
    assert same_length(one("30 days"), one("1 month")) is True  # type: ignore[arg-type]
    assert same_length(one("60 days"), one("2 months")) is True  # type: ignore[arg-type]
    assert same_length(one("365 days"), one("1 year")) is True  # type: ignore[arg-type]
    assert same_length(one("52 weeks"), one("1 year")) is True  # type: ignore[arg-type]
    assert same_length(one("31 days"), one("1 month")) is None  # type: ignore[arg-type]
    assert same_length(one("60 days"), one("3 months")) is None  # type: ignore[arg-type]
    assert same_length(one("36 hours"), one("1 month")) is None  # type: ignore[arg-type]
    assert same_length(one("4 weeks"), one("28 days")) is True  # type: ignore[arg-type]


def test_chinese_halves() -> None:
    assert [(d.text, d.length) for _, d in half_durations("保修半年，半个月内可退，一半的人")] == [("半年", 6.0), ("半个月", 0.5)]
    assert durations("一个半小时", "zh-Hans") == [("一个半小时", "hour", 5400.0)]
    assert durations("两年半", "zh-Hans") == [("两年半", "year", 30.0)]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("The drone flies for an hour and a half.", 5400),
        ("It takes half an hour.", 1800),
        ("a half-hour break", 1800),
        ("Le vol dure une heure et demie.", 5400),
        ("une demi-heure de pause", 1800),
        ("eine halbe Stunde Pause", 1800),
    ],
)
def test_spelled_durations_without_a_figure(text: str, seconds: float) -> None:
    [(m, d)] = spelled_durations(text)
    assert d.length == seconds and d.scale == "clock"
    assert text[m.start : m.end] == m.text and m.weak


@pytest.mark.parametrize(
    ("text", "language", "seconds"),
    [
        ("one and a half hours", "en", 5400),
        ("two hours and a half", "en", 9000),
        ("anderthalb Stunden", "de", 5400),
        ("eineinhalb Stunden", "de", 5400),
        ("zweieinhalb Stunden", "de", 9000),
        ("deux heures et demie", "fr", 9000),
    ],
)
def test_a_whole_and_a_half_is_one_length(text: str, language: str, seconds: float) -> None:
    [d] = find_durations(text, find_numbers(text, language), language).values()
    assert d.length == seconds
    assert d.text == text


def test_no_spelled_duration_without_a_half() -> None:
    assert spelled_durations("It takes an hour.") == []
    assert spelled_durations("Halbe Sachen") == []
