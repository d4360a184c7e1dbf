"""Lengths of time written as a figure and a unit: "24 months", "2 years", "两年", "90 Minuten".

An answer often restates a source's duration in another unit ("RO膜两年换一次" over "每24个月更换一次",
"every 2 years" over "every 24 months", "1.5 hours" over "90 minutes"). Compared by their digits
alone, 2 and 24 differ, so a figure check calls a faithful answer a contradiction; and "2 hours"
looks supported by a source's "2 years". Reading the unit gives each duration a length in a base
unit, and two durations compare by length.

Two scales, because only within one is a conversion exact: the calendar (years and months,
counted in months) and the clock (weeks, days, hours, minutes, seconds, counted in seconds). "30
days" and "one month" are close but not the same promise, so a calendar length and a clock length
are never compared (:func:`same_length` gives None).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from hallucheck.text.language import base_language
from hallucheck.text.numbers import NumberMention

__all__ = ["Duration", "conventional_lengths", "duration_of", "find_durations", "half_durations", "same_length",
           "spelled_durations"]


class Duration(NamedTuple):
    """A figure followed by a unit of time. Offsets span the figure and the unit."""

    start: int
    end: int
    text: str
    count: float  # type: ignore[assignment]  # the figure's value ("24" in "24 months"); shadows tuple.count
    unit: str  # year | month | week | day | hour | minute | second
    scale: str  # calendar | clock
    length: float  # in months (calendar) or seconds (clock)
    precision: float  # the figure's precision, in the same base unit
    weak: bool  # the figure was a weak mention ("two years", "三年")


# unit -> (scale, base units per unit)
_UNITS: dict[str, tuple[str, float]] = {
    "year": ("calendar", 12.0), "month": ("calendar", 1.0),
    "week": ("clock", 7 * 86400.0), "day": ("clock", 86400.0), "hour": ("clock", 3600.0),
    "minute": ("clock", 60.0), "second": ("clock", 1.0),
}

# Unit words after a figure, per language (lower case). English is read in every Latin-script
# language too: answers mix ("24 Monate" and "24 months").
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "years": "year", "year": "year", "yrs": "year", "yr": "year", "months": "month", "month": "month",
        "weeks": "week", "week": "week", "days": "day", "day": "day", "hours": "hour", "hour": "hour",
        "hrs": "hour", "hr": "hour", "minutes": "minute", "minute": "minute", "mins": "minute", "min": "minute",
        "seconds": "second", "second": "second", "secs": "second", "sec": "second",
    },
    "de": {
        "jahren": "year", "jahre": "year", "jahr": "year", "monaten": "month", "monate": "month", "monat": "month",
        "wochen": "week", "woche": "week", "tagen": "day", "tage": "day", "tag": "day", "stunden": "hour",
        "stunde": "hour", "minuten": "minute", "minute": "minute", "sekunden": "second", "sekunde": "second",
    },
    "fr": {
        "années": "year", "année": "year", "ans": "year", "an": "year", "mois": "month", "semaines": "week",
        "semaine": "week", "jours": "day", "jour": "day", "heures": "hour", "heure": "hour",
        "minutes": "minute", "minute": "minute", "secondes": "second", "seconde": "second",
    },
}


def _latin_pattern(words: Sequence[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    # "24 months", "24-month", "24‑Monate"; never inside a longer word ("2 monthly", "3 Tagesordnung")
    return re.compile(rf"[ \u00a0\u202f]?[-‑]?[ \u00a0\u202f]?({alternatives})(?![^\W\d_])", re.IGNORECASE)


_LATIN = {lang: _latin_pattern(list({**_WORDS["en"], **words})) for lang, words in _WORDS.items()}
_LATIN_WORDS = {lang: {**_WORDS["en"], **words} for lang, words in _WORDS.items()}
# Chinese: 月 only as 个月 / 個月 ("6月" is June), 年 only after a count (a four-digit figure is a year).
# Not a length: 年级 (school year), 年代 (decade), 年份, 年度, 年龄; 周年 (anniversary), 周岁 (age).
_ZH = re.compile(
    r"\s?(?:(个|個)?(半)?(月)|(年)(?![级級代份度龄齡])(半)?|(?:个|個)?(半)?(星期|礼拜|禮拜)|(周|週)(?![年岁歲])|(天)(半)?"
    r"|(?:个|個)?(半)?(小时|小時|钟头|鐘頭)|(分钟|分鐘)|(秒钟|秒鐘|秒))"
)
# "半年", "半个月", "半小时", "半天": half of one unit, no figure written.
_ZH_HALF = re.compile(r"(?<![一二两兩三四五六七八九十百千万萬零〇\d个個])半(?:(个|個)?(月)|(年)|(?:个|個)?(小时|小時|钟头|鐘頭)|(天))")
_ZH_UNIT = {"月": "month", "年": "year", "星期": "week", "礼拜": "week", "禮拜": "week", "周": "week", "週": "week",
            "天": "day", "小时": "hour", "小時": "hour", "钟头": "hour", "鐘頭": "hour", "分钟": "minute",
            "分鐘": "minute", "秒钟": "second", "秒鐘": "second", "秒": "second"}


# A half after the unit: "two hours and a half", "deux heures et demie", "zwei Stunden und eine halbe".
_HALF_AFTER = re.compile(r"\s+(?:and\s+a\s+half|et\s+demie?|und\s+eine?n?\s+halbe?n?)(?![^\W\d_])", re.IGNORECASE)

# Figure-less lengths of time in Latin script: one unit and a half ("an hour and a half", "une
# heure et demie", "a year and a half") and half a unit ("half an hour", "a half hour", "une
# demi-heure", "eine halbe Stunde", "ein halbes Jahr").
_UNIT_WORDS = {**_WORDS["en"], **_WORDS["de"], **_WORDS["fr"], "journée": "day", "journee": "day"}
_UNIT_ALT = "|".join(sorted((re.escape(w) for w in _UNIT_WORDS), key=len, reverse=True))
_ONE_AND_A_HALF = re.compile(
    rf"(?<![^\W\d_])(?:an?|one|une?|ein(?:e|en)?)\s+({_UNIT_ALT})\s+(?:and\s+a\s+half|et\s+demie?|und\s+eine?n?\s+halbe?n?)(?![^\W\d_])",
    re.IGNORECASE,
)
_HALF_A = re.compile(
    rf"(?<![^\W\d_])(?:half\s+an?\s+|a\s+half[\s-]|(?:une?\s+)?demi-|ein(?:e|en|er|es)?\s+halbe[nrs]?\s+)({_UNIT_ALT})(?![^\W\d_])",
    re.IGNORECASE,
)


def duration_of(text: str, m: NumberMention, language: str) -> Duration | None:
    """The duration whose figure is ``m`` (a mention of ``text``), or None when no unit of time follows."""
    if m.kind != "number" or m.value is None or m.value < 0:
        return None
    value = float(m.value)
    unit: str | None = None
    end = m.end
    if base_language(language) == "zh" or _is_han(text, m.end):
        mt = _ZH.match(text, m.end)
        if mt is not None:
            groups = mt.groups()
            if groups[2] is not None and groups[0] is None:
                return None  # "6月": a month of the year
            word = next(g for g in groups[1:] if g is not None and g != "半")
            if word == "年" and m.value >= 1000:
                return None  # "2015年" is a year
            unit, end = _ZH_UNIT[word], mt.end()
            if "半" in mt.group():  # "一个半小时", "两年半": half a unit more
                value += 0.5
    if unit is None:
        lang = base_language(language)
        pattern = _LATIN.get(lang, _LATIN["en"])
        words = _LATIN_WORDS.get(lang, _LATIN_WORDS["en"])
        mt = pattern.match(text, m.end)
        if mt is None:
            return None
        unit, end = words[mt.group(1).lower()], mt.end()
        half = _HALF_AFTER.match(text, end)
        if half is not None and value == int(value):
            value, end = value + 0.5, half.end()
    scale, factor = _UNITS[unit]
    # A whole count is exact ("2 hours" is not 90 minutes); a decimal or a rounded large one keeps
    # its rounding ("1.5 hours" is 90 minutes give or take three).
    exact = m.value == int(m.value) and m.precision <= 1.0
    return Duration(m.start, end, text[m.start:end], value, unit, scale, value * factor,
                    0.0 if exact else m.precision * factor, m.weak)


def _is_han(text: str, at: int) -> bool:
    return at < len(text) and "\u4e00" <= text[at] <= "\u9fff"


def find_durations(text: str, mentions: Sequence[NumberMention], language: str) -> dict[int, Duration]:
    """The durations among ``mentions`` of ``text``, keyed by the figure's start offset."""
    out: dict[int, Duration] = {}
    for m in mentions:
        d = duration_of(text, m, language)
        if d is not None:
            out[m.start] = d
    return out


