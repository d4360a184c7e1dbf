"""What the framework adapters share: a case from loosely shaped inputs, verdict and feedback text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hallucheck.errors import HallucheckError, InputError
from hallucheck.types import Report

__all__ = ["Verdict", "as_contexts", "missing_extra"]


def missing_extra(framework: str, extra: str, exc: ImportError) -> HallucheckError:
    """The error to raise when an adapter's framework is not installed."""
    return HallucheckError(f"{framework} is not installed: pip install 'hallucheck[{extra}]' ({exc})")


def as_contexts(value: Any) -> list[Any]:
    """Sources from what frameworks pass around: strings, documents (``page_content``), nodes
    (``get_content()``), their serialised dicts, or one string; ``{id, text}`` dicts stay as they are."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        value = [value]
    if not isinstance(value, Sequence):
        raise InputError(f"contexts: expected a list of texts or documents, not {type(value).__name__}")
    return [_text_of(item) for item in value]


def _text_of(item: Any) -> Any:
    if isinstance(item, str):
        return item
    if isinstance(item, Mapping):
        if "text" in item and "id" in item:
            return item
        for key in ("page_content", "text", "content"):
            if isinstance(item.get(key), str):
                return item[key]
        kwargs = item.get("kwargs")  # a serialised LangChain object: {"lc": 1, "kwargs": {...}}
        if isinstance(kwargs, Mapping) and isinstance(kwargs.get("page_content"), str):
            return kwargs["page_content"]
    content = getattr(item, "page_content", None)
    if isinstance(content, str):
        return content
    getter = getattr(item, "get_content", None)
    if callable(getter):
        return str(getter())
    raise InputError(f"contexts: cannot read the text of a {type(item).__name__}")


class Verdict:
    """A report seen by an evaluation framework: pass or fail, a score where higher is better."""

    def __init__(self, report: Report, answer: str, threshold: float | None) -> None:
        from hallucheck.testing import format_report  # lazy: loaded only on this path

        self.report = report
        self.passing = report.risk_score <= threshold if threshold is not None else not report.hallucinated
        self.score = round(1.0 - report.risk_score, 6)
        self.feedback = format_report(report, answer)

