"""Figures an answer works out from the sources' figures, and so restates: a hedged or rounded
figure ("over 3,800" for 3,862), half or twice a figure where the source says to halve or double
it ("children pay half price"), and the right result of arithmetic the answer writes out
("$50,000 x 2.4% = $1,200")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from hallucheck.detectors.rules.figure_match import HEDGE_BEFORE, compatible
from hallucheck.detectors.rules.source_figures import SourceFacts, plain_figure
from hallucheck.text.numbers import NumberMention

__all__ = ["computed_result", "halved_or_doubled", "hedged_match"]

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