def half_durations(text: str) -> list[tuple[NumberMention, Duration]]:
    """Chinese halves of one unit with no figure written ("半年", "半个月", "半小时", "半天"), each
    with a weak figure mention standing for the 半 (value 0.5), so a figure check can judge it."""
    out: list[tuple[NumberMention, Duration]] = []
    for mt in _ZH_HALF.finditer(text):
        word = next(g for g in mt.groups()[1:] if g is not None)
        unit = _ZH_UNIT[word]
        scale, factor = _UNITS[unit]
        a = mt.start()
        m = NumberMention(a, a + 1, "半", "number", 0.5, 0.0, "", "0.5", weak=True)
        out.append((m, Duration(a, mt.end(), mt.group(), 0.5, unit, scale, 0.5 * factor, 0.0, True)))
    return out


def same_length(a: Duration, b: Duration) -> bool | None:
    """Whether two durations are equally long (within the coarser one's rounding), or None when
    one is on the calendar and the other on the clock, which no exact conversion joins; except the
    conventions a writer uses to say one in the other's units, which count as equal: 30 days a
    month ("60 天" for "两个月"), 365 days or 52 weeks a year."""
    if a.scale != b.scale:
        return True if (b.scale, round(b.length, 6)) in conventional_lengths(a) else None
    tol = max(a.precision, b.precision) / 2.0
    return abs(a.length - b.length) <= tol + 1e-9 * max(a.length, b.length, 1.0)


