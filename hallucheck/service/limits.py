"""Request body limit, enforced before any parsing (an ASGI middleware).

The body is read up to the limit and then replayed to the app; one byte more and the client
gets 413 without the rest being read or parsed. A lying or absent Content-Length changes nothing.
Streaming routes (``stream_paths``) read their body as it arrives and count it against the same
limit themselves; only a declared Content-Length over the limit is refused here for them.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BodyLimitMiddleware"]


class BodyLimitMiddleware:
    def __init__(self, app: Any, max_bytes: int, stream_paths: tuple[str, ...] = ()) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.stream_paths = frozenset(stream_paths)

    async def _reject(self, send: Any, message: str) -> None:
        body = json.dumps({"error": {"code": "too_large", "message": message}}).encode()
        await send({"type": "http.response.start", "status": 413,
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
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            msg = await receive()
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
