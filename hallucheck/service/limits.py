"""The service's size limits: the request body (an ASGI middleware, enforced before any
parsing) and each field of a case (:func:`check_case_fields`).

One status per kind of oversize input: a body over ``max_body_bytes`` gets 413; a case whose
answer or sources are over ``max_answer_chars`` / ``max_source_chars`` gets 422
``case_too_large``, worded as ``hallucheck.cases.check_size`` words it for the CLI and the
Python API, and naming the limit that applied (the service's when it is the tighter one).

The body is read up to the limit and then replayed to the app; one byte more and the client
gets 413 without the rest being read or parsed. A lying or absent Content-Length changes nothing.
Streaming routes (``stream_paths``) read their body as it arrives and count it against the same
limit themselves; only a declared Content-Length over the limit is refused here for them.

A slow client is dropped: the whole body must arrive within ``body_timeout_s`` (408
``slow_client`` and the connection closed), and on a streaming route no gap between two
pieces may be longer than that (the route sees the client as gone). Slow *headers* are the
server protocol's business (``server.BoundedH11Protocol``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["BodyLimitMiddleware", "check_case_fields"]


def check_case_fields(data: Mapping[str, Any], max_answer_chars: int, max_source_chars: int, where: str = "") -> None:
    """422 ``case_too_large`` when a request's answer or sources are over the service's limits.

    Runs on the request's fields before the case is built, so the refusal names the service's
    limit rather than the package's looser one."""
    from hallucheck.cases import check_size  # lazy: heavy: pulls in pydantic; loaded only when this path runs
    from hallucheck.errors import InputError  # lazy: loaded only on this path
    from hallucheck.service.errors import ApiError  # lazy: optional extra (service)

    answer = data.get("answer")
    contexts = data.get("contexts") or data.get("context") or []
    if isinstance(contexts, (str, Mapping)):
        contexts = [contexts]
    sources = 0
    for item in contexts if isinstance(contexts, list) else []:
        text = item.get("text") if isinstance(item, Mapping) else item
        sources += len(text) if isinstance(text, str) else 0
    try:
        check_size(len(answer) if isinstance(answer, str) else 0, sources, max_answer_chars=max_answer_chars,
                   max_source_chars=max_source_chars, where=where)
    except InputError as exc:
        raise ApiError(422, "case_too_large", str(exc)) from None


class BodyLimitMiddleware:
    def __init__(self, app: Any, max_bytes: int, stream_paths: tuple[str, ...] = (),
                 body_timeout_s: float | None = None, on_slow_client: Callable[[], None] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.stream_paths = frozenset(stream_paths)
        self.body_timeout_s = body_timeout_s
        self.on_slow_client = on_slow_client

    def _slow(self) -> None:
        if self.on_slow_client is not None:
            self.on_slow_client()

    async def _reject(self, send: Any, message: str, status: int = 413, code: str = "too_large") -> None:
        body = json.dumps({"error": {"code": code, "message": message}}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in {"GET", "HEAD", "OPTIONS"}:
            await self.app(scope, receive, send)
            return
        limit = self.max_bytes
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > limit:
                    await self._reject(send, f"request body is {declared} bytes; the limit is {limit}")
                    return
        if scope.get("path") in self.stream_paths:
            await self.app(scope, self._idle_bounded(receive), send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        deadline = None if self.body_timeout_s is None else time.monotonic() + self.body_timeout_s
        while more:
            try:
                if deadline is None:
                    msg = await receive()
                else:
                    msg = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                self._slow()
                await self._reject(send, f"the request body did not arrive within {self.body_timeout_s:g} s",
                                   status=408, code="slow_client")
                return
            if msg["type"] == "http.disconnect":
                return
            chunk = msg.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._reject(send, f"request body exceeds the limit of {limit} bytes")
                return
            chunks.append(chunk)
            more = msg.get("more_body", False)
        body = b"".join(chunks)
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _idle_bounded(self, receive: Any) -> Any:
        """``receive`` for a streaming route: a client silent for ``body_timeout_s`` counts as gone."""
        if self.body_timeout_s is None:
            return receive
        timeout = self.body_timeout_s
        body_done = False

        async def bounded() -> Any:
            nonlocal body_done
            if body_done:  # after the body only a disconnect can come: wait for it as long as it takes
                return await receive()
            try:
                msg = await asyncio.wait_for(receive(), timeout)
            except TimeoutError:
                self._slow()
                body_done = True
                return {"type": "http.disconnect"}
            if msg["type"] == "http.request" and not msg.get("more_body", False):
                body_done = True
            return msg

        return bounded
