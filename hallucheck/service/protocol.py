"""The HTTP/1.1 protocol the server runs: uvicorn's h11 protocol with a deadline on headers.

uvicorn closes idle keep-alive connections but waits for a request's headers for as long as
the client takes, so a client sending one byte a second ("slowloris") holds a connection, a
file descriptor and memory for minutes; a few hundred of them lock everyone out. Here the
headers of every request (the first on a connection and each later one on a kept-alive
connection) must be complete within ``header_timeout`` seconds of the moment the server started
waiting for them, or the connection is closed.

A request the HTTP parser cannot read (a malformed Content-Length, a broken request line) gets
the API's JSON error body with its 400, like every other error, not uvicorn's plain text.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BoundedH11Protocol", "bounded_protocol"]

log = logging.getLogger("hallucheck.service")


class BoundedH11Protocol(H11Protocol):
    header_timeout: float = 10.0
    on_timeout: Any = None  # called (no arguments) when a connection is dropped

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        log.debug("closing a connection whose request headers took over %.0f s", self.header_timeout)
        if self.on_timeout is not None:
            self.on_timeout()
        self.transport.close()

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in; the body has its own deadline

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": {"code": "bad_request", "message": f"malformed HTTP request: {msg}"}}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def bounded_protocol(header_timeout: float, on_timeout: Any = None) -> type[BoundedH11Protocol]:
    """A protocol class with this header deadline (uvicorn takes a class, not an instance)."""
    return type("BoundedH11Protocol", (BoundedH11Protocol,),
                {"header_timeout": float(header_timeout), "on_timeout": staticmethod(on_timeout) if on_timeout else None})
