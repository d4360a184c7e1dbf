"""Dates and years in text: "2021-03-03", "3. März 2021", "March 3, 2021", "03/03/2021",
"2021年3月3日", "2021年", and the first month of a range that names its year once."""

from __future__ import annotations

import re

from hallucheck.text.number_values import NumberMention, Reading
from hallucheck.text.number_words import MONTHS
from hallucheck.text.phrases import trie_pattern
from hallucheck.text.scan_positions import LAT, NO_DIGIT_AFTER, NO_DIGIT_BEFORE, Runs, Taken, matches_at

__all__ = ["scan_dates", "scan_month_ranges"]

_MONTH = rf"(?P<mon>{trie_pattern(MONTHS)})\.?"
_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # 2021-03-03, 2021/3/3, 2021.03.03
    ("iso", re.compile(rf"{NO_DIGIT_BEFORE}(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){NO_DIGIT_AFTER}")),
    # 2021年3月3日 / 2021年3月 / 3月3日
    ("cjk", re.compile(r"(?:(?P<y>\d{2,4})\s*年\s*)?(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号號])?")),
    # 3 March 2021 / 3. März 2021 / 1er mars 2021 / 3rd of March
    (
        "day_first",
        re.compile(
            rf"{NO_DIGIT_BEFORE}(?P<d>\d{{1,2}})(?:st|nd|rd|th|er|\.)?\s*(?:of\s+)?{_MONTH}(?![{LAT}])(?:,?\s+(?P<y>\d{{4}}){NO_DIGIT_AFTER})?"
        ),
    ),
    # March 3, 2021 / March 3rd / March 2021
    (
        "month_first",
        re.compile(
            rf"\b(?<![{LAT}]){_MONTH}\s+(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d{LAT}])(?:,?\s+(?P<y>\d{{4}}){NO_DIGIT_AFTER})?|(?P<y2>\d{{4}}){NO_DIGIT_AFTER})"
        ),
    ),
    # 03/03/2021, 3.3.2021 (day first except in English)
    (
        "numeric",
        re.compile(rf"{NO_DIGIT_BEFORE}(?P<a>\d{{1,2}})(?P<s>[/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){NO_DIGIT_AFTER}(?!\.\d)"),
    ),
    # 2021年 (a year in Chinese)
    ("cjk_year", re.compile(r"(?<!\d)(?P<y>\d{4})\s*年(?!\s*\d{1,2}\s*月)")),
]
_MONTH_BEFORE = re.compile(rf"(?<![{LAT}])(?:{trie_pattern(MONTHS)})\.?\s+$")


def _year(y: str | None) -> int | None:
    if not y:
        return None
    v = int(y)
    if len(y) == 2:
        return 2000 + v if v <= 30 else 1900 + v
    return v


def _date(start: int, end: int, text: str, y: int | None, m: int | None, d: int | None) -> NumberMention | None:
    if m is not None and not 1 <= m <= 12:
        return None
    if d is not None and not 1 <= d <= 31:
        return None
    if y is not None and not 1000 <= y <= 2999:
        return None
    key = f"{y if y is not None else '?'}-{m if m is not None else '?'}-{d if d is not None else '?'}"
    return NumberMention(start, end, text, "date", None, 0.0, "", key, y, m, d)



def _month_starts(lt: str, runs: list[int]) -> list[int]:
    out = []
    for s in runs:
        if not s or not lt[s - 1].isspace():
            continue  # the pattern ends in white space right before the run
        m = _MONTH_BEFORE.search(lt, max(0, s - 16), s)
        if m:
            out.append(m.start())
    return out


def scan_dates(lt: str, text: str, reading: Reading, runs: Runs, out: list[NumberMention], taken: Taken) -> None:
    """Each pattern is tried only at the runs it may start at (see ``digit_runs``)."""
    for name, pat in _DATE_PATTERNS:
        if name in ("cjk", "cjk_year") and "年" not in lt and "月" not in lt:
            continue
        if name == "month_first":
            starts = _month_starts(lt, runs.all)
        elif name == "iso":
            starts = runs.iso
        elif name == "day_first":
            starts = runs.day_first
        elif name == "numeric":
            starts = runs.numeric
        else:
            starts = runs.all
        for mt in matches_at(pat, lt, starts, taken):
            a, b = mt.span()
            gd = mt.groupdict()
            mention: NumberMention | None = None
            if name == "iso":
                mention = _date(a, b, text[a:b], int(gd["y"]), int(gd["m"]), int(gd["d"]))
            elif name == "cjk":
                mention = _date(a, b, text[a:b], _year(gd["y"]), int(gd["m"]), int(gd["d"]) if gd["d"] else None)
            elif name in ("day_first", "month_first"):
                mon_word = gd["mon"]
                y = gd.get("y") or gd.get("y2")
                day = int(gd["d"]) if gd.get("d") else None
                # "may 5" / "mar 3" in lower case are more often words than months
                if mon_word in ("may", "mar", "mai", "sept") and not text[mt.start("mon")].isupper() and not reading.is_("fr"):
                    continue
                mention = _date(a, b, text[a:b], int(y) if y else None, MONTHS[mon_word], day)
            elif name == "numeric":
                p, q = int(gd["a"]), int(gd["b"])
                month, day = (p, q) if reading.is_("en") else (q, p)
                if month > 12 and day <= 12:
                    month, day = day, month
                mention = _date(a, b, text[a:b], _year(gd["y"]), month, day)
            else:
                y = int(gd["y"])
                if 1000 <= y <= 2999:
                    mention = NumberMention(a, b, text[a:b], "year", float(y), 0.0, "", str(y), y)
            if mention is not None:
                out.append(mention)
                taken.take(a, b)


_MONTH_RANGE_BEFORE = re.compile(
    rf"(?<![{LAT}])(?P<mon>{trie_pattern(MONTHS)})\.?\s*(?:to|until|till|through|thru|and|or|-|–|—|bis|und|au|à|et)\s*$"
)


def scan_month_ranges(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    """The first month of a range that names its year once: "from January to October 2023" gives
    January 2023 as well as October 2023."""
    for m in list(out):
        if m.kind != "date" or m.year is None or m.month is None or m.day is not None:
            continue
        mt = _MONTH_RANGE_BEFORE.search(lt, max(0, m.start - 24), m.start)
        if mt is None or not taken.free(*mt.span("mon")):
            continue
        a, b = mt.span("mon")
        word = mt["mon"]
        if word in ("may", "mar", "mai", "sept") and not text[a].isupper():
            continue
        month = MONTHS[word]
        if month >= m.month:
            continue  # a range runs forward within its year
        mention = _date(a, b, text[a:b], m.year, month, None)
        if mention is not None:
            out.append(mention)
            taken.take(a, b)

