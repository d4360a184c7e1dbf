"""Authentication at the door: an ASGI middleware that identifies the caller of every /v1 request
before anything reads its body.

With keys on, a request without a valid key gets 401 at once: no body is read, parsed or
measured, so an unauthenticated client learns nothing from 400/413 answers and cannot make the
server buffer megabytes. The caller (key id, read scope, rate-limit bucket) is left in the
request's state for the routes (``deps.principal``).
"""

from __future__ import annotations

import json
from typing import Any

from anyio import to_thread

from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.store import ALL

__all__ = ["AuthMiddleware", "identify", "presented_key"]

PROTECTED_PREFIX = "/v1/"


def presented_key(headers: Any) -> str | None:
    """The key from ``Authorization: Bearer <key>`` or ``X-API-Key`` (``headers``: a mapping)."""
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    return headers.get("x-api-key") or None


def identify(ctx: ServiceContext, key: str | None, client_host: str) -> Principal | None:
    """The caller, or None when keys are on and ``key`` is not a valid one (may read the store)."""
    if ctx.auth_enabled:
        key_id = ctx.keys.identify(key)
        if key_id is None:
            return None
        return Principal(key_id=key_id, scope=key_id, rate_key=f"key:{key_id}")
    return Principal(key_id=None, scope=ALL, rate_key=f"ip:{client_host}")


class AuthMiddleware:
    def __init__(self, app: Any, ctx: ServiceContext) -> None:
        self.app = app
        self.ctx = ctx

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] == "OPTIONS" or not scope["path"].startswith(PROTECTED_PREFIX):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        client = scope.get("client")
        host = client[0] if client else "unknown"
        who = await to_thread.run_sync(identify, self.ctx, presented_key(headers), host)
        if who is None:
            body = json.dumps({"error": {"code": "unauthorized",
                                         "message": "a valid API key is required (Authorization: Bearer <key>)"}}).encode()
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                    (b"www-authenticate", b"Bearer"), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})
            return
        scope.setdefault("state", {})["principal"] = who
        await self.app(scope, receive, send)
