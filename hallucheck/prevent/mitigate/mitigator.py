"""The repair loop: pick a strategy by severity, try it, re-check, keep the better answer.

The production pipeline guide maps each severity to an ordered list of strategies. The loop tries them in that order
(each at most once), re-checks every candidate with the same checker, and keeps a candidate only
when it is less risky than the current answer; after each try the severity is re-read, so an
answer that improved from high to moderate continues with the moderate plan. ``max_attempts``
bounds the candidates produced (regenerations and corrections). An answer still high or
critical when the plan or the attempts run out is replaced by an abstention unless abstaining
is disabled. Every step, also a skipped or failed one, is recorded.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from hallucheck.llm.base import LLMClient
from hallucheck.prevent.mitigate.base import MitigationStrategy, Repair, RepairState
from hallucheck.prevent.mitigate.correction import FactualCorrection
from hallucheck.prevent.mitigate.records import Attempt, MitigationResult
from hallucheck.prevent.mitigate.repair_strategies import (
    Abstain,
    DecomposeRetry,
    PassThrough,
    SourceReinforcement,
    TemperatureAdjustment,
)
from hallucheck.prevent.mitigate.severity import CRITICAL_SCORE, Severity, normalize_plan, severity_for
from hallucheck.prevent.mitigate.steps import StepError, Steps, Usage, adrive, check, drive
from hallucheck.prevent.prompt_strategies import PromptStrategy, as_sources, parse_strategy, prompt_language
from hallucheck.types import Case, Report, Source

__all__ = ["Mitigator", "abstention_report", "default_strategies"]


def default_strategies(correction: Literal["rewrite", "remove"] = "rewrite") -> dict[str, MitigationStrategy]:
    """The six strategies of the production pipeline guide by name."""
    items: list[MitigationStrategy] = [
        PassThrough(),
        SourceReinforcement(),
        TemperatureAdjustment(),
        FactualCorrection(correction),
        DecomposeRetry(),
        Abstain(),
    ]
    return {s.name: s for s in items}


def abstention_report(language: str, task: str = "qa") -> Report:
    """The report of an abstention: it claims nothing, so there is nothing to flag."""
    return Report(
        hallucinated=False,
        risk_score=0.0,
        risk_level="low",
        decision="accept",
        notes=["The answer abstains (the sources do not answer the question); it makes no claim to check."],
        language=language,
        task=task,
    )


class Mitigator:
    """Repairs a checked answer (see the module docstring for the loop).

    ``checker`` re-checks candidates (any object with ``check(case) -> Report``); ``llm`` is
    needed by the regenerating strategies (without it they are skipped and removal-based
    correction and abstention remain). ``temperature`` is the one the answer was generated at.
    """

    def __init__(
        self,
        llm: LLMClient | None = None,
        checker: Any = None,
        *,
        max_attempts: int = 3,
        plan: Mapping[str | Severity, Sequence[str]] | None = None,
        strategies: Mapping[str, MitigationStrategy] | None = None,
        correction: Literal["rewrite", "remove"] = "rewrite",
        critical: float = CRITICAL_SCORE,
        abstain: bool = True,
        llm_settings: Mapping[str, Any] | None = None,
    ) -> None:
        if max_attempts < 0:
            raise ValueError("max_attempts must be 0 or more")
        self.llm = llm
        if checker is None:
            from hallucheck.checker import Checker  # lazy: loaded only on this path

            checker = Checker()
        self.checker = checker
        self.max_attempts = max_attempts
        self.strategies = dict(strategies) if strategies is not None else default_strategies(correction)
        self.plan = normalize_plan(plan, list(self.strategies))
        self.critical = critical
        self.abstain = abstain
        self.llm_settings = dict(llm_settings or {})

    # ---- public API ---------------------------------------------------------------------

    def mitigate(
        self,
        question: str,
        contexts: Sequence[Any],
        answer: str,
        report: Report | None = None,
        *,
        language: str | None = None,
        prompt_strategy: PromptStrategy | str = PromptStrategy.FORCED_CITATION,
        temperature: float = 0.5,
        citations_expected: bool | None = None,
        abstain: bool | None = None,
    ) -> MitigationResult:
        """Repair ``answer`` (checked first when no ``report`` is given)."""
        steps = self.steps(
            question, contexts, answer, report, language=language, prompt_strategy=prompt_strategy,
            temperature=temperature, citations_expected=citations_expected, abstain=abstain,
        )
        return drive(steps, self.llm, self.checker)

    async def amitigate(
        self,
        question: str,
        contexts: Sequence[Any],
        answer: str,
        report: Report | None = None,
        *,
        language: str | None = None,
        prompt_strategy: PromptStrategy | str = PromptStrategy.FORCED_CITATION,
        temperature: float = 0.5,
        citations_expected: bool | None = None,
        abstain: bool | None = None,
    ) -> MitigationResult:
        """The same as ``mitigate`` with awaited LLM calls."""
        steps = self.steps(
            question, contexts, answer, report, language=language, prompt_strategy=prompt_strategy,
            temperature=temperature, citations_expected=citations_expected, abstain=abstain,
        )
        return await adrive(steps, self.llm, self.checker)

    # ---- the loop, as steps -------------------------------------------------------------

    def steps(
        self,
        question: str,
        contexts: Sequence[Any],
        answer: str,
        report: Report | None = None,
        *,
        language: str | None = None,
        prompt_strategy: PromptStrategy | str = PromptStrategy.FORCED_CITATION,
        temperature: float = 0.5,
        citations_expected: bool | None = None,
        abstain: bool | None = None,
        first_index: int = 0,
    ) -> Steps[MitigationResult]:
        """The repair loop as a generator of LLM calls and checks (see ``steps.drive``)."""
        sources = as_sources(contexts)
        lang = prompt_language(language, question, sources)
        allow_abstain = self.abstain if abstain is None else abstain
        if report is None:
            report = yield from check(_case(question, sources, answer, lang, citations_expected))
        state = RepairState(
            question=question,
            sources=sources,
            language=lang,
            answer=answer,
            report=report,
            severity=severity_for(report, self.critical),
            prompt_strategy=parse_strategy(prompt_strategy),
            temperature=float(temperature),
            settings=dict(self.llm_settings),
        )
        initial = state.severity
        log = _Log(state, first_index)
        tried: set[str] = set()
        while not (log.ended or log.limit_reached):
            state.severity = severity_for(state.report, self.critical)
            pending = [n for n in self.plan[state.severity] if n not in tried]
            if not pending:
                break
            tried.add(pending[0])
            yield from self._attempt(pending[0], log, allow_abstain, citations_expected)
        if not log.ended:
            yield from self._close(log, allow_abstain)
        return MitigationResult(
            answer=state.answer,
            report=state.report,
            attempts=log.attempts,
            initial_severity=initial.value,
            final_severity=severity_for(state.report, self.critical).value,
            strategy=log.final_strategy,
            abstained=log.abstained,
            repaired=state.answer != answer,
            retry_limit_reached=log.limit_reached,
        )

    def _attempt(self, name: str, log: _Log, allow_abstain: bool, citations_expected: bool | None) -> Steps[None]:
        """Try one strategy of the plan: skip it (and say why), end the loop with a terminal one,
        or produce a candidate, re-check it and keep it only when it is less risky."""
        state = log.state
        strategy = self.strategies[name]
        reason = strategy.skip_reason(state, self.llm is not None)
        if name == "abstain" and not allow_abstain:
            reason = "abstaining is disabled here"
        if reason:
            log.record(name, note=f"skipped: {reason}")
            return
        if strategy.terminal:
            repair = yield from strategy.steps(state, Usage())
            if name == "abstain":
                log.abstained = True
                state.answer, state.report = repair.answer, abstention_report(state.language)
                log.final_strategy = name
            log.record(name, answer=repair.answer, accepted=True, note=repair.note, **_outcome(state.report))
            log.ended = True
            return
        if log.produced >= self.max_attempts:
            log.limit_reached = True
            log.record(name, note=f"skipped: retry limit of {self.max_attempts} attempt(s) reached")
            return
        log.produced += 1
        usage = Usage()
        t0 = time.perf_counter()
        try:
            candidate: Repair = yield from strategy.steps(state, usage)
        except StepError as exc:
            log.record(name, error=str(exc), note="failed", latency_ms=_ms(t0), **_usage(usage))
            return
        new_report = yield from check(_case(state.question, state.sources, candidate.answer, state.language, citations_expected))
        better = _better(new_report, state.report)
        log.record(
            name,
            answer=candidate.answer,
            accepted=better,
            temperature=candidate.temperature,
            note=candidate.note + ("" if better else "; not less risky, discarded"),
            latency_ms=_ms(t0),
            **_outcome(new_report),
            **_usage(usage),
        )
        if better:
            state.answer, state.report = candidate.answer, new_report
            if candidate.temperature is not None:
                state.temperature = candidate.temperature
            log.final_strategy = name

    def _close(self, log: _Log, allow_abstain: bool) -> Steps[None]:
        """After the plan: abstain when the answer is still high or critical risk, else keep it."""
        state = log.state
        final = severity_for(state.report, self.critical)
        state.severity = final
        if final in (Severity.HIGH, Severity.CRITICAL) and allow_abstain and "abstain" in self.strategies:
            repair = yield from self.strategies["abstain"].steps(state, Usage())
            state.answer, state.report, log.abstained = repair.answer, abstention_report(state.language), True
            log.final_strategy = "abstain"
            note = f"{repair.note}: no repair brought the risk below {final.value}"
            log.record("abstain", answer=repair.answer, accepted=True, note=note, **_outcome(state.report))
        else:
            note = "best answer kept" + (f" (still {final.value} risk)" if final is not Severity.LOW else "")
            log.record("pass_through", answer=state.answer, accepted=True, note=note, **_outcome(state.report))


@dataclass
class _Log:
    """What one repair run has done so far: the attempts recorded and how the loop ended."""

    state: RepairState
    index: int
    attempts: list[Attempt] = field(default_factory=list)
    produced: int = 0
    final_strategy: str = "original"
    abstained: bool = False
    ended: bool = False  # a terminal strategy (pass-through or abstain) closed the loop
    limit_reached: bool = False

    def record(self, name: str, **fields: Any) -> Attempt:
        self.index += 1
        attempt = Attempt(index=self.index, strategy=name, severity=self.state.severity.value, **fields)
        self.attempts.append(attempt)
        return attempt


def _case(question: str, sources: list[Source], answer: str, language: str, citations_expected: bool | None) -> Case:
    return Case(
        question=question, contexts=sources, answer=answer, task="qa", language=language,
        citations_expected=citations_expected,
    )


def _better(new: Report, old: Report) -> bool:
    """Less risky: a lower risk level, or the same level with a clearly lower score."""
    rank = {"low": 0, "moderate": 1, "high": 2}
    if rank[new.risk_level] != rank[old.risk_level]:
        return rank[new.risk_level] < rank[old.risk_level]
    return new.risk_score < old.risk_score - 1e-6


def _outcome(report: Report) -> dict[str, Any]:
    return {
        "risk_score": report.risk_score,
        "risk_level": report.risk_level,
        "decision": report.decision,
        "hallucinated": report.hallucinated,
        "spans": len(report.spans),
    }


def _usage(u: Usage) -> dict[str, Any]:
    return {"llm_calls": u.calls, "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens}


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000.0, 3)
