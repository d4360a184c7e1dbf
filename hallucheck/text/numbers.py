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
from collections.abc import Iterator
from itertools import accumulate
from typing import NamedTuple

from hallucheck.text.language import base_language
from hallucheck.text.phrases import lower_keep_offsets, trie_pattern

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


class NumberMention(NamedTuple):
    start: int
    end: int
    text: str
    kind: str  # number | percent | money | date | year | time | phone | ordinal
    value: float | None  # None for dates and phones
    precision: float = 0.0  # the written value is exact to +- precision / 2 (0 = exact)
    unit: str = ""  # currency code for money, "%" for percent
    key: str = ""  # canonical form: "2021-03-03" / "2021-03-?" for dates, digits for phones
    year: int | None = None
    month: int | None = None
    day: int | None = None
    weak: bool = False


# ---------------------------------------------------------------- vocabularies

MONTHS: dict[str, int] = {}
for _num, _names in enumerate(
    (
        "january jan janvier janv januar jänner jän",
        "february feb février fevrier févr fevr februar",
        "march mar mars märz maerz mär",
        "april apr avril avr",
        "may mai",
        "june jun juin juni",
        "july jul juillet juil juli",
        "august aug août aout",
        "september sep sept septembre",
        "october oct octobre oktober okt",
        "november nov novembre",
        "december dec décembre decembre dezember dez déc",
    ),
    start=1,
):
    for _n in _names.split():
        MONTHS[_n] = _num

# Currency marks (lower case) -> code. "$" and "¥" are ambiguous and keep their own codes.
CURRENCIES: dict[str, str] = {
    "$": "$", "us$": "USD", "usd": "USD", "dollar": "$", "dollars": "$", "美元": "USD", "美金": "USD",
    "€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "欧元": "EUR", "歐元": "EUR",
    "£": "GBP", "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "英镑": "GBP", "英鎊": "GBP",
    "¥": "¥", "￥": "¥", "元": "CNY", "圓": "CNY", "块": "CNY", "塊": "CNY", "人民币": "CNY",
    "人民幣": "CNY", "rmb": "CNY", "cny": "CNY", "yuan": "CNY", "jpy": "JPY", "yen": "JPY",
    "日元": "JPY", "日圓": "JPY", "hk$": "HKD", "hkd": "HKD", "港元": "HKD", "港币": "HKD", "港幣": "HKD",
    "nt$": "TWD", "twd": "TWD", "ntd": "TWD", "台幣": "TWD", "台币": "TWD", "新台幣": "TWD",
    "新台币": "TWD", "chf": "CHF", "franken": "CHF", "fr.": "CHF", "₹": "INR", "inr": "INR",
    "rupees": "INR", "a$": "AUD", "aud": "AUD", "c$": "CAD", "cad": "CAD", "cent": "cent",
    "cents": "cent", "centimes": "cent",
}
_CUR_BEFORE = ("us$", "hk$", "nt$", "a$", "c$", "$", "€", "£", "¥", "￥", "₹", "usd", "eur", "gbp",
               "chf", "cny", "rmb", "jpy", "hkd", "twd", "inr", "aud", "cad")
_CUR_AFTER = ("€", "$", "£", "¥", "￥", "新台幣", "新台币", "人民币", "人民幣", "美元", "美金", "欧元", "歐元",
              "英镑", "英鎊", "日元", "日圓", "港元", "港币", "港幣", "台幣", "台币", "元", "圓", "块", "塊",
              "euros", "euro", "dollars", "dollar", "usd", "eur", "gbp", "chf", "cny", "rmb", "yuan",
              "yen", "pounds", "franken", "rupees", "cents", "cent", "centimes")

SCALES: dict[str, float] = {
    "thousand": 1e3, "thousands": 1e3, "k": 1e3, "million": 1e6, "millions": 1e6, "mn": 1e6,
    "mln": 1e6, "m": 1e6, "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9, "trillion": 1e12,
    "tausend": 1e3, "millionen": 1e6, "mio": 1e6, "mio.": 1e6, "milliarde": 1e9, "milliarden": 1e9,
    "mrd": 1e9, "mrd.": 1e9, "billionen": 1e12, "mille": 1e3, "milliers": 1e3, "milliard": 1e9,
    "milliards": 1e9, "百": 1e2, "千": 1e3, "万": 1e4, "萬": 1e4, "亿": 1e8, "億": 1e8, "兆": 1e12,
    "百万": 1e6, "百萬": 1e6, "千万": 1e7, "千萬": 1e7,
}
_SCALE_WORDS = ("thousands", "thousand", "millions", "million", "billions", "billion", "trillion",
                "tausend", "millionen", "milliarden", "milliarde", "billionen", "milliards", "milliard",
                "milliers", "mille", "mio.", "mio", "mrd.", "mrd", "mln", "mn", "bn")

