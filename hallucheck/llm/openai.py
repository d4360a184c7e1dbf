"""Any OpenAI-compatible chat-completions endpoint: OpenAI, Azure OpenAI, vLLM, Ollama,
llama.cpp server, LiteLLM proxy, ...

``base_url`` is the API root *including* the version, as the OpenAI SDK takes it
(``https://api.openai.com/v1``, ``http://localhost:11434/v1`` for Ollama,
``http://localhost:8000/v1`` for vLLM). For Azure give the resource URL plus ``deployment`` and
``api_version``: the request goes to ``/openai/deployments/{deployment}/chat/completions`` with
an ``api-key`` header.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.http import HTTPClient

__all__ = ["OpenAIClient"]

_PASS = ("temperature", "max_tokens", "top_p", "stop", "seed", "presence_penalty", "frequency_penalty", "n")


class OpenAIClient(HTTPClient):
    """Chat completions over HTTP. ``json_mode=True`` asks for ``response_format: json_object``
    (not every server supports it, so it is off by default; the structured-output layer repairs
    JSON either way). ``extra_body`` is merged into every request."""

    backend = "openai"

    def __init__(
        self,
        model: str = "",
        *,
        base_url: str = "https://api.openai.com/v1",
        api_key: str | None = None,
        deployment: str | None = None,
        api_version: str | None = None,
        api_key_header: str | None = None,
        json_mode: bool = False,
        extra_body: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        if not model and not deployment:
            raise LLMError("an OpenAI-compatible backend needs a model name (or an Azure deployment)")
        super().__init__(model or str(deployment), base_url=base_url, **options)
        self.api_key = api_key
        self.deployment = deployment
        self.api_version = api_version
        self.api_key_header = api_key_header or ("api-key" if deployment else "authorization")
        self.json_mode = json_mode
        self.extra_body = dict(extra_body or {})

    @property
    def url(self) -> str:
        if self.deployment:
            url = f"{self.base_url}/openai/deployments/{self.deployment}/chat/completions"
            return f"{url}?api-version={self.api_version}" if self.api_version else url
        return f"{self.base_url}/chat/completions"

    def _headers(self) -> dict[str, str]:
        h = super()._headers()
        if self.api_key:
            if self.api_key_header.lower() == "authorization":
                h["authorization"] = f"Bearer {self.api_key}"
            else:
                h[self.api_key_header] = self.api_key
        return h

    def _body(self, messages: list[Message], settings: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"messages": [{"role": m.role, "content": m.content} for m in messages]}
        if not self.deployment:
            body["model"] = self.model
        body.update({k: settings[k] for k in _PASS if k in settings})
        if self.json_mode or settings.get("json"):
            body["response_format"] = {"type": "json_object"}
        body.update(self.extra_body)
        return body

    def _parse(self, data: dict[str, Any], latency_ms: float) -> Completion:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            err = data.get("error")
            raise LLMError(f"openai {self.url}: no choices in the response" + (f" (error: {err})" if err else ""))
        message = choices[0].get("message") or {}
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):  # content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        usage = data.get("usage") or {}
        return Completion(
            text=content if isinstance(content, str) else "",
            model=str(data.get("model") or self.model),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency_ms,
            raw={"finish_reason": choices[0].get("finish_reason"), "id": data.get("id")},
        )

    def _stream(self, messages: list[Message], settings: dict[str, Any]) -> Iterator[str | Completion]:
        """Server-sent chunks (``"stream": true``): each delta's text as it comes, then the usage
        (see ``HTTPClient._events`` for the limits and for stopping)."""
        body = {**self._body(messages, settings), "stream": True, "stream_options": {"include_usage": True}}
        t0 = time.perf_counter()
        usage: dict[str, Any] = {}
        model, finish = self.model, None
        for chunk in self._events(body):
            model = str(chunk.get("model") or model)
            usage = chunk.get("usage") or usage
            for choice in chunk.get("choices") or []:
                if not isinstance(choice, dict):
                    continue
                finish = choice.get("finish_reason") or finish
                delta = choice.get("delta") or {}
                text = delta.get("content") if isinstance(delta, dict) else None
                if isinstance(text, str) and text:
                    yield text
        yield Completion(
            text="", model=model, prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=(time.perf_counter() - t0) * 1000.0, raw={"finish_reason": finish},
        )
