from __future__ import annotations

import pytest

from hallucheck.text.numbers import NumberMention, find_numbers, parse_chinese_numeral, same_value


def one(text: str, language: str = "en") -> NumberMention:
    found = find_numbers(text, language)
    assert len(found) == 1, found
    m = found[0]
    assert text[m.start : m.end] == m.text
    return m


def all_of(text: str, language: str = "en") -> list[tuple[str, str, float | str | None]]:
    out = []
    for m in find_numbers(text, language):
        assert text[m.start : m.end] == m.text
        out.append((m.text, m.kind, m.value if m.kind not in ("date", "phone") else m.key))
    return out


@pytest.mark.parametrize(
    ("text", "language", "value"),
    [
        ("about 1,200 people", "en", 1200),
        ("etwa 1.200 Menschen", "de", 1200),
        ("environ 1 200 personnes", "fr", 1200),
        ("environ 1\u202f200 personnes", "fr", 1200),
        ("1,234,567 units", "en", 1234567),
        ("1.234.567 Stück", "de", 1234567),
        ("3,5 Liter", "de", 3.5),
        ("3,5 litres", "fr", 3.5),
        ("3.5 liters", "en", 3.5),
        ("1.234,56 Euro", "de", 1234.56),
        ("1,234.56 units", "en", 1234.56),
        ("１２ 件", "zh-Hans", 12),
        ("3.5万人", "zh-Hans", 35000),
        ("1.2 billion units", "en", 1.2e9),
        ("3 million users", "en", 3e6),
        ("2 thousand users", "en", 2000),
        ("1,5 Millionen Nutzer", "de", 1.5e6),
        ("2 milliards d'habitants", "fr", 2e9),
        ("50k users", "en", 50000),
    ],
)
def test_number_normalisation(text: str, language: str, value: float) -> None:
    m = one(text, language)
    assert m.value == pytest.approx(value)


def test_same_amount_in_four_spellings() -> None:
    a = one("营收12亿元", "zh-Hans")
    b = one("revenue of 1.2 billion yuan")
    c = one("revenue of 1,200,000,000 yuan")
    d = one("营收十二亿元", "zh-Hans")
    for m in (a, b, c, d):
        assert m.kind == "money" and m.unit == "CNY" and m.value == pytest.approx(1.2e9)
    assert same_value(a, b) and same_value(b, c) and same_value(c, d)


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("十二", 12), ("两千", 2000), ("兩千", 2000), ("三千五百万", 35_000_000), ("一亿两千万", 120_000_000),
     ("一百零五", 105), ("十", 10), ("二十", 20), ("十万", 100_000), ("二〇二一", 2021), ("三", 3)],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert parse_chinese_numeral(numeral) == value


@pytest.mark.parametrize("word", ["万一", "千万", "一一", "百分"])
def test_chinese_words_that_are_not_numerals(word: str) -> None:
    assert parse_chinese_numeral(word) is None


def test_chinese_words_with_numeral_characters_are_weak_or_skipped() -> None:
    found = find_numbers("一些人说十分好，千万不要统一。", "zh-Hans")
    assert all(m.weak for m in found)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("on March 3, 2021", "en"),
        ("on March 3rd, 2021", "en"),
        ("on 3 March 2021", "en"),
        ("on 2021-03-03", "en"),
        ("am 3. März 2021", "de"),
        ("le 3 mars 2021", "fr"),
        ("于2021年3月3日", "zh-Hans"),
        ("am 03.03.2021", "de"),
        ("on 03/03/2021", "en"),
    ],
)
def test_dates(text: str, language: str) -> None:
    m = one(text, language)
    assert m.kind == "date"
    assert (m.year, m.month, m.day) == (2021, 3, 3)


def test_partial_dates_match_full_ones() -> None:
    full = one("2021-03-03")
    assert same_value(one("in March 2021"), full)
    assert same_value(one("le 1er mars", "fr"), one("le 1 mars 2021", "fr"))
    assert not same_value(one("on March 4, 2021"), full)
    assert same_value(one("in 2021"), full)  # a year supported by a date
    assert not same_value(one("in 2020"), full)


def test_day_first_and_month_first_numeric_dates() -> None:
    assert (one("on 04/03/2021", "en").month, one("on 04/03/2021", "en").day) == (4, 3)
    assert (one("am 04.03.2021", "de").month, one("am 04.03.2021", "de").day) == (3, 4)
    assert one("on 25/03/2021", "en").month == 3  # 25 cannot be a month