SPELLED: dict[str, int] = {}
for _lang_words in (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty",
    "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
    "sechzehn siebzehn achtzehn neunzehn zwanzig",
    "zéro _ deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize "
    "dix-sept dix-huit dix-neuf vingt",
):
    for _i, _w in enumerate(_lang_words.split()):
        if _w != "_":
            SPELLED.setdefault(_w, _i)
SPELLED.update({
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100, "dozen": 12, "dreißig": 30, "vierzig": 40, "fünfzig": 50, "hundert": 100,
    "trente": 30, "quarante": 40, "cinquante": 50, "soixante": 60, "cent": 100,
})
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_EN_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}

_FULLWIDTH = str.maketrans("０１２３４５６７８９％．＄", "0123456789%.$")
_FULLWIDTH_PUNCT = str.maketrans({"％": "%", "．": ".", "＄": "$", "￥": "¥"})

# ---------------------------------------------------------------- patterns
# All patterns run on lower-cased text with full-width digits mapped (offsets unchanged), with the
# standard ``re`` engine and trie-shaped alternations: fast enough for hundreds of answers a second.

_LAT = "a-z\u00c0-\u024f"  # Latin letters (lower case text)
_D = r"(?<![\d.,])"  # no digit or decimal part right before
_ND = r"(?!\d)"
_MONTH = rf"(?P<mon>{trie_pattern(MONTHS)})\.?"
_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # 2021-03-03, 2021/3/3, 2021.03.03
    ("iso", re.compile(rf"{_D}(?P<y>\d{{4}})(?P<s>[-/.])(?P<m>\d{{1,2}})(?P=s)(?P<d>\d{{1,2}}){_ND}")),
    # 2021年3月3日 / 2021年3月 / 3月3日
    ("cjk", re.compile(r"(?:(?P<y>\d{2,4})\s*年\s*)?(?P<m>\d{1,2})\s*月(?:\s*(?P<d>\d{1,2})\s*[日号號])?")),
    # 3 March 2021 / 3. März 2021 / 1er mars 2021 / 3rd of March
    (
        "day_first",
        re.compile(
            rf"{_D}(?P<d>\d{{1,2}})(?:st|nd|rd|th|er|\.)?\s*(?:of\s+)?{_MONTH}(?![{_LAT}])(?:,?\s+(?P<y>\d{{4}}){_ND})?"
        ),
    ),
    # March 3, 2021 / March 3rd / March 2021
    (
        "month_first",
        re.compile(
            rf"\b(?<![{_LAT}]){_MONTH}\s+(?:(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d{_LAT}])(?:,?\s+(?P<y>\d{{4}}){_ND})?|(?P<y2>\d{{4}}){_ND})"
        ),
    ),
    # 03/03/2021, 3.3.2021 (day first except in English)
    ("numeric", re.compile(rf"{_D}(?P<a>\d{{1,2}})(?P<s>[/.])(?P<b>\d{{1,2}})(?P=s)(?P<y>\d{{4}}|\d{{2}}){_ND}(?!\.\d)")),
    # 2021年 (a year in Chinese)
    ("cjk_year", re.compile(r"(?<!\d)(?P<y>\d{4})\s*年(?!\s*\d{1,2}\s*月)")),
]
_TIMES = [
    # 16:30, 21:0, 9:30 pm, 19h30
    re.compile(
        r"(?<![\d.:,])(?P<h>\d{1,2})(?::|h(?=\d{2}))(?P<mi>\d{1,2})(?!\d)(?::\d{2}(?!\d))?"
        r"(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?"
    ),
    # 9 am, 5 p.m., 19 Uhr
    re.compile(r"(?<![\d.:,])(?P<h>\d{1,2})\s*(?:(?P<ap>[ap])\.?\s?m\b\.?|uhr\b)"),
]
_PHONE = re.compile(
    rf"(?<![{_LAT}\d+])(?P<p>(?:\+\d{{1,3}}[\s.\-]?)?(?:\(\d{{1,5}}\)[\s.\-]?)?\d{{1,5}}(?:[ \u00a0.\-]\d{{2,5}}){{1,5}})(?!\d|[.,]\d)"
)
_THOUSANDS_SPACE = re.compile(r"^\d{1,3}(?:[ \u00a0\u202f]\d{3})+$")
_THOUSANDS_DOT = re.compile(r"^\d{1,3}(?:\.\d{3})+$")
_RUN_SPLIT = re.compile(r"(\d+)")  # split() gives other text, digits, other text, ..., other text
_MONTH_BEFORE = re.compile(rf"(?<![{_LAT}])(?:{trie_pattern(MONTHS)})\.?\s+$")
_HAS_HAN = re.compile(r"[\u4e00-\u9fff]")

