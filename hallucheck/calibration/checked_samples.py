"""Labelled answers read for a calibration exactly as ``hallucheck eval`` reads them.

Why: a calibration compares the policy a user has ("before") with the one it would write
("after"). "Before" is only the number ``eval`` prints when it is the verdict of the same
Checker's report (its floors, safeguards, per-language and cross-lingual fits included), so each
answer is checked once by the Checker ``eval`` builds and the sample keeps that report's verdict
next to the findings and the analysis the refit needs.
"""

from __future__ import annotations

from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.batch import CheckerSpec, checker_for
from hallucheck.calibration.calibrate import Sample, source_group
from hallucheck.eval.datasets import Example
from hallucheck.eval.runner import prediction_from_report
from hallucheck.source_window import narrow_sources

__all__ = ["checked_sample"]


def _analysis(checker: Any, example: Example) -> CaseAnalysis:
    """The analysis of the case as the Checker builds it (its citation setting, sources narrowed)."""
    case = example.case
    if case.citations_expected is None and checker.citations_expected is not None:
        case = case.model_copy(update={"citations_expected": checker.citations_expected})
    return CaseAnalysis(narrow_sources(case)[0])


def checked_sample(spec: CheckerSpec, example: Example) -> Sample:
    """``example`` checked by the Checker of ``spec`` (the one ``eval`` uses), as a calibration sample
    whose ``reported`` verdict is the one ``eval`` counts."""
    checker = checker_for(spec)
    report = checker.check(example.case)
    analysis = _analysis(checker, example)
    # the group by the sources as given: answers over the same sources stay in one fold however they were narrowed
    group = source_group(CaseAnalysis(example.case))
    return Sample(analysis, list(report.findings), bool(example.gold.hallucinated), group,
                  reported=prediction_from_report(report, 0.0).hallucinated)
