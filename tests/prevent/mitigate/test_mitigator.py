"""Every branch of the repair loop, driven by a scripted LLM and a scripted checker."""

from __future__ import annotations

import asyncio

import pytest

from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM
from hallucheck.prevent.abstention import ABSTAIN
from hallucheck.prevent.mitigate import DEFAULT_PLAN, Mitigator, Severity

SOURCES = [{"id": "1", "text": "The reset link is valid for 24 hours."}, {"id": "2", "text": "Click Forgot password."}]
Q = "How do I reset my password?"


def strategies(result):
    return [a.strategy for a in result.attempts]


def test_low_risk_passes_through_without_llm_calls(checker):
    llm = FakeLLM([])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "Click Forgot password [2].")
    assert strategies(result) == ["pass_through"]
    assert result.answer == "Click Forgot password [2]."
    assert result.initial_severity == "low" and not result.repaired
    assert llm.calls == []


def test_moderate_uses_source_reinforcement_with_feedback(checker):
    llm = FakeLLM(["Click Forgot password [2]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "You get a MOD code by mail.")
    assert strategies(result) == ["source_reinforcement", "pass_through"]
    assert result.answer == "Click Forgot password [2]." and result.strategy == "source_reinforcement"
    prompt = llm.calls[0].prompt
    assert "cite" in prompt and '- "MOD"' in prompt  # forced-citation template naming the flagged text
    assert result.attempts[0].accepted and result.attempts[0].risk_level == "low"


def test_moderate_keeps_original_when_reinforcement_does_not_help(checker):
    llm = FakeLLM(["Now it is HIGH."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "A MOD answer.")
    assert strategies(result) == ["source_reinforcement", "pass_through"]
    assert result.answer == "A MOD answer."
    assert not result.attempts[0].accepted and "discarded" in result.attempts[0].note
    assert result.final_severity == "moderate" and not result.abstained


def test_high_lowers_the_temperature_first(checker):
    llm = FakeLLM(["Click Forgot password [2]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "It is HIGH.", temperature=0.7)
    assert strategies(result)[0] == "temperature_adjustment"
    assert llm.calls[0].settings["temperature"] == pytest.approx(0.4)
    assert result.attempts[0].temperature == pytest.approx(0.4)
    assert result.report.risk_level == "low"


def test_high_at_zero_temperature_skips_adjustment(checker):
    llm = FakeLLM(["Click Forgot password [2]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "It is HIGH.", temperature=0.0)
    assert strategies(result)[:2] == ["temperature_adjustment", "source_reinforcement"]
    assert result.attempts[0].note.startswith("skipped") and result.attempts[0].answer == ""
    assert len(llm.calls) == 1


def test_high_falls_to_factual_correction_by_removal(checker):
    llm = FakeLLM(["Still HIGH [1].", "Again HIGH [1]."])
    answer = "Click Forgot password [2]. HIGH HIGH!"
    result = Mitigator(llm, checker, correction="remove").mitigate(Q, SOURCES, answer)
    assert strategies(result) == ["temperature_adjustment", "source_reinforcement", "factual_correction", "pass_through"]
    assert result.answer == "Click Forgot password [2]."
    assert result.strategy == "factual_correction" and result.final_severity == "low"


def test_factual_correction_rewrites_only_the_flagged_span(checker):
    plan = {"high": ["factual_correction"]}
    llm = FakeLLM(['{"1": "24 hours [1]"}'])
    answer = "The reset link is valid for HIGH, as stated."
    result = Mitigator(llm, checker, plan=plan).mitigate(Q, SOURCES, answer)
    assert result.answer == "The reset link is valid for 24 hours [1], as stated."
    assert "⟦1⟧HIGH⟦/1⟧" in llm.calls[0].prompt


def test_factual_correction_rewrite_falls_back_to_removal_on_bad_reply(checker):
    plan = {"high": ["factual_correction"]}
    llm = FakeLLM(["I cannot do that."])
    result = Mitigator(llm, checker, plan=plan).mitigate(Q, SOURCES, "Click Forgot password [2]. Then HIGH happens.")
    assert result.answer == "Click Forgot password [2]. Then happens."
    assert "removed 1 flagged span" in result.attempts[0].note


def test_critical_decomposes_the_question(checker):
    llm = FakeLLM(['{"questions": ["Where do I click?", "How long is the link valid?"]}',
                   "Click Forgot password [2].", "It is valid for 24 hours [1]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "CRIT CRIT")
    assert result.initial_severity == "critical"
    assert strategies(result) == ["decompose_retry", "pass_through"]
    assert result.answer == "Click Forgot password [2]. It is valid for 24 hours [1]."
    assert "Where do I click?" in llm.calls[1].prompt and len(llm.calls) == 3


def test_critical_abstains_in_the_case_language_when_decomposition_fails(checker):
    llm = FakeLLM(['{"questions": ["子問題"]}', "還是 CRIT"])
    result = Mitigator(llm, checker).mitigate("我忘記密碼了，該怎麼辦？", SOURCES, "CRIT 答案", language="zh-Hant")
    assert strategies(result) == ["decompose_retry", "abstain"]
    assert result.abstained and result.answer == ABSTAIN["zh-Hant"]
    assert result.report.risk_level == "low" and result.report.notes


def test_retry_limit_stops_and_abstains(checker):
    llm = FakeLLM(["Still HIGH."])
    result = Mitigator(llm, checker, max_attempts=1).mitigate(Q, SOURCES, "HIGH answer", language="de")
    assert strategies(result) == ["temperature_adjustment", "source_reinforcement", "abstain"]
    assert result.retry_limit_reached and "retry limit" in result.attempts[1].note
    assert result.answer == ABSTAIN["de"] and len(llm.calls) == 1


def test_without_llm_only_deterministic_repairs_run(checker):
    result = Mitigator(None, checker).mitigate(Q, SOURCES, "Click Forgot password [2]. HIGH HIGH HIGH.")
    names = strategies(result)
    assert names[:2] == ["temperature_adjustment", "source_reinforcement"]
    assert all("needs an LLM" in a.note for a in result.attempts[:2])
    assert result.answer == "Click Forgot password [2]."


def test_abstain_disabled_keeps_best_answer_marked(checker):
    llm = FakeLLM(["Still HIGH."])
    result = Mitigator(llm, checker, abstain=False, plan={"high": ["source_reinforcement"]}).mitigate(Q, SOURCES, "HIGH x")
    assert strategies(result) == ["source_reinforcement", "pass_through"]
    assert result.final_severity == "high" and not result.abstained
    assert "still high" in result.attempts[-1].note


def test_llm_failure_is_recorded_and_the_loop_goes_on(checker):
    llm = FakeLLM([LLMError("timeout"), "Click Forgot password [2]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "HIGH")
    first = result.attempts[0]
    assert first.strategy == "temperature_adjustment" and "timeout" in (first.error or "")
    assert result.attempts[1].strategy == "source_reinforcement" and result.attempts[1].accepted


def test_attempts_are_numbered_and_carry_usage(checker):
    llm = FakeLLM(["Click Forgot password [2]."])
    result = Mitigator(llm, checker).mitigate(Q, SOURCES, "MOD answer")
    assert [a.index for a in result.attempts] == [1, 2]
    first = result.attempts[0]
    assert first.llm_calls == 1 and first.prompt_tokens > 0 and first.completion_tokens == 4 and first.latency_ms >= 0


def test_async_matches_sync(checker):
    replies = ["Still HIGH [1].", "Click Forgot password [2]."]
    sync = Mitigator(FakeLLM(list(replies)), checker).mitigate(Q, SOURCES, "HIGH")
    result = asyncio.run(Mitigator(FakeLLM(list(replies)), checker).amitigate(Q, SOURCES, "HIGH"))
    assert result.answer == sync.answer and strategies(result) == strategies(sync)


def test_unchecked_answer_is_checked_first(checker):
    Mitigator(None, checker).mitigate(Q, SOURCES, "fine answer")
    assert checker.checked == ["fine answer"]


def test_plan_validation():
    with pytest.raises(ValueError, match="unknown mitigation strategy"):
        Mitigator(None, object(), plan={"high": ["pray"]})
    with pytest.raises(ValueError, match="unknown severity"):
        Mitigator(None, object(), plan={"severe": ["abstain"]})
    assert DEFAULT_PLAN[Severity.LOW] == ("pass_through",)
