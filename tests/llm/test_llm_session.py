"""Budget, cost and the one re-ask of the per-detector LLM session."""

from __future__ import annotations

import pytest

from hallucheck.case_facts import CaseFacts
from hallucheck.detectors.llm.schemas import JudgeOutput
from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM
from hallucheck.llm.session import BudgetExhausted, LLMSession


def test_budget_is_decremented_and_enforced() -> None:
    facts = CaseFacts(llm_calls_left=2)
    s = LLMSession(FakeLLM("x"), facts)
    s.complete("a")
    s.complete("b")
    assert facts.llm_calls_left == 0 and s.calls_left() == 0
    with pytest.raises(BudgetExhausted):
        s.complete("c")
    assert s.budget_hit and s.cost.llm_calls == 2


def test_unlimited_budget() -> None:
    s = LLMSession(FakeLLM("x"), CaseFacts(llm_calls_left=None))
    for _ in range(5):
        s.complete("a")
    assert s.cost.llm_calls == 5


def test_reask_once_with_the_error() -> None:
    llm = FakeLLM(["I think it's fine", '{"hallucination_risk": 0.2}'])
    s = LLMSession(llm)
    result = s.structured("judge this", JudgeOutput)
    assert result.ok and result.reasked and result.value.hallucination_risk == 0.2  # type: ignore[union-attr]
    assert len(llm.calls) == 2
    last = llm.calls[1].messages
    assert last[-2].role == "assistant" and "could not be used" in last[-1].content


def test_reask_disabled_and_failure_after_reask() -> None:
    llm = FakeLLM(["nonsense"])
    assert LLMSession(llm).structured("x", JudgeOutput, reask=False).stage == "no_json"
    assert len(llm.calls) == 1
    result = LLMSession(llm).structured("x", JudgeOutput)
    assert not result.ok and "after one re-ask" in (result.error or "")


def test_backend_failure_and_budget_are_typed() -> None:
    assert LLMSession(FakeLLM(LLMError("down"))).structured("x", JudgeOutput).stage == "llm_error"
    assert LLMSession(FakeLLM("{}"), CaseFacts(llm_calls_left=0)).structured("x", JudgeOutput).stage == "budget"


def test_cost_sums_tokens_and_usd() -> None:
    s = LLMSession(FakeLLM("one two three", usd_per_call=0.01))
    s.complete("a b")
    s.complete("c d e")
    cost = s.cost
    assert cost.llm_calls == 2 and cost.prompt_tokens == 5 and cost.completion_tokens == 6
    assert cost.usd == pytest.approx(0.02)
