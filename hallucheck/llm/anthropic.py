"""Anthropic's Messages API: ``x-api-key`` and ``anthropic-version`` headers, the system prompt
as its own field, and strictly alternating user/assistant turns (merged here when needed)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.http import HTTPClient

__all__ = ["AnthropicClient", "ANTHROPIC_VERSION"]

ANTHROPIC_VERSION = "2023-06-01"


class AnthropicClient(HTTPClient):
    backend = "anthropic"

    def __init__(
        self,
        model: str,
        *,
        base_url: str = "https://api.anthropic.com",
        api_key: str | None = None,
        version: str = ANTHROPIC_VERSION,
        **options: Any,
    ) -> None:
        if not model:
            raise LLMError("the Anthropic backend needs a model name")
        super().__init__(model, base_url=base_url, **options)
        self.api_key = api_key
        self.version = version

    @property
    def url(self) -> str:
        root = self.base_url
        return f"{root}/messages" if root.endswith("/v1") else f"{root}/v1/messages"

    def _headers(self) -> dict[str, str]:
        h = super()._headers()
        h["anthropic-version"] = self.version
        if self.api_key:
            h["x-api-key"] = self.api_key
        return h

    def _body(self, messages: list[Message], settings: dict[str, Any]) -> dict[str, Any]:
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        turns: list[dict[str, str]] = []
        for m in messages:
            if m.role == "system":
                continue
            if turns and turns[-1]["role"] == m.role:
                turns[-1]["content"] += "\n\n" + m.content
            else:
                turns.append({"role": m.role, "content": m.content})
        if not turns or turns[0]["role"] != "user":
            turns.insert(0, {"role": "user", "content": "(see the system prompt)"})
        body: dict[str, Any] = {
            "model": self.model,
            "messages": turns,
            "max_tokens": int(settings.get("max_tokens") or 1024),
        }
        if system:
            body["system"] = system
        for k in ("temperature", "top_p", "top_k"):
            if k in settings:
                body[k] = settings[k]
        if settings.get("stop"):
            stop = settings["stop"]
            body["stop_sequences"] = [stop] if isinstance(stop, str) else list(stop)
        return body

    def _parse(self, data: dict[str, Any], latency_ms: float) -> Completion:
        blocks = data.get("content")
        if not isinstance(blocks, list):
            err = data.get("error")
            raise LLMError(f"anthropic {self.url}: no content in the response" + (f" (error: {err})" if err else ""))
        text = "".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
        usage = data.get("usage") or {}
        return Completion(
            text=text,
            model=str(data.get("model") or self.model),
            prompt_tokens=int(usage.get("input_tokens") or 0),
            completion_tokens=int(usage.get("output_tokens") or 0),
            latency_ms=latency_ms,
            raw={"stop_reason": data.get("stop_reason"), "id": data.get("id")},
        )

    def _stream(self, messages: list[Message], settings: dict[str, Any]) -> Iterator[str | Completion]:
        """Messages streaming (``"stream": true``): the text of each ``content_block_delta`` as it
        comes, then the usage of ``message_start`` / ``message_delta`` (see ``HTTPClient._events``)."""
        body = {**self._body(messages, settings), "stream": True}
        t0 = time.perf_counter()
        model, stop = self.model, None
        prompt_tokens = completion_tokens = 0
        for event in self._events(body):
            kind = event.get("type")
            if kind == "message_start" and isinstance(event.get("message"), dict):
                message = event["message"]
                model = str(message.get("model") or model)
                usage = message.get("usage") or {}
                prompt_tokens = int(usage.get("input_tokens") or 0)
                completion_tokens = int(usage.get("output_tokens") or 0)
            elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
                text = event["delta"].get("text")
                if isinstance(text, str) and text:
                    yield text
            elif kind == "message_delta":
                stop = (event.get("delta") or {}).get("stop_reason") or stop
                completion_tokens = int((event.get("usage") or {}).get("output_tokens") or completion_tokens)
            elif kind == "error":
                raise LLMError(f"anthropic {self.url}: the stream reported an error: {str(event.get('error'))[:200]}")
        yield Completion(text="", model=model, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                         latency_ms=(time.perf_counter() - t0) * 1000.0, raw={"stop_reason": stop})
