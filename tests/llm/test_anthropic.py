"""The Anthropic Messages backend against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest
from llm_testkit import ChatServer, Reply, anthropic_reply

from hallucheck.llm.anthropic import AnthropicClient
from hallucheck.llm.base import LLMError, Message
from hallucheck.llm.retry import RetryPolicy


def client(server: ChatServer) -> AnthropicClient:
    return AnthropicClient("claude-test", base_url=server.url, api_key="ak",
                           retry=RetryPolicy(max_retries=2, base_delay=0.01))


def test_headers_system_prompt_and_usage(chat_server: ChatServer) -> None:
    chat_server.push(anthropic_reply("fine", input_tokens=40, output_tokens=2))
    out = client(chat_server).complete([Message("system", "judge"), Message("user", "a"), Message("user", "b")],
                                       max_tokens=64, stop="END")
    assert out.text == "fine" and out.prompt_tokens == 40 and out.completion_tokens == 2
    req = chat_server.requests[0]
    assert req["path"] == "/v1/messages"
    assert req["headers"]["x-api-key"] == "ak" and req["headers"]["anthropic-version"] == "2023-06-01"
    body = req["json"]
    assert body["system"] == "judge"
    assert body["messages"] == [{"role": "user", "content": "a\n\nb"}]
    assert body["max_tokens"] == 64 and body["stop_sequences"] == ["END"]


def test_overloaded_then_success_async(chat_server: ChatServer) -> None:
    chat_server.push(Reply(529, {"type": "error", "error": {"type": "overloaded_error"}}), anthropic_reply("ok"))
    assert asyncio.run(client(chat_server).acomplete("hi")).text == "ok"


def test_error_payload_raises(chat_server: ChatServer) -> None:
    chat_server.push(Reply(200, {"type": "error", "error": {"message": "bad"}}))
    with pytest.raises(LLMError, match="no content"):
        client(chat_server).complete("hi")
