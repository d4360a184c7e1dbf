"""Figures written with digits: numbers with separators in each language's style, scale words
("3.5 million", "12亿", "6 千" with a space as Chinese text often sets it), percentages, amounts
of money with a currency before or after, ordinals ("3rd", "2e"), years, phone numbers and
fractions ("1/3", "1 1/2", "½")."""

from __future__ import annotations

import re

from hallucheck.text.number_values import (
    THOUSANDS_DOT,
    THOUSANDS_SPACE,
    NumberMention,
    Reading,
    exact_key,
    fits_a_float,
    fmt_value,
    plain_digits,
    precision_of,
)
from hallucheck.text.number_words import CUR_AFTER, CUR_BEFORE, CURRENCIES, SCALE_WORDS, SCALES, VULGAR_FRACTIONS
from hallucheck.text.phrases import trie_pattern
from hallucheck.text.scan_positions import LAT, Taken, matches_at

__all__ = ["scan_digit_numbers", "scan_fractions", "scan_phones"]

_PHONE = re.compile(
    rf"(?<![{LAT}\d+])(?P<p>(?:\+\d{{1,3}}[\s.\-]?)?(?:\(\d{{1,5}}\)[\s.\-]?)?\d{{1,5}}(?:[ \u00a0.\-]\d{{2,5}}){{1,5}})(?!\d|[.,]\d)"
)
_NUM_CORE = r"\d+(?:(?:[.,'’]|[\u00a0\u202f ](?=\d{3}(?!\d)))\d+)*"
_NUMBER = re.compile(
    rf"(?<![{LAT}\d.,])(?<![{LAT}]-)"
    rf"(?P<num>{_NUM_CORE})"
    r"(?:"
    r"[\u00a0\u202f ]?(?P<scale_cjk>百万|百萬|千万|千萬|[百千万萬亿億兆])"
    rf"|\s?(?P<scale>{trie_pattern(SCALE_WORDS)})(?![{LAT}])"
    rf"|(?P<scale_abbr>[kmb])(?![{LAT}\d])"
    r")?"
    r"(?:"
    r"\s?(?P<pct>%|percent\b|per\s+cent\b|pct\b|prozent\b|pour\s?cent\b|個百分點|个百分点|percentage\s+points?\b|prozentpunkte\b)"
    rf"|\s?(?P<cur2>{trie_pattern(CUR_AFTER)})(?![{LAT}])"
    rf"|(?P<ord>st|nd|rd|th|er|re|e|ème|eme|ère|nde?)(?![{LAT}\d])"
    r")?"
)
# A unit of measure or an operator after a four-digit number: "1024 bytes", "1500 MB", "1000 *",
# "1000 years" are quantities, not years ("in 1998 prices rose" keeps its year: a word is not a unit).
_MEASURE_AFTER = re.compile(
    r"\s?(?:years?\b|yrs?\b|jahren?\b|ans\b|années\b|[kmgtp]i?b\b|[kmg]?hz\b|bytes?\b|bits?\b|octets?\b|kbit|mbit|gbit|ms\b|px\b|dpi\b|rpm\b|mah\b|"
    r"km\b|cm\b|mm\b|kg\b|mg\b|ml\b|°|[*×x/]\s?\d|[*×]|字节|位元|字節|个|個|人|件|次|台|种|種|条|條|页|頁|行|名|毫秒|秒)"
)
_CUR_BEFORE_RE = re.compile(rf"(?:(?<![{LAT}])(?:{trie_pattern(CUR_BEFORE)}))\s?$")
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*•][ \t]*)?$")


_FRACTION = re.compile(r"(?<![\d.,/])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/]|[.,]\d)")
_FRACTION_DENOMINATORS = frozenset({2, 3, 4, 5, 6, 8, 10, 12, 16})
_RATING_AFTER = re.compile(r"\s*(?:stars?|points?|pts\b|sterne|étoiles|分|星)")
_WHOLE_BEFORE = re.compile(r"(?<![\d.,/])(?P<w>\d{1,3})[ \u00a0]$")
_VULGAR = re.compile(r"(?:(?<![\d.,])(?P<w>\d{1,3})[ \u00a0]?)?(?P<f>[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])")


def _fraction_mention(lt: str, text: str, taken: Taken, a: int, b: int, value: float) -> NumberMention:
    """A fraction at [a, b), with the whole number written before it ("1 1/2") when there is one."""
    whole = _WHOLE_BEFORE.search(lt, max(0, a - 5), a)
    if whole is not None and taken.free(whole.start("w"), a):
        a, value = whole.start("w"), value + int(whole["w"])
    return NumberMention(a, b, text[a:b], "number", value, 0.0, "", repr(value))


