"""hallucheck: find hallucinations in RAG answers.

    >>> import hallucheck
    >>> report = hallucheck.check(question="...", contexts=["..."], answer="...")
    >>> report.hallucinated, report.risk_level, report.spans

Importing the package is cheap: names below are resolved on first use, and nothing heavy
(onnxruntime, LLM clients, the web service) is imported until a detector or command needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "check": "hallucheck.checker",
    "Checker": "hallucheck.checker",
    "Budget": "hallucheck.checker",
    "CheckStream": "hallucheck.streaming",
    "SentenceCheck": "hallucheck.streaming",
    "Case": "hallucheck.types",
    "Source": "hallucheck.types",
    "Span": "hallucheck.types",
    "Evidence": "hallucheck.types",
    "Finding": "hallucheck.types",
    "Report": "hallucheck.types",
    "Cost": "hallucheck.types",
    "Coverage": "hallucheck.types",
    "CitationSummary": "hallucheck.types",
    "InputError": "hallucheck.errors",
    "HallucheckError": "hallucheck.errors",
    "available_detectors": "hallucheck.detectors",
    "get_detector": "hallucheck.detectors",
    "available_policies": "hallucheck.policies",
    "get_policy": "hallucheck.policies",
    "Guard": "hallucheck.prevent.guard",
    "GuardResult": "hallucheck.prevent.guard",
    "Mitigator": "hallucheck.prevent.mitigate",
    "PromptStrategy": "hallucheck.prevent.prompt_strategies",
    "render_prompt": "hallucheck.prevent.prompt_strategies",
    "filter_retrieved": "hallucheck.prevent.retrieval",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # pragma: no cover
    from hallucheck.checker import Budget, Checker, check
    from hallucheck.detectors import available_detectors, get_detector
    from hallucheck.errors import HallucheckError, InputError
    from hallucheck.policies import available_policies, get_policy
    from hallucheck.prevent.guard import Guard, GuardResult
    from hallucheck.prevent.mitigate import Mitigator
    from hallucheck.prevent.prompt_strategies import PromptStrategy, render_prompt
    from hallucheck.prevent.retrieval import filter_retrieved
    from hallucheck.streaming import CheckStream, SentenceCheck
    from hallucheck.types import (
        Case,
        CitationSummary,
        Cost,
        Coverage,
        Evidence,
        Finding,
        Report,
        Source,
        Span,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hallucheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
