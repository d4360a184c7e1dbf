"""Days of the week in text: ranges ("Monday to Friday", "Mo–Fr", "du lundi au vendredi",
"周一至周五"), the words for the working week ("weekdays", "werktags", "en semaine", "工作日") and
single named days, each read as the set of days it covers.

Opening hours, delivery and support times are stated over days of the week, and an answer often
restates "Monday to Friday" as "weekdays" or "Mon–Fri"; compared as words these differ, compared
as sets of days they are the same. A word with two common readings keeps both: German "werktags"
and French "jours ouvrables" are Monday to Friday in everyday use and Monday to Saturday in law,
so either set is one they state.

Days are numbered 0 (Monday) to 6 (Sunday); a range that runs past Sunday wraps ("Friday to
Monday" is Friday, Saturday, Sunday and Monday). Every language's words are read in every text:
answers and sources mix languages, and the words are distinct.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

__all__ = ["WeekdaySpan", "find_weekdays", "same_days"]

Days = frozenset[int]


class WeekdaySpan(NamedTuple):
    """Days of the week named in text: ``text == source[start:end]``."""

    start: int
    end: int
    text: str
    readings: tuple[Days, ...]  # the sets of days it may state (two for "werktags")
    single: bool  # one named day ("Saturday"), not a range or a word for the working week


_MON_FRI: Days = frozenset(range(5))
_MON_SAT: Days = frozenset(range(6))

# Full day names, singular and plural ("Mondays", "montags", "lundis").
_NAMES: dict[str, int] = {}
for _k, _words in enumerate((
    ("monday", "montag", "lundi"), ("tuesday", "dienstag", "mardi"), ("wednesday", "mittwoch", "mercredi"),
    ("thursday", "donnerstag", "jeudi"), ("friday", "freitag", "vendredi"), ("saturday", "samstag", "sonnabend", "samedi"),
    ("sunday", "sonntag", "dimanche"),
)):
    for _w in _words:
        _NAMES[_w] = _NAMES[_w + "s"] = _k
# Abbreviations, read only as the ends of a range ("Mon–Fri", "Mo.–Fr.", "lun.-ven."), both ends of one language.
_ABBREVIATIONS: dict[str, dict[str, int]] = {
    "en": {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6},
    "de": {"mo": 0, "di": 1, "mi": 2, "do": 3, "fr": 4, "sa": 5, "so": 6},
    "fr": {"lun": 0, "mar": 1, "mer": 2, "jeu": 3, "ven": 4, "sam": 5, "dim": 6},
}
_ABBR_LANG = {w: lang for lang, words in _ABBREVIATIONS.items() for w in words}
_ABBR = {w: k for words in _ABBREVIATIONS.values() for w, k in words.items()}


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_DAY = rf"(?:{_alternation(_NAMES)}|(?:{_alternation(_ABBR)})\.?)"
# "Monday to Friday", "Monday through Friday", "Mon–Fri", "Montag bis Freitag", "lundi au vendredi".
_LATIN_RANGE = re.compile(
    rf"(?<![^\W\d_])({_DAY})\s*(?:[-‐‑–—]|\s(?:to|through|thru|till|until|bis|au|à)\s)\s*({_DAY})(?![^\W\d_])",
    re.IGNORECASE,
)
_LATIN_DAY = re.compile(rf"(?<![^\W\d_])(?:{_alternation(_NAMES)})(?![^\W\d_])", re.IGNORECASE)
# Words for the working week. Not after a count ("3 weekdays", "5 Werktage", "5个工作日": a length).
_LATIN_WEEK = re.compile(
    r"(?<![^\W\d_])(?:(?:every|each)\s+weekday|weekdays|werktags|wochentags|an\s+(?:werk|wochen)tagen"
    r"|en\s+semaine|(?:les|en)\s+jours\s+(?:de\s+semaine|ouvrés|ouvrables))(?![^\W\d_])",
    re.IGNORECASE,
)
_BOTH_READINGS = ("werk", "wochen", "ouvrables")  # Monday to Friday, or to Saturday
_COUNT_BEFORE = re.compile(
    r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|few|several|zwei|drei|vier|fünf|sechs|sieben"
    r"|deux|trois|quatre|cinq|six|sept|huit))\s*[-–]?\s*$",
    re.IGNORECASE,
)

_ZH_DAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_ZH_WEEK = "(?:星期|礼拜|禮拜|周|週)"
# "周一至周五", "週一到週五", "星期一至星期五", "周一至五", "周一~周五".
_ZH_RANGE = re.compile(rf"{_ZH_WEEK}([一二三四五六日天])\s*(?:至|到|~|～|-|－|–|—)\s*{_ZH_WEEK}?([一二三四五六日天])")
_ZH_SINGLE = re.compile(rf"{_ZH_WEEK}([一二三四五六日天])")
# 工作日 not after a count ("5个工作日", "3-5個工作日") and not the start of another word (工作日期, 工作日志).
_ZH_WORKDAY = re.compile(r"(?<![\d一二两兩三四五六七八九十几幾个個多\-~～至到])工作日(?![期志誌制])")
_ZH_COUNT_BEFORE = re.compile(r"[\d一二两兩三四五六七八九十几幾]$")


def _days(first: int, last: int) -> Days:
    """The days from ``first`` to ``last``, wrapping past Sunday."""
    return frozenset((first + k) % 7 for k in range((last - first) % 7 + 1))


def _latin_day(word: str) -> tuple[int, str] | None:
    """A day word's number and the language of its abbreviation ("" for a full name)."""
    w = word.lower().rstrip(".")
    if w in _NAMES and not word.endswith("."):
        return _NAMES[w], ""
    if w in _ABBR:
        if len(w) == 2 and not word[0].isupper():
            return None  # "so", "do", "mi" in running text are words; "So", "Do" as a range end are days
        return _ABBR[w], _ABBR_LANG[w]
    return None


