"""POST /v1/guard: generate a guarded answer (forced citations, check, repair) and store it.

The answer is written by the LLM configured with ``HALLUCHECK_LLM_*`` (built once, on the first
guard request) and checked by the service's own Checker, so a guarded answer is judged exactly
like one sent to /v1/check. Without a configured LLM the route answers 503 ``llm_not_configured``
instead of inventing a fallback. The final answer and its report are stored as a check (tagged
``guard`` in the case metadata with the action and the attempts' strategies); the response adds
every attempt and the agent-loop action.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool

from hallucheck.prevent.guard import Guard, GuardResult
from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.deadline import Abandoned, Ticket, TicketedChecker
from hallucheck.service.deps import caller, get_context, take
from hallucheck.service.errors import ApiError
from hallucheck.service.routes_check import refuse_unstorable
from hallucheck.service.schemas import ErrorResponse
from hallucheck.service.store import build_record, new_id, utcnow
from hallucheck.service.work import admit, timeout_error
from hallucheck.types import Case, Source

__all__ = ["router", "GuardRequest", "GuardResponse", "guard_chars", "set_guard_llm"]

router = APIRouter(prefix="/v1", tags=["guard"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse}, 413: {"model": ErrorResponse}, 422: {"model": ErrorResponse},
    429: {"model": ErrorResponse}, 503: {"model": ErrorResponse}, 504: {"model": ErrorResponse},
}
_LOCK = threading.Lock()
GUARD_MAX_TOKENS = 512  # the generated answer's bound, in tokens
_CHARS_PER_TOKEN = 4  # a generous average, to bound the answer's characters for admission


def guard_chars(question: str, contexts: list[Source]) -> int:
    """The characters a guard reads: its prompt (question, sources) and the longest answer it may get."""
    return len(question) + sum(len(c.text) for c in contexts) + GUARD_MAX_TOKENS * _CHARS_PER_TOKEN


class GuardRequest(BaseModel):
    """A question and the retrieved sources to answer it from."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=10_000)
    contexts: list[Source] = Field(default_factory=list, max_length=200)
    language: str | None = None
    strategy: Literal["basic", "chain_of_thought", "forced_citation", "self_reflection", "structured"] = "forced_citation"
    max_attempts: int = Field(3, ge=0, le=6)
    temperature: float = Field(0.5, ge=0.0, le=2.0)
    abstain: bool = True
    correction: Literal["rewrite", "remove"] = "rewrite"
    stop_early: bool = False  # check the first generation while it streams; stop at a rejected sentence
    iteration: int | None = Field(None, ge=0)
    max_iterations: int | None = Field(None, ge=1, le=1000)

    @field_validator("contexts", mode="before")
    @classmethod
    def _contexts(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [{"id": str(i), "text": c} if isinstance(c, str) else c for i, c in enumerate(v, start=1)]
        return v


class GuardResponse(GuardResult):
    id: str  # the stored check of the final answer
    created_at: str


def set_guard_llm(app: Any, llm: Any) -> None:
    """Use ``llm`` for this app's guard route (tests, or an app embedding its own client)."""
    app.state.guard_llm = llm


def _llm(request: Request) -> Any:
    state = request.app.state
    llm = getattr(state, "guard_llm", None)
    if llm is not None:
        return llm
    with _LOCK:
        llm = getattr(state, "guard_llm", None)
        if llm is None:
            from hallucheck.llm.config import client_from_env  # lazy: loaded only on this path

            try:
                llm = client_from_env()
            except ValueError as exc:  # InputError: an incomplete HALLUCHECK_LLM_* configuration
                raise ApiError(503, "llm_not_configured", f"the LLM configuration is not usable: {exc}") from None
            if llm is None:
                raise ApiError(503, "llm_not_configured",
                               "no LLM is configured for generation: set HALLUCHECK_LLM_BACKEND / HALLUCHECK_LLM_MODEL")
            state.guard_llm = llm
    return llm


@router.post("/guard", response_model=GuardResponse, responses=_ERRORS,
             summary="Answer from the sources with forced citations, check, repair; the final answer is stored")
async def guard(req: GuardRequest, request: Request, who: Principal = Depends(caller),
                ctx: ServiceContext = Depends(get_context)) -> GuardResponse:
    started = time.monotonic()
    if (req.iteration is None) != (req.max_iterations is None):
        raise ApiError(422, "invalid_request", "give iteration and max_iterations together")
    refuse_unstorable(req.model_dump())
    probe = Case(question=req.question, contexts=req.contexts or [Source(id="-", text="")], answer="")
    ctx.check_limits(probe)
    llm = _llm(request)
    # one token for the answer and one for every repair it may take, all at once (a refused
    # guard takes none)
    take(ctx, who, 1.0 + req.max_attempts)
    # Admitted like a check, by its cost: it reads the question and sources to generate an answer
    # of up to max_tokens, then checks that answer against them (repairs reuse the same slot).
    ticket = Ticket(started + ctx.settings.request_timeout_s)
    checker = TicketedChecker(ctx.checker, ticket)
    g = Guard(llm, checker, max_attempts=req.max_attempts, strategy=req.strategy, temperature=req.temperature,
              abstain=req.abstain, correction=req.correction, stop_early=req.stop_early, max_tokens=GUARD_MAX_TOKENS)
    grant = await admit(ctx, guard_chars(req.question, req.contexts), ticket, checks=2.0)
    t0 = time.perf_counter()
    try:
        # The request's deadline covers generation, checks and repairs; past it the answer is
        # dropped (cancelled between steps, a running check stops at its next detector or window)
        # and nothing is stored, like a /v1/check that times out.
        result = await asyncio.wait_for(
            g.aanswer(req.question, req.contexts, language=req.language, iteration=req.iteration,
                      max_iterations=req.max_iterations),
            timeout=max(ticket.remaining(), 0.0),
        )
        if not ticket.commit():
            raise Abandoned
    except (TimeoutError, Abandoned):
        ticket.abandon()
        raise timeout_error(ctx, "the guarded answer") from None
    finally:
        checker.when_idle(lambda: ctx.admission.release_threadsafe(grant))
    seconds = time.perf_counter() - t0
    cid, created = await run_in_threadpool(_store, ctx, req, result, who.key_id, seconds)
    return GuardResponse(id=cid, created_at=created, **result.model_dump())


def _store(ctx: ServiceContext, req: GuardRequest, result: GuardResult, key_id: str | None,
           seconds: float) -> tuple[str, str]:
    contexts = req.contexts or [Source(id="-", text="")]
    case = Case(
        question=req.question, contexts=contexts, answer=result.answer, task="qa", language=result.language,
        citations_expected=True,
        metadata={"guard": {"action": result.action, "abstained": result.abstained, "repaired": result.repaired,
                            "strategies": [a.strategy for a in result.attempts], "llm_calls": result.llm_calls,
                            "stopped_early": result.stopped_early}},
    )
    ctx.metrics.observe(result.report, seconds)
    created = utcnow()
    timings = {"guard_ms": seconds * 1000.0}
    rec = build_record(case, result.report, api_key_id=key_id, timings=timings, created_at=created, check_id=new_id())
    ctx.store.add([rec])
    ctx.metrics.stored.inc(1)
    return rec.row.id, created.isoformat() + "Z"
