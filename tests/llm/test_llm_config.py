"""Building clients from environment variables and flags."""

from __future__ import annotations

import pytest
from llm_testkit import ChatServer, openai_reply

from hallucheck.errors import InputError
from hallucheck.llm.anthropic import AnthropicClient
from hallucheck.llm.config import LLMConfig, client_from_env
from hallucheck.llm.openai import OpenAIClient


def test_nothing_configured_means_no_client() -> None:
    assert client_from_env({}) is None
    assert client_from_env({"HALLUCHECK_LLM_API_KEY": "k"}) is None


def test_openai_from_env(chat_server: ChatServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {"HALLUCHECK_LLM_BASE_URL": chat_server.url + "/v1", "HALLUCHECK_LLM_MODEL": "m",
           "HALLUCHECK_LLM_API_KEY": "k", "HALLUCHECK_LLM_HEADERS": "X-A: 1; X-B: two",
           "HALLUCHECK_LLM_CACHE": str(tmp_path / "c.db"), "HALLUCHECK_LLM_TIMEOUT": "5",
           "HALLUCHECK_LLM_PRICES": "m=1/1"}
    c = client_from_env(env)
    assert isinstance(c, OpenAIClient)
    assert c.timeout == 5 and c.extra_headers == {"X-A": "1", "X-B": "two"} and c.cache is not None
    chat_server.push(openai_reply("ok"))
    assert c.complete("hi").text == "ok"
    assert chat_server.requests[0]["headers"]["x-b"] == "two"


def test_anthropic_by_backend_and_by_url() -> None:
    c = client_from_env({"HALLUCHECK_LLM_BACKEND": "anthropic", "HALLUCHECK_LLM_MODEL": "claude", "HALLUCHECK_LLM_CACHE": "off"})
    assert isinstance(c, AnthropicClient) and c.cache is None
    c2 = LLMConfig(base_url="https://api.anthropic.com", model="claude", cache="off").build()
    assert isinstance(c2, AnthropicClient)


def test_flags_override_env() -> None:
    cfg = LLMConfig.from_env({"HALLUCHECK_LLM_MODEL": "a"}).with_overrides(model="b", base_url=None)
    assert cfg.model == "b" and cfg.base_url is None


@pytest.mark.parametrize("env,msg", [
    ({"HALLUCHECK_LLM_BACKEND": "bogus"}, "unknown LLM backend"),
    ({"HALLUCHECK_LLM_BACKEND": "openai"}, "needs a model"),
    ({"HALLUCHECK_LLM_MODEL": "m", "HALLUCHECK_LLM_TIMEOUT": "soon"}, "must be a number"),
    ({"HALLUCHECK_LLM_MODEL": "m", "HALLUCHECK_LLM_HEADERS": "novalue"}, "HEADERS"),
])
def test_bad_config_is_a_clear_error(env: dict[str, str], msg: str) -> None:
    with pytest.raises(InputError, match=msg):
        client_from_env({**env, "HALLUCHECK_LLM_CACHE": "off"})
