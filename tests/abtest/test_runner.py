"""The A/B runner with a scripted model: prompts, final-answer extraction, checks, failures."""

from __future__ import annotations

from scripted_checker import ScriptedChecker

from hallucheck.abtest.cases import ABCase
from hallucheck.abtest.runner import ABTester
from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM

CASE = ABCase(id="c1", question="How long is the link valid?", language="en",
              contexts=[{"id": "FAQ-2", "text": "The link is valid for 24 hours."}], expected_keywords=["24 hours", "link"])


def reply(messages, settings):
    prompt = messages[-1].content
    if settings.get("max_tokens") == 1:
        return "x"
    if '"sources_used"' in prompt:
        return 'Sure:\n{"answer": "The link is valid for 24 hours [source:FAQ-2].", "confidence": "high"}'
    if "Step 4: Final answer" in prompt:
        return "### Step 1\nthinking HIGH\n### Step 4: Final answer\nThe link lasts MOD days."
    if "cite every statement" in prompt:
        return "The link is valid for 24 hours [source:FAQ-2]."
    return "It is valid for 24 hours."


def test_runs_every_strategy_and_scores_the_final_answer():
    llm = FakeLLM(reply)
    result = ABTester(llm, checker=ScriptedChecker()).run([CASE])
    assert len(result.runs) == 5 and set(result.strategies) == {r.strategy for r in result.runs}
    cot = result.run_for("c1", "chain_of_thought")
    assert cot.answer == "The link lasts MOD days." and cot.risk_level == "moderate"  # the reasoning's HIGH is not checked
    assert cot.keyword_coverage == 0.5 and not cot.cited
    structured = result.run_for("c1", "structured")
    assert structured.parse_ok and structured.cited and structured.answer.endswith("[source:FAQ-2].")
    forced = result.run_for("c1", "forced_citation")
    assert forced.cited and forced.keyword_coverage == 1.0
    assert result.best is not None and result.best.strategy in ("forced_citation", "structured")
    assert len([c for c in llm.calls if c.settings.get("max_tokens") == 1]) == 1  # one warm-up call
    assert all(c.settings["temperature"] == 0.0 for c in llm.calls)


def test_llm_failure_becomes_an_error_run():
    result = ABTester(FakeLLM(LLMError("down")), ["basic"], ScriptedChecker()).run([CASE])
    (run,) = result.runs
    assert run.error and "down" in run.error and run.risk_score == 1.0
    assert result.summaries[0].errors == 1


def test_empty_answer_counts_as_failed():
    result = ABTester(FakeLLM(["   "]), ["basic"], ScriptedChecker(), warmup=False).run([CASE])
    assert result.runs[0].error == "empty answer" and result.runs[0].risk_score == 1.0


def test_progress_and_order():
    seen = []
    other = CASE.model_copy(update={"id": "c2"})
    result = ABTester(FakeLLM(reply), ["basic", "structured"], ScriptedChecker()).run(
        [CASE, other], lambda d, t, label: seen.append((d, t, label))
    )
    assert [r.case_id for r in result.runs] == ["c1", "c1", "c2", "c2"]
    assert seen[-1] == (4, 4, "c2 / structured")
