"""An answer sentence with its figures written as its evidence writes them, for the verifier.

Why: the figure rules know that "21 Tage" is "drei Wochen", "120 minutes" is "deux heures",
"八点" is "8点" and "Mon–Fri" is "Monday to Friday", and list such figures of the answer once per
check (:func:`hallucheck.detectors.rules.answer_figures.figures_given_otherwise`). The
sentence-pair verifier reads words: it saw few quantities restated in another unit and reads such
a faithful sentence as a contradiction, which then decides the verdict. Before the verifier reads
a sentence, each of those figures is replaced by the evidence's own words for it, so the verifier
judges the rest of the sentence. Only where the evidence holds one figure of that kind: where it
holds two ("RO膜每24个月, 活性炭每12个月"), which one the sentence restates is the rules' question, and
writing the equal one in would make a figure from another clause read as the right one. A figure
the rules did not find equal stays as written, so a changed figure still reads as changed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.rules.answer_figures import answer_figures, figures_given_otherwise
from hallucheck.detectors.rules.weekday_ranges import answer_weekdays
from hallucheck.text.durations import Duration, find_durations, same_length, spelled_durations
from hallucheck.text.numbers import NumberMention, find_numbers, same_value
from hallucheck.text.weekdays import WeekdaySpan, find_weekdays, same_days

__all__ = ["written_as_source"]

_T = TypeVar("_T")


class _Premise:
    """The figures, lengths of time and weekday ranges of one premise, read once."""

    def __init__(self, text: str, language: str) -> None:
        found = find_numbers(text, language)
        taken = [(m.start, m.end) for m in found]
        self.durations = list(find_durations(text, found, language).values())
        self.durations += [d for _, d in spelled_durations(text) if not any(a < d.end and d.start < b for a, b in taken)]
        starts = {d.start for d in self.durations}
        self.mentions = [m for m in found if m.start not in starts and m.value is not None]
        self.ranges = [w for w in find_weekdays(text) if not w.single]


@lru_cache(maxsize=256)
def _premise(text: str, language: str) -> _Premise:
    # the sentences of one short answer often share their premise (a source read whole)
    return _Premise(text, language)


def _only(items: list[_T]) -> _T | None:
    return items[0] if len(items) == 1 else None


def _equal_words(p: _Premise, what: NumberMention | Duration | WeekdaySpan) -> tuple[int, int] | None:
    """Offsets in the premise of its one figure of ``what``'s kind, when it states the same."""
    if isinstance(what, WeekdaySpan):
        w = _only(p.ranges)
        return (w.start, w.end) if w is not None and same_days(what, w) else None
    if isinstance(what, Duration):
        d = _only([d for d in p.durations if d.scale == what.scale])
        return (d.start, d.end) if d is not None and same_length(what, d) else None
    m = _only([m for m in p.mentions if m.kind == what.kind])
    return (m.start, m.end) if m is not None and same_value(what, m) else None


def _figures_at(analysis: CaseAnalysis) -> dict[tuple[int, int], NumberMention | Duration | WeekdaySpan]:
    """What stands at each span of the answer the rules list as given otherwise."""
    figures = answer_figures(analysis)
    at: dict[tuple[int, int], NumberMention | Duration | WeekdaySpan] = {(m.start, m.end): m for m in figures.found}
    at.update({(d.start, d.end): d for d in figures.durations.values()})
    at.update({(d.start, d.end): d for _, d in figures.halves})
    at.update({(w.start, w.end): w for w in answer_weekdays(analysis)})
    return at


def written_as_source(analysis: CaseAnalysis, start: int, text: str, premise: str) -> str:
    """The answer sentence ``text`` (which starts at ``start`` of the answer; citation markers may
    be blanked out, offsets kept) with each figure the rules found given otherwise (and the premise
    holds once) in the premise's words; ``text`` itself when none is. The premise is read in the
    answer's language: called for same-language answers only, as over evidence in another language
    its words would make a sentence of two languages."""
    end = start + len(text)
    spans = [(a, b) for a, b in figures_given_otherwise(analysis) if start <= a and b <= end]
    if not spans or not premise:
        return text
    at = _figures_at(analysis)
    p = _premise(premise, analysis.language or "en")
    out: list[str] = []
    pos = 0
    for a, b in spans:
        what = at.get((a, b))
        found = _equal_words(p, what) if what is not None and a - start >= pos else None
        if found is None or premise[found[0]:found[1]] == text[a - start:b - start]:
            continue
        out += [text[pos:a - start], premise[found[0]:found[1]]]
        pos = b - start
    return "".join(out) + text[pos:] if out else text