_NUM_CORE = r"\d+(?:(?:[.,'’]|[\u00a0\u202f ](?=\d{3}(?!\d)))\d+)*"
_NUMBER = re.compile(
    rf"(?<![{_LAT}\d.,])(?<![{_LAT}]-)"
    rf"(?P<num>{_NUM_CORE})"
    r"(?:"
    r"(?P<scale_cjk>百万|百萬|千万|千萬|[百千万萬亿億兆])"
    rf"|\s?(?P<scale>{trie_pattern(_SCALE_WORDS)})(?![{_LAT}])"
    rf"|(?P<scale_abbr>[kmb])(?![{_LAT}\d])"
    r")?"
    r"(?:"
    r"\s?(?P<pct>%|percent\b|per\s+cent\b|pct\b|prozent\b|pour\s?cent\b|個百分點|个百分点|percentage\s+points?\b|prozentpunkte\b)"
    rf"|\s?(?P<cur2>{trie_pattern(_CUR_AFTER)})(?![{_LAT}])"
    rf"|(?P<ord>st|nd|rd|th|er|re|e|ème|eme|ère|nde?)(?![{_LAT}\d])"
    r")?"
)
# A unit of measure or an operator after a four-digit number: "1024 bytes", "1500 MB", "1000 *",
# "1000 years" are quantities, not years ("in 1998 prices rose" keeps its year: a word is not a unit).
_MEASURE_AFTER = re.compile(
    r"\s?(?:years?\b|yrs?\b|jahren?\b|ans\b|années\b|[kmgtp]i?b\b|[kmg]?hz\b|bytes?\b|bits?\b|octets?\b|kbit|mbit|gbit|ms\b|px\b|dpi\b|rpm\b|mah\b|"
    r"km\b|cm\b|mm\b|kg\b|mg\b|ml\b|°|[*×x/]\s?\d|[*×]|字节|位元|字節|个|個|人|件|次|台|种|種|条|條|页|頁|行|名|毫秒|秒)"
)
_CUR_BEFORE_RE = re.compile(rf"(?:(?<![{_LAT}])(?:{trie_pattern(_CUR_BEFORE)}))\s?$")
_EN_COMPOUNDS = {f"{t}-{u}": tv + uv for t, tv in _EN_TENS.items() for u, uv in _EN_UNITS.items()}
# Spelled ordinals ("the second largest"): weak, they only support a written "2nd".
ORDINAL_WORDS: dict[str, int] = {}
for _lang_words in (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth",
    "premier deuxième troisième quatrième cinquième sixième septième huitième neuvième dixième",
    "erste zweite dritte vierte fünfte sechste siebte achte neunte zehnte elfte zwölfte",
):
    for _i, _w in enumerate(_lang_words.split(), start=1):
        ORDINAL_WORDS[_w] = _i
ORDINAL_WORDS.update({"première": 1, "seconde": 2})
for _w, _i in list(ORDINAL_WORDS.items()):
    if _w.endswith("te"):  # German endings: erste, ersten, erster, erstes, erstem
        ORDINAL_WORDS.update({_w + e: _i for e in ("n", "r", "s", "m")})
_SPELLED = re.compile(
    rf"\b(?<![{_LAT}\-])(?:{trie_pattern(list(SPELLED) + list(_EN_COMPOUNDS) + list(ORDINAL_WORDS))})(?![{_LAT}\-])"
)
_SCALE_AFTER = re.compile(rf"\s+({trie_pattern(_SCALE_WORDS)})(?![{_LAT}])")
_CN_NUM = re.compile(
    r"(?P<pre>第|百分之)?(?P<n>[零〇一二两兩三四五六七八九十百千万萬亿億]+)"
    r"(?P<post>年|個百分點|个百分点|%)?"
    rf"(?P<cur>{trie_pattern([c for c in _CUR_AFTER if not c.isascii()])})?"
)
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*•][ \t]*)?$")


