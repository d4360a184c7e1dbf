"""Request dependencies: the app's context, and the caller (API key check + rate limit)."""

from __future__ import annotations

import math

from fastapi import Request

from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.errors import ApiError
from hallucheck.service.store import ALL

__all__ = ["get_context", "principal", "presented_key"]


def get_context(request: Request) -> ServiceContext:
    return request.app.state.ctx  # type: ignore[no-any-return]


def presented_key(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return request.headers.get("x-api-key") or None


def principal(request: Request) -> Principal:
    """Authenticates (when keys are on) and takes one rate-limit token; 401 / 429 otherwise."""
    ctx = get_context(request)
    if ctx.auth_enabled:
        key_id = ctx.keys.identify(presented_key(request))
        if key_id is None:
            raise ApiError(401, "unauthorized", "a valid API key is required (Authorization: Bearer <key>)",
                           headers={"WWW-Authenticate": "Bearer"})
        who = Principal(key_id=key_id, scope=key_id, rate_key=f"key:{key_id}")
    else:
        host = request.client.host if request.client else "unknown"
        who = Principal(key_id=None, scope=ALL, rate_key=f"ip:{host}")
    take(ctx, who, 1.0)
    return who


def take(ctx: ServiceContext, who: Principal, cost: float) -> None:
    wait = ctx.limiter.take(who.rate_key, cost)
    if wait > 0:
        raise ApiError(429, "rate_limited", f"rate limit exceeded; retry in {wait:.2f} s",
                       headers={"Retry-After": str(max(1, math.ceil(wait)))})
