"""Run every prompt strategy on every case with one LLM backend, and measure each answer.

For each (strategy, case) the prompt is rendered from the shipped templates, the model answers,
the user-facing part is extracted (last step of a reasoning answer, ``answer`` of a JSON one),
and hallucheck's checker judges it against the case's sources. Keyword coverage, citations
(valid ids, as read by the citations detector), the checker's risk, latency and tokens are
recorded per run and summarised per strategy with the RAG prompting guide's weighted score.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from hallucheck.abtest.cases import ABCase
from hallucheck.abtest.scoring import CaseRun, StrategySummary, Weights, keyword_coverage, summarize
from hallucheck.llm.base import LLMClient, LLMError
from hallucheck.prevent.prompt_strategies import STRATEGIES, PromptStrategy, final_answer, parse_strategy, prompt_language, prompt_messages
from hallucheck.types import Case, Report

__all__ = ["ABTester", "ABTestResult"]

Progress = Callable[[int, int, str], None]


class ABTestResult(BaseModel):
    """Everything the report shows: settings, per-run records and per-strategy summaries."""

    backend: str
    backend_note: str = ""
    strategies: list[str]
    cases: list[ABCase]
    runs: list[CaseRun]
    summaries: list[StrategySummary]
    weights: dict[str, float]
    checker: str = ""
    settings: dict[str, Any] = Field(default_factory=dict)
    started_at: str = ""
    duration_s: float = 0.0

    @property
    def best(self) -> StrategySummary | None:
        return self.summaries[0] if self.summaries else None

    def run_for(self, case_id: str, strategy: str) -> CaseRun | None:
        for r in self.runs:
            if r.case_id == case_id and r.strategy == strategy:
                return r
        return None


class ABTester:
    """``ABTester(llm).run(cases)``; ``checker`` defaults to hallucheck's default Checker."""

    def __init__(
        self,
        llm: LLMClient,
        strategies: Sequence[PromptStrategy | str] | None = None,
        checker: Any = None,
        *,
        weights: Weights | None = None,
        temperature: float = 0.0,
        max_tokens: int = 256,
        backend_note: str = "",
        warmup: bool = True,
    ) -> None:
        self.llm = llm
        self.warmup = warmup
        self.strategies = [parse_strategy(s) for s in (strategies or STRATEGIES)]
        if not self.strategies:
            raise ValueError("no strategies to compare")
        if checker is None:
            from hallucheck.checker import Checker  # lazy: loaded only on this path

            checker = Checker()
        self.checker = checker
        self.weights = weights or Weights()
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.backend_note = backend_note

    def run(self, cases: Sequence[ABCase], progress: Progress | None = None) -> ABTestResult:
        started = datetime.now(UTC)
        t0 = time.perf_counter()
        runs: list[CaseRun] = []
        total = len(cases) * len(self.strategies)
        done = 0
        if self.warmup:
            first_of_language: dict[str, ABCase] = {}
            for case in cases:
                first_of_language.setdefault(prompt_language(case.language, case.question, case.contexts), case)
            for case in first_of_language.values():
                self._warm_up(case)
        # case by case, every strategy in turn: a machine that slows down mid-run then slows all
        # strategies alike instead of whichever ran last
        for case in cases:
            for strategy in self.strategies:
                runs.append(self.run_one(strategy, case))
                done += 1
                if progress is not None:
                    progress(done, total, f"{case.id} / {strategy.value}")
        names = [s.value for s in self.strategies]
        return ABTestResult(
            backend=getattr(self.llm, "model", type(self.llm).__name__),
            backend_note=self.backend_note,
            strategies=names,
            cases=list(cases),
            runs=runs,
            summaries=summarize(runs, self.weights, names),
            weights=self.weights.as_dict(),
            checker=_describe(self.checker),
            settings={"temperature": self.temperature, "max_tokens": self.max_tokens},
            started_at=started.strftime("%Y-%m-%d %H:%M:%S UTC"),
            duration_s=round(time.perf_counter() - t0, 2),
        )

    def _warm_up(self, case: ABCase) -> None:
        """One short unrecorded call per language, so loading a model (or a tokenizer) is not billed to the first run."""
        lang = prompt_language(case.language, case.question, case.contexts)
        try:
            self.llm.complete(prompt_messages(self.strategies[0], case.question, case.contexts, lang), temperature=0.0, max_tokens=1)
        except LLMError:
            pass  # the real runs will record the failure

    def run_one(self, strategy: PromptStrategy, case: ABCase) -> CaseRun:
        """One strategy on one case (an LLM failure becomes a run with ``error`` set)."""
        lang = prompt_language(case.language, case.question, case.contexts)
        messages = prompt_messages(strategy, case.question, case.contexts, lang)
        t0 = time.perf_counter()
        try:
            completion = self.llm.complete(messages, temperature=self.temperature, max_tokens=self.max_tokens)
        except LLMError as exc:
            return CaseRun(
                case_id=case.id, strategy=strategy.value, language=lang, raw="", answer="", keyword_coverage=0.0,
                cited=False, risk_score=1.0, risk_level="high", decision="reject", hallucinated=False,
                latency_ms=(time.perf_counter() - t0) * 1000.0, prompt_tokens=0, completion_tokens=0,
                error=f"LLM call failed: {exc}",
            )
        latency = completion.latency_ms or (time.perf_counter() - t0) * 1000.0
        answer = final_answer(strategy, completion.text)
        parse_ok = None
        if strategy is PromptStrategy.STRUCTURED:
            from hallucheck.prevent.structured_answer import parse_structured_answer  # lazy: loaded only on this path

            parse_ok = parse_structured_answer(completion.text) is not None
        report = self.checker.check(
            Case(question=case.question, contexts=case.contexts, answer=answer, task="qa", language=lang)
        )
        error = None if answer.strip() else "empty answer"
        return CaseRun(
            case_id=case.id,
            strategy=strategy.value,
            language=lang,
            raw=completion.text,
            answer=answer,
            keyword_coverage=keyword_coverage(answer, case.expected_keywords) if answer.strip() else 0.0,
            cited=bool(_valid_citations(report, answer, case)),
            invalid_citations=report.citations.invalid if report.citations else [],
            risk_score=report.risk_score if error is None else 1.0,
            risk_level=report.risk_level,
            decision=report.decision,
            hallucinated=report.hallucinated,
            spans=[
                {"start": s.start, "end": s.end, "text": s.text, "label": s.label, "score": round(s.score, 3),
                 "detector": s.detector, "reason": s.reason}
                for s in report.spans
            ],
            latency_ms=latency,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            cached=completion.cached,
            parse_ok=parse_ok,
            error=error,
        )


def _valid_citations(report: Report, answer: str, case: ABCase) -> list[str]:
    """Valid cited ids: the citations detector's verdict, or the same marker reader when it did not run."""
    if report.citations is not None:
        return list(report.citations.valid)
    from hallucheck.text.citations import find_citations  # lazy: loaded only on this path

    known = {s.id for s in case.contexts}
    return sorted({i for m in find_citations(answer, known) for i in m.ids if i in known})


def _describe(checker: Any) -> str:
    policy = getattr(getattr(checker, "policy", None), "name", "")
    names = getattr(checker, "detector_names", None)
    if names is None:
        return type(checker).__name__
    return f"policy {policy or '?'}; detectors {', '.join(names)}"
