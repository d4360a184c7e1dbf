"""Request dependencies: the app's context, and the caller (identified at the door by
``gate.AuthMiddleware``) with its rate limit."""

from __future__ import annotations

import math

from fastapi import Request

from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.errors import ApiError
from hallucheck.service.gate import identify, presented_key

__all__ = ["caller", "get_context", "presented_key", "principal", "take"]


def get_context(request: Request) -> ServiceContext:
    return request.app.state.ctx  # type: ignore[no-any-return]


def caller(request: Request) -> Principal:
    """Who is calling, as the gate identified them (401 when keys are on and none is valid)."""
    who = request.scope.get("state", {}).get("principal")
    if who is None:  # the app was mounted without its gate (or the path is outside /v1)
        host = request.client.host if request.client else "unknown"
        who = identify(get_context(request), presented_key(request.headers), host)
        if who is None:
            raise ApiError(401, "unauthorized", "a valid API key is required (Authorization: Bearer <key>)",
                           headers={"WWW-Authenticate": "Bearer"})
    return who  # type: ignore[no-any-return]


def principal(request: Request) -> Principal:
    """The caller, after taking one rate-limit token (429 otherwise)."""
    who = caller(request)
    take(get_context(request), who, 1.0)
    return who


def take(ctx: ServiceContext, who: Principal, cost: float) -> None:
    wait = ctx.limiter.take(who.rate_key, cost)
    if wait > 0:
        seconds = max(1, math.ceil(wait))  # whole seconds, the same figure as Retry-After
        raise ApiError(429, "rate_limited", f"rate limit exceeded; retry in {seconds} s",
                       headers={"Retry-After": str(seconds)})
