"""Running checks for a request: admitted by cost, on a worker thread, within the deadline.

The request waits for a slot (``admission``), then for its worker (``deadline``), never past
``request_timeout_s`` from its start: 503 ``overloaded`` when no slot was free in time (nothing
ran), 504 ``timeout`` when the check did not finish (nothing is stored; the worker stops at its
next detector). The slot is given back when the worker really ends, so abandoned work still
counts against the capacity while it winds down.
"""

from __future__ import annotations

import asyncio
import math
import time
from concurrent.futures import Future
from typing import Any

from hallucheck.service.admission import Overloaded
from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.deadline import Abandoned, Ticket
from hallucheck.service.errors import ApiError
from hallucheck.types import Case, Report

__all__ = ["case_chars", "run_checks"]


def case_chars(case: Case) -> int:
    """The characters a check reads: question, answer and every source."""
    return len(case.question) + len(case.answer) + sum(len(c.text) for c in case.contexts)


def _timeout(ctx: ServiceContext) -> ApiError:
    ctx.metrics.refused.labels("timeout").inc()
    return ApiError(504, "timeout", f"the check did not finish within {ctx.settings.request_timeout_s:g} s "
                    "(HALLUCHECK_REQUEST_TIMEOUT); nothing was stored")


async def run_checks(ctx: ServiceContext, cases: list[Case], who: Principal, batch_id: str | None = None,
                     *, started: float | None = None) -> list[tuple[str, str, Report, dict[str, float]]]:
    """Check and store ``cases`` for ``who``; see the module docstring for the failures."""
    started = time.monotonic() if started is None else started
    ticket = Ticket(started + ctx.settings.request_timeout_s)
    chars = sum(case_chars(c) for c in cases)
    cost = float(chars) * max(1, len(ctx.checker.detectors))
    try:
        grant = await ctx.admission.acquire(chars, cost, max(0.0, ticket.remaining()))
    except Overloaded as exc:
        ctx.metrics.refused.labels("busy").inc()
        raise ApiError(503, "overloaded", f"{exc}; nothing was stored, retry later",
                       headers={"Retry-After": str(max(1, math.ceil(exc.retry_after)))}) from None
    loop = asyncio.get_running_loop()
    try:
        fut = loop.run_in_executor(ctx.executor, ctx.run_and_store, cases, who.key_id, batch_id, ticket)
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
            raise _timeout(ctx) from None
        return await fut  # the worker had begun its write: its result stands
    except Abandoned:
        raise _timeout(ctx) from None
