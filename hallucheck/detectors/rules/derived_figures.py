"""Figures an answer works out from the sources' figures, and so restates: a hedged or rounded
figure ("over 3,800" for 3,862), a weaker bound than the sources' ("more than 30%" where they say
more than 50%), half or twice a figure where the source says to halve or double
it ("children pay half price"), and the right result of arithmetic the answer writes out
("$50,000 x 2.4% = $1,200")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from hallucheck.detectors.rules.figure_match import HEDGE_BEFORE, compatible
from hallucheck.detectors.rules.source_figures import SourceFacts, plain_figure
from hallucheck.text.numbers import NumberMention

__all__ = ["computed_result", "halved_or_doubled", "hedged_match", "weaker_bound"]

_HEDGE_SHARE = 0.1  # and a hedged figure is never more than 10% off the source's
# An arithmetic result: "$50,000 x 2.4% = $1,200".
_EQUALS_BEFORE = re.compile(r"=\s*(?:approximately\s+|about\s+|~\s*|≈\s*)?$", re.IGNORECASE)
_OPERATOR = re.compile(r"(?:^|\s)([x×*/÷+\-−–])(?=\s)")
_EXPRESSION_BREAK = re.compile(r"[=:;\n]|[.!?](?:\s|$)")


class _Hedge(NamedTuple):
    """What a hedge word before a figure of the answer allows: a source value within ``slack`` of
    it, above it only (``low``: "over 3,800"), below it only (``high``: "nearly $195,000"), and
    whether the figure is rounded at all (``rounded``)."""

    slack: float
    low: bool
    high: bool
    rounded: bool


def _hedge(answer: str, m: NumberMention) -> _Hedge | None:
    """The hedge before a plain figure of the answer ("over", "nearly", "about", 约), or None."""
    if m.value is None or not m.value or not plain_figure(m):
        return None
    hedge = HEDGE_BEFORE.search(answer, max(0, m.start - 24), m.start)
    if hedge is None:
        return None
    v = float(m.value)
    # the figure's own rounding: 3,800 is rounded to hundreds, 79 to units, 2.5 to tenths
    unit = max(m.precision, 1.0) if v == int(v) else m.precision
    if v == int(v) and v >= 10:
        text = str(int(abs(v)))
        unit = float(10 ** (len(text) - len(text.rstrip("0"))))
    return _Hedge(
        slack=min(unit, _HEDGE_SHARE * abs(v)) + 1e-9 * abs(v),
        low=bool(hedge.group("low") or hedge.group("low_zh")),  # "over 3,800": the true figure is above
        high=bool(hedge.group("high") or hedge.group("high_zh")),  # "nearly $195,000": below
        rounded=not (v == int(v) and unit <= 1.0),
    )


def _hedge_fits(m: NumberMention, s: NumberMention, hedge: _Hedge) -> bool:
    """Whether the source figure ``s`` is one the hedged figure ``m`` may stand for.

    An unrounded whole number stands only for itself or for a value its rounding hides: "nearly
    17" may say 16.6, not 16 -- "up to 17 partitions" against the sources' "up to 16" is another
    figure, not a rounded one."""
    if not plain_figure(s) or s.weak or s.kind != m.kind or not compatible(m, s):
        return False
    sv = float(s.value)  # type: ignore[arg-type]
    if not hedge.rounded and sv == int(sv):
        return False
    d = sv - float(m.value)  # type: ignore[arg-type]
    return abs(d) <= hedge.slack and not (hedge.low and d < -1e-9) and not (hedge.high and d > 1e-9)



def hedged_match(answer: str, m: NumberMention, facts: SourceFacts, work: list[int]) -> bool:
    """A rounded or bounded figure that restates a source figure: "over 3,800" for 3,862, "nearly
    $195,000" for $194,497. Only where the answer says it is not exact, and within 10%."""
    hedge = _hedge(answer, m)
    if hedge is None:
        return False
    work[0] += len(facts.mentions)
    return any(_hedge_fits(m, s, hedge) for s in facts.mentions)



# Words that make a figure a strict bound of a quantity ("more than 50%", "under 15 kg"); not the
# words of a capacity or a near miss ("up to 16 users", "nearly 17"), where a higher figure is
# another claim, not a weaker one.
_BOUND_BEFORE = re.compile(
    r"(?:\b(?:(?P<low>more\s+than|over|at\s+least|in\s+excess\s+of|mehr\s+als|über|mindestens|plus\s+de|au\s+moins)|"
    r"(?P<high>less\s+than|fewer\s+than|under|weniger\s+als|unter|moins\s+de))\s+|(?P<low_zh>超过|超過|逾|多于|多於)|"
    r"(?P<high_zh>少于|少於|不到))$",
    re.IGNORECASE,
)


