"""Guarded generation: answer with forced citations, check, repair, and say what to do next.

``Guard(llm).answer(question, contexts)`` is the RAG prompting guide's guarded assistant made strict: the
answer is generated with the forced-citation template (sources listed under their real ids),
checked by a Checker that expects citations, repaired by the severity-driven Mitigator
(production pipeline guide), and returned with its report and every attempt.

Inside an agent loop (detection guideline) pass ``iteration`` and ``max_iterations``: the result's
``action`` then says whether the loop should ``synthesize`` (low risk), ``refine_search``
(moderate) or ``continue`` searching (high). In a loop the guard does not abstain — more
searching is the better remedy — and within 3 iterations of the limit a high-risk answer is
accepted (``forced_accept``) but stays marked high risk. ``Guard.run`` drives such a loop over a
retrieval function.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from hallucheck.llm.base import LLMClient
from hallucheck.prevent.abstention import is_abstention
from hallucheck.prevent.mitigate.mitigator import Mitigator, abstention_report
from hallucheck.prevent.mitigate.records import Attempt
from hallucheck.prevent.mitigate.severity import CRITICAL_SCORE, Severity
from hallucheck.prevent.mitigate.steps import StepError, Steps, Usage, Watch, adrive, ask_watched, check, drive
from hallucheck.prevent.prompt_strategies import PromptStrategy, as_sources, final_answer, parse_strategy, prompt_language, prompt_messages
from hallucheck.types import Case, Decision, Report, RiskLevel, Source

__all__ = ["Guard", "GuardResult", "GuardRun", "Action", "agent_action"]

Action = Literal["synthesize", "refine_search", "continue"]


class GuardResult(BaseModel):
    """The guarded answer, its report, every attempt, and what an agent loop should do next."""

    question: str
    answer: str
    report: Report
    attempts: list[Attempt] = Field(default_factory=list)
    action: Action
    decision: Decision
    risk_level: RiskLevel
    risk_score: float
    accepted: bool  # fit to give to the user now (action "synthesize")
    forced_accept: bool = False  # accepted near the iteration limit although high risk
    near_limit: bool = False
    iteration: int | None = None
    max_iterations: int | None = None
    abstained: bool = False
    repaired: bool = False
    stopped_early: bool = False  # the first generation was stopped at a rejected sentence
    strategy: str = "generate"  # what produced the final answer
    prompt_strategy: str = PromptStrategy.FORCED_CITATION.value
    initial_severity: str = ""
    language: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    notes: list[str] = Field(default_factory=list)


class GuardRun(BaseModel):
    """An agent loop driven by ``Guard.run``: the final result and every round."""

    final: GuardResult
    rounds: list[GuardResult]
    exhausted: bool = False  # stopped by max_iterations, not by a "synthesize" action


# Prompts whose raw output is the answer itself, so that it can be checked while it streams.
_STREAMABLE = frozenset({PromptStrategy.BASIC, PromptStrategy.FORCED_CITATION})

_NO_LOOP: dict[str, Action] = {"low": "synthesize", "moderate": "refine_search", "high": "continue"}


def agent_action(level: RiskLevel, iteration: int, max_iterations: int | None) -> tuple[Action, bool]:
    """The detection guideline's loop rule as ``(action, forced)``; ``forced`` = high risk accepted near the limit.

    The rule itself lives in ``hallucheck.policies.agent_loop``; without an iteration limit there
    is no "near the limit" and the level alone decides.
    """
    if max_iterations is None:
        return _NO_LOOP[level], False
    from hallucheck.policies.agent_loop import agent_action as next_step  # lazy: loaded only on this path

    step = next_step(level, iteration, max_iterations)
    return step.action, step.forced



def _next_action(
    abstained: bool, level: RiskLevel, iteration: int | None, max_iterations: int | None, near: bool, notes: list[str]
) -> tuple[Action, bool]:
    """What an agent loop should do next, and whether a risky answer was accepted at the limit."""
    in_loop = iteration is not None
    if abstained:
        # nothing grounded to say from these sources: a loop should look for better ones
        action: Action = "refine_search" if in_loop and not near else "synthesize"
        if action == "refine_search":
            notes.append("no grounded answer from these sources: refine the search")
        return action, False
    action, forced = agent_action(level, iteration if iteration is not None else 0, max_iterations if in_loop else None)
    if forced:
        notes.append(
            f"near the iteration limit ({iteration} of {max_iterations}): {level}-risk answer accepted, still marked {level} risk"
        )
    return action, forced


def near_iteration_limit(iteration: int | None, max_iterations: int | None) -> bool:
    """Whether ``iteration`` is within the agent-loop rule's window of the limit."""
    from hallucheck.policies.agent_loop import NEAR_LIMIT  # lazy: loaded only on this path

    return iteration is not None and max_iterations is not None and iteration >= max_iterations - NEAR_LIMIT


