"""Reading the store: GET /v1/checks (filters), /v1/checks/{id}, /v1/stats and /v1/stats/trend.

Every query is scoped to the caller's key, so one key never sees another key's checks (a check
of another key answers 404, exactly like one that does not exist).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Query

from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.deps import get_context, principal
from hallucheck.service.errors import ApiError
from hallucheck.service.schemas import CheckList, ErrorResponse, Figures, StoredCheckOut, Trend
from hallucheck.service.store import CheckFilter, utcnow
from hallucheck.types import LABELS

__all__ = ["router"]

router = APIRouter(prefix="/v1", tags=["store"])

_ERRORS: dict[int | str, dict[str, Any]] = {401: {"model": ErrorResponse}, 404: {"model": ErrorResponse},
                                            422: {"model": ErrorResponse}, 429: {"model": ErrorResponse}}
_BUCKETS = {"minute": 60, "hour": 3600, "day": 86400}
_DEFAULT_WINDOW = {"minute": timedelta(hours=2), "hour": timedelta(hours=48), "day": timedelta(days=30)}

RiskLevelQ = Literal["low", "moderate", "high"]
DecisionQ = Literal["accept", "review", "reject"]


def _naive_utc(t: datetime | None, name: str = "since") -> datetime | None:
    """``t`` as naive UTC; 422 when its offset moves it out of the calendar (year 1 to 9999)."""
    if t is None or t.tzinfo is None:
        return t
    try:
        return t.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:
        raise ApiError(422, "invalid_request", f"{name}: {t.isoformat()} is outside the years 1 to 9999 in UTC") from None


def _filter(since: datetime | None, until: datetime | None, risk_level: str | None, detector: str | None,
            label: str | None, decision: str | None) -> CheckFilter:
    if label is not None and label not in LABELS:
        raise ApiError(422, "invalid_request", f"label must be one of: {', '.join(LABELS)}")
    return CheckFilter(since=_naive_utc(since), until=_naive_utc(until, "until"), risk_level=risk_level,
                       detector=detector, label=label, decision=decision)


@router.get("/checks", response_model=CheckList, responses=_ERRORS, summary="Stored checks, newest first")
async def list_checks(
    since: datetime | None = Query(None, description="ISO 8601; naive times are UTC"),
    until: datetime | None = Query(None),
    risk_level: RiskLevelQ | None = Query(None),
    detector: str | None = Query(None, max_length=64, description="checks this detector flagged"),
    label: str | None = Query(None, max_length=64, description="checks with a span of this label"),
    decision: DecisionQ | None = Query(None),
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=10_000_000),
    who: Principal = Depends(principal),
    ctx: ServiceContext = Depends(get_context),
) -> CheckList:
    flt = _filter(since, until, risk_level, detector, label, decision)
    items, total = await to_thread.run_sync(lambda: ctx.store.list(who.scope, flt, limit=limit, offset=offset))
    return CheckList(items=items, total=total, limit=limit, offset=offset)


@router.get("/checks/{check_id}", response_model=StoredCheckOut, responses=_ERRORS,
            summary="One stored check with its case, report and timings")
async def get_check(check_id: str, who: Principal = Depends(principal),
                    ctx: ServiceContext = Depends(get_context)) -> StoredCheckOut:
    if not (1 <= len(check_id) <= 64) or not check_id.isalnum():
        raise ApiError(404, "not_found", "no such check")
    row = await to_thread.run_sync(ctx.store.get, check_id, who.scope)
    if row is None:
        raise ApiError(404, "not_found", "no such check")
    return StoredCheckOut(**row)


@router.get("/stats", response_model=Figures, responses=_ERRORS,
            summary="Monitoring figures: average risk, high-risk share, invalid-citation and uncited-claim rates")
async def stats(
    since: datetime | None = Query(None), until: datetime | None = Query(None),
    risk_level: RiskLevelQ | None = Query(None), detector: str | None = Query(None, max_length=64),
    label: str | None = Query(None, max_length=64),
    who: Principal = Depends(principal), ctx: ServiceContext = Depends(get_context),
) -> Figures:
    flt = _filter(since, until, risk_level, detector, label, None)
    return Figures(**await to_thread.run_sync(ctx.store.stats, who.scope, flt))


@router.get("/stats/trend", response_model=Trend, responses=_ERRORS,
            summary="The monitoring figures per minute, hour or day")
async def trend(
    bucket: Literal["minute", "hour", "day"] = Query("hour"),
    since: datetime | None = Query(None, description="default: 2 h, 48 h or 30 days back"),
    until: datetime | None = Query(None),
    who: Principal = Depends(principal), ctx: ServiceContext = Depends(get_context),
) -> Trend:
    since_n = _naive_utc(since) or utcnow() - _DEFAULT_WINDOW[bucket]
    flt = CheckFilter(since=since_n, until=_naive_utc(until, "until"))
    points = await to_thread.run_sync(ctx.store.trend, who.scope, _BUCKETS[bucket], flt)
    return Trend(bucket=bucket, points=points)
