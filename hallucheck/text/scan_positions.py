"""Where a figure scan may match and what it has already claimed.

The scanners of :mod:`hallucheck.text.numbers` run in order of priority (dates before times
before plain numbers ...); each claims its characters (:class:`Taken`) so that a later one does
not read them again, and each pattern is tried only at the digit runs it may start at
(:func:`digit_runs`). Also the pattern pieces they share.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate
from typing import NamedTuple

from hallucheck.text.number_words import MONTHS

__all__ = ["LAT", "NO_DIGIT_AFTER", "NO_DIGIT_BEFORE", "Runs", "Taken", "digit_runs", "matches_at"]

# All patterns run on lower-cased text with full-width digits mapped (offsets unchanged), with the
# standard ``re`` engine and trie-shaped alternations: fast enough for hundreds of answers a second.
LAT = "a-z\u00c0-\u024f"  # Latin letters (lower case text)
NO_DIGIT_BEFORE = r"(?<![\d.,])"  # no digit or decimal part right before
NO_DIGIT_AFTER = r"(?!\d)"
_RUN_SPLIT = re.compile(r"(\d+)")  # split() gives other text, digits, other text, ..., other text


class Taken:
    """Character positions already claimed by an earlier (higher-priority) mention."""

    def __init__(self, n: int) -> None:
        self.mask = bytearray(n)

    def free(self, a: int, b: int) -> bool:
        return self.mask.find(1, a, b) < 0

    def take(self, a: int, b: int) -> None:
        self.mask[a:b] = b"\x01" * (b - a)



def matches_at(pat: re.Pattern[str], lt: str, starts: list[int], taken: Taken) -> Iterator[re.Match[str]]:
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


class Runs(NamedTuple):
    """Start offsets of the digit runs of a text: all of them, and per pattern the ones it may start at."""

    all: list[int]
    day_first: list[int]  # at most two digits
    numeric: list[int]  # at most two digits
    iso: list[int]  # four digits
    clock: list[int]  # at most two digits
    hour: list[int]  # at most two digits
    phone: list[int]  # at most five digits, or right after "(" or "+" (where the phone starts)


def digit_runs(lt: str) -> Runs:
    """The digit runs of ``lt`` sorted by the patterns that may match at them (see ``_NEXT_*``).

    Found with one ``split`` and a running sum of part lengths, so that only the runs themselves
    cost a Python step: scanning a source text means trying several patterns at every run.
    """
    parts = _RUN_SPLIT.split(lt)
    starts = list(accumulate(map(len, parts)))[0:-1:2]  # where each run's preceding text ends
    runs = Runs(starts, [], [], [], [], [], [])
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

