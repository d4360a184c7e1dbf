"""Two-step prompting: free critique by the strong model, JSON by the small one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import MaxPolicy

from hallucheck import Checker
from hallucheck.checker import Budget
from hallucheck.detectors.llm.two_step import TwoStepDetector
from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM

CASE = {"question": "Price?", "contexts": ["The product costs 99 euros and is blue."], "answer": "The product costs 89 euros."}
STRUCTURED = json.dumps({"claims": [{"quote": "costs 89 euros", "label": "CONTRADICTION", "reason": "99 in the advice"}],
                         "hallucination_risk": 0.9, "confidence": 0.9, "type": "contradiction"})


def run(**options: object):  # type: ignore[no-untyped-def]
    return Checker([TwoStepDetector(**options)], policy=MaxPolicy()).check(CASE).finding("two_step")


def test_strong_critiques_small_structures() -> None:
    strong = FakeLLM("The candidate says 89 euros but the expert advice says 99 euros: a contradiction.", model="strong")
    small = FakeLLM(STRUCTURED, model="small")
    f = run(strong_llm=strong, small_llm=small)
    assert f is not None and f.error is None and f.risk == pytest.approx(0.9)
    assert [(s.text, s.label) for s in f.spans] == [("costs 89 euros", "contradiction")]
    assert "EXPERT ADVICE" in strong.calls[0].prompt and "CANDIDATE ANSWER" in strong.calls[0].prompt
    assert "99 euros: a contradiction" in small.calls[0].prompt  # the critique is what gets structured
    assert f.details["models"] == {"critique": "strong", "structure": "small"}
    assert f.cost.llm_calls == 2


def test_one_client_does_both() -> None:
    llm = FakeLLM(["critique text", STRUCTURED])
    f = run(llm=llm)
    assert f is not None and f.risk == pytest.approx(0.9) and len(llm.calls) == 2
    only_small = FakeLLM(["critique text", STRUCTURED])
    assert run(small_llm=only_small) is not None and len(only_small.calls) == 2


def test_failing_critique_is_a_finding_with_error() -> None:
    f = run(strong_llm=FakeLLM(LLMError("down")), small_llm=FakeLLM(STRUCTURED))
    assert f is not None and f.error is not None and "critique step" in f.error


def test_unstructurable_critique() -> None:
    f = run(strong_llm=FakeLLM("critique"), small_llm=FakeLLM("no json at all"))
    assert f is not None and f.error is not None and f.details["critique"] == "critique"


def test_budget_counts_both_steps() -> None:
    strong, small = FakeLLM("critique"), FakeLLM(STRUCTURED)
    report = Checker([TwoStepDetector(strong_llm=strong, small_llm=small)], policy=MaxPolicy(),
                     budget=Budget(max_llm_calls=1)).check(CASE)
    f = report.finding("two_step")
    assert len(strong.calls) == 1 and not small.calls
    assert f is not None and f.error is None and f.details["budget_hit"] is True and f.cost.llm_calls == 1