def conventional_lengths(d: Duration) -> tuple[tuple[str, float], ...]:
    """The (scale, length) a writer's conventions give a whole length on the other scale: 30 days a
    month, 365 days or 52 weeks a year ("60 天" for "两个月"); none for a length that is not a whole
    number of days or months. Lengths rounded to 6 decimals, as exact lengths are compared."""
    if d.scale == "calendar":
        months = d.length
        if months < 1 or abs(months - round(months)) > 1e-9:
            return ()
        m = round(months)
        days = [30 * m] + ([365 * m // 12, 364 * m // 12] if m % 12 == 0 else [])
        return tuple(("clock", round(float(x * 86400), 6)) for x in days)
    days_f = d.length / 86400.0
    if days_f < 1 or abs(days_f - round(days_f)) > 1e-9:
        return ()
    n = round(days_f)
    whole = ([n // 30] if n % 30 == 0 else []) + [12 * n // y for y in (365, 364) if n % y == 0]
    return tuple(("calendar", round(float(m), 6)) for m in whole)


def spelled_durations(text: str) -> list[tuple[NumberMention, Duration]]:
    """Lengths of time written with no figure in English, French or German: one unit and a half
    ("an hour and a half" = 1.5 hours, "une heure et demie") and half a unit ("half an hour",
    "une demi-heure", "eine halbe Stunde"). Each comes with a weak figure mention spanning the
    words, so a figure check can judge it like "1.5 hours"."""
    out: list[tuple[NumberMention, Duration]] = []
    lower = text.lower()
    if "half" not in lower and "demi" not in lower and "halb" not in lower:
        return out
    for pattern, count in ((_ONE_AND_A_HALF, 1.5), (_HALF_A, 0.5)):
        for mt in pattern.finditer(text):
            unit = _UNIT_WORDS[mt.group(1).lower()]
            scale, factor = _UNITS[unit]
            a, b = mt.span()
            m = NumberMention(a, b, mt.group(), "number", count, 0.0, "", str(count), weak=True)
            out.append((m, Duration(a, b, mt.group(), count, unit, scale, count * factor, 0.0, True)))
    out.sort(key=lambda pair: pair[0].start)
    return out
