"""The answer's figures, read once per check, and those the sources give in another form: a
length of time in another unit ("2 years" over "24 months") or a figure written another way
("1250" over "1,250", "百分之十二" over "12%"). The numbers detector, the model layer's cap and
the restated check all read them."""

from __future__ import annotations

import re

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import AnswerFigures
from hallucheck.detectors.rules.source_figures import SourceFacts, source_facts
from hallucheck.text.durations import Duration, find_durations, half_durations, spelled_durations
from hallucheck.text.numbers import NumberMention, find_numbers, same_value

_HAN = re.compile(r"[\u4e00-\u9fff]")

__all__ = ["answer_figures", "converted_durations", "durations_in_other_units", "figures_given_otherwise", "figures_in_other_forms"]


def answer_figures(analysis: CaseAnalysis) -> AnswerFigures:
    """The answer's figures, kept in ``analysis.facts``: the numbers detector and the model
    layer's cap read the same answer."""
    if analysis.facts.answer_figures is None:
        analysis.facts.answer_figures = _read_answer_figures(analysis)
    return analysis.facts.answer_figures


def _read_answer_figures(analysis: CaseAnalysis) -> AnswerFigures:
    answer = analysis.answer
    found = find_numbers(answer, analysis.language)
    taken = [(m.start, m.end) for m in found]
    figureless = [*(half_durations(answer) if "半" in answer else []), *spelled_durations(answer)]
    halves = sorted(((m, d) for m, d in figureless if not any(a < d.end and d.start < b for a, b in taken)), key=lambda p: p[0].start)
    return AnswerFigures(found, find_durations(answer, found, analysis.language), halves)


def durations_in_other_units(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets of :func:`converted_durations` (the model layer keeps its marks off them)."""
    return sorted({(d.start, d.end) for d in converted_durations(analysis)})


def figures_given_otherwise(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets, sorted and each once, of the answer's figures and lengths of time that the sources
    give in another form or unit (:func:`figures_in_other_forms`, :func:`durations_in_other_units`):
    the numbers rules compared them by value, so word-level readers keep their marks off them."""
    return sorted({*durations_in_other_units(analysis), *figures_in_other_forms(analysis)})


def figures_in_other_forms(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets of the answer's figures that a source figure of the same value gives while the
    sources never write the figure's own characters: "1250" over "1,250", "百分之十二" over "12%",
    "21.6万元" over "21.59万元", "15 km" over "15公里" (lengths of time: :func:`converted_durations`).
    A reader that compares words or word pieces cannot see that these are the same; the numbers
    detector compares values and has checked them, so the model layer keeps its marks off them.
    Spelled-out small figures that read as words ("one", weak mentions) and phone numbers are left
    to the reader, and so are clock times in Latin script: on RAGTruth calib 126 of the 547 clock
    times written another way ("5:30 PM" over "17:30") lie in a labelled hallucination (opening
    hours given for the wrong days), and keeping the marks off them cost 0.007 of span F1. A
    Chinese clock time the sources write as one too ("早上八点" over "上午8点") is listed: a reader of
    characters cannot tell 八点 from 8点, and RAGTruth, in English, holds none. Weekday ranges a
    source range states in other words ("weekdays" over "Monday to Friday", "工作日" over
    "周一至周五": :func:`~hallucheck.detectors.rules.weekday_ranges.weekdays_in_other_forms`) are
    listed too."""
    if analysis.facts.figures_in_other_forms is None:
        analysis.facts.figures_in_other_forms = _figures_in_other_forms(analysis)
    return analysis.facts.figures_in_other_forms


def _figures_in_other_forms(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    if not analysis.answer.strip() or not analysis.source.text.strip():
        return []
    from hallucheck.detectors.rules.weekday_ranges import weekdays_in_other_forms  # lazy: loaded only on this path

    weekdays = weekdays_in_other_forms(analysis)
    figures = answer_figures(analysis)
    mentions = [m for m in figures.found if not m.weak and m.kind != "phone" and (m.kind != "time" or _HAN.search(m.text))
                and m.start not in figures.durations]
    if not mentions:
        return weekdays
    facts = source_facts(analysis.source)
    found = [(m.start, m.end) for m in mentions if m.text.lower() not in facts.written and facts.gives(m)
             and (m.kind != "time" or _chinese_clock_given(m, facts))]
    return sorted(found + weekdays) if weekdays else found


def _chinese_clock_given(m: NumberMention, facts: SourceFacts) -> bool:
    """Whether the sources give a Chinese clock time ``m`` as a Chinese clock time too ("上午8点"
    for "早上八点"); one given on a 24-hour dial ("15:00" for "下午3点") is left to the reader."""
    return any(s.kind == "time" and _HAN.search(s.text) and same_value(m, s) for s in facts.mentions)


def converted_durations(analysis: CaseAnalysis) -> list[Duration]:
    """The answer's lengths of time that the sources give only in another unit ("一年" over
    "12个月", "2 years" over "24 months", "半年" over "6个月"), in the answer's order. A reader that
    compares words cannot see that these are the same; the model layer keeps its marks off them,
    and the restated check counts them as the source's figures.

    Only lengths of time: clock times, discounts and halved figures written another way were
    measured too and left out. On RAGTruth calib a quarter of the clock times the sources give
    another way lie in a labelled hallucination (business hours given for the wrong days), and
    keeping the tagger's marks off all of them cost 0.007 of span F1."""
    # the model layer's cap, the restated check and its safeguard all ask
    if analysis.facts.converted_durations is None:
        analysis.facts.converted_durations = _converted_durations(analysis)
    return analysis.facts.converted_durations


def _converted_durations(analysis: CaseAnalysis) -> list[Duration]:
    if not analysis.answer.strip() or not analysis.source.text.strip():
        return []
    figures = answer_figures(analysis)
    durations = [*figures.durations.values(), *(d for _, d in figures.halves)]
    if not durations:
        return []
    facts = source_facts(analysis.source)
    lower = analysis.source.lower
    return sorted((d for d in durations if d.text.lower() not in lower and facts.gives_duration(d)), key=lambda d: d.start)

