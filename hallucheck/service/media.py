"""The media type of request bodies: every POST under /v1/ takes JSON.

A body sent as something else (a form, plain text) is refused with 415 before it is read, so
the client learns what is wrong with its request instead of a field-by-field 422 about a JSON
object it never meant to send. A missing Content-Type is read as JSON (curl's ``-d`` habit);
routes that read other types themselves (``own_types``: the NDJSON stream) decide on their own.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["JsonBodyMiddleware", "is_json"]


def is_json(content_type: str) -> bool:
    """Whether ``content_type`` (a header value) is JSON: application/json or a ``+json`` type."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media in {"", "application/json"} or (media.startswith("application/") and media.endswith("+json"))


class JsonBodyMiddleware:
    def __init__(self, app: Any, own_types: tuple[str, ...] = ()) -> None:
        self.app = app
        self.own_types = frozenset(own_types)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith("/v1/")
                or scope["path"] in self.own_types):
            await self.app(scope, receive, send)
            return
        ctype = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"content-type"), "")
        if is_json(ctype):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": {"code": "unsupported_media_type",
                                     "message": f"the body must be application/json, not {ctype[:80]!r}"}}).encode()
        await send({"type": "http.response.start", "status": 415,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