def test_lower_case_may_is_a_word() -> None:
    assert all(m.kind != "date" for m in find_numbers("you may 5 times"))
    assert one("on May 5").kind == "date"


@pytest.mark.parametrize(
    ("text", "kind", "unit", "value"),
    [
        ("costs 99€", "money", "EUR", 99),
        ("costs 99 €", "money", "EUR", 99),
        ("costs €99", "money", "EUR", 99),
        ("costs $1.2 billion", "money", "$", 1.2e9),
        ("kostet 1,5 Mio. Euro", "money", "EUR", 1.5e6),
        ("coûte 12 euros", "money", "EUR", 12),
        ("售价两千元", "money", "CNY", 2000),
        ("grew 25%", "percent", "%", 25),
        ("grew 25 percent", "percent", "%", 25),
        ("stieg um 3,5 Prozent", "percent", "%", 3.5),
        ("hausse de 3,5 %", "percent", "%", 3.5),
        ("增长百分之二十", "percent", "%", 20),
        ("增长20％", "percent", "%", 20),
    ],
)
def test_money_and_percent(text: str, kind: str, unit: str, value: float) -> None:
    if any("\u4e00" <= c <= "\u9fff" for c in text):
        lang = "zh-Hans"
    elif "kostet" in text or "stieg" in text:
        lang = "de"
    elif "co" in text[:3] or "hausse" in text:
        lang = "fr"
    else:
        lang = "en"
    m = one(text, lang)
    assert (m.kind, m.unit) == (kind, unit)
    assert m.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("客服專線 0800-123-456", "0800123456"),
        ("客服专线０８００-１２３-４５６", "0800123456"),
        ("call (805) 555-1234", "8055551234"),
        ("call +1 805-555-1234", "18055551234"),
        ("appelez le 01 23 45 67 89", "0123456789"),
    ],
)
def test_phones(text: str, digits: str) -> None:
    lang = "zh-Hant" if "專" in text else "zh-Hans" if "专" in text else "fr" if "appelez" in text else "en"
    m = one(text, lang)
    assert m.kind == "phone" and m.key == digits


def test_phone_matching_ignores_country_code() -> None:
    assert same_value(one("+886 800-123-456", "en"), one("0800-123-456"))
    assert not same_value(one("0800-123-457"), one("0800-123-456"))


def test_not_phones() -> None:
    assert [k for _, k, _ in all_of("from 2010-2015")] == ["year", "year"]
    assert all_of("1 200 000 habitants", "fr") == [("1 200 000", "number", 1200000)]


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("at 9 pm", 21 * 60), ("at 9:30 p.m.", 21 * 60 + 30), ("at 21:00", 21 * 60), ("um 19 Uhr", 19 * 60),
     ("à 19h30", 19 * 60 + 30), ("open 16:30", 16 * 60 + 30)],
)
def test_times(text: str, minutes: int) -> None:
    lang = "de" if "Uhr" in text else "fr" if "à" in text else "en"
    m = one(text, lang)
    assert m.kind == "time" and m.value == minutes


def test_time_without_am_pm_matches_either_half_day() -> None:
    assert same_value(one("closes at 5 pm"), one("closes 5:0"))
    assert same_value(one("closes at 9 pm"), one("21:0"))
    assert not same_value(one("closes at 6 pm"), one("5:0"))
    assert not same_value(one("at 9 am"), one("at 21:00"))


def test_ordinals_spelled_and_years() -> None:
    assert all_of("the 3rd and 21st") == [("3rd", "ordinal", 3), ("21st", "ordinal", 21)]
    assert all_of("la 2e fois, le 1er", "fr")[0][:2] == ("2e", "ordinal")
    assert all_of("第三名和第十二名", "zh-Hans") == [("第三", "ordinal", 3), ("第十二", "ordinal", 12)]
    assert one("founded in 2010").kind == "year"
    spelled = find_numbers("three shops and twenty-five cars")
    assert [(m.text, m.value, m.weak) for m in spelled] == [("three", 3, True), ("twenty-five", 25, True)]
    assert [(m.value, m.weak) for m in find_numbers("drei Läden, trois magasins", "de")][:1] == [(3, True)]
    strong = one("three million users")
    assert strong.value == 3e6 and not strong.weak


