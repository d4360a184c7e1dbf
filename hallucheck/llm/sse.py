"""Server-sent events of a streamed completion, read under the same limits as any reply.

OpenAI-compatible servers and Anthropic both stream a completion as server-sent events whose
``data:`` lines hold JSON. ``sse_events(client, body)`` posts ``body`` and yields those JSON
objects as they arrive; the whole stream is one attempt of the client (it ends within the
client's ``timeout``, cut to the caller's deadline, whatever the server does) and its bytes count
against ``max_response_bytes``. Closing the generator closes the response, which tells the server
to stop writing. Failures are LLMError (LLMHTTPError for an error status); nothing is retried, as
a stream that broke half-way cannot be resumed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx

from hallucheck.llm.base import LLMError
from hallucheck.llm.deadline import current_deadline
from hallucheck.llm.http import LLMHTTPError, _Attempt

if TYPE_CHECKING:  # pragma: no cover
    from hallucheck.llm.http import HTTPClient

__all__ = ["sse_events"]


def sse_events(client: HTTPClient, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The JSON objects of the ``data:`` lines of the streamed reply to ``body`` (until ``[DONE]``)."""
    where = f"{client.backend} {client.url}"
    seconds = client._attempt_seconds(current_deadline(), None)
    guard = _Attempt(seconds)
    guard.start()
    try:
        with httpx.Client(timeout=client._timeout(seconds), transport=client._transport,
                          verify=client._verify()) as http, \
                http.stream("POST", client.url, json=body, headers=client._headers(),
                            extensions={"trace": guard.trace}) as resp:
            if resp.status_code >= 400:
                snippet = resp.read()[:300].decode("utf-8", "replace").replace("\n", " ")
                raise LLMHTTPError(f"{where}: HTTP {resp.status_code}: {snippet}", resp.status_code)
            size = 0
            for line in resp.iter_lines():
                guard.check()
                size += len(line) + 1
                client._check_size(size)
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    break
                try:
                    event = json.loads(data)
                except ValueError:
                    raise LLMError(f"{where}: a streamed event is not JSON: {data[:200]!r}") from None
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
