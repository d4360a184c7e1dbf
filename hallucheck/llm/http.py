"""The HTTP half of the hosted backends: one POST with timeouts and retries, sync or async.

httpx is imported here, and this module is imported only when an HTTP backend is built, so that
``import hallucheck`` stays light. Tests pass a ``transport`` (httpx pattern) or point
``base_url`` at a loopback server.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Mapping
from typing import Any

import httpx

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.client import BaseClient
from hallucheck.llm.retry import RetryPolicy

__all__ = ["HTTPClient", "LLMHTTPError"]


class LLMHTTPError(LLMError):
    """The server answered with an error status (kept in ``status``)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class HTTPClient(BaseClient):
    """A chat backend reached over HTTP(S). Subclasses build the request and read the answer."""

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
        **options: Any,
    ) -> None:
        super().__init__(model, **options)
        if not base_url or not base_url.startswith(("http://", "https://")):
            raise LLMError(f"base URL must start with http:// or https:// (got {base_url!r})")
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.retry = retry or RetryPolicy()
        self.extra_headers = dict(headers or {})
        self._transport = transport
        self._async_transport = async_transport
        self._client: httpx.Client | None = None
        self._client_lock = threading.Lock()

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

    def _timeout(self) -> httpx.Timeout:
        return httpx.Timeout(self.timeout, connect=min(10.0, self.timeout))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # ---- sync -----------------------------------------------------------------------------

    def _sync_client(self) -> httpx.Client:
        with self._client_lock:
            if self._client is None:
                self._client = httpx.Client(timeout=self._timeout(), transport=self._transport)
            return self._client

    def _complete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        body = self._body(messages, settings)
        client = self._sync_client()
        last: LLMError | None = None
        for attempt in range(self.retry.max_retries + 1):
            if attempt:
                time.sleep(last.wait)  # type: ignore[union-attr]
            t0 = time.perf_counter()
            try:
                done = self._handle(client.post(self.url, json=body, headers=self._headers()), t0, attempt)
            except httpx.HTTPError as exc:
                done = self._transport_error(exc, attempt)
            if isinstance(done, Completion):
                return done
            last = done
        raise self._gave_up(last)

    async def _acomplete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        body = self._body(messages, settings)
        last: LLMError | None = None
        async with httpx.AsyncClient(timeout=self._timeout(), transport=self._async_transport) as client:
            for attempt in range(self.retry.max_retries + 1):
                if attempt:
                    await asyncio.sleep(last.wait)  # type: ignore[union-attr]
                t0 = time.perf_counter()
                try:
                    done = self._handle(await client.post(self.url, json=body, headers=self._headers()), t0, attempt)
                except httpx.HTTPError as exc:
                    done = self._transport_error(exc, attempt)
                if isinstance(done, Completion):
                    return done
                last = done
        raise self._gave_up(last)

    # ---- shared -----------------------------------------------------------------------------

    def _retryable(self, err: LLMError, attempt: int, headers: Any = None) -> LLMError:
        err.wait = self.retry.delay(attempt, headers)  # type: ignore[attr-defined]
        return err

    def _transport_error(self, exc: httpx.HTTPError, attempt: int) -> LLMError:
        if isinstance(exc, httpx.TimeoutException):
            return self._retryable(LLMError(f"timed out after {self.timeout:g}s"), attempt)
        return self._retryable(LLMError(f"connection failed: {type(exc).__name__}: {exc}"), attempt)

    def _gave_up(self, last: LLMError | None) -> LLMError:
        return LLMError(f"{self.backend} {self.url}: gave up after {self.retry.max_retries + 1} attempt(s): {last}")

    def _handle(self, resp: httpx.Response, t0: float, attempt: int) -> Completion | LLMError:
        """A Completion, or a retryable error carrying how long to wait (``.wait``); errors that
        retrying cannot fix are raised."""
        latency = (time.perf_counter() - t0) * 1000.0
        if resp.status_code >= 400:
            snippet = resp.text[:300].replace("\n", " ")
            err = LLMHTTPError(f"HTTP {resp.status_code}: {snippet}", resp.status_code)
            if self.retry.retryable(resp.status_code):
                return self._retryable(err, attempt, resp.headers)
            raise LLMHTTPError(f"{self.backend} {self.url}: {err}", resp.status_code)
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return self._retryable(LLMError(f"response is not JSON: {resp.text[:200]!r}"), attempt)
        if not isinstance(data, dict):
            return self._retryable(LLMError(f"response is not a JSON object: {str(data)[:200]!r}"), attempt)
        return self._parse(data, latency)
