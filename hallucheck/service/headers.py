"""Headers every answer carries: no MIME sniffing, no framing by other sites.

The dashboard adds its Content-Security-Policy itself (``dashboard.PAGE_HEADERS``); JSON answers
need only these two so that a browser never renders one as a page inside someone else's frame.
Answers of the API (/v1/...) carry stored questions, sources and answers, so no cache (a
browser's, a proxy's) may keep them: ``Cache-Control: no-store``. A redirect (the trailing-slash
one of the router) points at a path on this server, never at the host the client named in its
``Host`` header: its ``Location`` is made relative.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = ["SECURITY_HEADERS", "SecurityHeadersMiddleware", "relative_location"]

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


_REDIRECTS = {301, 302, 303, 307, 308}


def relative_location(location: bytes) -> bytes:
    """``Location`` without scheme and host: ``http://evil.example/v1/check?x`` -> ``/v1/check?x``."""
    parts = urlsplit(location.decode("latin-1"))
    path = parts.path if parts.path.startswith("/") else "/" + parts.path
    path = "/" + path.lstrip("/")  # never "//host": a scheme-relative URL names a host again
    return urlunsplit(("", "", path, parts.query, parts.fragment)).encode("latin-1")


class SecurityHeadersMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = scope.get("path", "").startswith("/v1/")

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if message.get("status") in _REDIRECTS:
                    headers = [(k, relative_location(v) if k.lower() == b"location" else v) for k, v in headers]
                if api:
                    headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
