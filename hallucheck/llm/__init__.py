"""LLM backends behind one protocol, structured output, cache and accounting.

Only the protocol types are imported eagerly; backends (httpx, llama-cpp) load when built.
"""

from typing import Any

from hallucheck.llm.base import Completion, LLMClient, LLMError, Message

__all__ = ["Completion", "LLMClient", "LLMError", "Message", "client_from_env", "build_client"]


def client_from_env(*args: Any, **kwargs: Any) -> LLMClient | None:
    """See :func:`hallucheck.llm.config.client_from_env` (imported lazily)."""
    from hallucheck.llm.config import client_from_env as impl  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    return impl(*args, **kwargs)


def build_client(*args: Any, **kwargs: Any) -> LLMClient | None:
    """See :func:`hallucheck.llm.config.build_client` (imported lazily)."""
    from hallucheck.llm.config import build_client as impl  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    return impl(*args, **kwargs)
