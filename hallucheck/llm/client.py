"""The shared half of every backend: default settings, the response cache, prices, concurrency.

Backends only implement ``_complete`` (and ``_acomplete`` when they have real async I/O); this
class makes sure a cached answer never reaches the network, that at most ``max_concurrency``
calls run at once per client (threads and asyncio tasks alike), and that every Completion
carries its price.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hallucheck.llm.accounting import PriceTable
from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.cache import ResponseCache, cache_key, open_cache

if TYPE_CHECKING:  # pragma: no cover
    from hallucheck.llm.streaming import CompletionStream

__all__ = ["BaseClient", "to_messages"]

_ROLES = ("system", "user", "assistant")


def to_messages(messages: str | Sequence[Message | Mapping[str, Any]]) -> list[Message]:
    """Messages from Message objects, ``{"role", "content"}`` dicts, or one user string."""
    if isinstance(messages, str):
        return [Message("user", messages)]
    out: list[Message] = []
    for m in messages:
        if isinstance(m, Message):
            out.append(m)
        elif isinstance(m, Mapping) and m.get("role") in _ROLES and isinstance(m.get("content"), str):
            out.append(Message(m["role"], m["content"]))
        else:
            raise LLMError(f"bad chat message {m!r}: expected role system|user|assistant and text content")
    if not out:
        raise LLMError("no messages to send")
    return out


class BaseClient:
    """Base of the backends; ``model`` is the model name sent to (or loaded by) the backend."""

    backend: str = "base"

    def __init__(
        self,
        model: str,
        *,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        cache: ResponseCache | str | Path | bool | None = None,
        cache_sampled: bool = False,
        prices: PriceTable | Mapping[str, Any] | str | None = None,
        max_concurrency: int = 4,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.model = model
        self.defaults: dict[str, Any] = {"temperature": float(temperature), "max_tokens": int(max_tokens)}
        self.cache = open_cache(cache)
        self.cache_sampled = cache_sampled
        self.prices = prices if isinstance(prices, PriceTable) else PriceTable.parse(prices)
        self.max_concurrency = max_concurrency
        self._sem = threading.BoundedSemaphore(max_concurrency)
        self._asems: dict[int, asyncio.Semaphore] = {}
        self._asem_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r})"

    @property
    def identity(self) -> str:
        """What distinguishes this endpoint in cache keys (overridden with the URL by HTTP backends)."""
        return self.backend

    # ---- public protocol ------------------------------------------------------------------

    def complete(self, messages: Any, **settings: Any) -> Completion:
        msgs, merged, key = self._prepare(messages, settings)
        if key is not None and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        with self._sem:
            out = self._complete(msgs, merged)
        return self._finish(out, key)

    def stream(self, messages: Any, **settings: Any) -> CompletionStream:
        """The completion piece by piece (see ``hallucheck.llm.streaming``); a cached answer
        comes as one piece, and a completion read to its end is cached like ``complete``'s."""
        from hallucheck.llm.streaming import CompletionStream  # lazy: loaded only on this path

        msgs, merged, key = self._prepare(messages, settings)
        if key is not None and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return CompletionStream.of(hit)

        def pieces() -> Iterator[str | Completion]:
            with self._sem:
                yield from self._stream(msgs, merged)

        def end(done: Completion, finished: bool) -> Completion:
            return self._finish(done, key if finished else None)

        return CompletionStream(pieces(), model=self.model, on_end=end)

    async def acomplete(self, messages: Any, **settings: Any) -> Completion:
        msgs, merged, key = self._prepare(messages, settings)
        if key is not None and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                return hit
        async with self._async_semaphore():
            out = await self._acomplete(msgs, merged)
        return self._finish(out, key)

    # ---- for subclasses ---------------------------------------------------------------------

    def _complete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        raise NotImplementedError

    async def _acomplete(self, messages: list[Message], settings: dict[str, Any]) -> Completion:
        return await asyncio.to_thread(self._complete, messages, settings)

    def _stream(self, messages: list[Message], settings: dict[str, Any]) -> Iterator[str | Completion]:
        """Text pieces, then a Completion with the usage; backends that stream override this."""
        done = self._complete(messages, settings)
        yield done.text
        yield done

    # ---- internals ----------------------------------------------------------------------------

    def _prepare(self, messages: Any, settings: Mapping[str, Any]) -> tuple[list[Message], dict[str, Any], str | None]:
        msgs = to_messages(messages)
        merged = dict(self.defaults)
        merged.update({k: v for k, v in settings.items() if v is not None})
        key = None
        if self.cache is not None and (self.cache_sampled or float(merged.get("temperature", 0.0)) == 0.0):
            key = cache_key(self.identity, self.model, msgs, merged)
        return msgs, merged, key

    def _finish(self, out: Completion, key: str | None) -> Completion:
        if not out.model:
            out.model = self.model
        out.usd = self.prices.usd(out.model, out.prompt_tokens, out.completion_tokens)
        if key is not None and self.cache is not None:
            self.cache.put(key, out)
        return out

    def _async_semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        with self._asem_lock:
            sem = self._asems.get(id(loop))
            if sem is None:
                sem = asyncio.Semaphore(self.max_concurrency)
                self._asems = {id(loop): sem}  # one loop at a time; old loops are gone
            return sem
