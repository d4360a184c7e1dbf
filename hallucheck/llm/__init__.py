"""LLM backends behind one protocol, structured output, cache and accounting."""

from hallucheck.llm.base import Completion, LLMClient, LLMError, Message

__all__ = ["Completion", "LLMClient", "LLMError", "Message"]
