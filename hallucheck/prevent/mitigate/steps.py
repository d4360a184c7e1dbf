"""The requests a repair step makes, and the two drivers that serve them (sync and async).

Strategies and the repair loop are written once, as generators that *yield* what they need —
an LLM completion or a check — and receive the result. ``drive`` serves them with
``llm.complete`` / ``checker.check``; ``adrive`` with ``await llm.acomplete`` and a check off the
event loop. That keeps one implementation of every strategy for both the sync and async API.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar, Union

from hallucheck.errors import HallucheckError
from hallucheck.llm.base import Completion, LLMClient, LLMError, Message
from hallucheck.llm.streaming import can_stream
from hallucheck.types import Case, Report

__all__ = ["LLMCall", "CheckCall", "StepError", "Usage", "Steps", "Watch", "ask", "ask_watched", "check", "drive", "adrive"]

T = TypeVar("T")
Request = Union["LLMCall", "CheckCall"]
Steps = Generator[Request, Any, T]


@dataclass(frozen=True)
class Watch:
    """Check a generation sentence by sentence while it streams, and stop it at the first
    sentence whose decision is in ``stop_on``. ``case`` is the case the answer will be checked
    as (its answer is ignored)."""

    case: Case
    stop_on: frozenset[str] = frozenset({"reject"})


@dataclass
class LLMCall:
    messages: list[Message]
    settings: dict[str, Any] = field(default_factory=dict)
    watch: Watch | None = None


@dataclass
class CheckCall:
    case: Case


class StepError(HallucheckError, RuntimeError):
    """A step could not be carried out (LLM failure, no LLM, unusable output)."""


@dataclass
class Usage:
    """LLM use of one step."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, c: Completion) -> None:
        self.calls += 1
        self.prompt_tokens += c.prompt_tokens
        self.completion_tokens += c.completion_tokens


class _Failed:
    """Sent back into a generator instead of a Completion when the call failed."""

    def __init__(self, error: str) -> None:
        self.error = error


def ask(messages: list[Message], usage: Usage, **settings: Any) -> Steps[str]:
    """Yield one LLM call and return its text (StepError when the call failed)."""
    reply = yield LLMCall(messages, settings)
    if isinstance(reply, _Failed):
        raise StepError(reply.error)
    usage.add(reply)
    return reply.text  # type: ignore[no-any-return]


def ask_watched(messages: list[Message], usage: Usage, watch: Watch | None, **settings: Any) -> Steps[Completion]:
    """Yield one LLM call watched while it streams; returns the Completion. When the watch
    stopped it, ``raw["watch"]`` says at which sentence (StepError when the call failed)."""
    reply = yield LLMCall(messages, settings, watch)
    if isinstance(reply, _Failed):
        raise StepError(reply.error)
    usage.add(reply)
    return reply  # type: ignore[no-any-return]


def check(case: Case) -> Steps[Report]:
    """Yield one check and return its report."""
    report = yield CheckCall(case)
    return report  # type: ignore[no-any-return]


def drive(steps: Steps[T], llm: LLMClient | None, checker: Any) -> T:
    """Run ``steps`` to completion with blocking calls."""
    reply: Any = None
    while True:
        try:
            req = steps.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        if isinstance(req, LLMCall):
            if llm is None:
                reply = _Failed("no LLM backend configured")
                continue
            try:
                if req.watch is not None and can_stream(llm):
                    reply = watched_completion(llm, checker, req)
                else:
                    reply = llm.complete(req.messages, **req.settings)
            except LLMError as exc:
                reply = _Failed(f"LLM call failed: {exc}")
        else:
            reply = checker.check(req.case)


async def adrive(steps: Steps[T], llm: LLMClient | None, checker: Any) -> T:
    """Run ``steps`` to completion, awaiting LLM calls and checking off the event loop."""
    reply: Any = None
    while True:
        try:
            req = steps.send(reply)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        if isinstance(req, LLMCall):
            if llm is None:
                reply = _Failed("no LLM backend configured")
                continue
            try:
                if req.watch is not None and can_stream(llm):
                    reply = await asyncio.to_thread(watched_completion, llm, checker, req)
                else:
                    reply = await llm.acomplete(req.messages, **req.settings)
            except LLMError as exc:
                reply = _Failed(f"LLM call failed: {exc}")
        else:
            reply = await asyncio.to_thread(checker.check, req.case)


def watched_completion(llm: Any, checker: Any, req: LLMCall) -> Completion:
    """Stream ``req`` from ``llm`` into a sentence-by-sentence check; close the stream (which
    stops the generation) at the first sentence the watch stops on."""
    from hallucheck.errors import InputError  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.streaming import CheckStream, stream_case  # lazy: loaded only on this path

    assert req.watch is not None
    watch = req.watch
    sentences = CheckStream(checker, stream_case(watch.case.model_copy(update={"answer": ""})))
    stopped: Any = None
    note = ""
    leading = True
    with llm.stream(req.messages, **req.settings) as stream:
        for piece in stream:
            if leading:  # the answer is the stripped text: offsets must match it
                piece = piece.lstrip()
                leading = not piece
            try:
                for result in sentences.feed(piece):
                    if result.decision in watch.stop_on:
                        stopped = result
                        break
            except InputError as exc:  # e.g. over the answer limit: stop, the check says the rest
                note = str(exc)
                break
            if stopped is not None:
                break
    done: Completion = stream.completion
    if stopped is not None:  # the answer ends with the rejected sentence, not a piece of the next one
        done.text = sentences.text[: stopped.end]
    done.raw["watch"] = {
        "stopped": stopped is not None,
        "sentence": stopped.model_dump(mode="json") if stopped is not None else None,
        "sentences_checked": len(sentences.sentences),
        "note": note,
    }
    return done