def test_identifiers_lists_and_versions_are_not_numbers() -> None:
    assert all_of("COVID-19 and B2B and v1.2") == []
    assert all_of("version 1.2.3") == []
    strong = [(m.text, m.value) for m in find_numbers("1. First\n2. Second with 5 apples") if not m.weak]
    assert strong == [("5", 5)]


@pytest.mark.parametrize(
    ("answer", "source", "same"),
    [
        ("3.5", "3.47", True),  # rounded to the answer's one decimal
        ("3", "3.4", True),
        ("3.47", "3.5", True),  # the source's precision also counts
        ("3.6", "3.47", False),
        ("1.2 million", "1,234,567", True),
        ("1,200", "1,234", True),  # trailing zeros of 1000+ mark rounding
        ("1,300", "1,234", False),
        ("20", "24", False),  # small integers are exact
        ("2000", "2010", False),  # so are years
        ("25%", "25.4%", True),
    ],
)
def test_rounding_tolerance(answer: str, source: str, same: bool) -> None:
    assert same_value(one(answer), one(source)) is same


@pytest.mark.parametrize("text", ["", "no numbers here", "。！？", "..."])
def test_nothing_to_find(text: str) -> None:
    assert find_numbers(text, "en") == []


def test_spelled_ordinals_are_weak_and_support_written_ones() -> None:
    found = find_numbers("the first and second floor, la deuxième fois, der zweiten Etage")
    assert [(m.text, m.kind, m.value, m.weak) for m in found] == [
        ("first", "ordinal", 1, True),
        ("second", "ordinal", 2, True),
        ("deuxième", "ordinal", 2, True),
        ("zweiten", "ordinal", 2, True),
    ]
    assert same_value(one("the 2nd floor"), found[1])


@pytest.mark.parametrize(
    "text",
    [
        "Open 17:0-21:30, rated 3.5 by 1,200 guests on 2022-01-18; three stars.",
        "Le prix est de 1.200 € le 3 mars, 2e édition.",
        "Am 03/04/2021 kostete es 1.200 Euro, sept Tage.",
        "客服專線 0800-123-456，三千五百万元，2021年3月。",
    ],
)
def test_invariant_mentions_are_found_in_every_language(text: str) -> None:
    from hallucheck.text.numbers import scan_numbers

    for language in ("en", "de", "fr", "zh-Hant"):
        scan = scan_numbers(text, language)
        assert scan.mentions == find_numbers(text, language)
        for other in ("en", "de", "fr", "zh-Hans", "es"):
            found = find_numbers(text, other)
            assert all(m in found for m in scan.invariant)


def test_invariant_mentions_leave_out_spelled_numbers_and_language_dependent_reads() -> None:
    from hallucheck.text.numbers import scan_numbers

    scan = scan_numbers("rated 3.5 by three guests", "en")
    assert [m.text for m in scan.invariant] == ["3.5"]
    assert scan_numbers("it costs 1,200 dollars", "en").invariant == []  # 1,200 reads as 1.2 in German


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a unit for 1024 bytes", "number"),
        ("a free of 1010 MB", "number"),
        ("超过 1200 MB 的内存", "number"),
        ('calculated by "1000 * (x)"', "number"),
        ("a 1600x1200 screen", "number"),
        ("in 1998 prices rose", "year"),
        ("In 2019, sales doubled", "year"),
    ],
)
def test_a_four_digit_quantity_with_a_unit_is_not_a_year(text: str, kind: str) -> None:
    (m,) = [m for m in find_numbers(text, "en") if m.value is not None and m.value >= 1000]
    assert m.kind == kind


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("from 1/3 to 1/2 of the total", [1 / 3, 1 / 2]),
        ("from 1/3 to ½ of the total", [1 / 3, 1 / 2]),
        ("add 1 1/2 cups of wine and 1½ cups of stock", [1.5, 1.5]),
        ("open 24/7", [24.0, 7.0]),  # not a fraction
        ("rated 4/5 stars", [4.0, 5.0]),  # a rating
    ],
)
def test_fractions(text: str, values: list[float]) -> None:
    assert [m.value for m in find_numbers(text, "en")] == pytest.approx(values)


