"""A check whose deadline passes at a chosen look at the clock, so tests of "stop at the next
window" do not depend on how fast the machine is."""

from __future__ import annotations

from hallucheck.analysis import CaseAnalysis
from hallucheck.types import Case


class CountedDeadline(CaseAnalysis):
    """The time is up from the ``after``-th look on (``out_of_time`` is what detectors ask)."""

    def __init__(self, case: Case, after: int) -> None:
        super().__init__(case)
        self.deadline = 0.0  # a deadline is set; out_of_time decides when it has passed
        self.looks = 0
        self.after = after

    def out_of_time(self) -> bool:
        self.looks += 1
        return self.looks > self.after