def _bound(text: str, m: NumberMention) -> str | None:
    """``"low"`` for a figure after a word of :data:`_BOUND_BEFORE` that bounds it from below, ``"high"`` from above, else None."""
    b = _BOUND_BEFORE.search(text, max(0, m.start - 24), m.start)
    if b is None:
        return None
    return "low" if b.group("low") or b.group("low_zh") else "high"


_NEXT_WORD = re.compile(r"\s*([^\W\d_]+)")


def _counted(text: str, m: NumberMention) -> str:
    """The word after a bare count, lower case and without a plural s ("12,000 women" -> "women"; "" if none)."""
    w = _NEXT_WORD.match(text, m.end)
    return w.group(1).lower().rstrip("s") if w else ""


def weaker_bound(answer: str, m: NumberMention, facts: SourceFacts, work: list[int]) -> bool:
    """A bound the sources' figure implies: "more than 30%" where they say "more than 50%", "under
    20 kg" where they say "under 15 kg" or "12 kg". A lower bound is implied by a source figure as
    high or higher, an upper bound by one as low or lower, of the same kind and unit, when that
    figure is exact or a bound the same way ("less than 65%" implies no lower bound; "about 12 kg"
    nothing). Only the words of a strict bound count (:data:`_BOUND_BEFORE`): "up to 20 users"
    over "up to 15 users" claims more, not less; and only a round figure is a weaker bound on
    purpose ("less than 128" over "less than 127" is a changed figure)."""
    if m.value is None or not plain_figure(m):
        return False
    side = _bound(answer, m)
    hedge = _hedge(answer, m)
    if side is None or hedge is None or not hedge.rounded:
        return False  # an unrounded bound ("less than 128" over "less than 127") is another figure, not a weaker one
    value = float(m.value)
    text = facts.source.text
    counted = _counted(answer, m) if m.kind == "number" and not m.unit else None
    work[0] += len(facts.mentions)
    for s in facts.mentions:
        if not plain_figure(s) or s.weak or s.kind != m.kind or not compatible(m, s):
            continue
        if counted is not None and _counted(text, s) != counted:
            continue  # a bare count bounds only a count of the same things ("over 25 years" is no bound of 12,000 women)
        sv = float(s.value)  # type: ignore[arg-type]
        if sv < value if side == "low" else sv > value:
            continue
        if HEDGE_BEFORE.search(text, max(0, s.start - 24), s.start) is None or _bound(text, s) == side:
            return True  # exact ("more than 10 kg" where the sources say 12 kg), or a bound the same way
    return False


def halved_or_doubled(m: NumberMention, facts: SourceFacts, work: list[int]) -> bool:
    """A figure the sources give as half or twice one of theirs, in a sentence that says so
    ("children pay half price" over "$20 for adults" gives the answer's "$10")."""
    if m.value is None or not plain_figure(m) or m.kind not in ("number", "money"):
        return False
    scaled = facts.scaled
    if not scaled:
        return False
    work[0] += len(scaled)
    return any(abs(m.value - value) <= 1e-9 * max(abs(m.value), 1.0) and compatible(m, s) for s, value in scaled)


def _operand_value(m: NumberMention) -> float | None:
    if m.value is None or not plain_figure(m):
        return None
    return float(m.value) / 100.0 if m.kind == "percent" else float(m.value)


def computed_result(answer: str, m: NumberMention, mentions: Sequence[NumberMention]) -> bool:
    """Whether ``m`` is the right result of arithmetic the answer writes out just before it:
    "$50,000 x 2.4% = $1,200", "$4,000 (sales) - $3,000 (cost of sales) = $1,000".

    Only two or more figures joined by one operator each (x × * / ÷ + -) count, evaluated left
    to right, and the result must agree within the rounding of the written result; a wrong
    result is judged like any other figure.
    """
    if m.value is None or not plain_figure(m):
        return False
    eq = _EQUALS_BEFORE.search(answer, max(0, m.start - 16), m.start)
    if eq is None:
        return False
    eq_at = answer.rfind("=", 0, m.start)
    stop = max((b.end() for b in _EXPRESSION_BREAK.finditer(answer, max(0, eq_at - 200), eq_at)), default=max(0, eq_at - 200))
    operands = [o for o in mentions if stop <= o.start and o.end <= eq_at]
    if len(operands) < 2:
        return False
    total = _operand_value(operands[0])
    for left, right in zip(operands, operands[1:]):
        ops = _OPERATOR.findall(answer[left.end : right.start])
        value = _operand_value(right)
        if total is None or value is None or len(ops) != 1:
            return False
        op = ops[0]
        if op in "x×*":
            total *= value
        elif op in "/÷":
            if not value:
                return False
            total /= value
        elif op == "+":
            total += value
        else:
            total -= value
    if total is None:
        return False
    result = float(m.value)
    tolerance = max(m.precision / 2.0, 0.005) + 1e-9 * max(abs(result), 1.0)
    return abs(total - result) <= tolerance

