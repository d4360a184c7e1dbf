"""The HTTP half of the hosted backends: one POST with a hard deadline, a size cap and retries.

httpx is imported here, and this module is imported only when an HTTP backend is built, so that
``import hallucheck`` stays light. Tests pass a ``transport`` (httpx pattern) or point
``base_url`` at a loopback server.

Why the limits are enforced here and not left to httpx: httpx's timeouts bound each socket
operation, so a server that sends one byte every few seconds is never timed out, and a reply is
read whole however large it is. Each attempt therefore gets a total deadline (``timeout``, cut to
what is left of the caller's deadline, see :mod:`hallucheck.llm.deadline`) that a watchdog
enforces by shutting the connection's socket, the body is read in chunks and refused past
``max_response_bytes``, and a retry whose wait (``Retry-After`` or backoff) would end after the
deadline is not made: the call fails at once with the reason.
"""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import httpx

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.client import BaseClient
from hallucheck.llm.deadline import current_deadline
from hallucheck.llm.retry import RetryPolicy

__all__ = ["HTTPClient", "LLMHTTPError", "MAX_RESPONSE_BYTES"]

# An LLM reply is text of at most a few tens of thousands of tokens; 4 MiB is far above any real
# one and far below what would hurt to hold and parse.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024


class LLMHTTPError(LLMError):
    """The server answered with an error status (kept in ``status``)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class _Attempt:
    """One request's time limit: ``expired`` once it passed; the watchdog shuts the sockets the
    request opened so that a read blocked on a slow server returns at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None

    def left(self) -> float:
        return max(0.0, self.ends - time.monotonic())

    def check(self) -> None:
        if self.expired or time.monotonic() >= self.ends:
            self.expired = True
            raise httpx.ReadTimeout("the attempt's deadline passed")

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpcore trace hook: remember the socket of every connection opened for this request."""
        if event == "connection.connect_tcp.complete":
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._lock:
                    self._sockets.append(sock)
                    if self.expired:
                        self._shut(sock)

    def start(self) -> None:
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class HTTPClient(BaseClient):
    """A chat backend reached over HTTP(S). Subclasses build the request and read the answer.

    ``timeout`` is the total time one attempt may take (connect, send, wait, read), not a
    per-read limit; ``max_response_bytes`` caps the reply body. The caller's deadline, when one
    is set (:func:`hallucheck.llm.deadline.time_limit`, or a Checker's ``Budget.max_seconds``),
    bounds the whole call, retries and waits included.
    """

    backend = "http"

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        **options: Any,
    ) -> None:
        super().__init__(model, **options)
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise LLMError(f"base URL must start with http:// or https:// (got {base_url!r})")
        if timeout <= 0:
            raise LLMError(f"timeout must be positive (got {timeout!r})")
        if max_response_bytes < 1:
            raise LLMError(f"max_response_bytes must be positive (got {max_response_bytes!r})")
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.retry = retry or RetryPolicy()
        self.extra_headers = dict(headers or {})
        self.max_response_bytes = int(max_response_bytes)
        self._transport = transport
        self._async_transport = async_transport
        self._ssl: ssl.SSLContext | None = None
        self._ssl_lock = threading.Lock()

    @property
    def identity(self) -> str:
        return f"{self.backend}:{self.url}"

    @property
    def url(self) -> str:
        raise NotImplementedError

    def _headers(self) -> dict[str, str]:
        return {"content-type": "application/json", **self.extra_headers}

    def _body(self, messages: list[Message], settings: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def _parse(self, data: dict[str, Any], latency_ms: float) -> Completion:
        raise NotImplementedError

    def _timeout(self, seconds: float | None = None) -> httpx.Timeout:
        seconds = self.timeout if seconds is None else seconds
        return httpx.Timeout(seconds, connect=min(10.0, seconds))

    def _verify(self) -> ssl.SSLContext:
        """One TLS context per backend (loading the CA bundle is the slow part of a new client)."""
        with self._ssl_lock:
            if self._ssl is None:
                self._ssl = httpx.create_ssl_context()
            return self._ssl

    def close(self) -> None:
        """Nothing is held between calls (every attempt, streamed or not, has its own connection and watchdog)."""

    # ---- time -------------------------------------------------------------------------------

    def _attempt_seconds(self, deadline: float | None, last: LLMError | None) -> float:
        """How long the next attempt may take; LLMError when the caller's deadline leaves none."""
        if deadline is None:
            return self.timeout
        left = deadline - time.monotonic()
        if left <= 0.05:
            why = f": {last}" if last is not None else ""
            raise LLMError(f"{self.backend} {self.url}: the time budget of the call is spent{why}")
        return min(self.timeout, left)

    def _wait_before_retry(self, last: LLMError, deadline: float | None) -> float:
        """The wait before the next attempt; LLMError instead when it would end past the deadline."""
        wait = float(getattr(last, "wait", 0.0))
        if deadline is not None:
            left = deadline - time.monotonic()
            if wait >= left:
                raise LLMError(
                    f"{self.backend} {self.url}: {last}; not retried: the next attempt would start in "
                    f"{wait:.3g}s and only {max(left, 0.0):.3g}s of the time budget is left"
                )
        return wait

    # ---- sync -----------------------------------------------------------------------------

    def _complete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        body = self._body(messages, settings)
        deadline = current_deadline()
        last: LLMError | None = None
        for attempt in range(self.retry.max_retries + 1):
            if last is not None:
                time.sleep(self._wait_before_retry(last, deadline))
            seconds = self._attempt_seconds(deadline, last)
            t0 = time.perf_counter()
            try:
                status, headers, content = self._post(body, seconds)
                done = self._handle(status, headers, content, t0, attempt)
            except httpx.HTTPError as exc:
                done = self._transport_error(exc, attempt, seconds)
            if isinstance(done, Completion):
                return done
            last = done
        raise self._gave_up(last)

    def _post(self, body: dict[str, Any], seconds: float) -> tuple[int, httpx.Headers, bytes]:
        """One POST that ends within ``seconds`` whatever the server does."""
        guard = _Attempt(seconds)
        guard.start()
        try:
            with httpx.Client(timeout=self._timeout(seconds), transport=self._transport,
                              verify=self._verify()) as client:
                with client.stream("POST", self.url, json=body, headers=self._headers(),
                                   extensions={"trace": guard.trace}) as resp:
                    self._check_length(resp.headers)
                    buf = bytearray()
                    for chunk in resp.iter_bytes():
                        guard.check()
                        buf += chunk
                        self._check_size(len(buf))
                    guard.check()
                    return resp.status_code, resp.headers, bytes(buf)
        except httpx.HTTPError:
            if guard.expired:
                raise httpx.ReadTimeout("the attempt's deadline passed") from None
            raise
        finally:
            guard.stop()

    # ---- async ------------------------------------------------------------------------------

    async def _acomplete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        body = self._body(messages, settings)
        deadline = current_deadline()
        last: LLMError | None = None
        async with httpx.AsyncClient(transport=self._async_transport, verify=self._verify()) as client:
            for attempt in range(self.retry.max_retries + 1):
                if last is not None:
                    await asyncio.sleep(self._wait_before_retry(last, deadline))
                seconds = self._attempt_seconds(deadline, last)
                t0 = time.perf_counter()
                try:
                    status, headers, content = await asyncio.wait_for(self._apost(client, body, seconds), seconds)
                    done = self._handle(status, headers, content, t0, attempt)
                except (TimeoutError, httpx.HTTPError) as exc:
                    if isinstance(exc, asyncio.TimeoutError):
                        exc = httpx.ReadTimeout("the attempt's deadline passed")
                    done = self._transport_error(exc, attempt, seconds)
                if isinstance(done, Completion):
                    return done
                last = done
        raise self._gave_up(last)

    async def _apost(self, client: httpx.AsyncClient, body: dict[str, Any], seconds: float) -> tuple[int, httpx.Headers, bytes]:
        async with client.stream("POST", self.url, json=body, headers=self._headers(),
                                 timeout=self._timeout(seconds)) as resp:
            self._check_length(resp.headers)
            buf = bytearray()
            async for chunk in resp.aiter_bytes():
                buf += chunk
                self._check_size(len(buf))
            return resp.status_code, resp.headers, bytes(buf)

    # ---- streaming --------------------------------------------------------------------------

    def _events(self, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The JSON objects of the ``data:`` lines of the streamed reply to ``body`` (until ``[DONE]``).

        OpenAI-compatible servers and Anthropic stream a completion as server-sent events. The
        whole stream is one attempt: it ends within ``timeout`` (cut to the caller's deadline)
        whatever the server does, and its bytes count against ``max_response_bytes``. Closing
        the generator closes the response, which tells the server to stop writing. Not retried:
        a stream that broke half-way cannot be resumed.
        """
        where = f"{self.backend} {self.url}"
        seconds = self._attempt_seconds(current_deadline(), None)
        guard = _Attempt(seconds)
        guard.start()
        try:
            with httpx.Client(timeout=self._timeout(seconds), transport=self._transport,
                              verify=self._verify()) as http, \
                    http.stream("POST", self.url, json=body, headers=self._headers(),
                                extensions={"trace": guard.trace}) as resp:
                if resp.status_code >= 400:
                    snippet = resp.read()[:300].decode("utf-8", "replace").replace("\n", " ")
                    raise LLMHTTPError(f"{where}: HTTP {resp.status_code}: {snippet}", resp.status_code)
                size = 0
                for line in resp.iter_lines():
                    guard.check()
                    size += len(line) + 1
                    self._check_size(size)
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    try:
                        event = json.loads(data)
                    except (ValueError, RecursionError):
                        raise LLMError(f"{where}: a streamed event is not usable JSON: {data[:200]!r}") from None
                    if isinstance(event, dict):
                        yield event
                guard.check()  # the watchdog ends an overdue read as an end of stream
        except httpx.TimeoutException:
            raise LLMError(f"{where}: timed out after {seconds:.3g}s") from None
        except httpx.HTTPError as exc:
            if guard.expired:
                raise LLMError(f"{where}: timed out after {seconds:.3g}s") from None
            raise LLMError(f"{where}: connection failed: {type(exc).__name__}: {exc}") from None
        finally:
            guard.stop()

    # ---- shared -----------------------------------------------------------------------------

    def _check_length(self, headers: httpx.Headers) -> None:
        try:
            declared = int(headers.get("content-length") or 0)
        except ValueError:
            return
        self._check_size(declared)

    def _check_size(self, size: int) -> None:
        if size > self.max_response_bytes:
            raise LLMHTTPError(
                f"{self.backend} {self.url}: the reply is larger than {self.max_response_bytes} bytes "
                "(max_response_bytes); refused without reading the rest"
            )

    def _retryable(self, err: LLMError, attempt: int, headers: Any = None) -> LLMError:
        err.wait = self.retry.delay(attempt, headers)  # type: ignore[attr-defined]
        return err

    def _transport_error(self, exc: httpx.HTTPError, attempt: int, seconds: float) -> LLMError:
        if isinstance(exc, httpx.TimeoutException):
            return self._retryable(LLMError(f"timed out after {seconds:.3g}s"), attempt)
        return self._retryable(LLMError(f"connection failed: {type(exc).__name__}: {exc}"), attempt)

    def _gave_up(self, last: LLMError | None) -> LLMError:
        return LLMError(f"{self.backend} {self.url}: gave up after {self.retry.max_retries + 1} attempt(s): {last}")

    def _handle(self, status: int, headers: httpx.Headers, content: bytes, t0: float, attempt: int) -> Completion | LLMError:
        """A Completion, or a retryable error carrying how long to wait (``.wait``); errors that
        retrying cannot fix are raised."""
        latency = (time.perf_counter() - t0) * 1000.0
        text = content.decode("utf-8", "replace")
        if status >= 400:
            snippet = text[:300].replace("\n", " ")
            err = LLMHTTPError(f"HTTP {status}: {snippet}", status)
            if self.retry.retryable(status):
                return self._retryable(err, attempt, headers)
            raise LLMHTTPError(f"{self.backend} {self.url}: {err}", status)
        try:
            data = json.loads(content)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return self._retryable(LLMError(f"response is not JSON: {text[:200]!r}"), attempt)
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            return self._retryable(LLMError(f"response is not usable JSON: {exc}"[:300]), attempt)
        if not isinstance(data, dict):
            return self._retryable(LLMError(f"response is not a JSON object: {str(data)[:200]!r}"), attempt)
        return self._parse(data, latency)
