"""A scripted LLM for tests: answers from a list, a function, or by matching the prompt.

Public on purpose: detectors, the guard and the A/B tester are tested against it without any
network. It speaks the full client protocol (sync and async), records every call, and counts
tokens roughly (words) so accounting can be tested too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.client import to_messages

if TYPE_CHECKING:  # pragma: no cover
    from hallucheck.llm.streaming import CompletionStream

__all__ = ["FakeLLM", "Call"]

Reply = str | Exception | Callable[[list[Message], dict[str, Any]], str]


class Call:
    """One recorded call: the messages and the settings; for a streamed call, the text the
    caller read (``streamed``) and whether it stopped the generation early (``stopped``)."""

    def __init__(self, messages: list[Message], settings: dict[str, Any]) -> None:
        self.messages = messages
        self.settings = settings
        self.streamed: str | None = None
        self.stopped = False

    @property
    def prompt(self) -> str:
        return "\n".join(m.content for m in self.messages)

    def __repr__(self) -> str:
        return f"Call({self.prompt[:60]!r}, {self.settings})"


class FakeLLM:
    """``FakeLLM(["reply 1", "reply 2"])`` answers in order (the last one repeats when
    ``repeat_last``); ``FakeLLM(rules={"substring": "reply"})`` answers by the first rule whose key
    occurs in the prompt; ``FakeLLM(lambda messages, settings: "...")`` computes the reply. A reply
    that is an Exception is raised (use LLMError to simulate a failing backend)."""

    def __init__(
        self,
        replies: Iterable[Reply] | Reply | None = None,
        *,
        rules: Mapping[str, Reply] | None = None,
        model: str = "fake",
        repeat_last: bool = True,
        usd_per_call: float = 0.0,
        stream_piece: int = 4,
    ) -> None:
        if callable(replies) or isinstance(replies, (str, Exception)):
            self._replies: list[Reply] = [replies]
        else:
            self._replies = list(replies or [])
        self.rules = dict(rules or {})
        self.model = model
        self.repeat_last = repeat_last
        self.usd_per_call = usd_per_call
        self.stream_piece = max(1, stream_piece)
        self.calls: list[Call] = []
        self._next = 0

    def __repr__(self) -> str:
        return f"FakeLLM(model={self.model!r}, calls={len(self.calls)})"

    def _reply(self, messages: list[Message], settings: dict[str, Any]) -> str:
        prompt = "\n".join(m.content for m in messages)
        reply: Reply | None = None
        for key, value in self.rules.items():
            if key in prompt:
                reply = value
                break
        if reply is None:
            if self._next < len(self._replies):
                reply = self._replies[self._next]
                self._next += 1
            elif self._replies and self.repeat_last:
                reply = self._replies[-1]
            else:
                raise LLMError("FakeLLM: no scripted reply left")
        if isinstance(reply, Exception):
            raise reply
        if callable(reply):
            reply = reply(messages, settings)
        return str(reply)

    def complete(self, messages: str | Sequence[Message | Mapping[str, Any]], **settings: Any) -> Completion:
        msgs = to_messages(messages)
        self.calls.append(Call(msgs, dict(settings)))
        text = self._reply(msgs, dict(settings))
        prompt_tokens = sum(len(m.content.split()) for m in msgs)
        return Completion(text=text, model=self.model, prompt_tokens=prompt_tokens,
                          completion_tokens=len(text.split()), usd=self.usd_per_call)

    async def acomplete(self, messages: str | Sequence[Message | Mapping[str, Any]], **settings: Any) -> Completion:
        await asyncio.sleep(0)
        return self.complete(messages, **settings)

    def stream(self, messages: str | Sequence[Message | Mapping[str, Any]], **settings: Any) -> CompletionStream:
        """The scripted reply in pieces of ``stream_piece`` characters, as a model streams it."""
        from hallucheck.llm.streaming import CompletionStream  # lazy: loaded only on this path

        msgs = to_messages(messages)
        call = Call(msgs, dict(settings))
        self.calls.append(call)
        text = self._reply(msgs, dict(settings))
        call.streamed = ""

        def pieces() -> Iterator[str | Completion]:
            try:
                for i in range(0, len(text), self.stream_piece):
                    piece = text[i : i + self.stream_piece]
                    call.streamed = (call.streamed or "") + piece
                    yield piece
            except GeneratorExit:
                call.stopped = True
                raise
            yield Completion(text="", model=self.model, prompt_tokens=sum(len(m.content.split()) for m in msgs),
                             completion_tokens=len(text.split()), usd=self.usd_per_call)

        return CompletionStream(pieces(), model=self.model)
