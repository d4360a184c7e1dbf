"""Running checks for a request: admitted by cost, on a worker thread, within the deadline.

Every route that checks (``/v1/check``, ``/v1/check/batch``, each stretch of ``/v1/check/stream``,
``/v1/guard``) goes through ``admit``: it waits for a slot (``admission``), never past
``request_timeout_s`` from its start, and gets 503 ``overloaded`` when no slot was free in time
(nothing ran). ``run_in_worker`` then runs the work on a check worker and answers 504 ``timeout``
when it did not finish (nothing is stored; the worker stops at its next detector, or inside a long
one at its next window). The slot is given back when the worker really ends, so abandoned work
still counts against the capacity while it winds down.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from hallucheck.service.admission import Grant, Overloaded
from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.cost import case_chars, case_weight
from hallucheck.service.deadline import Abandoned, Ticket
from hallucheck.service.errors import ApiError
from hallucheck.types import Case, Report

__all__ = ["admit", "case_chars", "case_weight", "check_cost", "run_checks", "run_in_worker", "timeout_error"]

T = TypeVar("T")


def check_cost(ctx: ServiceContext, chars: int, checks: float = 1.0) -> float:
    """The admission cost of ``checks`` checks of weight ``chars`` (``cost.case_weight``):
    weight x detectors."""
    return float(chars) * max(1, len(getattr(ctx.checker, "detectors", ()) or ())) * checks


def timeout_error(ctx: ServiceContext, what: str = "the check") -> ApiError:
    ctx.metrics.refused.labels("timeout").inc()
    return ApiError(504, "timeout", f"{what} did not finish within {ctx.settings.request_timeout_s:g} s "
                    "(HALLUCHECK_REQUEST_TIMEOUT); nothing was stored")


async def admit(ctx: ServiceContext, chars: int, ticket: Ticket, *, checks: float = 1.0,
                weight: int | None = None) -> Grant:
    """A slot in the lane of a request reading ``chars`` characters, costing ``checks`` checks of
    its ``weight`` (``cost.case_weight``; default: the characters); 503 ``overloaded`` (with
    Retry-After) when none is free before the ticket's deadline."""
    cost = check_cost(ctx, chars if weight is None else weight, checks)
    try:
        return await ctx.admission.acquire(chars, cost, max(0.0, ticket.remaining()))
    except Overloaded as exc:
        ctx.metrics.refused.labels("busy").inc()
        raise ApiError(503, "overloaded", f"{exc}; nothing was stored, retry later",
                       headers={"Retry-After": str(max(1, math.ceil(exc.retry_after)))}) from None


async def run_in_worker(ctx: ServiceContext, grant: Grant, ticket: Ticket, fn: Callable[[], T]) -> T:
    """``fn()`` on a check worker within the ticket's deadline; the grant is released when the
    worker ends (504 ``timeout`` past the deadline unless the worker had begun its write)."""
    loop = asyncio.get_running_loop()
    try:
        fut = loop.run_in_executor(ctx.executor, fn)
    except BaseException:
        ctx.admission.release(grant)
        raise

    def done(f: Future[Any] | asyncio.Future[Any]) -> None:
        ctx.admission.release(grant)
        if not f.cancelled():
            f.exception()  # retrieved here: an abandoned worker's Abandoned is expected

    fut.add_done_callback(done)
    try:
        return await asyncio.wait_for(asyncio.shield(fut), max(0.0, ticket.remaining()))
    except TimeoutError:
        if ticket.abandon():
            raise timeout_error(ctx) from None
        return await fut  # the worker had begun its write: its result stands
    except Abandoned:
        raise timeout_error(ctx) from None


async def run_checks(ctx: ServiceContext, cases: list[Case], who: Principal, batch_id: str | None = None,
                     *, started: float | None = None) -> list[tuple[str, str, Report, dict[str, float]]]:
    """Check and store ``cases`` for ``who``; see the module docstring for the failures."""
    started = time.monotonic() if started is None else started
    ticket = Ticket(started + ctx.settings.request_timeout_s)
    grant = await admit(ctx, sum(case_chars(c) for c in cases), ticket, weight=sum(case_weight(c) for c in cases))
    return await run_in_worker(ctx, grant, ticket, lambda: ctx.run_and_store(cases, who.key_id, batch_id, ticket))
