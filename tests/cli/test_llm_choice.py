"""Which backend ``--llm`` picks, and that the offline fallback is named."""

from __future__ import annotations

import pytest

from hallucheck.cli import llm_choice
from hallucheck.errors import InputError


@pytest.fixture(autouse=True)
def no_llm_env(monkeypatch):
    for name in ("BACKEND", "MODEL", "MODEL_PATH", "BASE_URL", "DEPLOYMENT"):
        monkeypatch.delenv(f"HALLUCHECK_LLM_{name}", raising=False)


def test_auto_without_anything_falls_back_to_the_named_extractive_backend(monkeypatch):
    monkeypatch.setattr(llm_choice, "local_available", lambda: False)
    client, note = llm_choice.choose_llm("auto")
    assert client.model == "extractive-demo" and "no language model" in note


def test_auto_prefers_a_configured_backend(monkeypatch):
    monkeypatch.setenv("HALLUCHECK_LLM_BACKEND", "openai")
    monkeypatch.setenv("HALLUCHECK_LLM_MODEL", "some-model")
    monkeypatch.setenv("HALLUCHECK_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    client, note = llm_choice.choose_llm("auto")
    assert client.model == "some-model" and note == ""


def test_env_and_local_errors(monkeypatch):
    with pytest.raises(InputError, match="no LLM configured"):
        llm_choice.choose_llm("env")
    monkeypatch.setattr(llm_choice, "local_available", lambda: False)
    with pytest.raises(InputError, match="hallucheck\\[local\\]"):
        llm_choice.choose_llm("local")
    with pytest.raises(InputError, match="unknown --llm"):
        llm_choice.choose_llm("oracle")
