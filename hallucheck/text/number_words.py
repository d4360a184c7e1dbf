"""The words and marks figures are written with: months, currencies, scale words, spelled-out
numbers and ordinals (en, de, fr), Chinese numerals and full-width digits.

Shared by the scanners of :mod:`hallucheck.text.numbers`; lower case throughout, since every
scan runs on lower-cased text.
"""

from __future__ import annotations

__all__ = [
    "CN_BIG",
    "CN_DIGITS",
    "CN_UNITS",
    "CURRENCIES",
    "CUR_AFTER",
    "CUR_BEFORE",
    "EN_COMPOUNDS",
    "GLUED_SCALES",
    "HALF_NUMBERS",
    "FULLWIDTH",
    "MONTHS",
    "ORDINAL_WORDS",
    "SCALES",
    "SCALE_WORDS",
    "SPELLED",
    "VULGAR_FRACTIONS",
]

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
CUR_BEFORE = ("us$", "hk$", "nt$", "a$", "c$", "$", "€", "£", "¥", "￥", "₹", "usd", "eur", "gbp",
               "chf", "cny", "rmb", "jpy", "hkd", "twd", "inr", "aud", "cad")
CUR_AFTER = ("€", "$", "£", "¥", "￥", "新台幣", "新台币", "人民币", "人民幣", "美元", "美金", "欧元", "歐元",
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
SCALE_WORDS = ("thousands", "thousand", "millions", "million", "billions", "billion", "trillion",
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
# A whole and a half in one word ("anderthalb Stunden", "zweieinhalb Jahre").
HALF_NUMBERS: dict[str, float] = {"anderthalb": 1.5, "eineinhalb": 1.5}
for _i, _w in enumerate("zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split(), start=2):
    HALF_NUMBERS[_w + "einhalb"] = _i + 0.5
# German hundreds and thousands written as one word: "zweitausend" is (2, 1000), "dreihundert" (3, 100).
GLUED_SCALES: dict[str, tuple[int, float]] = {}
for _i, _w in enumerate("ein zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split(), start=1):
    GLUED_SCALES[_w + "tausend"] = (_i, 1e3)
    GLUED_SCALES[_w + "hundert"] = (_i, 1e2)
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_EN_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}

CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_BIG = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}

FULLWIDTH = str.maketrans("０１２３４５６７８９％．＄", "0123456789%.$")
EN_COMPOUNDS = {f"{t}-{u}": tv + uv for t, tv in _EN_TENS.items() for u, uv in _EN_UNITS.items()}
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
VULGAR_FRACTIONS: dict[str, float] = {
    "½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅖": 2 / 5, "⅗": 3 / 5, "⅘": 4 / 5,
    "⅙": 1 / 6, "⅚": 5 / 6, "⅛": 1 / 8, "⅜": 3 / 8, "⅝": 5 / 8, "⅞": 7 / 8,
}
