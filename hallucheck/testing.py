"""Assertions for test suites: ``assert_grounded(question=, contexts=, answer=)``.

A RAG application's tests can pin down that its answers stay grounded in their sources, the way
they pin down any other behaviour. When the assertion fails, the message names what a developer
needs to fix the prompt or the retrieval: every flagged span with its offsets, label, score,
detector and reason, the source sentence that contradicts or fails to support it, and the risk,
level and decision of the report.

The pytest plugin (``hallucheck.pytest_plugin``, loaded automatically when hallucheck is
installed) adds fixtures over the same function; the function itself needs no pytest.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from hallucheck.errors import HallucheckError
from hallucheck.types import Report, Span

__all__ = ["GroundednessError", "assert_grounded", "format_report"]

_ANSWER_WIDTH = 600


class GroundednessError(HallucheckError, AssertionError):
    """An answer failed ``assert_grounded``; ``report`` is the Report that failed it."""

    def __init__(self, message: str, report: Report) -> None:
        super().__init__(message)
        self.report = report


def assert_grounded(
    case: Any = None,
    *,
    question: str | None = None,
    contexts: Sequence[Any] | None = None,
    answer: str | None = None,
    threshold: float | None = None,
    labels: Collection[str] | None = None,
    checker: Any = None,
    **case_fields: Any,
) -> Report:
    """Check the answer and raise ``GroundednessError`` (an AssertionError) unless it is grounded.

    By default the answer fails when its report says ``hallucinated``. With ``threshold`` it fails
    when the risk score is above that number instead. ``labels`` makes any span with one of those
    labels fail it as well (for instance ``{"invalid_citation"}``), whatever the risk. ``checker``
    is the Checker to use (default: hallucheck's default detectors and policy). Returns the Report
    when the answer passes, so a test can assert more on it.
    """
    __tracebackhide__ = True
    if threshold is not None and not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be between 0 and 1, not {threshold}")
    if checker is None:
        from hallucheck.checker import _default_checker  # lazy: heavy: pulls in regex; loaded only when this path runs

        checker = _default_checker()
    from hallucheck.cases import make_case  # lazy: loaded only on this path

    fields = {"question": question, "contexts": list(contexts) if contexts is not None else None, "answer": answer}
    built = make_case(case, **fields, **case_fields)
    report: Report = checker.check(built)
    reasons: list[str] = []
    if threshold is None:
        if report.hallucinated:
            reasons.append("the report says hallucinated")
    elif report.risk_score > threshold:
        reasons.append(f"risk {report.risk_score:.3f} is above the threshold {threshold:g}")
    if labels:
        wanted = set(labels)
        hit = sorted({s.label for s in report.spans if s.label in wanted})
        if hit:
            reasons.append(f"spans labelled {', '.join(hit)}")
    if reasons:
        raise GroundednessError(
            "answer is not grounded in its sources: " + "; ".join(reasons) + "\n" + format_report(report, built.answer),
            report,
        )
    return report


def format_report(report: Report, answer: str | None = None) -> str:
    """A report for people: verdict, each flagged span with its reason and evidence, the answer
    with the spans marked ``>>like this<<``."""
    verdict = f"risk {report.risk_score:.3f} ({report.risk_level}), decision {report.decision}"
    lines = [f"{verdict}, policy {report.policy or '-'}, language {report.language or '-'}"]
    if report.spans:
        lines.append(f"{len(report.spans)} flagged span{'s' if len(report.spans) != 1 else ''}:")
        for span in report.spans:
            lines.extend(_span_lines(span))
    else:
        lines.append("no span flagged")
    if report.citations is not None and report.citations.invalid:
        lines.append(f"invalid citations: {', '.join(report.citations.invalid)}")
    for note in report.notes[:5]:
        lines.append(f"note: {note}")
    if answer:
        lines.append("answer: " + _marked(answer, report.spans))
    return "\n".join(lines)


def _span_lines(span: Span) -> list[str]:
    out = [f"  [{span.start}:{span.end}] {span.label} (score {span.score:.2f}, {span.detector}): {_quote(span.text)}"]
    if span.reason:
        out.append(f"      reason: {span.reason}")
    for ev in span.evidence[:2]:
        where = f"source {ev.source_id}" if ev.source_id else "source"
        out.append(f"      {ev.relation} ({where}): {_quote(ev.text)}")
    return out


def _quote(text: str, width: int = 160) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[: width - 1] + "…")


def _marked(answer: str, spans: Sequence[Span]) -> str:
    out: list[str] = []
    pos = 0
    for span in sorted(spans, key=lambda s: s.start):
        if span.start < pos:
            continue
        out += [answer[pos : span.start], ">>", answer[span.start : span.end], "<<"]
        pos = span.end
    out.append(answer[pos:])
    text = "".join(out)
    return text if len(text) <= _ANSWER_WIDTH else text[: _ANSWER_WIDTH - 1] + "…"
