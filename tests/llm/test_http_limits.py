"""LLM calls end on time and read bounded replies, whatever the server does (real loopback server).

Each test stands for an attack a misbehaving or hostile endpoint can make: dripping its reply a
byte at a time (httpx's per-read timeout never fires), answering with megabytes of brackets, or
asking to be retried in an hour.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from llm_testkit import ChatServer, MaxPolicy, Reply, openai_reply

from hallucheck.checker import Budget, Checker
from hallucheck.llm.base import LLMError
from hallucheck.llm.deadline import time_limit
from hallucheck.llm.openai import OpenAIClient
from hallucheck.llm.retry import RetryPolicy

CASE = {"question": "When was the company founded?", "contexts": ["The company was founded in 2010 in Paris."],
        "answer": "The company was founded in 2010 in Paris by Jean Dupont."}


def client(server: ChatServer, **kw: object) -> OpenAIClient:
    return OpenAIClient("test-model", base_url=server.url + "/v1", **kw)  # type: ignore[arg-type]


def _dripping(server: ChatServer, *, headers_too: bool = False) -> None:
    body = json.dumps(openai_reply("x" * 200).body)
    server.default = Reply(200, body, drip=0.25, drip_headers=headers_too)


@pytest.mark.parametrize("headers_too", [False, True], ids=["body", "headers"])
def test_a_dripping_server_is_cut_at_the_attempt_timeout(chat_server: ChatServer, headers_too: bool) -> None:
    _dripping(chat_server, headers_too=headers_too)
    llm = client(chat_server, timeout=1.0, retry=RetryPolicy(max_retries=0))
    t0 = time.monotonic()
    with pytest.raises(LLMError, match="timed out"):
        llm.complete("hi")
    assert time.monotonic() - t0 < 2.5


def test_the_callers_deadline_bounds_retries_too(chat_server: ChatServer) -> None:
    _dripping(chat_server)
    llm = client(chat_server, timeout=60.0, retry=RetryPolicy(max_retries=5, base_delay=0.01))
    t0 = time.monotonic()
    with time_limit(1.5), pytest.raises(LLMError):
        llm.complete("hi")
    assert time.monotonic() - t0 < 3.0


def test_async_calls_keep_the_deadline(chat_server: ChatServer) -> None:
    _dripping(chat_server)
    llm = client(chat_server, timeout=60.0, retry=RetryPolicy(max_retries=3, base_delay=0.01))

    async def go() -> None:
        with time_limit(1.5):
            await llm.acomplete("hi")

    t0 = time.monotonic()
    with pytest.raises(LLMError):
        asyncio.run(go())
    assert time.monotonic() - t0 < 3.0


def test_retry_after_beyond_the_budget_is_not_waited_for(chat_server: ChatServer) -> None:
    chat_server.default = Reply(429, {"error": "slow down"}, headers={"Retry-After": "3600"})
    llm = client(chat_server, retry=RetryPolicy(max_retries=3))
    t0 = time.monotonic()
    with time_limit(5.0), pytest.raises(LLMError, match="not retried.*3600|not retried.*30"):
        llm.complete("hi")
    assert time.monotonic() - t0 < 2.0
    assert len(chat_server.requests) == 1


def test_a_reply_larger_than_the_cap_is_refused(chat_server: ChatServer) -> None:
    chat_server.default = openai_reply("{" * 300_000)
    llm = client(chat_server, max_response_bytes=100_000, retry=RetryPolicy(max_retries=2, base_delay=0.01))
    with pytest.raises(LLMError, match="larger than 100000 bytes"):
        llm.complete("hi")
    assert len(chat_server.requests) == 1  # not retried: the same server would send it again


def test_the_checker_budget_reaches_the_calls(chat_server: ChatServer) -> None:
    """Budget.max_seconds ends a check whose judge endpoint drips or says Retry-After: 3600."""
    for reply in (Reply(200, json.dumps(openai_reply("{}").body), drip=0.25),
                  Reply(503, {"error": "busy"}, headers={"Retry-After": "3600"})):
        chat_server.default = reply
        llm = client(chat_server, timeout=60.0, retry=RetryPolicy(max_retries=3))
        checker = Checker(["llm_judge"], llm=llm, policy=MaxPolicy(), budget=Budget(max_seconds=1.5))
        t0 = time.monotonic()
        report = checker.check(CASE)
        assert time.monotonic() - t0 < 3.5
        finding = report.finding("llm_judge")
        # Either the call was cut (an error) or, on a slow machine, the budget was gone before it.
        assert finding is not None and (finding.error or any("budget spent" in n for n in finding.notes))


def test_megabytes_of_brackets_cost_little_cpu(chat_server: ChatServer) -> None:
    chat_server.default = openai_reply("{" * 2_000_000)
    llm = client(chat_server, retry=RetryPolicy(max_retries=0))
    checker = Checker(["llm_judge"], llm=llm, policy=MaxPolicy())
    t0 = time.process_time()
    report = checker.check(CASE)
    assert time.process_time() - t0 < 5.0
    finding = report.finding("llm_judge")
    assert finding is not None and finding.error  # no usable verdict, said so
