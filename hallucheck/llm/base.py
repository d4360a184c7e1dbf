"""The one small protocol every LLM backend speaks (sync and async).

Detectors, the guard and the A/B tester take an ``LLMClient`` object; tests hand in a scripted
fake. Backends (OpenAI-compatible HTTP, Anthropic Messages, local GGUF) live in their own modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from hallucheck.errors import HallucheckError

__all__ = ["Message", "Completion", "LLMClient", "LLMError"]


class LLMError(HallucheckError, RuntimeError):
    """A backend failed after its retries (network, HTTP status, timeout, bad payload)."""


@dataclass(frozen=True)
class Message:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass
class Completion:
    """One answer of a model, with what it cost."""

    text: str
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    cached: bool = False
    usd: float = 0.0
    raw: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class LLMClient(Protocol):
    """``complete`` / ``acomplete`` take chat messages and settings (temperature, max_tokens, ...)."""

    model: str

    def complete(self, messages: list[Message], **settings: Any) -> Completion: ...

    async def acomplete(self, messages: list[Message], **settings: Any) -> Completion: ...
