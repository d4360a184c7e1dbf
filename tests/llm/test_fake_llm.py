"""The scripted fake client used across the test suite."""

from __future__ import annotations

import asyncio

import pytest

from hallucheck.llm.base import LLMClient, LLMError
from hallucheck.llm.fake import FakeLLM


def test_replies_in_order_then_repeat_last() -> None:
    f = FakeLLM(["a", "b"])
    assert [f.complete("x").text for _ in range(3)] == ["a", "b", "b"]
    assert isinstance(f, LLMClient)


def test_rules_functions_and_errors() -> None:
    f = FakeLLM(rules={"capital": "Paris", "boom": LLMError("down")}, replies=lambda m, s: f"t={s.get('temperature')}")
    assert f.complete("the capital?").text == "Paris"
    assert f.complete("other", temperature=0.7).text == "t=0.7"
    with pytest.raises(LLMError):
        f.complete("boom")
    assert len(f.calls) == 3 and f.calls[1].settings == {"temperature": 0.7}


def test_async_and_exhaustion() -> None:
    f = FakeLLM(["only"], repeat_last=False)
    assert asyncio.run(f.acomplete("x")).text == "only"
    with pytest.raises(LLMError, match="no scripted reply"):
        f.complete("x")
