"""Weekday ranges of the answer and the sources, for the numbers detector and the model layer.

"Monday to Friday", "Mon–Fri", "weekdays", "werktags", "du lundi au vendredi", "en semaine",
"周一至周五" and "工作日" state the same days (:mod:`hallucheck.text.weekdays`); an answer that
writes one over a source that writes another restates it, while "Monday to Saturday" over
"Monday to Friday" changes it. A range is *given* when a source range states the same days, or
when the days one source sentence names add up to them ("Monday to Friday 9–5, Saturday 10–2"
gives "Monday to Saturday"). A range is never unsupported for want of a source range: only a
source range about the same thing can contradict it.
"""

from __future__ import annotations

from functools import cached_property

from hallucheck.analysis import CaseAnalysis, SourceAnalysis
from hallucheck.detectors.rules.source_figures import SourceFacts, sentence_of, source_facts
from hallucheck.text.weekdays import WeekdaySpan, find_weekdays, same_days

__all__ = ["SourceWeekdays", "answer_weekdays", "source_weekdays", "weekdays_in_other_forms"]


class SourceWeekdays:
    """The weekday ranges of a source, with the words around each and the days each sentence names."""

    def __init__(self, facts: SourceFacts) -> None:
        self.facts = facts
        found = find_weekdays(facts.source.text)
        self.ranges = [w for w in found if not w.single]
        where = sentence_of(found, facts.sentences)
        self.sentence = [si for w, si in zip(found, where, strict=True) if not w.single]
        self._found, self._where = found, where

    @cached_property
    def context(self) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
        """The content lemmas near each range and the one right before and after it."""
        neighbours, close, _ = self.facts.words_near(self.ranges, self.sentence)
        return neighbours, close

    @cached_property
    def named_together(self) -> frozenset[frozenset[int]]:
        """The days each source sentence names, when it names them in more than one place and
        each place states one set of days."""
        by_sentence: dict[int, list[WeekdaySpan]] = {}
        for w, si in zip(self._found, self._where, strict=True):
            if si >= 0:
                by_sentence.setdefault(si, []).append(w)
        return frozenset(
            frozenset().union(*(w.readings[0] for w in group))
            for group in by_sentence.values() if len(group) > 1 and all(len(w.readings) == 1 for w in group)
        )

    def gives(self, w: WeekdaySpan, together: bool = True) -> bool:
        """Whether a source range states the days of ``w`` (or, with ``together``, one source
        sentence names exactly those days)."""
        return any(same_days(w, s) for s in self.ranges) or (together and any(r in self.named_together for r in w.readings))


def source_weekdays(source: SourceAnalysis) -> SourceWeekdays:
    """The weekday ranges of a source, cached on the (shared) source analysis."""
    return source.derived("_hc_weekdays", lambda: SourceWeekdays(source_facts(source)))


def answer_weekdays(analysis: CaseAnalysis) -> list[WeekdaySpan]:
    """The answer's weekday ranges and words for the working week (single days left out)."""
    if analysis.facts.answer_weekdays is None:
        analysis.facts.answer_weekdays = [w for w in find_weekdays(analysis.answer) if not w.single]
    return analysis.facts.answer_weekdays


def weekdays_in_other_forms(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets of the answer's weekday ranges that a source range states in other words
    ("weekdays" over "Monday to Friday", "工作日" over "周一至周五"): the numbers detector has
    compared their days, and a reader of words cannot see that they are the same."""
    ranges = answer_weekdays(analysis)
    if not ranges or not analysis.source.text.strip():
        return []
    given = source_weekdays(analysis.source)
    lower = analysis.source.lower
    return [(w.start, w.end) for w in ranges if w.text.lower() not in lower and given.gives(w, together=False)]