# ---------------------------------------------------------------- value parsing


class _Reading:
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


def _parse_plain(raw: str, reading: _Reading) -> tuple[float, int] | None:
    """Value and number of decimals of a digit string with separators, or None when malformed."""
    raw = raw.replace("’", "'")
    if _THOUSANDS_SPACE.match(raw):
        return float(re.sub(r"\D", "", raw)), 0
    if " " in raw or "\u00a0" in raw or "\u202f" in raw:
        return None
    if "'" in raw:
        if re.fullmatch(r"\d{1,3}(?:'\d{3})+(?:\.\d+)?", raw):
            return float(raw.replace("'", "")), len(raw.partition(".")[2])
        return None
    dots, commas = raw.count("."), raw.count(",")
    if dots and commas:
        dec = "." if raw.rfind(".") > raw.rfind(",") else ","
        thou = "," if dec == "." else "."
        int_part, _, frac = raw.rpartition(dec)
        if not re.fullmatch(rf"\d{{1,3}}(?:{re.escape(thou)}\d{{3}})+", int_part):
            return None
        return float(int_part.replace(thou, "") + "." + frac), len(frac)
    sep = "." if dots else "," if commas else ""
    if not sep:
        return float(raw), 0
    parts = raw.split(sep)
    if len(parts) > 2:
        if all(len(p) == 3 for p in parts[1:]) and 1 <= len(parts[0]) <= 3:
            return float("".join(parts)), 0
        return None  # a version number such as 1.2.3
    head, tail = parts
    if len(tail) == 3 and head != "0" and 1 <= len(head) <= 3:
        # "1,200" / "1.200": thousands in the language that groups with that mark.
        grouping = "." if reading.groups_with_dot() else ","
        if sep == grouping:
            return float(head + tail), 0
    return float(head + "." + tail), len(tail)


def parse_chinese_numeral(s: str) -> int | None:
    """``十二`` -> 12, ``两千`` -> 2000, ``三千五百万`` -> 35000000, ``二〇二一`` -> 2021; None if malformed."""
    if not s:
        return None
    if all(ch in _CN_DIGITS for ch in s):
        if len(s) == 1:
            return _CN_DIGITS[s]
        if len(s) >= 3 and s[0] not in "零〇":
            return int("".join(str(_CN_DIGITS[ch]) for ch in s))
        return None
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 10**13
    for i, ch in enumerate(s):
        if ch in _CN_DIGITS:
            if digit is not None and _CN_DIGITS[ch] != 0 and s[i - 1] not in "零〇":
                return None  # two digits in a row: not a numeral (一一)
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            unit = _CN_UNITS[ch]
            if digit is None:
                if ch != "十":
                    return None  # 千万 / 百分 without a leading digit: a word, not a number
                digit = 1
            if unit >= last_unit:
                return None
            section += digit * unit
            last_unit = unit
            digit = None
        elif ch in _CN_BIG:
            big = _CN_BIG[ch]
            if digit is None and not section:
                return None  # 万一 ("in case"), 亿万
            section += digit or 0
            total = (total + section) * big if big > 10_000 else total + section * big
            section, digit, last_unit = 0, None, 10**13
        else:
            return None
    return total + section + (digit or 0)


def _precision(value: float, decimals: int, scale: float, rounded_ints: bool) -> float:
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