def scan_fractions(lt: str, text: str, starts: list[int], out: list[NumberMention], taken: Taken) -> None:
    """Fractions read as one value: "1/3", "1 1/2 cups", "½", "1½". A pair whose second number is
    not a usual denominator, or is not the larger, stays two numbers ("24/7", "4/15")."""
    for mt in matches_at(_FRACTION, lt, starts, taken):
        num, den = int(mt["a"]), int(mt["b"])
        if not 1 <= num < den or den not in _FRACTION_DENOMINATORS or _RATING_AFTER.match(lt, mt.end()):
            continue  # "4/5 stars" is a rating, read as 4 on a scale of 5
        mention = _fraction_mention(lt, text, taken, mt.start(), mt.end(), num / den)
        out.append(mention)
        taken.take(mention.start, mention.end)
    if lt.isascii():
        return
    for mt in _VULGAR.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        value = VULGAR_FRACTIONS[mt["f"]] + (int(mt["w"]) if mt["w"] else 0)
        out.append(NumberMention(a, b, text[a:b], "number", value, 0.0, "", repr(value)))
        taken.take(a, b)



def scan_phones(lt: str, text: str, starts: list[int], out: list[NumberMention], taken: Taken) -> None:
    """``starts``: where a phone may start (``Runs.phone``)."""
    for mt in matches_at(_PHONE, lt, starts, taken):
        raw = mt["p"]
        a, b = mt.span("p")
        digits = re.sub(r"\D", "", raw)
        if len(digits) < 7:
            continue
        seps = len(re.findall(r"[\s.\-]+", raw.strip()))
        if THOUSANDS_SPACE.match(raw) or THOUSANDS_DOT.match(raw) or re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw):
            continue  # a grouped number, not a phone
        if not (raw.startswith(("+", "(")) or seps >= 2 or (seps == 1 and "-" in raw and len(digits) >= 9)):
            continue
        if re.fullmatch(r"\d{4}\s*-\s*\d{4}", raw):
            continue  # a year range
        out.append(NumberMention(a, b, text[a:b], "phone", None, 0.0, "", digits))
        taken.take(a, b)


def _list_marker(lt: str, a: int, b: int) -> bool:
    """``1.`` or ``2)`` opening a line: list numbering, not a claim."""
    if b < len(lt) and lt[b] in ".)" and (b + 1 >= len(lt) or lt[b + 1] in " \t"):
        line_start = lt.rfind("\n", 0, a) + 1
        return bool(_LIST_MARKER.fullmatch(lt, line_start, a))
    return False


def scan_digit_numbers(lt: str, text: str, reading: Reading, runs: list[int], out: list[NumberMention], taken: Taken) -> None:
    for s in runs:
        if taken.mask[s]:
            continue
        mt = _NUMBER.match(lt, s)
        if mt is None:
            continue
        na, nb = mt.span("num")
        if not taken.free(na, nb):
            continue
        parsed = plain_digits(mt["num"], reading)
        if parsed is None:
            continue
        whole, frac = parsed
        exact = not fits_a_float(whole)
        value = 0.0 if exact else float(f"{whole}.{frac}" if frac else whole)
        decimals = len(frac)
        before = _CUR_BEFORE_RE.search(lt, max(0, na - 8), na) if na else None
        cur = mt["cur2"] or (before.group().strip() if before else "")
        scale_tok = mt["scale_cjk"] or mt["scale"] or mt["scale_abbr"] or ""
        if mt["scale_abbr"] and (text[mt.start("scale_abbr")] in "mb") and not cur:
            scale_tok = ""  # "5m" is metres and "5b" a label; "5M", "$5m" and "5k" are amounts
        scale = SCALES.get(scale_tok, 1.0) if scale_tok else 1.0
        if mt["scale_cjk"]:
            scale_end = mt.end("scale_cjk")
        elif mt["scale"]:
            scale_end = mt.end("scale")
        elif scale_tok:
            scale_end = mt.end("scale_abbr")
        else:
            scale_end = nb
        a, b = na, scale_end
        kind, unit = "number", ""
        if mt["pct"]:
            kind, unit, b = "percent", "%", mt.end("pct")
        elif cur:
            kind = "money"
            unit = CURRENCIES.get(cur, cur)
            a = before.start() if before and not mt["cur2"] else na
            b = mt.end("cur2") if mt["cur2"] else scale_end
        elif mt["ord"] and not decimals and not scale_tok and (mt["ord"] in ("st", "nd", "rd", "th") or reading.is_("fr")):
            kind, b = "ordinal", mt.end("ord")
        if kind == "number" and not scale_tok and _list_marker(lt, na, nb):
            continue
        if exact:  # kept as its digits (see MAX_FLOAT_DIGITS)
            if not taken.free(a, b):
                a, b = na, nb
            key = exact_key(whole, frac, len(str(int(scale))) - 1)
            out.append(NumberMention(a, b, text[a:b], kind, None, 0.0, unit, key))
            taken.take(a, b)
            continue
        raw = mt["num"]
        if (
            kind == "number" and not decimals and not scale_tok and raw.isdigit() and 1000 <= value <= 2100
            and not _MEASURE_AFTER.match(lt, nb)
        ):
            kind = "year"
        total = value * scale
        prec = 0.0 if kind in ("year", "ordinal") else precision_of(value, decimals, scale, kind in ("number", "money"))
        if not taken.free(a, b):
            a, b = na, nb
        out.append(NumberMention(a, b, text[a:b], kind, total, prec, unit, fmt_value(total)))
        taken.take(a, b)
