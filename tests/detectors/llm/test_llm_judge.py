"""The LLM judge: quotes to offsets, the fields of the detection guideline, the RAG detection guide and the
RAG prompting guide, robustness to bad replies, budgets."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import ChatServer, MaxPolicy, Reply, openai_reply

from hallucheck import Checker
from hallucheck.checker import Budget
from hallucheck.llm.fake import FakeLLM
from hallucheck.llm.openai import OpenAIClient
from hallucheck.llm.retry import RetryPolicy
from hallucheck.types import Report


@pytest.fixture
def chat_server():  # type: ignore[no-untyped-def]
    with ChatServer() as server:
        yield server


CASE = {"question": "When and where was the company founded?", "contexts": ["The company was founded in 2010 in Paris."],
        "answer": "The company was founded in 2010 in Paris by Jean Dupont. It has 300 employees."}

VERDICT = {
    "claims": [
        {"quote": "founded in 2010 in Paris", "label": "SUPPORTED", "source_id": "1"},
        {"quote": "by Jean Dupont", "label": "HALLUCINATION", "source_id": "1", "reason": "no founder in the source"},
        {"quote": "It has 300 employees", "label": "EXTRAPOLATION", "reason": "headcount not given"},
        {"quote": "It was loved by all", "label": "HALLUCINATION"},
    ],
    "score": 0.5, "reasoning": "partly grounded", "confidence": 0.8, "decision": "continue",
    "hallucination_risk": 0.75, "hallucination_notes": "founder and headcount are unsupported",
    "dimensions": {"completeness": 0.9, "relevance": 1.0, "answer_quality": 0.7, "citation_quality": 0.1, "hallucination": 0.7},
    "type": "fabrication", "problematic_segments": ["Jean Dupont"], "grounded_segments": ["founded in 2010 in Paris"],
    "explanation": "The founder is made up.",
}


def judge(llm: object, **kw: object) -> Report:
    options = kw.pop("options", {})
    return Checker(["llm_judge"], llm=llm, policy=MaxPolicy(), detector_options={"llm_judge": options}, **kw).check(CASE)  # type: ignore[arg-type]


def test_verdict_becomes_spans_and_details() -> None:
    llm = FakeLLM("Here is my evaluation:\n```json\n" + json.dumps(VERDICT) + "\n```")
    report = judge(llm)
    f = report.finding("llm_judge")
    assert f is not None and f.error is None
    assert f.risk == pytest.approx(0.75)
    answer = CASE["answer"]
    by_text = {s.text: s for s in f.spans}
    assert set(by_text) == {"by Jean Dupont", "It has 300 employees"}
    for s in f.spans:
        assert answer[s.start : s.end] == s.text
    assert by_text["by Jean Dupont"].label == "fabrication"  # HALLUCINATION refined by type
    assert by_text["It has 300 employees"].label == "extrapolation"
    assert by_text["by Jean Dupont"].evidence[0].source_id == "1"
    d = f.details
    for key in ("score", "reasoning", "confidence", "decision", "hallucination_risk", "hallucination_notes",
                "type", "problematic_segments", "grounded_segments", "explanation"):
        assert key in d
    assert d["decision"] == "continue" and d["dimensions"]["citation_quality"] == pytest.approx(0.1)
    assert d["unmatched_quotes"] == [{"quote": "It was loved by all", "label": "HALLUCINATION"}]
    assert f.flagged is True and f.role == "llm_judge"
    # the claim quoting "It was loved by all" (not in the answer) is dropped and counts for nothing
    assert f.features["claims_total"] == 3.0 and f.features["llm_ok"] == 1.0
    assert any("quoting text that is not in the answer were dropped" in n for n in f.notes)
    assert f.cost.llm_calls == 1 and report.cost.llm_calls == 1
    assert "Jean Dupont" in llm.calls[0].prompt and "founded in 2010 in Paris." in llm.calls[0].prompt


def test_risk_derived_from_claims_when_missing() -> None:
    verdict = {"claims": [{"quote": "by Jean Dupont", "label": "CONTRADICTION"}]}
    f = judge(FakeLLM(json.dumps(verdict))).finding("llm_judge")
    assert f is not None and f.risk == pytest.approx(0.9) and f.details["decision"] == "continue"


def test_quotes_that_are_not_in_the_answer_set_no_risk() -> None:
    verdict = {"claims": [{"quote": "founded in 2010 in Paris", "label": "SUPPORTED"},
                          {"quote": "It was founded by aliens in 1850", "label": "HALLUCINATION"}],
               "hallucination_risk": 0.9}
    f = judge(FakeLLM(json.dumps(verdict))).finding("llm_judge")
    assert f is not None and f.error is None and f.risk == 0.0 and not f.flagged and f.spans == []
    assert f.features["claims_hallucination"] == 0.0
    assert f.details["unmatched_quotes"] == [{"quote": "It was founded by aliens in 1850", "label": "HALLUCINATION"}]
    assert any("1 judge claim(s) quoting text that is not in the answer were dropped" in n for n in f.notes)


def test_broken_json_is_repaired() -> None:
    broken = "{'claims': [{'quote': 'by Jean Dupont', 'label': 'HALLUCINATION',}], hallucination_risk: 0.7, 'reasoning': 'cut off"
    f = judge(FakeLLM(broken)).finding("llm_judge")
    assert f is not None and f.error is None and f.risk == pytest.approx(0.7)
    assert [s.text for s in f.spans] == ["by Jean Dupont"]
    assert any("repair" in n for n in f.notes)


def test_nonsense_is_a_finding_with_error_not_a_crash() -> None:
    llm = FakeLLM(["As an AI language model I think the answer is pretty good!", "Still no JSON, sorry."])
    report = judge(llm)
    f = report.finding("llm_judge")
    assert f is not None and f.error is not None and f.error.startswith("no_json")
    assert f.risk == 0.0 and f.spans == [] and f.flagged is False and f.ran is False
    assert "Still no JSON" in f.details["raw"]  # the last reply is kept for debugging
    assert len(llm.calls) == 2 and f.cost.llm_calls == 2  # one re-ask
    Report.model_validate_json(report.to_json())


def test_reask_recovers() -> None:
    llm = FakeLLM(["I'd say it's fine.", json.dumps({"hallucination_risk": 0.1, "claims": []})])
    f = judge(llm).finding("llm_judge")
    assert f is not None and f.error is None and f.risk == pytest.approx(0.1)
    assert any("asked once more" in n for n in f.notes)


def test_budget_zero_makes_no_call() -> None:
    llm = FakeLLM("{}")
    f = judge(llm, budget=Budget(max_llm_calls=0)).finding("llm_judge")
    assert f is not None and not llm.calls and f.details.get("budget_hit") is True and f.error is None
    assert any("budget" in n for n in f.notes)


def test_budget_one_leaves_no_room_for_reask() -> None:
    llm = FakeLLM("nonsense")
    f = judge(llm, budget=Budget(max_llm_calls=1)).finding("llm_judge")
    assert f is not None and len(llm.calls) == 1 and "re-ask not possible" in (f.error or "")


def test_long_answer_is_judged_in_windows_with_coverage() -> None:
    long_answer = " ".join(f"Sentence number {i} says something about the company." for i in range(30))
    llm = FakeLLM(json.dumps({"hallucination_risk": 0.2, "claims": []}))
    checker = Checker(["llm_judge"], llm=llm, policy=MaxPolicy(), budget=Budget(max_llm_calls=2),
                      detector_options={"llm_judge": {"max_answer_chars": 400}})
    report = checker.check(question="q", contexts=["The company exists."], answer=long_answer)
    f = report.finding("llm_judge")
    assert f is not None and len(llm.calls) == 2
    assert f.coverage is not None and f.coverage.unchecked and f.coverage.checked_chars < len(long_answer)
    assert report.coverage is not None


def test_a_deadline_set_around_the_check_stops_the_judge_between_windows() -> None:
    """The caller's deadline (the service sets one per request) is the check's: windows not judged
    by then are coverage, and the report names them instead of accepting."""
    import time

    from hallucheck.deadline import deadline_scope

    long_answer = " ".join(f"Sentence number {i} says something about the company." for i in range(30))
    calls: list[float] = []

    def reply(messages: object, settings: object) -> str:
        calls.append(time.monotonic())
        time.sleep(0.3)  # each window's call takes a while
        return json.dumps({"hallucination_risk": 0.0, "claims": []})

    checker = Checker(["llm_judge"], llm=FakeLLM(reply), policy=MaxPolicy(), detector_options={"llm_judge": {"max_answer_chars": 400}})
    with deadline_scope(time.monotonic() + 0.5):
        report = checker.check(question="q", contexts=["The company exists."], answer=long_answer)
    f = report.finding("llm_judge")
    assert f is not None and 1 <= len(calls) <= 3  # the answer has 5 windows
    assert f.coverage is not None and f.coverage.unchecked[-1][1] == len(long_answer)
    assert report.decision == "review"
    a, b = report.coverage.unchecked[0]  # type: ignore[union-attr]
    assert any(f"answer characters {a}-" in n for n in report.notes), report.notes


def test_chinese_case_gets_the_chinese_prompt() -> None:
    llm = FakeLLM(json.dumps({"claims": [{"quote": "由张三创立", "label": "幻觉"}], "hallucination_risk": 0.8}))
    report = Checker(["llm_judge"], llm=llm, policy=MaxPolicy()).check(
        question="公司何时成立？", contexts=["该公司于2010年在巴黎成立。"], answer="该公司于2010年在巴黎成立，由张三创立。")
    f = report.finding("llm_judge")
    assert "来源" in llm.calls[0].prompt
    assert f is not None and [s.text for s in f.spans] == ["由张三创立"] and f.spans[0].label == "baseless"


def test_evaluation_style_uses_problematic_segments() -> None:
    reply = json.dumps({"score": 0.4, "reasoning": "r", "confidence": 0.7, "decision": "refine_search",
                        "hallucination_risk": 0.5, "hallucination_notes": "founder unsupported",
                        "problematic_segments": ["by Jean Dupont"]})
    llm = FakeLLM(reply)
    f = judge(llm, options={"style": "evaluation"}).finding("llm_judge")
    assert "SEARCH RESULTS" in llm.calls[0].prompt
    assert f is not None and f.details["style"] == "evaluation" and [s.text for s in f.spans] == ["by Jean Dupont"]


def test_edge_inputs_do_not_break() -> None:
    llm = FakeLLM(json.dumps({"hallucination_risk": 0.0, "claims": []}))
    checker = Checker(["llm_judge"], llm=llm, policy=MaxPolicy())
    for answer in ("?!...", "短。", "x" * 50):
        report = checker.check(question="", contexts=[""], answer=answer)
        assert report.finding("llm_judge") is not None


def test_without_llm_the_judge_is_skipped() -> None:
    report = Checker(["llm_judge", "claims"], policy=MaxPolicy()).check(CASE)
    assert report.finding("llm_judge") is None and report.finding("claims") is not None
    assert any("llm_judge skipped" in n for n in report.notes)


def test_over_http_with_429_and_json_in_prose(chat_server: ChatServer) -> None:
    chat_server.push(Reply(429, {"error": "rate"}, headers={"Retry-After": "0"}),
                     openai_reply("Sure!\n" + json.dumps(VERDICT) + "\nLet me know.", prompt_tokens=500, completion_tokens=120))
    llm = OpenAIClient("judge", base_url=chat_server.url + "/v1", retry=RetryPolicy(max_retries=2, base_delay=0.01))
    report = judge(llm)
    f = report.finding("llm_judge")
    assert f is not None and f.error is None and f.risk == pytest.approx(0.75)
    assert report.cost.prompt_tokens == 500 and report.cost.completion_tokens == 120 and report.cost.llm_calls == 1
    assert chat_server.requests[-1]["json"]["temperature"] == 0.0


def test_over_http_persistent_failure_is_a_finding_with_error(chat_server: ChatServer) -> None:
    chat_server.default = Reply(500, {"error": "down"})
    llm = OpenAIClient("judge", base_url=chat_server.url + "/v1", retry=RetryPolicy(max_retries=1, base_delay=0.01))
    report = judge(llm)
    f = report.finding("llm_judge")
    assert f is not None and f.error is not None and f.error.startswith("llm_error") and "HTTP 500" in f.error
    assert f.risk == 0.0 and report.risk_score == 0.0
    Report.model_validate_json(report.to_json())


def test_over_http_timeout_is_a_finding_with_error(chat_server: ChatServer) -> None:
    chat_server.default = openai_reply("late", delay=1.0)
    llm = OpenAIClient("judge", base_url=chat_server.url + "/v1", timeout=0.2,
                       retry=RetryPolicy(max_retries=1, base_delay=0.01))
    f = judge(llm).finding("llm_judge")
    assert f is not None and "timed out" in (f.error or "")


def test_a_copied_prompt_example_is_not_a_verdict() -> None:
    echo = json.dumps({"claims": [{"quote": "exact words from the answer", "label": "SUPPORTED", "source_id": "1"}],
                       "score": 0.0, "reasoning": "overall assessment", "hallucination_risk": 0.0})
    llm = FakeLLM(echo)
    f = judge(llm).finding("llm_judge")
    assert f is not None and f.error is not None and "repeats the example" in f.error and len(llm.calls) == 2


def test_tiered_cascade_asks_the_judge_only_when_rules_are_not_conclusive() -> None:
    llm = FakeLLM(json.dumps(VERDICT))
    checker = Checker(["citations", "llm_judge"], llm=llm, policy="tiered", cascade=True,
                      budget=Budget(max_llm_calls=1), citations_expected=True)
    high = checker.check(question="q", contexts=[{"id": "1", "text": "The company was founded in 2010 in Paris."}],
                         answer="The company was founded in 2010 in Paris [7]. It has three hundred employees [9].")
    assert high.risk_level == "high" and not llm.calls and high.finding("llm_judge") is None
    unclear = checker.check({**CASE, "answer": "The company was founded in 2010 in Paris by Jean Dupont [1]."})
    assert unclear.finding("citations").risk <= 0.3  # type: ignore[union-attr]
    assert len(llm.calls) == 1 and unclear.finding("llm_judge") is not None
    assert unclear.risk_level == "high" and unclear.cost.llm_calls == 1


def test_a_verdict_in_line_format_is_used() -> None:
    text = 'VERDICT: HAS_HALLUCINATIONS\n- "by Jean Dupont": HALLUCINATION - not in the source\n'
    f = judge(FakeLLM(text)).finding("llm_judge")
    assert f is not None and f.error is None and [s.text for s in f.spans] == ["by Jean Dupont"]
    assert f.risk == pytest.approx(0.8)