def same_value(a: NumberMention, b: NumberMention) -> bool:
    """Whether ``a`` restates ``b``'s value, allowing for rounding.

    Numbers are equal within half the unit of the coarser one's last written digit: 3.5 (one
    decimal) matches 3.47, 3 matches 3.4, 1.2 million matches 1,234,567, 1,200 matches 1,234
    (trailing zeros of an integer of 1000 or more mark it as rounded, at most to a tenth of its
    size); two plain integers (20 and 24), years, times and ordinals must be exact (a time written without am/pm, such as ``5:00``, matches
    5 am and 5 pm). Dates match when every field both give agrees; phones when
    their digits agree (ignoring leading zeros and a country code).
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
        return False
    if (a.kind == "time") != (b.kind == "time"):
        return False
    if a.kind == "time" and "12h" in (a.unit, b.unit):
        return (a.value - b.value) % 720 == 0
    tol = max(a.precision, b.precision) / 2.0
    return abs(a.value - b.value) <= tol + 1e-9 * max(abs(a.value), abs(b.value), 1.0)


# ---------------------------------------------------------------- scanning


class _Taken:
    """Character positions already claimed by an earlier (higher-priority) mention."""

    def __init__(self, n: int) -> None:
        self.mask = bytearray(n)

    def free(self, a: int, b: int) -> bool:
        return self.mask.find(1, a, b) < 0

    def take(self, a: int, b: int) -> None:
        self.mask[a:b] = b"\x01" * (b - a)


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


def _at(pat: re.Pattern[str], lt: str, starts: list[int], taken: _Taken) -> Iterator[re.Match[str]]:
    """Matches of ``pat`` anchored at each candidate start that no earlier mention claimed."""
    for s in starts:
        if taken.mask[s]:
            continue
        mt = pat.match(lt, s)
        if mt is not None and taken.free(*mt.span()):
            yield mt


# What may follow the digit run that a pattern starts with. The pattern matches the run whole (a
# shorter prefix of it would be followed by a digit, which no pattern allows there), so a run
# followed by anything else cannot start a match and is not tried. White space counts where the
# pattern allows ``\s`` (for ``re``, ``\s`` is exactly ``str.isspace``).
_NEXT_DAY_FIRST = frozenset("snrte.o") | frozenset(name[0] for name in MONTHS)  # 3rd / 3. / of / March
_NEXT_NUMERIC = frozenset("/.")  # 03/03/2021, 3.3.2021
_NEXT_ISO = frozenset("-/.")  # 2021-03-03
_NEXT_CLOCK = frozenset(":h")  # 16:30, 19h30
_NEXT_HOUR = frozenset("apu")  # 9 am, 5 p.m., 19 uhr
_NEXT_PHONE = frozenset(" \u00a0.-")  # 0800-123-456, 030 1234 5678 (a group of at most five digits)


class _Runs(NamedTuple):
    """Start offsets of the digit runs of a text: all of them, and per pattern the ones it may start at."""

    all: list[int]
    day_first: list[int]  # at most two digits
    numeric: list[int]  # at most two digits
    iso: list[int]  # four digits
    clock: list[int]  # at most two digits
    hour: list[int]  # at most two digits
    phone: list[int]  # at most five digits, or right after "(" or "+" (where the phone starts)


def _digit_runs(lt: str) -> _Runs:
    """The digit runs of ``lt`` sorted by the patterns that may match at them (see ``_NEXT_*``).

    Found with one ``split`` and a running sum of part lengths, so that only the runs themselves
    cost a Python step: scanning a source text means trying several patterns at every run.
    """
    parts = _RUN_SPLIT.split(lt)
    starts = list(accumulate(map(len, parts)))[0:-1:2]  # where each run's preceding text ends
    runs = _Runs(starts, [], [], [], [], [], [])
    for s, before, digits, rest in zip(starts, parts[0:-1:2], parts[1::2], parts[2::2]):
        nxt = rest[:1]
        n = len(digits)
        if before[-1:] in ("(", "+"):
            runs.phone.append(s - 1)
        elif n <= 5 and nxt in _NEXT_PHONE:
            runs.phone.append(s)
        if n <= 2:
            space = nxt.isspace()
            if space or nxt in _NEXT_DAY_FIRST:
                runs.day_first.append(s)
            if nxt in _NEXT_NUMERIC:
                runs.numeric.append(s)
            if nxt in _NEXT_CLOCK:
                runs.clock.append(s)
            if space or nxt in _NEXT_HOUR:
                runs.hour.append(s)
        elif n == 4 and nxt in _NEXT_ISO:
            runs.iso.append(s)
    return runs


def _month_starts(lt: str, runs: list[int]) -> list[int]:
    out = []
    for s in runs:
        if not s or not lt[s - 1].isspace():
            continue  # the pattern ends in white space right before the run
        m = _MONTH_BEFORE.search(lt, max(0, s - 16), s)
        if m:
            out.append(m.start())
    return out


def _scan_dates(lt: str, text: str, reading: _Reading, runs: _Runs, out: list[NumberMention], taken: _Taken) -> None:
    """Each pattern is tried only at the runs it may start at (see ``_digit_runs``)."""
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
        for mt in _at(pat, lt, starts, taken):
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
    rf"(?<![{_LAT}])(?P<mon>{trie_pattern(MONTHS)})\.?\s*(?:to|until|till|through|thru|and|or|-|–|—|bis|und|au|à|et)\s*$"
)


def _scan_month_ranges(lt: str, text: str, out: list[NumberMention], taken: _Taken) -> None:
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


_FRACTION = re.compile(r"(?<![\d.,/])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/]|[.,]\d)")
_FRACTION_DENOMINATORS = frozenset({2, 3, 4, 5, 6, 8, 10, 12, 16})
_RATING_AFTER = re.compile(r"\s*(?:stars?|points?|pts\b|sterne|étoiles|分|星)")
_WHOLE_BEFORE = re.compile(r"(?<![\d.,/])(?P<w>\d{1,3})[ \u00a0]$")
VULGAR_FRACTIONS: dict[str, float] = {
    "½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅖": 2 / 5, "⅗": 3 / 5, "⅘": 4 / 5,
    "⅙": 1 / 6, "⅚": 5 / 6, "⅛": 1 / 8, "⅜": 3 / 8, "⅝": 5 / 8, "⅞": 7 / 8,
}
_VULGAR = re.compile(r"(?:(?<![\d.,])(?P<w>\d{1,3})[ \u00a0]?)?(?P<f>[½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞])")


def _fraction_mention(lt: str, text: str, taken: _Taken, a: int, b: int, value: float) -> NumberMention:
    """A fraction at [a, b), with the whole number written before it ("1 1/2") when there is one."""
    whole = _WHOLE_BEFORE.search(lt, max(0, a - 5), a)
    if whole is not None and taken.free(whole.start("w"), a):
        a, value = whole.start("w"), value + int(whole["w"])
    return NumberMention(a, b, text[a:b], "number", value, 0.0, "", repr(value))


def _scan_fractions(lt: str, text: str, starts: list[int], out: list[NumberMention], taken: _Taken) -> None:
    """Fractions read as one value: "1/3", "1 1/2 cups", "½", "1½". A pair whose second number is
    not a usual denominator, or is not the larger, stays two numbers ("24/7", "4/15")."""
    for mt in _at(_FRACTION, lt, starts, taken):
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


def _says_hours(s: str) -> bool:
    """"19 Uhr" / "19h" are 24-hour times."""
    return s.endswith("uhr") or s.endswith("h")


def _scan_times(lt: str, text: str, runs: _Runs, out: list[NumberMention], taken: _Taken) -> None:
    """Each pattern is tried only at the runs it may start at: an hour followed by ``:`` or ``h``
    (``16:30``), or by white space, ``a``, ``p`` or ``u`` (``9 am``, ``19 Uhr``)."""
    for pat, starts in zip(_TIMES, (runs.clock, runs.hour)):
        for mt in _at(pat, lt, starts, taken):
            a, b = mt.span()
            gd = mt.groupdict()
            h = int(gd["h"])
            mi = int(gd["mi"]) if gd.get("mi") else 0
            if h > 24 or mi > 59:
                continue
            ap = (gd.get("ap") or "").lower()
            if ap and 1 <= h <= 12:  # "0:00 PM" (hour 0) is read as written
                h = h % 12 + (12 if ap == "p" else 0)
            minutes = (h % 24) * 60 + mi
            # "5:00" without am/pm may mean 5 pm: such a time matches either half of the day
            unit = "12h" if not ap and 1 <= h <= 12 and not _says_hours(mt.group()) else ""
            out.append(NumberMention(a, b, text[a:b], "time", float(minutes), 0.0, unit, f"{minutes // 60:02d}:{minutes % 60:02d}"))
            taken.take(a, b)


# Chinese clock times: "下午3点", "晚上10点半", "15点30分", "上午九点", "15时". The hour counts as a time
# only with a part of the day before it or a clock word after it ("3点注意事项" are three points).
_ZH_DAY_PART = {"凌晨": 0, "早上": 0, "早晨": 0, "清晨": 0, "上午": 0, "中午": 12, "下午": 12, "傍晚": 12,
                "晚上": 12, "夜里": 12, "夜間": 12, "夜间": 12, "午夜": 12}
_ZH_HOUR = re.compile(
    rf"(?P<part>{trie_pattern(list(_ZH_DAY_PART))})?(?P<h>\d{{1,2}}|[零〇一二两兩三四五六七八九十]{{1,3}})"
    r"(?P<unit>点钟|點鐘|点|點|时|時)(?:(?P<half>半)|(?P<mi>\d{1,2}|[零〇一二三四五六七八九十]{1,3})分|(?P<q>一刻|三刻))?"
)
_ZH_CLOCK_AFTER = re.compile(
    r"(?:钟|鐘|整|左右|前|后|後|起|开|開|关|關|营业|營業|开始|開始|结束|結束|截止|到|至|以前|以后|以後|之前|之后|之後)"
)


def _zh_small(raw: str) -> int | None:
    return int(raw) if raw.isdigit() else parse_chinese_numeral(raw)


def _scan_zh_times(lt: str, text: str, out: list[NumberMention], taken: _Taken) -> None:
    for mt in _ZH_HOUR.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b) or (a > 0 and lt[a - 1].isdigit()):
            continue
        h = _zh_small(mt["h"])
        part = mt["part"]
        minute_part = mt["half"] or mt["mi"] or mt["q"]
        if mt["h"].isdigit():
            clock_word = mt["unit"] in ("点钟", "點鐘", "时", "時") or bool(_ZH_CLOCK_AFTER.match(lt, b))
        else:
            # "一点" is also "a little" (早一点到) and "一时" "a moment" (一时半会): a spelled hour
            # needs a part of the day, minutes, or 钟 / 整 to be a time.
            if mt["unit"] in ("时", "時") and not part:
                continue
            clock_word = mt["unit"] in ("点钟", "點鐘") or lt.startswith(("钟", "鐘", "整"), b)
        if h is None or h > 24 or not (part or minute_part or clock_word):
            continue
        mi = 30 if mt["half"] else 15 if mt["q"] == "一刻" else 45 if mt["q"] == "三刻" else 0
        if mt["mi"]:
            got = _zh_small(mt["mi"])
            if got is None or got > 59:
                continue
            mi = got
        unit = ""
        if part:
            if _ZH_DAY_PART[part] and h < 12 and not (part == "中午" and h >= 11):
                h += 12  # 下午3点 = 15:00; 中午12点 = 12:00
            if part == "午夜" and h in (12, 24):
                h = 0
        elif 1 <= h <= 12:
            unit = "12h"  # "3点" may be 3 or 15 o'clock
        minutes = (h % 24) * 60 + mi
        out.append(NumberMention(a, b, text[a:b], "time", float(minutes), 0.0, unit, f"{minutes // 60:02d}:{minutes % 60:02d}"))
        taken.take(a, b)


# Chinese discounts: "85折", "8.5折", "九折", "八五折" (the share of the price paid).
_ZH_DISCOUNT = re.compile(r"(?<![\d.])(?P<n>\d{1,2}(?:\.\d)?|[一二三四五六七八九]{1,2})\s?折")
# Tenths as a share: "3成" / "三成" = 30%, "七成五" = 75% (not 成员, 成本, 成立, 成年, ...).
_ZH_TENTHS = re.compile(
    r"(?<![\d.])(?P<n>\d(?:\.\d)?|[一二三四五六七八九十])成(?P<m>[一二三四五六七八九])?(?![员員本功立年人绩績熟分型交为為果长長就品])"
)


def _scan_zh_shares(lt: str, text: str, out: list[NumberMention], taken: _Taken) -> None:
    """Chinese 折 discounts (kind ``discount``) and 成 tenths (kind ``percent``)."""
    for mt in _ZH_DISCOUNT.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        raw = mt["n"]
        if raw[0].isdigit():
            value = float(raw) * 10 if float(raw) < 10 else float(raw)
        else:
            digits = "".join(str(_CN_DIGITS[ch]) for ch in raw)
            value = float(digits) * 10 if len(digits) == 1 else float(digits)
        if not 0 < value < 100:
            continue
        out.append(NumberMention(a, b, text[a:b], "discount", value, 0.0, "%", _fmt(value)))
        taken.take(a, b)
    for mt in _ZH_TENTHS.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        raw = mt["n"]
        tenths = float(raw) if raw[0].isdigit() else float(_CN_DIGITS.get(raw, 10))
        value = tenths * 10 + (_CN_DIGITS[mt["m"]] if mt["m"] else 0)
        out.append(NumberMention(a, b, text[a:b], "percent", value, 0.0, "%", _fmt(value)))
        taken.take(a, b)


def _scan_phones(lt: str, text: str, starts: list[int], out: list[NumberMention], taken: _Taken) -> None:
    """``starts``: where a phone may start (``_Runs.phone``)."""
    for mt in _at(_PHONE, lt, starts, taken):
        raw = mt["p"]
        a, b = mt.span("p")
        digits = re.sub(r"\D", "", raw)
        if len(digits) < 7:
            continue
        seps = len(re.findall(r"[\s.\-]+", raw.strip()))
        if _THOUSANDS_SPACE.match(raw) or _THOUSANDS_DOT.match(raw) or re.fullmatch(r"\d{1,3}(?:,\d{3})+", raw):
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


def _scan_numbers(lt: str, text: str, reading: _Reading, runs: list[int], out: list[NumberMention], taken: _Taken) -> None:
    for s in runs:
        if taken.mask[s]:
            continue
        mt = _NUMBER.match(lt, s)
        if mt is None:
            continue
        na, nb = mt.span("num")
        if not taken.free(na, nb):
            continue
        parsed = _parse_plain(mt["num"], reading)
        if parsed is None:
            continue
        value, decimals = parsed
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
        raw = mt["num"]
        if (
            kind == "number" and not decimals and not scale_tok and raw.isdigit() and 1000 <= value <= 2100
            and not _MEASURE_AFTER.match(lt, nb)
        ):
            kind = "year"
        total = value * scale
        prec = 0.0 if kind in ("year", "ordinal") else _precision(value, decimals, scale, kind in ("number", "money"))
        if not taken.free(a, b):
            a, b = na, nb
        out.append(NumberMention(a, b, text[a:b], kind, total, prec, unit, _fmt(total)))
        taken.take(a, b)


def _fmt(v: float) -> str:
    return str(int(v)) if v == int(v) and abs(v) < 1e18 else repr(v)


def _scan_spelled(lt: str, text: str, out: list[NumberMention], taken: _Taken) -> None:
    for mt in _SPELLED.finditer(lt):
        a, b = mt.span()
        if not taken.free(a, b):
            continue
        w = mt.group()
        if w in ORDINAL_WORDS:
            out.append(NumberMention(a, b, text[a:b], "ordinal", float(ORDINAL_WORDS[w]), 0.0, "", str(ORDINAL_WORDS[w]), weak=True))
            taken.take(a, b)
            continue
        value = float(_EN_COMPOUNDS.get(w, SPELLED.get(w, -1)))
        if value < 0:
            continue
        scale = 1.0
        sm = _SCALE_AFTER.match(lt, b)
        if sm:
            scale = SCALES.get(sm.group(1), 1.0)
            b = sm.end()
        total = value * scale
        out.append(NumberMention(a, b, text[a:b], "number", total, scale if scale > 1 else 0.0, "", _fmt(total), weak=scale == 1.0))
        taken.take(a, b)


def _scan_chinese(lt: str, text: str, out: list[NumberMention], taken: _Taken) -> None:
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
        else:
            kind, unit = "number", ""
            if post:
                b = mt.end("n")
            if len(n) == 1 and post == "年":
                weak = True
        out.append(NumberMention(a, b, text[a:b], kind, float(value), 0.0, unit, str(value), weak=weak))
        taken.take(a, b)


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
    skipped = set(map(id, spelled))
    return NumberScan(mentions, [m for m in mentions if id(m) not in skipped])


def _scan(text: str, language: str) -> tuple[list[NumberMention], list[NumberMention], bool]:
    """The mentions, those found as spelled-out numbers, and whether the language was used."""
    if not text:
        return [], [], False
    reading = _Reading(base_language(language))
    lt = lower_keep_offsets(text if text.isascii() else text.translate(_FULLWIDTH))
    out: list[NumberMention] = []
    taken = _Taken(len(text))
    runs = _digit_runs(lt)
    if not lt.isascii() and any(ch in lt for ch in "点點时時折成") and _HAS_HAN.search(lt):
        _scan_zh_times(lt, text, out, taken)
        _scan_zh_shares(lt, text, out, taken)
    if runs.all:
        _scan_dates(lt, text, reading, runs, out, taken)
        _scan_month_ranges(lt, text, out, taken)
        _scan_times(lt, text, runs, out, taken)
        _scan_phones(lt, text, runs.phone, out, taken)
        _scan_fractions(lt, text, runs.numeric, out, taken)
        _scan_numbers(lt, text, reading, runs.all, out, taken)
    elif not lt.isascii():
        _scan_fractions(lt, text, [], out, taken)
    first_spelled = len(out)
    if reading.lang != "zh":
        _scan_spelled(lt, text, out, taken)
    spelled = out[first_spelled:]
    if not lt.isascii() and _HAS_HAN.search(lt):
        _scan_chinese(lt, text, out, taken)
    out.sort(key=lambda m: (m.start, m.end))
    return out, spelled, reading.used