class Guard:
    """Generate, check, repair.

    ``llm`` writes the answer (any LLMClient); ``checker`` checks it (default: a Checker that
    expects citations). ``max_attempts`` bounds the repairs, ``strategy`` is the answer prompt
    (forced citation by default), ``temperature`` the first generation's temperature (lowered by
    the temperature-adjustment repair), ``abstain`` whether a standalone answer that cannot be
    repaired is replaced by a "the sources do not say" answer.

    ``stop_early``: stream the first generation and check it sentence by sentence as it comes
    (``Checker.stream``); at the first sentence whose decision is in ``stop_on`` the generation is
    stopped (a hosted backend's response is dropped, so no more tokens are paid for) and the
    answer up to that sentence goes to the check and the repairs. It needs a client with
    ``stream`` (the OpenAI-compatible and Anthropic backends stream for real; FakeLLM streams its
    script) and a prompt whose raw output is the answer (``basic`` or ``forced_citation``);
    otherwise the answer is generated whole, with a note.
    """

    def __init__(
        self,
        llm: LLMClient,
        checker: Any = None,
        *,
        max_attempts: int = 3,
        strategy: PromptStrategy | str = PromptStrategy.FORCED_CITATION,
        temperature: float = 0.5,
        max_tokens: int | None = 512,
        abstain: bool = True,
        correction: Literal["rewrite", "remove"] = "rewrite",
        plan: Mapping[str | Severity, Sequence[str]] | None = None,
        critical: float = CRITICAL_SCORE,
        citations_expected: bool = True,
        stop_early: bool = False,
        stop_on: Sequence[str] = ("reject",),
    ) -> None:
        if llm is None:
            raise ValueError("Guard needs an LLM client to generate answers")
        if checker is None:
            from hallucheck.checker import Checker  # lazy: loaded only on this path

            checker = Checker(citations_expected=citations_expected)
        self.llm = llm
        self.checker = checker
        self.strategy = parse_strategy(strategy)
        self.temperature = float(temperature)
        self.abstain = abstain
        self.citations_expected = citations_expected
        self.stop_early = stop_early
        self.stop_on = frozenset(stop_on)
        self.settings: dict[str, Any] = {"max_tokens": max_tokens} if max_tokens else {}
        self.mitigator = Mitigator(
            llm, checker, max_attempts=max_attempts, plan=plan, correction=correction, critical=critical,
            abstain=abstain, llm_settings=self.settings,
        )

    # ---- one answer ---------------------------------------------------------------------

    def answer(
        self,
        question: str,
        contexts: Sequence[Any],
        *,
        language: str | None = None,
        iteration: int | None = None,
        max_iterations: int | None = None,
    ) -> GuardResult:
        """The guarded answer to ``question`` from ``contexts`` (strings or ``{id, text}``)."""
        return drive(self.steps(question, contexts, language, iteration, max_iterations), self.llm, self.checker)

    async def aanswer(
        self,
        question: str,
        contexts: Sequence[Any],
        *,
        language: str | None = None,
        iteration: int | None = None,
        max_iterations: int | None = None,
    ) -> GuardResult:
        """The same as ``answer`` with awaited LLM calls and checks off the event loop."""
        return await adrive(self.steps(question, contexts, language, iteration, max_iterations), self.llm, self.checker)

    def steps(
        self,
        question: str,
        contexts: Sequence[Any],
        language: str | None = None,
        iteration: int | None = None,
        max_iterations: int | None = None,
    ) -> Steps[GuardResult]:
        """Generation, check and repair as a generator of requests (see ``mitigate.steps``)."""
        t0 = time.perf_counter()
        if iteration is not None and iteration < 0:
            raise ValueError("iteration must be 0 or more")
        if max_iterations is not None and max_iterations < 1:
            raise ValueError("max_iterations must be at least 1")
        sources = as_sources(contexts)
        lang = prompt_language(language, question, sources)
        in_loop = iteration is not None
        near = near_iteration_limit(iteration, max_iterations)
        notes: list[str] = []
        if not sources:
            return self._no_sources(question, lang, iteration, max_iterations, near, t0)

        first, report, stopped = yield from self._generate(question, sources, lang, notes)
        answer, error = first.answer, first.error
        allow_abstain = self.abstain and not in_loop
        if report is None:
            # no answer at all (the LLM failed or said nothing): say so rather than return nothing
            # lazy: already loaded by this module's imports; kept where it is used
            from hallucheck.prevent.abstention import abstain_message

            notes.append(f"no answer generated: {error or 'the model returned an empty answer'}")
            final_text, final_report, attempts = abstain_message(lang), abstention_report(lang), [first]
            abstained, repaired, strategy_name, initial = True, False, "abstain", ""
        else:
            first.risk_score, first.risk_level = report.risk_score, report.risk_level
            first.decision, first.hallucinated, first.spans = report.decision, report.hallucinated, len(report.spans)
            result = yield from self.mitigator.steps(
                question, sources, answer, report, language=lang, prompt_strategy=self.strategy,
                temperature=self.temperature, citations_expected=self.citations_expected, abstain=allow_abstain,
            )
            final_text, final_report = result.answer, result.report
            attempts = [first, *result.attempts]
            abstained, repaired = result.abstained, result.repaired
            strategy_name = "generate" if result.strategy == "original" else result.strategy
            initial = result.initial_severity
        first.severity = initial

        level: RiskLevel = final_report.risk_level
        action, forced = _next_action(abstained or is_abstention(final_text), level, iteration, max_iterations, near, notes)
        decision: Decision = final_report.decision
        return GuardResult(
            question=question,
            answer=final_text,
            report=final_report,
            attempts=attempts,
            action=action,
            decision=decision,
            risk_level=level,
            risk_score=final_report.risk_score,
            accepted=action == "synthesize",
            forced_accept=forced,
            near_limit=near,
            iteration=iteration,
            max_iterations=max_iterations,
            abstained=abstained,
            repaired=repaired,
            stopped_early=stopped is not None,
            strategy=strategy_name,
            prompt_strategy=self.strategy.value,
            initial_severity=initial,
            language=lang,
            llm_calls=sum(a.llm_calls for a in attempts),
            prompt_tokens=sum(a.prompt_tokens for a in attempts),
            completion_tokens=sum(a.completion_tokens for a in attempts),
            latency_ms=round((time.perf_counter() - t0) * 1000.0, 3),
            notes=notes,
        )

    def _generate(
        self, question: str, sources: list[Source], lang: str, notes: list[str]
    ) -> Steps[tuple[Attempt, Report | None, dict[str, Any] | None]]:
        """The first answer (streamed and watched when ``stop_early``), its check when it is not
        empty, and the sentence that stopped the generation early, if one did."""
        usage = Usage()
        gen_t0 = time.perf_counter()
        watch = self._watch(question, sources, lang, notes)
        stopped: dict[str, Any] | None = None
        try:
            done = yield from ask_watched(
                prompt_messages(self.strategy, question, sources, lang), usage, watch, temperature=self.temperature,
                **self.settings,
            )
            answer, error = final_answer(self.strategy, done.text), None
            seen = done.raw.get("watch") if watch is not None else None
            if watch is not None and seen is None:
                notes.append("stop_early: the LLM client cannot stream; the answer was generated whole")
            if seen and seen.get("stopped"):
                stopped = seen["sentence"]
        except StepError as exc:
            answer, error = "", str(exc)
        report = (yield from check(self._case(question, sources, answer, lang))) if answer.strip() else None
        first = Attempt(
            index=0,
            strategy="generate",
            answer=answer,
            temperature=self.temperature,
            llm_calls=usage.calls,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            latency_ms=round((time.perf_counter() - gen_t0) * 1000.0, 3),
            accepted=report is not None,
            error=error,
            note=f"generated with the {self.strategy.value} prompt" if error is None else "generation failed",
        )
        if stopped is not None:
            first.note += (
                f"; stopped early at sentence {stopped['index'] + 1} ({stopped['decision']}, "
                f"risk {stopped['risk_score']:.2f}{', ' + ', '.join(stopped['labels']) if stopped['labels'] else ''})"
            )
            notes.append(f"generation stopped after sentence {stopped['index'] + 1}: {stopped['text']!r} was rejected")
        return first, report, stopped

    def _watch(self, question: str, sources: list[Source], lang: str, notes: list[str]) -> Watch | None:
        if not self.stop_early:
            return None
        if self.strategy not in _STREAMABLE:
            notes.append(f"stop_early: the {self.strategy.value} prompt's raw output is not the answer; generated whole")
            return None
        return Watch(self._case(question, sources, "", lang), self.stop_on)

    def _case(self, question: str, sources: list[Source], answer: str, lang: str) -> Case:
        return Case(
            question=question, contexts=sources, answer=answer, task="qa", language=lang,
            citations_expected=self.citations_expected,
        )

    def _no_sources(
        self, question: str, lang: str, iteration: int | None, max_iterations: int | None, near: bool, t0: float
    ) -> GuardResult:
        from hallucheck.prevent.abstention import abstain_message  # lazy: already loaded by this module's imports; kept where it is used

        in_loop = iteration is not None
        action: Action = "refine_search" if in_loop and not near else "synthesize"
        text = abstain_message(lang)
        return GuardResult(
            question=question,
            answer=text,
            report=abstention_report(lang),
            attempts=[Attempt(index=0, strategy="abstain", answer=text, accepted=True, note="no sources to answer from")],
            action=action,
            decision="accept",
            risk_level="low",
            risk_score=0.0,
            accepted=action == "synthesize",
            near_limit=near,
            iteration=iteration,
            max_iterations=max_iterations,
            abstained=True,
            strategy="abstain",
            prompt_strategy=self.strategy.value,
            language=lang,
            latency_ms=round((time.perf_counter() - t0) * 1000.0, 3),
            notes=["no sources were given (or none was relevant enough): the guard abstains"],
        )

    # ---- the agent loop -----------------------------------------------------------------

    def run(
        self,
        question: str,
        retrieve: Callable[[str, int, GuardResult | None], Any],
        *,
        max_iterations: int = 5,
        language: str | None = None,
    ) -> GuardRun:
        """Drive the detection guideline's loop: retrieve, answer, and stop on ``synthesize`` or the limit.

        ``retrieve(question, iteration, previous_result)`` returns the contexts for this round
        (a list, or a ``RetrievalResult`` from ``hallucheck.prevent.retrieval``); it sees the previous
        round's result, so it can refine the query from the flagged spans.
        """
        rounds: list[GuardResult] = []
        previous: GuardResult | None = None
        for iteration in range(1, max_iterations + 1):
            contexts = _contexts(retrieve(question, iteration, previous))
            previous = self.answer(
                question, contexts, language=language, iteration=iteration, max_iterations=max_iterations
            )
            rounds.append(previous)
            if previous.action == "synthesize":
                return GuardRun(final=previous, rounds=rounds)
        assert previous is not None
        return GuardRun(final=previous, rounds=rounds, exhausted=True)

    async def arun(
        self,
        question: str,
        retrieve: Callable[[str, int, GuardResult | None], Any | Awaitable[Any]],
        *,
        max_iterations: int = 5,
        language: str | None = None,
    ) -> GuardRun:
        """The async ``run``; ``retrieve`` may be a coroutine function."""
        import inspect  # lazy: loaded only on this path

        rounds: list[GuardResult] = []
        previous: GuardResult | None = None
        for iteration in range(1, max_iterations + 1):
            got = retrieve(question, iteration, previous)
            if inspect.isawaitable(got):
                got = await got
            previous = await self.aanswer(
                question, _contexts(got), language=language, iteration=iteration, max_iterations=max_iterations
            )
            rounds.append(previous)
            if previous.action == "synthesize":
                return GuardRun(final=previous, rounds=rounds)
        assert previous is not None
        return GuardRun(final=previous, rounds=rounds, exhausted=True)


def _contexts(got: Any) -> list[Any]:
    """Contexts from a retrieval function's return value (a list or a RetrievalResult)."""
    if got is None:
        return []
    docs = getattr(got, "contexts", None)
    if docs is not None:
        return list(docs)
    return list(got)
