"""hallucheck as a LlamaIndex evaluator (extra ``[llamaindex]``).

``HallucheckEvaluator`` is a ``BaseEvaluator``: ``evaluate(query=, response=, contexts=)`` and
``evaluate_response(query=, response=Response)`` (sources from the response's nodes, numbered 1, 2,
... as LlamaIndex's citation engines number them) return an ``EvaluationResult`` with ``passing``
(the answer is grounded), ``score`` (1 − risk, higher is better) and ``feedback`` (the flagged
spans with their labels, reasons and evidence). The result is a ``HallucheckEvaluationResult``,
an ``EvaluationResult`` that also carries the whole report.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from hallucheck.errors import InputError
from hallucheck.integrations.common import Verdict, as_contexts, missing_extra

try:
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
    from llama_index.core.prompts.mixin import PromptDictType
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing_extra("llama-index-core", "llamaindex", exc) from exc

__all__ = ["HallucheckEvaluationResult", "HallucheckEvaluator"]


class HallucheckEvaluationResult(EvaluationResult):
    """An EvaluationResult with the hallucheck report (as a dict: spans, findings, notes)."""

    report: dict[str, Any] | None = None


class HallucheckEvaluator(BaseEvaluator):
    """Grades a response against its retrieved contexts with hallucheck (no LLM needed).

    ``checker``: the Checker to use (default: hallucheck's default detectors and policy).
    ``threshold``: pass when the risk is at most this (default: pass unless the report says
    hallucinated).
    """

    def __init__(self, checker: Any = None, *, threshold: float | None = None) -> None:
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be between 0 and 1, not {threshold}")
        if checker is None:
            from hallucheck.checker import Checker  # lazy: heavy: pulls in regex; loaded only when this path runs

            checker = Checker()
        self.checker = checker
        self.threshold = threshold

    def _get_prompts(self) -> PromptDictType:
        return {}  # hallucheck's checks use no prompt of LlamaIndex's

    def _update_prompts(self, prompts_dict: PromptDictType) -> None:
        return None

    def evaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> HallucheckEvaluationResult:
        """Check ``response`` against ``contexts`` (the question is ``query``)."""
        from hallucheck.cases import make_case  # lazy: loaded only on this path

        if response is None or contexts is None:
            raise InputError("both response and contexts are needed to check for hallucinations")
        sources = as_contexts(contexts)
        case = make_case(question=query or "", contexts=sources, answer=response)
        result = Verdict(self.checker.check(case), response, self.threshold)
        return HallucheckEvaluationResult(
            query=query,
            contexts=[s if isinstance(s, str) else s["text"] for s in sources],
            response=response,
            passing=result.passing,
            score=result.score,
            feedback=result.feedback,
            report=result.report.model_dump(mode="json"),
        )

    async def aevaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> HallucheckEvaluationResult:
        """The same as ``evaluate``, off the event loop (checks are CPU-bound)."""
        return await asyncio.to_thread(self.evaluate, query, response, contexts, **kwargs)
