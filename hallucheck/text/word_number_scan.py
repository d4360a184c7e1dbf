"""Figures written in words: spelled-out numbers and ordinals in English, German and French
("three", "two thousand", "zweite"), Chinese numerals ("三千五百万", "百分之十二", "第三"), and
Chinese shares ("85折" discounts, "3成" tenths), and centuries in Roman numerals ("XVIIe siècle").
Spelled small numbers and lone Chinese numerals are ``weak``: good enough to support a figure, too
ambiguous to be flagged."""

from __future__ import annotations

import re

from hallucheck.text.number_values import NumberMention, fmt_value, parse_chinese_numeral
from hallucheck.text.number_words import (
    CN_DIGITS,
    CUR_AFTER,
    CURRENCIES,
    EN_COMPOUNDS,
    GLUED_SCALES,
    HALF_NUMBERS,
    ORDINAL_WORDS,
    SCALE_WORDS,
    SCALES,
    SPELLED,
)
from hallucheck.text.phrases import trie_pattern
from hallucheck.text.scan_positions import LAT, Taken

__all__ = ["scan_chinese", "scan_roman_centuries", "scan_spelled", "scan_zh_decades", "scan_zh_shares"]

_SPELLED = re.compile(
    rf"\b(?<![{LAT}\-])(?:{trie_pattern([*SPELLED, *EN_COMPOUNDS, *ORDINAL_WORDS, *HALF_NUMBERS, *GLUED_SCALES])})(?![{LAT}\-])"
)
# "one and a half", "two and a half": a spelled whole and a half.
_AND_A_HALF = re.compile(r"\s+and\s+a\s+half(?![a-z])")
_SCALE_AFTER = re.compile(rf"\s+({trie_pattern(SCALE_WORDS)})(?![{LAT}])")
_CN_NUM = re.compile(
    r"(?P<pre>第|百分之)?(?P<n>[零〇一二两兩三四五六七八九十百千万萬亿億]+)"
    r"(?P<post>年|個百分點|个百分点|%)?"
    rf"(?P<cur>{trie_pattern([c for c in CUR_AFTER if not c.isascii()])})?"
)


# Chinese discounts: "85折", "8.5折", "九折", "八五折" (the share of the price paid).
_ZH_DISCOUNT = re.compile(r"(?<![\d.])(?P<n>\d{1,2}(?:\.\d)?|[一二三四五六七八九]{1,2})\s?折")
# Tenths as a share: "3成" / "三成" = 30%, "七成五" = 75% (not 成员, 成本, 成立, 成年, ...).
_ZH_TENTHS = re.compile(
    r"(?<![\d.])(?P<n>\d(?:\.\d)?|[一二三四五六七八九十])成(?P<m>[一二三四五六七八九])?(?![员員本功立年人绩績熟分型交为為果长長就品])"
)


