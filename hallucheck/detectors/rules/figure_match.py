"""Whether a figure of the answer and one of the sources measure the same thing, so that
different values contradict: compatible kinds and currencies, the word that names what is
counted, rate against total, bounds ("at least 165 degrees"), and the words around a figure."""

from __future__ import annotations

import re

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.source_figures import plain_figure
from hallucheck.text.numbers import NumberMention

__all__ = [
    "COUNTED",
    "HEDGE_BEFORE",
    "answer_unit",
    "compatible",
    "decade",
    "figure_sides",
    "is_rate",
    "overlap_share",
    "same_quantity",
    "same_side",
    "words_around",
    "year_or_count",
]

_AMBIGUOUS_CURRENCY = {"$": {"USD", "AUD", "CAD", "HKD", "TWD", "$"}, "¥": {"CNY", "JPY", "¥"}}
# Words that say a figure is rounded or a bound: "over 3,800 people", "nearly $195,000".
HEDGE_BEFORE = re.compile(
    r"(?:\b(?:(?P<low>over|more\s+than|at\s+least|upwards\s+of|just\s+over|in\s+excess\s+of|über|mehr\s+als|"
    r"mindestens|plus\s+de|au\s+moins)|(?P<high>nearly|almost|under|less\s+than|fewer\s+than|up\s+to|just\s+under|"
    r"knapp|fast|fast|presque|moins\s+de|près\s+de)|(?:about|approximately|approx\.|around|roughly|some|close\s+to|"
    r"circa|ca\.|an\s+estimated|estimated|rund|etwa|ungefähr|environ|quelque))\s+|~\s*|约|約|大约|大約"
    r"|(?P<low_zh>超过|超過|逾)|(?P<high_zh>近|将近|將近))$",
    re.IGNORECASE,
)
# A rate, not a total: "$1.50 per square foot", "10 mg/kg", "$5 a month", "twice each day".
_RATE_AFTER = re.compile(
    r"\s*(?:[^\W\d_]+\s+){0,2}?(?:per\b|/\s*[^\W\d_]|each\b|a\s+(?:day|week|month|year|hour|night|minute|person)\b|"
    r"an\s+hour\b|pro\b|par\b|je\b)",
    re.IGNORECASE,
)
_RANGE_AFTER = re.compile(r"\s*(?:[-–—]|to|and|or|bis|à)\s*\d")
_RATE_BEFORE = re.compile(r"\b(?:every|each|per|alle|jede[nrs]?|chaque|tous\s+les)\s+$", re.IGNORECASE)


def _four_digits(m: NumberMention) -> bool:
    """A plain number of four digits or more written without a separator, which may measure what
    a year-like figure does ("MTU of 1460" against "14600"); "500,000" or "12,000" do not."""
    return m.value is not None and m.value >= 1000 and m.value == int(m.value) and m.text.strip().isdigit()


def compatible(a: NumberMention, b: NumberMention) -> bool:
    """Whether two figures measure the same kind of thing (so different values contradict)."""
    if a.kind == "money":
        if b.kind == "number":
            return True  # "3.47 million dollars ..., up from 2.9 million": the currency is said once
        if b.kind != "money":
            return False
        if a.unit == b.unit or not a.unit or not b.unit:
            return True
        return b.unit in _AMBIGUOUS_CURRENCY.get(a.unit, ()) or a.unit in _AMBIGUOUS_CURRENCY.get(b.unit, ())
    if a.kind == "year":
        # A four-digit quantity is read as a year when nothing says otherwise ("MTU of 1460"):
        # against a plain number of four digits or more it may well measure the same thing.
        return b.kind == "year" or (b.kind == "date" and b.year is not None) or (b.kind == "number" and _four_digits(b))
    if a.kind == "number" and b.kind == "year":
        return _four_digits(a)
    if a.kind == "date":
        if b.kind != "date":
            return False
        return any(p is not None and q is not None for p, q in ((a.year, b.year), (a.month, b.month), (a.day, b.day)))
    return a.kind == b.kind



def year_or_count(a: NumberMention, b: NumberMention) -> bool:
    """A four-digit whole number read as a year against a plain whole number, or the reverse:
    "exits with 1010" against "exits with 101", "port 1174" against "port 587". The reading as a
    year is only a guess, so the two may measure the same thing -- where the same word stands
    right next to both (the caller checks that)."""
    if {a.kind, b.kind} != {"year", "number"} or a.value is None or b.value is None:
        return False
    return float(a.value).is_integer() and float(b.value).is_integer()


