"""Numbers, amounts, percentages, dates, times and phone numbers in text, normalised for comparison.

A number checker is only as good as its normalisation: ``1,200`` (en), ``1.200`` (de) and
``1 200`` (fr) are the same value, as are ``12亿元``, ``1.2 billion yuan`` and ``1,200,000,000``;
``3. März 2021``, ``March 3, 2021`` and ``2021年3月3日`` are the same date. Every mention keeps its
exact offsets into the original text (full-width digits are mapped one character to one, so
offsets never move) and a ``precision`` that says how rounded the written value is, so that a
checker can accept 3.5 for a source's 3.47 (see :func:`same_value`).

Kinds: ``number``, ``percent``, ``money`` (``unit`` = currency code), ``date`` (``year``,
``month``, ``day``; any may be None), ``year``, ``time`` (``value`` = minutes after midnight;
also Chinese clock times, "下午3点" = 15:00), ``phone`` (``key`` = its digits), ``ordinal``,
``discount`` (a Chinese 折 discount as the share of the price paid, in percent: "85折", "8.5折" and
"八五折" are all 85). Spelled small numbers (``three``, ``drei``,
``trois``) and lone Chinese numerals (``三``) are ``weak``: good enough to support a figure, too
ambiguous to be flagged ("one of", "un produit", 一些).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from hallucheck.text.amount_scan import scan_digit_numbers, scan_fractions, scan_phones
from hallucheck.text.clock_scan import scan_times, scan_zh_times
from hallucheck.text.date_scan import scan_dates, scan_month_ranges
from hallucheck.text.language import base_language
from hallucheck.text.number_values import NumberMention, Reading, parse_chinese_numeral, same_value
from hallucheck.text.number_words import CURRENCIES, FULLWIDTH, MONTHS
from hallucheck.text.phrases import lower_keep_offsets
from hallucheck.text.scan_positions import Taken, digit_runs
from hallucheck.text.word_number_scan import scan_chinese, scan_roman_centuries, scan_spelled, scan_zh_decades, scan_zh_shares

__all__ = [
    "NumberMention",
    "NumberScan",
    "find_numbers",
    "scan_numbers",
    "parse_chinese_numeral",
    "same_value",
    "MONTHS",
    "CURRENCIES",
]

_HAS_HAN = re.compile(r"[\u4e00-\u9fff]")


def find_numbers(text: str, language: str = "en") -> list[NumberMention]:
    """Every numeric mention in ``text`` with exact offsets, sorted by position."""
    return _scan(text, language)[0]


class NumberScan(NamedTuple):
    """The mentions of a text read in one language, and those that every language would give."""

    mentions: list[NumberMention]
    invariant: list[NumberMention]  # in find_numbers(text, language) for any language


def scan_numbers(text: str, language: str = "en") -> NumberScan:
    """``find_numbers(text, language)`` plus the mentions the text gives whatever its language.

    A caller that only guesses the language of a text in order to read its figures (a German
    source's "3.000" is 3000) can first look among ``invariant``: when the scan took no
    language-dependent decision, that is every mention except the spelled-out numbers (which
    Chinese readings skip), and nothing found there needs the guess.
    """
    mentions, spelled, used = _scan(text, language)
    if used:
        return NumberScan(mentions, [])
    return NumberScan(mentions, [m for m in mentions if m.start not in spelled])


def _scan(text: str, language: str) -> tuple[list[NumberMention], set[int], bool]:
    """The mentions, the starts of those found as spelled-out numbers, and whether the language was used."""
    if not text:
        return [], set(), False
    reading = Reading(base_language(language))
    lt = lower_keep_offsets(text if text.isascii() else text.translate(FULLWIDTH))
    out: list[NumberMention] = []
    taken = Taken(len(text))
    runs = digit_runs(lt)
    if not lt.isascii() and any(ch in lt for ch in "点點时時折成") and _HAS_HAN.search(lt):
        scan_zh_times(lt, text, out, taken)
        scan_zh_shares(lt, text, out, taken)
    scan_zh_decades(lt, text, out, taken)
    if runs.all:
        scan_dates(lt, text, reading, runs, out, taken)
        scan_month_ranges(lt, text, out, taken)
        scan_times(lt, text, runs, out, taken)
        scan_phones(lt, text, runs.phone, out, taken)
        scan_fractions(lt, text, runs.numeric, out, taken)
        scan_digit_numbers(lt, text, reading, runs.all, out, taken)
    elif not lt.isascii():
        scan_fractions(lt, text, [], out, taken)
    if reading.lang != "zh":
        scan_roman_centuries(lt, text, out, taken)
    first_spelled = len(out)
    if reading.lang != "zh":
        scan_spelled(lt, text, out, taken)
    spelled = {m.start for m in out[first_spelled:]}
    if not lt.isascii() and _HAS_HAN.search(lt):
        scan_chinese(lt, text, out, taken)
    out.sort(key=lambda m: (m.start, m.end))
    return _mark_bounds(lt, out), spelled, reading.used


# Between the two ends of a range: "3 to 5", "3-5", "3 bis 5", "3 à 5", "3至5", "3到5", "3~5".
_RANGE_BETWEEN = re.compile(r"\s*(?:[-‐‑–—~～]|to|through|bis|à|au|至|到)\s*")
_RANGE_KINDS = frozenset({"number", "money", "percent"})


def _mark_bounds(lt: str, out: list[NumberMention]) -> list[NumberMention]:
    """``out`` with the two ends of each range marked ``bound`` ("3" and "5" of "3 to 5 days")."""
    ends: set[int] = set()
    for k in range(1, len(out)):
        a, b = out[k - 1], out[k]
        if a.kind in _RANGE_KINDS and b.kind in _RANGE_KINDS and a.end <= b.start:
            gap = _RANGE_BETWEEN.fullmatch(lt, a.end, b.start)
            if gap is not None:
                ends.update((k - 1, k))
    if not ends:
        return out
    return [m._replace(bound=True) if k in ends else m for k, m in enumerate(out)]
