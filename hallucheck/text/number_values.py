"""What a figure found in text is (:class:`NumberMention`), how its written form is read into a
value and a precision, and when two figures state the same value (:func:`same_value`).

A whole number of more than :data:`MAX_FLOAT_DIGITS` digits is kept as its exact digits, never
as a float: figures of any length are read, and compared digit by digit.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from hallucheck.text.number_words import CN_BIG, CN_DIGITS, CN_UNITS

__all__ = [
    "MAX_FLOAT_DIGITS",
    "ROUNDING_SHARE",
    "NumberMention",
    "Reading",
    "THOUSANDS_DOT",
    "THOUSANDS_SPACE",
    "exact_key",
    "fits_a_float",
    "fmt_value",
    "parse_chinese_numeral",
    "plain_digits",
    "precision_of",
    "same_value",
]


class NumberMention(NamedTuple):
    start: int
    end: int
    text: str
    kind: str  # number | percent | money | date | year | time | phone | ordinal
    value: float | None  # None for dates, phones and figures too long for a float
    precision: float = 0.0  # the written value is exact to +- precision / 2 (0 = exact)
    unit: str = ""  # currency code for money, "%" for percent
    key: str = ""  # canonical form: "2021-03-03" / "2021-03-?" for dates, digits for phones, exact_key for long figures
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weak: bool = False
    bound: bool = False  # an end of a range ("5" in "3 to 5 days"): a limit as written, not a rounded value


# Digits of a whole number that a float still tells apart (2**63 has 19): a longer digit string (an
# ID, a serial, digits pasted by accident; 49,990 of them make a float infinite) keeps ``value``
# None and its exact digits in ``key`` (:func:`exact_key`), and two such figures are equal when
# their digits are.
MAX_FLOAT_DIGITS = 18
_MAX_EXACT = 10**MAX_FLOAT_DIGITS
THOUSANDS_SPACE = re.compile(r"^\d{1,3}(?:[ \u00a0\u202f]\d{3})+$")
THOUSANDS_DOT = re.compile(r"^\d{1,3}(?:\.\d{3})+$")


class Reading:
    """The language figures are read in, and whether the reading has depended on it yet.

    Every language-dependent decision of the scan asks this object, which notes that the language
    was used: a scan that never asked found the same mentions in every language (up to the
    spelled-out numbers, which Chinese readings skip), and ``scan_numbers`` can say so.
    """

    __slots__ = ("lang", "used")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.used = False

    def is_(self, code: str) -> bool:
        self.used = True
        return self.lang == code

    def groups_with_dot(self) -> bool:
        """Whether "1.200" is twelve hundred (and "1,200" one point two)."""
        self.used = True
        return self.lang in ("de", "fr", "es", "it", "nl", "pt")


def plain_digits(raw: str, reading: Reading) -> tuple[str, str] | None:
    """The whole and the decimal digits of a digit string with separators ("1,234.5" gives
    ("1234", "5")), or None when malformed. Kept as strings: a string of any length is read
    without a float, and the caller decides whether one can hold it (:func:`fits_a_float`)."""
    raw = raw.replace("’", "'")
    if THOUSANDS_SPACE.match(raw):
        return re.sub(r"\D", "", raw), ""
    if " " in raw or "\u00a0" in raw or "\u202f" in raw:
        return None
    if "'" in raw:
        if re.fullmatch(r"\d{1,3}(?:'\d{3})+(?:\.\d+)?", raw):
            whole, _, frac = raw.replace("'", "").partition(".")
            return whole, frac
        return None
    dots, commas = raw.count("."), raw.count(",")
    if dots and commas:
        dec = "." if raw.rfind(".") > raw.rfind(",") else ","
        thou = "," if dec == "." else "."
        int_part, _, frac = raw.rpartition(dec)
        if not re.fullmatch(rf"\d{{1,3}}(?:{re.escape(thou)}\d{{3}})+", int_part):
            return None
        return int_part.replace(thou, ""), frac
    sep = "." if dots else "," if commas else ""
    if not sep:
        return raw, ""
    parts = raw.split(sep)
    if len(parts) > 2:
        if all(len(p) == 3 for p in parts[1:]) and 1 <= len(parts[0]) <= 3:
            return "".join(parts), ""
        return None  # a version number such as 1.2.3
    head, tail = parts
    if len(tail) == 3 and head != "0" and 1 <= len(head) <= 3:
        # "1,200" / "1.200": thousands in the language that groups with that mark.
        grouping = "." if reading.groups_with_dot() else ","
        if sep == grouping:
            return head + tail, ""
    return head, tail


def fits_a_float(whole: str) -> bool:
    """Whether a whole part of this many digits is a quantity a float holds (see :data:`MAX_FLOAT_DIGITS`)."""
    return len(whole.lstrip("0")) <= MAX_FLOAT_DIGITS


def exact_key(whole: str, frac: str = "", exponent: int = 0) -> str:
    """The exact value of ``whole.frac`` times ``10 ** exponent`` as digits and a power of ten
    ("1234e-1" for 123.4, "5e3" for 5 thousand): equal values give equal keys, whatever their length."""
    digits = (whole + frac).lstrip("0")
    stripped = digits.rstrip("0")
    if not stripped:
        return "0e0"
    return f"{stripped}e{exponent - len(frac) + len(digits) - len(stripped)}"


def parse_chinese_numeral(s: str) -> int | None:
    """``十二`` -> 12, ``两千`` -> 2000, ``三千五百万`` -> 35000000, ``二〇二一`` -> 2021; None if malformed."""
    if not s:
        return None
    if all(ch in CN_DIGITS for ch in s):
        if len(s) > MAX_FLOAT_DIGITS:
            return None  # a run of digit characters no quantity is written as
        if len(s) == 1:
            return CN_DIGITS[s]
        if len(s) >= 3 and s[0] not in "零〇":
            return int("".join(str(CN_DIGITS[ch]) for ch in s))
        return None
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 10**13
    for i, ch in enumerate(s):
        if ch in CN_DIGITS:
            if digit is not None and CN_DIGITS[ch] != 0 and s[i - 1] not in "零〇":
                return None  # two digits in a row: not a numeral (一一)
            digit = CN_DIGITS[ch]
        elif ch in CN_UNITS:
            unit = CN_UNITS[ch]
            if digit is None:
                if ch != "十":
                    return None  # 千万 / 百分 without a leading digit: a word, not a number
                digit = 1
            if unit >= last_unit:
                return None
            section += digit * unit
            last_unit = unit
            digit = None
        elif ch in CN_BIG:
            big = CN_BIG[ch]
            if digit is None and not section:
                return None  # 万一 ("in case"), 亿万
            section += digit or 0
            total = (total + section) * big if big > 10_000 else total + section * big
            if total >= _MAX_EXACT:
                return None  # 一亿一亿一亿...: no quantity is written so
            section, digit, last_unit = 0, None, 10**13
        else:
            return None
    return total + section + (digit or 0)


def precision_of(value: float, decimals: int, scale: float, rounded_ints: bool) -> float:
    """The unit of the last written digit: 0.1 for ``3.5``, 1e6 for ``3 million``, 1 for ``24``."""
    if decimals:
        return 10.0 ** (-decimals) * scale
    if scale > 1:
        return scale
    if rounded_ints and value >= 1000 and value == int(value):
        v = int(value)
        zeros = len(str(v)) - len(str(v).rstrip("0"))
        return float(min(10**zeros, max(1, v // 10))) if zeros else 1.0
    return 1.0



def fmt_value(v: float) -> str:
    return str(int(v)) if v == int(v) and abs(v) < 1e18 else repr(v)



# An unhedged rounding to a scale (millions, 亿, thousands written with trailing zeros) changes a
# figure by at most this share of it: "1.2 million" for 1,234,567 restates it; "2 billion" for 1.5
# billion (a third more) and "1亿" for 1.4亿 change it, though each is the other rounded to its last
# written digit. Rounding to units keeps half a unit ("3" for 3.4, "2 hours" for two and a half). A
# hedged figure ("about 2 billion") is judged by the hedge rule
# (hallucheck.detectors.rules.derived_figures), within 10%.
ROUNDING_SHARE = 0.15


def same_value(a: NumberMention, b: NumberMention) -> bool:
    """Whether ``a`` restates ``b``'s value, allowing for rounding.

    Numbers are equal within half the unit of the coarser one's last written digit, and, rounded to
    a scale, within :data:`ROUNDING_SHARE` of their size: 3.5 (one decimal) matches 3.47, 3 matches
    3.4, 1.2 million matches 1,234,567, 1,200 matches 1,234 (trailing zeros of an integer of 1000 or
    more mark it as rounded, at most to a tenth of its size), but 2 billion does not match 1.5
    billion; two plain integers (20 and 24), years, times and ordinals must be exact (a time written
    without am/pm, such as ``5:00``, matches 5 am and 5 pm). An amount or a percentage is no
    rounding of a bare whole number, nor a figure of two decimals of a small whole number that ends
    a range (:func:`_may_round`). Dates match when every field both give agrees; phones when their
    digits agree (ignoring leading zeros and a country code).
    """
    if a.kind == "phone" or b.kind == "phone":
        if a.kind != b.kind:
            return False
        x, y = a.key.lstrip("0"), b.key.lstrip("0")
        return x == y or (min(len(x), len(y)) >= 7 and (x.endswith(y) or y.endswith(x)))
    if a.kind == "date" or b.kind == "date":
        if a.kind == "date" and b.kind == "date":
            pairs = ((a.year, b.year), (a.month, b.month), (a.day, b.day))
            shared = [(p, q) for p, q in pairs if p is not None and q is not None]
            return bool(shared) and all(p == q for p, q in shared)
        other = b if a.kind == "date" else a
        date = a if a.kind == "date" else b
        return other.kind in ("year", "number") and date.year is not None and other.value == date.year
    if a.value is None or b.value is None:
        return a.value is None and b.value is None and a.kind != "time" and bool(a.key) and a.key == b.key
    if (a.kind == "time") != (b.kind == "time"):
        return False
    if a.kind == "time" and "12h" in (a.unit, b.unit):
        return (a.value - b.value) % 720 == 0
    if a.value != b.value and not _may_round(a, b):
        return False
    coarse = max(a.precision, b.precision)
    diff, size = abs(a.value - b.value), max(abs(a.value), abs(b.value))
    if coarse > 1.0 and diff > ROUNDING_SHARE * size + 1e-9:
        return False  # "2 billion" is no rounding of "1.5 billion", nor 1亿 of 1.4亿
    return diff <= coarse / 2.0 + 1e-9 * max(size, 1.0)


_WITH_UNIT = frozenset({"money", "percent"})


def _may_round(a: NumberMention, b: NumberMention) -> bool:
    """Whether the coarser of two different values may be a rounding of the finer one at all.

    Not when a figure with a currency or a percent sign meets a bare whole number written to the
    unit: "4.90 EUR" is no rounding of the "5" of "3 to 5 business days", which counts something
    else (a bare figure with a scale word, "3.5 million" for "$3.47 million", still is). Nor when
    the coarser one is a small whole number at an end of a range and the finer one has two
    decimals or more: "3 to 5" states its limits, and "4.90" is not one of them.
    """
    coarse, fine = (a, b) if a.precision >= b.precision else (b, a)
    if coarse.precision > 1.0:
        return True
    if {a.kind, b.kind} & _WITH_UNIT and "number" in (a.kind, b.kind) and a.kind != b.kind:
        return False
    return not (coarse.bound and coarse.precision == 1.0 and 0.0 < fine.precision <= 0.01)


# ---------------------------------------------------------------- scanning
