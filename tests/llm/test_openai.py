"""The OpenAI-compatible backend against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import time

import pytest
from llm_testkit import ChatServer, Reply, openai_reply

from hallucheck.llm.base import LLMError, Message
from hallucheck.llm.http import LLMHTTPError
from hallucheck.llm.openai import OpenAIClient
from hallucheck.llm.retry import RetryPolicy

FAST = RetryPolicy(max_retries=2, base_delay=0.01, max_delay=1.0)


def client(server: ChatServer, **kw: object) -> OpenAIClient:
    kw.setdefault("retry", FAST)
    return OpenAIClient("test-model", base_url=server.url + "/v1", api_key="sk-test", **kw)  # type: ignore[arg-type]


def test_good_reply_text_usage_and_request(chat_server: ChatServer) -> None:
    chat_server.push(openai_reply("hello", prompt_tokens=21, completion_tokens=3))
    out = client(chat_server).complete([Message("system", "be brief"), Message("user", "hi")], max_tokens=50)
    assert out.text == "hello" and out.prompt_tokens == 21 and out.completion_tokens == 3 and not out.cached
    req = chat_server.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["authorization"] == "Bearer sk-test"
    assert req["json"]["model"] == "test-model"
    assert req["json"]["messages"] == [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]
    assert req["json"]["temperature"] == 0.0 and req["json"]["max_tokens"] == 50


def test_429_with_retry_after_then_success(chat_server: ChatServer) -> None:
    chat_server.push(Reply(429, {"error": "slow down"}, headers={"Retry-After": "0.3"}), openai_reply("ok"))
    t0 = time.monotonic()
    out = client(chat_server).complete("hi")
    assert out.text == "ok"
    assert len(chat_server.requests) == 2
    assert chat_server.requests[1]["time"] - chat_server.requests[0]["time"] >= 0.29
    assert time.monotonic() - t0 < 5


def test_500_then_success(chat_server: ChatServer) -> None:
    chat_server.push(Reply(500, {"error": "boom"}), Reply(503, "unavailable"), openai_reply("ok"))
    assert client(chat_server).complete("hi").text == "ok"
    assert len(chat_server.requests) == 3


def test_timeout_then_success(chat_server: ChatServer) -> None:
    chat_server.push(openai_reply("late", delay=1.5), openai_reply("ok"))
    out = client(chat_server, timeout=0.3).complete("hi")
    assert out.text == "ok"
    assert len(chat_server.requests) == 2


def test_persistent_failure_raises_llm_error(chat_server: ChatServer) -> None:
    chat_server.default = Reply(500, {"error": "down"})
    with pytest.raises(LLMError, match="gave up after 3 attempt"):
        client(chat_server).complete("hi")
    assert len(chat_server.requests) == 3


def test_client_error_is_not_retried(chat_server: ChatServer) -> None:
    chat_server.default = Reply(401, {"error": "bad key"})
    with pytest.raises(LLMHTTPError) as info:
        client(chat_server).complete("hi")
    assert info.value.status == 401 and len(chat_server.requests) == 1


def test_non_json_body_is_retried_then_fails(chat_server: ChatServer) -> None:
    chat_server.default = Reply(200, "<html>gateway</html>")
    with pytest.raises(LLMError, match="not JSON"):
        client(chat_server).complete("hi")
    assert len(chat_server.requests) == 3


def test_payload_without_choices_is_an_error(chat_server: ChatServer) -> None:
    chat_server.push(Reply(200, {"error": {"message": "model overloaded"}}))
    with pytest.raises(LLMError, match="no choices"):
        client(chat_server).complete("hi")


def test_connection_refused_is_an_llm_error() -> None:
    c = OpenAIClient("m", base_url="http://127.0.0.1:9/v1", retry=RetryPolicy(max_retries=1, base_delay=0.01))
    with pytest.raises(LLMError, match="connection failed"):
        c.complete("hi")


def test_azure_style_deployment_path_and_api_key_header(chat_server: ChatServer) -> None:
    chat_server.push(openai_reply("ok"))
    c = OpenAIClient(base_url=chat_server.url, deployment="gpt4o-prod", api_version="2024-06-01", api_key="azkey",
                     headers={"x-trace": "abc"}, retry=FAST)
    assert c.complete("hi").text == "ok"
    req = chat_server.requests[0]
    assert req["path"] == "/openai/deployments/gpt4o-prod/chat/completions?api-version=2024-06-01"
    assert req["headers"]["api-key"] == "azkey" and "authorization" not in req["headers"]
    assert req["headers"]["x-trace"] == "abc"
    assert "model" not in req["json"]


def test_json_mode_sends_response_format(chat_server: ChatServer) -> None:
    chat_server.push(openai_reply("{}"))
    client(chat_server, json_mode=True).complete("hi")
    assert chat_server.requests[0]["json"]["response_format"] == {"type": "json_object"}


def test_async_calls_respect_the_concurrency_limit(chat_server: ChatServer) -> None:
    chat_server.default = openai_reply("ok", delay=0.2)
    c = client(chat_server, max_concurrency=2)

    async def run() -> list[str]:
        outs = await asyncio.gather(*(c.acomplete(f"q{i}") for i in range(6)))
        return [o.text for o in outs]

    assert asyncio.run(run()) == ["ok"] * 6
    assert chat_server.max_in_flight <= 2
    assert len(chat_server.requests) == 6


def test_async_retries_on_429(chat_server: ChatServer) -> None:
    chat_server.push(Reply(429, {}, headers={"retry-after-ms": "50"}), openai_reply("ok"))
    assert asyncio.run(client(chat_server).acomplete("hi")).text == "ok"
    assert len(chat_server.requests) == 2


def test_threads_respect_the_concurrency_limit(chat_server: ChatServer) -> None:
    from concurrent.futures import ThreadPoolExecutor

    chat_server.default = openai_reply("ok", delay=0.15)
    c = client(chat_server, max_concurrency=2)
    with ThreadPoolExecutor(5) as pool:
        outs = list(pool.map(lambda i: c.complete(f"q{i}").text, range(5)))
    assert outs == ["ok"] * 5 and chat_server.max_in_flight <= 2


def test_cache_hits_only_for_deterministic_calls(chat_server: ChatServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    chat_server.default = openai_reply("ok", prompt_tokens=100, completion_tokens=10)
    c = client(chat_server, cache=tmp_path / "c.sqlite3")
    first = c.complete("same prompt")
    second = c.complete("same prompt")
    assert not first.cached and second.cached and second.text == "ok"
    assert len(chat_server.requests) == 1
    c.complete("same prompt", temperature=0.7)
    c.complete("same prompt", temperature=0.7)
    assert len(chat_server.requests) == 3
    c.complete("same prompt", max_tokens=5)  # other settings: another key
    assert len(chat_server.requests) == 4
    # a new client on the same file reuses the answers
    again = client(chat_server, cache=tmp_path / "c.sqlite3").complete("same prompt")
    assert again.cached and len(chat_server.requests) == 4


def test_prices_give_usd(chat_server: ChatServer) -> None:
    chat_server.default = openai_reply("ok", prompt_tokens=1_000_000, completion_tokens=500_000, model="gpt-4o-2024-08-06")
    out = client(chat_server, prices="gpt-4o=2.5/10").complete("hi")
    assert out.usd == pytest.approx(2.5 + 5.0)


def test_bad_base_url_is_rejected() -> None:
    with pytest.raises(LLMError, match="http"):
        OpenAIClient("m", base_url="localhost:8000")