def same_side(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether the same content word stands right before both figures, or right after both."""
    return bool(a[0] and a[0] == b[0] or a[1] and a[1] == b[1])


def decade(text: str, m: NumberMention) -> bool:
    """A decade ("the 1990s", "the 90s", "the '90s"): a time, never a count."""
    return text.startswith(("s", "'s", "’s"), m.end)


def words_around(analysis: CaseAnalysis, sent_idx: int, a: int, b: int) -> tuple[list[str], list[str]]:
    """Content lemmas of answer sentence ``sent_idx`` before offset ``a`` and after offset ``b``,
    in text order (punctuation, stop words and numbers left out)."""
    toks = [t for t in analysis.tokens_by_sentence[sent_idx] if not t.is_punct and not t.is_stop and not t.is_number]
    return [t.norm for t in toks if t.end <= a], [t.norm for t in toks if t.start >= b]


def figure_sides(analysis: CaseAnalysis, m: NumberMention) -> tuple[str, str]:
    """The content lemma right before and right after a figure of the answer, in its sentence."""
    for si, sentence in enumerate(analysis.tokens_by_sentence):
        if not sentence or sentence[-1].end <= m.start:
            continue
        before, after = words_around(analysis, si, m.start, m.end)
        return (before[-1] if before else "", after[0] if after else "")
    return ("", "")



def is_rate(text: str, m: NumberMention) -> bool:
    """Whether a figure is a rate ("$1.50 per square foot", "every 30 minutes") rather than a total."""
    return bool(_RATE_AFTER.match(text, m.end) or _RATE_BEFORE.search(text, max(0, m.start - 16), m.start))


def _mantissa(m: NumberMention) -> str:
    """The digits of a figure as written, before any scale word: "2.4" for "2.4 million"."""
    digits = "".join(ch for ch in m.text if ch.isdigit() or ch in ".,")
    return digits.strip(".,")


COUNTED = frozenset({"number", "percent", "money", "ordinal"})


def answer_unit(analysis: CaseAnalysis, m: NumberMention) -> str:
    """The content word right after a figure of the answer ("people" in "3,800 people"), or ""."""
    for sentence in analysis.tokens_by_sentence:
        if not sentence or sentence[-1].end <= m.end:
            continue
        nxt = next((t for t in sentence if t.start >= m.end), None)
        if nxt is None or nxt.is_punct or nxt.is_stop or nxt.is_number:
            return ""
        return nxt.norm
    return ""


def same_quantity(
    m: NumberMention, other: NumberMention, unit: str, other_unit: str, rate: bool, hedged: bool, source_text: str,
    durations: bool = False,
) -> bool:
    """Whether a source figure can measure what the answer's figure measures, so that a different
    value there contradicts it. Not when the words that name what is counted differ ("25 years"
    against "12,000 women"), when one is a rate and the other a total ("$1.50 per square foot"
    against "$480 for 1000 square feet"), when the source's figure is a bound the answer's value
    keeps ("at least 165 degrees" against "250 degrees"; not when the answer gives a bound too,
    "more than 22" against "more than 4", nor for a range, "at least 6 to 8"), or when the two write the same digits
    and only the answer's scale word differs (the source's was not read: "2.4 milllion").
    ``durations``: both state a length of time on one scale, so "36 months" and "2 years" measure
    the same thing though their unit words differ."""
    if m.kind in COUNTED and other.kind in COUNTED:
        if unit and other_unit and unit != other_unit and not durations:
            return False
        if rate != is_rate(source_text, other):
            return False
    if plain_figure(m) and plain_figure(other) and m.kind == other.kind and not hedged and not _RANGE_AFTER.match(source_text, other.end):
        bound = HEDGE_BEFORE.search(source_text, max(0, other.start - 24), other.start)
        if bound is not None:  # "at least 165 degrees" is not contradicted by "250-300 degrees"
            if (bound.group("low") or bound.group("low_zh")) and m.value >= other.value:  # type: ignore[operator]
                return False
            if (bound.group("high") or bound.group("high_zh")) and m.value <= other.value:  # type: ignore[operator]
                return False
    if m.value is not None and other.value is not None and m.value != other.value and not durations:
        digits = _mantissa(m)
        if digits and digits == _mantissa(other) and other.text.strip(" .,").replace(",", "") == digits.replace(",", ""):
            return False
    return True


def overlap_share(local: frozenset[str], sentence: frozenset[str]) -> tuple[float, int]:
    if not local:
        return 0.0, 0
    shared = len(local & sentence)
    return shared / len(local), shared

