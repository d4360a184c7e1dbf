"""POST /v1/check and /v1/check/batch: run the configured Checker and store every result."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import APIRouter, Depends, Query

from hallucheck.cases import make_case
from hallucheck.report_view import compact_report, parse_include
from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.deps import caller, get_context, principal, take
from hallucheck.service.errors import ApiError
from hallucheck.service.limits import check_case_fields
from hallucheck.service.schemas import (
    BatchRequest,
    BatchResponse,
    CheckRequest,
    CheckResponse,
    ErrorResponse,
    unstorable,
)
from hallucheck.service.store import new_id
from hallucheck.service.work import run_checks
from hallucheck.types import Case

__all__ = ["refuse_unstorable", "router"]

router = APIRouter(prefix="/v1", tags=["check"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse}, 401: {"model": ErrorResponse}, 413: {"model": ErrorResponse},
    422: {"model": ErrorResponse}, 429: {"model": ErrorResponse}, 503: {"model": ErrorResponse},
    504: {"model": ErrorResponse},
}


# The response is compact (each finding's details, features and own spans emptied) unless asked.
_INCLUDE = Query(None, description="Detector internals to keep in the report: details, features, "
                 "finding_spans, sentence_verdicts, or all (comma-separated; default: none, a compact report)")


def _parts(include: str | None) -> frozenset[str]:
    try:
        return parse_include(include)
    except ValueError as exc:
        raise ApiError(422, "invalid_include", str(exc)) from None


def refuse_unstorable(data: object, where: str = "") -> None:
    """422 when ``data`` holds what the store cannot keep (a NUL character, NaN or Infinity),
    before anything is checked or written."""
    found = unstorable(data, "body")
    if found is not None:
        path, why = found
        path = path.removeprefix("body.").removeprefix("body")
        code = "invalid_text" if "NUL" in why else "invalid_request"
        raise ApiError(422, code, f"{where}{path or 'body'} {why}")


def _case(req: CheckRequest, ctx: ServiceContext, index: int | None = None) -> Case:
    where = f"cases[{index}]: " if index is not None else ""
    if len(req.contexts) > ctx.settings.max_contexts:  # before the case is built: it costs per context
        raise ApiError(413, "case_too_large", f"{where}the case has {len(req.contexts)} contexts; the limit is "
                       f"{ctx.settings.max_contexts} (HALLUCHECK_MAX_CONTEXTS)")
    data = req.model_dump()
    refuse_unstorable(data, where)
    try:
        # JSON allows lone surrogates (\ud800) that no UTF-8 store or response can hold.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(422, "invalid_text", f"{where}the case contains invalid Unicode (a lone surrogate)") from None
    check_case_fields(data, ctx.settings.max_answer_chars, ctx.settings.max_source_chars, where)
    try:
        case = make_case(data)
    except ValueError as exc:  # InputError from make_case
        raise ApiError(422, "invalid_case", f"{where}{exc}") from None
    ctx.check_limits(case, index)
    return case


@router.post("/check", response_model=CheckResponse, responses=_ERRORS,
             summary="Check one answer against its sources; the result is stored")
async def check(req: CheckRequest, who: Principal = Depends(principal),
                ctx: ServiceContext = Depends(get_context), include: str | None = _INCLUDE) -> CheckResponse:
    started = time.monotonic()
    parts = _parts(include)
    case = _case(req, ctx)
    [(cid, created, report, timings)] = await run_checks(ctx, [case], who, started=started)
    return CheckResponse(id=cid, created_at=created, report=compact_report(report, parts), timings_ms=timings)


@router.post("/check/batch", response_model=BatchResponse, responses=_ERRORS,
             summary="Check several answers; all are stored in one transaction")
async def check_batch(req: BatchRequest, who: Principal = Depends(caller),
                      ctx: ServiceContext = Depends(get_context), include: str | None = _INCLUDE) -> BatchResponse:
    started = time.monotonic()
    parts = _parts(include)
    n = len(req.cases)
    if n > ctx.settings.max_batch_cases:
        raise ApiError(413, "batch_too_large", f"batch has {n} cases; the limit is {ctx.settings.max_batch_cases}")
    take(ctx, who, float(n))  # one token per case, taken at once
    cases = [_case(c, ctx, i) for i, c in enumerate(req.cases)]
    batch_id = new_id()
    out = await run_checks(ctx, cases, who, batch_id, started=started)
    return BatchResponse(batch_id=batch_id, results=[
        CheckResponse(id=cid, created_at=created, report=compact_report(report, parts), timings_ms=timings)
        for cid, created, report, timings in out
    ])