def test_the_first_month_of_a_range_takes_the_year() -> None:
    ms = find_numbers("He served from January to October 2023.", "en")
    assert [(m.kind, m.year, m.month) for m in ms] == [("date", 2023, 1), ("date", 2023, 10)]
    assert [m.key for m in find_numbers("from October to January 2023", "en")] == ["2023-1-?"]


def test_hour_zero_with_pm_is_read_as_written() -> None:
    a, b = find_numbers("open from 0:00 AM to 0:00 PM", "en")
    (c,) = find_numbers("0:0", "en")
    assert a.value == b.value == c.value == 0.0 and same_value(b, c)


def test_a_four_digit_figure_counting_years_is_no_year() -> None:
    (m,) = find_numbers("1000 years : Optical storage", "en")
    assert (m.kind, m.value) == ("number", 1000.0)
    (y,) = find_numbers("In 1998 prices rose.", "en")
    assert y.kind == "year"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("门店下午3点开门", [("下午3点", "time", 900.0, "")]),
        ("晚上10点半关门", [("晚上10点半", "time", 1350.0, "")]),
        ("上午九点到下午五点", [("上午九点", "time", 540.0, ""), ("下午五点", "time", 1020.0, "")]),
        ("15点30分开始", [("15点30分", "time", 930.0, "")]),
        ("午夜12点锁门", [("午夜12点", "time", 0.0, "")]),
        ("中午12点", [("中午12点", "time", 720.0, "")]),
        ("3点前到达", [("3点", "time", 180.0, "12h")]),  # 3 or 15 o'clock
        ("可享85折", [("85折", "discount", 85.0, "%")]),
        ("打8.5折", [("8.5折", "discount", 85.0, "%")]),
        ("八五折", [("八五折", "discount", 85.0, "%")]),
        ("九折优惠", [("九折", "discount", 90.0, "%")]),
    ],
)
def test_chinese_clock_times_and_discounts(text: str, expected: list[tuple[str, str, float, str]]) -> None:
    assert [(m.text, m.kind, m.value, m.unit) for m in find_numbers(text, "zh-Hans")] == expected


@pytest.mark.parametrize("text", ["早一点到", "一时半会", "注意以下3点"])
def test_chinese_hours_need_a_clock_cue(text: str) -> None:
    # "a little", "a moment", "three points": no time
    assert all(m.kind != "time" for m in find_numbers(text, "zh-Hans"))


@pytest.mark.parametrize(("text", "value"), [("约3成用户", 30.0), ("三成", 30.0), ("七成五", 75.0), ("十成", 100.0)])
def test_chinese_tenths_are_percentages(text: str, value: float) -> None:
    assert [(m.kind, m.value) for m in find_numbers(text, "zh-Hans")] == [("percent", value)]


@pytest.mark.parametrize("text", ["3成员", "完成", "成本"])
def test_cheng_in_other_words_is_no_share(text: str) -> None:
    assert all(m.kind != "percent" for m in find_numbers(text, "zh-Hans"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("有 6 千人受到感染", [("6 千", "number", 6000.0)]), ("3 百万人", [("3 百万", "number", 3_000_000.0)]),
     ("超过 3 万人", [("3 万", "number", 30_000.0)]), ("有6千人", [("6千", "number", 6000.0)])],
)
def test_a_chinese_scale_after_a_space_scales_the_digits(text: str, expected: list[tuple[str, str, float]]) -> None:
    # Chinese text often sets a space between digits and the scale: "6 千" is 6000, not 6.
    assert all_of(text, "zh-Hans") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("三月末", [("三月", "date", "?-3-?")]), ("十二月", [("十二月", "date", "?-12-?")]),
     ("2019年三月", [("2019年", "year", 2019.0), ("三月", "date", "?-3-?")]),
     ("三个月", [("三", "number", 3.0)]), ("二十三月", [("二十三", "number", 23.0)]), ("第三月", [("第三", "ordinal", 3.0)])],
)
def test_a_month_in_chinese_numerals_is_the_month(text: str, expected: list[tuple[str, str, float | str]]) -> None:
    # "三月" is March as "3月" is; "三个月" is three months, and no numeral above twelve names a month.
    assert all_of(text, "zh-Hans") == expected


def test_a_month_in_chinese_numerals_matches_the_digits() -> None:
    march, written = one("三月", "zh-Hans"), one("3 月", "zh-Hans")
    assert march.key == written.key
    assert one("五月", "zh-Hans").key != written.key