def scan_zh_shares(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    """Chinese 折 discounts (kind ``discount``) and 成 tenths (kind ``percent``)."""
    for mt in _ZH_DISCOUNT.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        raw = mt["n"]
        if raw[0].isdigit():
            value = float(raw) * 10 if float(raw) < 10 else float(raw)
        else:
            digits = "".join(str(CN_DIGITS[ch]) for ch in raw)
            value = float(digits) * 10 if len(digits) == 1 else float(digits)
        if not 0 < value < 100:
            continue
        out.append(NumberMention(a, b, text[a:b], "discount", value, 0.0, "%", fmt_value(value)))
        taken.take(a, b)
    for mt in _ZH_TENTHS.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        raw = mt["n"]
        tenths = float(raw) if raw[0].isdigit() else float(CN_DIGITS.get(raw, 10))
        value = tenths * 10 + (CN_DIGITS[mt["m"]] if mt["m"] else 0)
        out.append(NumberMention(a, b, text[a:b], "percent", value, 0.0, "%", fmt_value(value)))
        taken.take(a, b)


# A century in Roman numerals, as French writes it ("XVIIe siècle", "Ier siècle"); only before the
# word for century, where a run of these letters can be nothing else.
_ROMAN_CENTURY = re.compile(r"(?<![^\W\d_])(?P<r>[ivxlc]+)(?:e|ème|eme|er|ᵉ|ʳ)?(?=\s+siècles?\b)")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def _roman_value(r: str) -> int:
    values = [_ROMAN[c] for c in r]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def scan_roman_centuries(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    """Centuries in Roman numerals ("XVIIe siècle" is the 17th): an ordinal, as "17e siècle" is."""
    if "siècle" not in lt:
        return
    for mt in _ROMAN_CENTURY.finditer(lt):
        a, b = mt.span()
        value = _roman_value(mt["r"])
        if not 1 <= value <= 30 or not taken.free(a, b):
            continue
        out.append(NumberMention(a, b, text[a:b], "ordinal", float(value), 0.0, "", str(value)))
        taken.take(a, b)


# A decade named by its century in Chinese: "20 世纪 20 年代" and "二十世纪二十年代" are the 1920s,
# "上世纪八十年代" (the last century) the 1980s.
_ZH_DECADE = re.compile(r"(?:(?P<c>\d{1,2}|[一二三四五六七八九十]{1,3})\s*世[纪紀]|(?P<last>上)\s*(?:个|個)?\s*世[纪紀])\s*"
                        r"(?P<d>[1-9]0|[一二三四五六七八九]十)\s*年代")


def scan_zh_decades(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    """Decades named by their century ("20 世纪 20 年代"): the year that opens them (1920), as
    "1920 年代" gives it."""
    if "年代" not in lt:
        return
    for mt in _ZH_DECADE.finditer(lt):
        a, b = mt.span()
        century = 20 if mt["last"] else (int(mt["c"]) if mt["c"].isdigit() else parse_chinese_numeral(mt["c"]))
        decade = int(mt["d"]) if mt["d"].isdigit() else parse_chinese_numeral(mt["d"])
        if century is None or decade is None or not 1 <= century <= 30 or not taken.free(a, b):
            continue
        year = (century - 1) * 100 + decade
        out.append(NumberMention(a, b, text[a:b], "year", float(year), 0.0, "", str(year), year))
        taken.take(a, b)


def scan_spelled(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    for mt in _SPELLED.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        w = mt.group()
        if w in ORDINAL_WORDS:
            out.append(NumberMention(a, b, text[a:b], "ordinal", float(ORDINAL_WORDS[w]), 0.0, "", str(ORDINAL_WORDS[w]), weak=True))
            taken.take(a, b)
            continue
        if w in HALF_NUMBERS:
            out.append(NumberMention(a, b, text[a:b], "number", HALF_NUMBERS[w], 0.0, "", fmt_value(HALF_NUMBERS[w]), weak=True))
            taken.take(a, b)
            continue
        if w in GLUED_SCALES:
            whole, unit = GLUED_SCALES[w]
            out.append(NumberMention(a, b, text[a:b], "number", whole * unit, unit, "", fmt_value(whole * unit)))
            taken.take(a, b)
            continue
        value = float(EN_COMPOUNDS.get(w, SPELLED.get(w, -1)))
        if value < 0:
            continue
        half = _AND_A_HALF.match(lt, b)
        if half is not None and 0 < value < 100:
            value, b = value + 0.5, half.end()
            out.append(NumberMention(a, b, text[a:b], "number", value, 0.0, "", fmt_value(value), weak=True))
            taken.take(a, b)
            continue
        scale = 1.0
        sm = _SCALE_AFTER.match(lt, b)
        if sm:
            scale = SCALES.get(sm.group(1), 1.0)
            b = sm.end()
        total = value * scale
        out.append(NumberMention(a, b, text[a:b], "number", total, scale if scale > 1 else 0.0, "", fmt_value(total), weak=scale == 1.0))
        taken.take(a, b)


# Characters of a numeral that scale it: "十二月" is December, "三百月" no month.
_SCALE_CHARS = frozenset("百千万萬亿億")


def scan_chinese(lt: str, text: str, out: list[NumberMention], taken: Taken) -> None:
    for mt in _CN_NUM.finditer(lt):
        a, b = mt.span()
        n = mt["n"]
        value = parse_chinese_numeral(n)
        if value is None or not taken.free(a, b):
            continue
        pre, post, cur = mt["pre"] or "", mt["post"] or "", mt["cur"] or ""
        weak = len(n) == 1 and not post and not cur and pre != "百分之"
        if pre == "百分之" or post in ("%", "個百分點", "个百分点"):
            kind, unit = "percent", "%"
        elif cur:
            kind, unit = "money", CURRENCIES.get(cur, cur)
        elif pre == "第":
            kind, unit = "ordinal", ""
            weak = value <= 3
        elif post == "年" and value >= 1000:
            kind, unit = "year", ""
        elif not post and not pre and 1 <= value <= 12 and lt.startswith("月", b) and not _SCALE_CHARS.intersection(n):
            # "三月" is March, as "3月" is: a month, not the number three ("三个月" is a length of time)
            out.append(NumberMention(a, b + 1, text[a : b + 1], "date", None, 0.0, "", f"?-{value}-?", None, value, None))
            taken.take(a, b + 1)
            continue
        else:
            kind, unit = "number", ""
            if post:
                b = mt.end("n")
            if len(n) == 1 and post == "年":
                weak = True
        out.append(NumberMention(a, b, text[a:b], kind, float(value), 0.0, unit, str(value), weak=weak))
        taken.take(a, b)