def find_weekdays(text: str) -> list[WeekdaySpan]:
    """Every weekday range, word for the working week and named day of ``text``, in text order."""
    out: list[WeekdaySpan] = []
    taken: list[tuple[int, int]] = []
    if not text.isascii() and any(w in text for w in ("周", "週", "星期", "礼拜", "禮拜", "工作日")):
        _find_chinese(text, out, taken)
    for mt in _LATIN_RANGE.finditer(text):
        a, b = _latin_day(mt.group(1)), _latin_day(mt.group(2))
        if a is None or b is None or a[0] == b[0] or (a[1] and b[1] and a[1] != b[1]):
            continue
        end = mt.end() - mt.group().endswith(".")  # "Mo–Fr." ends a sentence
        out.append(WeekdaySpan(mt.start(), end, text[mt.start():end], (_days(a[0], b[0]),), False))
        taken.append(mt.span())
    for mt in _LATIN_WEEK.finditer(text):
        if _COUNT_BEFORE.search(text, max(0, mt.start() - 16), mt.start()):
            continue
        word = mt.group().lower()
        readings = (_MON_FRI, _MON_SAT) if any(w in word for w in _BOTH_READINGS) else (_MON_FRI,)
        out.append(WeekdaySpan(mt.start(), mt.end(), mt.group(), readings, False))
        taken.append(mt.span())
    for mt in _LATIN_DAY.finditer(text):
        if not any(a <= mt.start() < b for a, b in taken):
            out.append(WeekdaySpan(mt.start(), mt.end(), mt.group(), (frozenset({_NAMES[mt.group().lower()]}),), True))
    out.sort(key=lambda w: (w.start, w.end))
    return out


def _find_chinese(text: str, out: list[WeekdaySpan], taken: list[tuple[int, int]]) -> None:
    for mt in _ZH_RANGE.finditer(text):
        first, last = _ZH_DAY[mt.group(1)], _ZH_DAY[mt.group(2)]
        if first != last and not (mt.group().startswith(("周", "週")) and mt.group(1) == "天"):
            out.append(WeekdaySpan(mt.start(), mt.end(), mt.group(), (_days(first, last),), False))
            taken.append(mt.span())
    for mt in _ZH_WORKDAY.finditer(text):
        out.append(WeekdaySpan(mt.start(), mt.end(), mt.group(), (_MON_FRI,), False))
        taken.append(mt.span())
    for mt in _ZH_SINGLE.finditer(text):
        a, b = mt.span()
        if any(x <= a < y for x, y in taken) or text.startswith("次", b):
            continue  # "每周一次" is once a week
        if mt.group().startswith(("周", "週")) and (mt.group(1) == "天" or _ZH_COUNT_BEFORE.search(text, max(0, a - 1), a)):
            continue  # "一周一..." counts weeks; "周天" is no day
        out.append(WeekdaySpan(a, b, mt.group(), (frozenset({_ZH_DAY[mt.group(1)]}),), True))


def same_days(a: WeekdaySpan, b: WeekdaySpan) -> bool:
    """Whether two mentions may state the same days (a reading in common)."""
    return any(r in b.readings for r in a.readings)
