"""The answer's figures as the numbers rules read them once per check.

Below the detectors because the case's facts (:class:`~hallucheck.case_facts.CaseFacts`) keep
them for the numbers detector, the model layer's cap and the restated check;
:func:`hallucheck.detectors.rules.answer_figures.answer_figures` reads them.
"""

from __future__ import annotations

from typing import NamedTuple

from hallucheck.text.durations import Duration
from hallucheck.text.numbers import NumberMention

__all__ = ["AnswerFigures"]


class AnswerFigures(NamedTuple):
    """The answer's figures and the lengths of time among them, read once per check."""

    found: list[NumberMention]  # every figure, weak ones included
    durations: dict[int, Duration]  # by the figure's start
    halves: list[tuple[NumberMention, Duration]]  # "半年", "an hour and a half": no figure written, a weak mention stands for it
