"""hallucheck as a LangChain / LangSmith evaluator (extra ``[langchain]``).

langchain-core 1.x evaluates runs with LangSmith's ``RunEvaluator`` protocol: its
``EvaluatorCallbackHandler`` calls ``evaluate_run(run, example)`` on every finished top-level
run, and ``langsmith.evaluate`` takes the same objects. ``HallucheckEvaluator`` is one: it finds
the question, the retrieved documents and the answer in the run's inputs and outputs (by the
usual key names, or the ones you give), checks the answer, and returns an ``EvaluationResult``
whose score is 1 − risk (higher is better), whose value is the decision and whose comment lists
the flagged spans with their labels and reasons.

The string evaluators of the classic ``langchain`` package are not part of langchain-core 1.x;
``evaluate_strings(prediction=, input=, reference=)`` follows their calling convention and return
shape (``score``, ``value``, ``reasoning``) so code written for them keeps working.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, cast

from hallucheck.errors import InputError
from hallucheck.integrations.common import Verdict, as_contexts, missing_extra

try:
    from langsmith.evaluation.evaluator import EvaluationResult, RunEvaluator
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise missing_extra("langchain-core", "langchain", exc) from exc

__all__ = ["HallucheckEvaluator"]

QUESTION_KEYS = ("question", "query", "input")
CONTEXT_KEYS = ("contexts", "context", "documents", "source_documents", "docs")
ANSWER_KEYS = ("answer", "output", "result", "response", "text")


class HallucheckEvaluator(RunEvaluator):
    """Grades a RAG run's answer against the documents it was given.

    ``checker``: the Checker to use (default: hallucheck's default detectors and policy).
    ``threshold``: pass when the risk is at most this (default: pass unless the report says
    hallucinated). ``question_key`` / ``contexts_key`` / ``answer_key`` name where a run keeps
    them; by default the first of the usual names found in the run's outputs, then its inputs,
    then the example's inputs. ``key`` is the feedback key.
    """

    evaluation_name = "hallucheck_groundedness"

    def __init__(
        self,
        checker: Any = None,
        *,
        threshold: float | None = None,
        key: str = "hallucheck_groundedness",
        question_key: str | None = None,
        contexts_key: str | None = None,
        answer_key: str | None = None,
    ) -> None:
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be between 0 and 1, not {threshold}")
        if checker is None:
            from hallucheck.checker import Checker  # lazy: heavy: pulls in regex; loaded only when this path runs

            checker = Checker()
        self.checker = checker
        self.threshold = threshold
        self.key = key
        self.question_key = question_key
        self.contexts_key = contexts_key
        self.answer_key = answer_key

    @property
    def feedback_keys(self) -> list[str]:
        return [self.key]

    # ---- RunEvaluator -------------------------------------------------------------------------

    def evaluate_run(self, run: Any, example: Any = None, evaluator_run_id: uuid.UUID | None = None) -> EvaluationResult:
        places = [getattr(run, "outputs", None) or {}, getattr(run, "inputs", None) or {}]
        if example is not None:
            places += [getattr(example, "inputs", None) or {}, getattr(example, "outputs", None) or {}]
        question = _find(places, self.question_key, QUESTION_KEYS, "question", required=False)
        contexts = _find(places, self.contexts_key, CONTEXT_KEYS, "contexts")
        answer = _find(places, self.answer_key, ANSWER_KEYS, "answer")
        if not isinstance(answer, str):
            answer = _answer_text(answer)
        result = self._grade(question if isinstance(question, str) else "", contexts, answer)
        return EvaluationResult(
            key=self.key,
            score=result.score,
            value=result.report.decision,
            comment=result.feedback,
            metadata={"report": result.report.model_dump(mode="json", exclude={"findings"}), "passing": result.passing},
            target_run_id=getattr(run, "id", None),
        )

    async def aevaluate_run(self, run: Any, example: Any = None, evaluator_run_id: uuid.UUID | None = None) -> EvaluationResult:
        return await asyncio.to_thread(self.evaluate_run, run, example, evaluator_run_id)

    # ---- the string-evaluator convention ------------------------------------------------------

    def evaluate_strings(
        self,
        *,
        prediction: str,
        input: str | None = None,  # the convention's name
        reference: Any = None,
        contexts: Any = None,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """Grade ``prediction`` (the answer) to ``input`` (the question) against ``contexts``
        (or ``reference``: a text or a list of texts or documents). Returns ``score`` (1 − risk),
        ``value`` (the decision), ``reasoning`` (the flagged spans), ``passing`` and ``report``."""
        sources = contexts if contexts is not None else reference
        if sources is None:
            raise InputError("give the sources as contexts= or reference=")
        result = self._grade(input or "", sources, prediction)
        return {"score": result.score, "value": result.report.decision, "reasoning": result.feedback,
                "passing": result.passing, "report": result.report}

    async def aevaluate_strings(self, **kwargs: Any) -> dict[str, Any]:
        return await asyncio.to_thread(lambda: self.evaluate_strings(**kwargs))

    def _grade(self, question: str, contexts: Any, answer: str) -> Verdict:
        from hallucheck.cases import make_case  # lazy: loaded only on this path

        case = make_case(question=question, contexts=as_contexts(contexts), answer=answer)
        return Verdict(self.checker.check(case), answer, self.threshold)


def _find(places: Sequence[Mapping[str, Any]], key: str | None, defaults: Sequence[str], what: str,
          required: bool = True) -> Any:
    keys = (key,) if key else defaults
    for place in places:
        for k in keys:
            if isinstance(place, Mapping) and place.get(k) is not None:
                return place[k]
    if required:
        raise InputError(f"the run has no {what} (looked for {', '.join(keys)} in its outputs and inputs)")
    return None


def _answer_text(value: Any) -> str:
    """The text of a chat message or of its serialised form."""
    content = getattr(value, "content", None)
    if isinstance(content, str):
        return content
    if isinstance(value, Mapping):
        for k in ("content", "text"):
            if isinstance(value.get(k), str):
                return cast(str, value[k])
        kwargs = value.get("kwargs")
        if isinstance(kwargs, Mapping) and isinstance(kwargs.get("content"), str):
            return cast(str, kwargs["content"])
    raise InputError(f"the run's answer is a {type(value).__name__}, not text")
