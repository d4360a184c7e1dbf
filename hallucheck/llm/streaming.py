"""A completion read piece by piece while the model writes it, and stopped when it goes wrong.

``client.stream(messages, **settings)`` returns a ``CompletionStream``: iterate it for the text
pieces; ``close()`` stops the generation (the HTTP response is dropped, so the server stops
writing and no more tokens are paid for); ``completion`` is the Completion of what was received,
with ``raw["stopped"]`` telling whether it was cut short. Backends that cannot stream give the
whole answer as one piece, so every client can be read this way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, Self, runtime_checkable

from hallucheck.llm.base import Completion, LLMClient

__all__ = ["CompletionStream", "StreamingLLMClient", "can_stream"]

# A backend's stream yields text pieces, and may end with one Completion that carries the usage
# (token counts, model name, finish reason) but no text.
Source = Iterator["str | Completion"]


class CompletionStream:
    """The pieces of one completion; ``close()`` stops it. Usable as a context manager."""

    def __init__(self, source: Source, *, model: str = "",
                 on_end: Callable[[Completion, bool], Completion] | None = None) -> None:
        self._source = source
        self._on_end = on_end
        self._t0 = time.perf_counter()
        self._usage: Completion | None = None
        self._completion: Completion | None = None
        self.model = model
        self.text = ""
        self.finished = False  # the model ended the answer
        self.stopped = False  # closed before the model ended it

    @classmethod
    def of(cls, completion: Completion) -> CompletionStream:
        """A stream of a completion that is already there (a cache hit): one piece."""
        return cls(iter([completion.text, completion]), model=completion.model)

    def __iter__(self) -> CompletionStream:
        return self

    def __next__(self) -> str:
        while True:
            if self.finished or self.stopped:
                raise StopIteration
            try:
                item = next(self._source)
            except StopIteration:
                self.finished = True
                self._end()
                raise
            if isinstance(item, Completion):
                self._usage = item
                continue
            if item:
                self.text += item
                return item

    def close(self) -> None:
        """Stop the generation now (no effect once it ended)."""
        if self.finished or self.stopped:
            return
        self.stopped = True
        close = getattr(self._source, "close", None)
        if callable(close):
            close()
        self._end()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def completion(self) -> Completion:
        """What was received as a Completion (read the stream to its end or close it first)."""
        if self._completion is None:
            return self._build()
        return self._completion

    def _build(self) -> Completion:
        usage = self._usage or Completion(text="")
        return Completion(
            text=self.text,
            model=usage.model or self.model,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            latency_ms=(time.perf_counter() - self._t0) * 1000.0,
            raw={**usage.raw, "stopped": self.stopped},
        )

    def _end(self) -> None:
        done = self._build()
        self._completion = self._on_end(done, self.finished) if self._on_end is not None else done


@runtime_checkable
class StreamingLLMClient(LLMClient, Protocol):
    """A client that can also ``stream`` a completion."""

    def stream(self, messages: Any, **settings: Any) -> CompletionStream: ...


def can_stream(llm: Any) -> bool:
    """Whether ``llm`` has a ``stream`` method (every built-in backend and FakeLLM do)."""
    return callable(getattr(llm, "stream", None))
