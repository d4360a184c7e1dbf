"""Per-request metrics and the ``X-Process-Time-Ms`` header, as a plain ASGI middleware.

A plain ASGI wrapper rather than an ``@app.middleware("http")`` function: Starlette's
``BaseHTTPMiddleware`` reads the client's messages while it relays a streamed response, which
would take request-body chunks away from ``/v1/check/stream`` while that route is still reading
the answer. This wrapper only looks at what the app sends.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.datastructures import MutableHeaders

from hallucheck.service.metrics import ServiceMetrics

__all__ = ["RequestMetricsMiddleware"]


class RequestMetricsMiddleware:
    """Counts every HTTP request by route and status; the header says how long until the answer started."""

    def __init__(self, app: Any, metrics: ServiceMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 500

        async def timed_send(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                MutableHeaders(scope=message).append("X-Process-Time-Ms", f"{(time.perf_counter() - t0) * 1000.0:.2f}")
            await send(message)

        try:
            await self.app(scope, receive, timed_send)
        finally:
            path = getattr(scope.get("route"), "path", "unmatched")
            self.metrics.requests.labels(path, str(status)).inc()
