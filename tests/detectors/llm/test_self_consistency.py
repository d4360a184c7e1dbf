"""SelfCheckGPT-style sampling: claims absent from resampled answers are flagged."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import MaxPolicy

from hallucheck import Checker
from hallucheck.checker import Budget
from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM

CASE = {"question": "When was it founded?", "contexts": ["The company was founded in 2010 in Paris."],
        "answer": "It was founded in 2010 in Paris, and Jean Dupont leads a team of engineers."}


def sampler() -> FakeLLM:
    return FakeLLM(rules={"ANSWER:": "It was founded in 2010 in Paris.",
                          "YES or NO": json.dumps({"present": ["YES", "NO"]})})


@pytest.mark.parametrize("presence", ["lexical", "llm"])
def test_inconsistent_claim_is_flagged(presence: str) -> None:
    llm = sampler()
    report = Checker(["self_consistency"], llm=llm, policy=MaxPolicy(),
                     detector_options={"self_consistency": {"presence": presence, "n_samples": 3}}).check(CASE)
    f = report.finding("self_consistency")
    assert f is not None and f.error is None
    assert [s.text for s in f.spans] == ["Jean Dupont leads a team of engineers"]
    rows = {r["text"]: r for r in f.details["claims"]}
    assert rows["It was founded in 2010 in Paris"]["consistency"] == 1.0
    assert rows["Jean Dupont leads a team of engineers"]["consistency"] == 0.0
    assert f.risk == pytest.approx(0.5) and f.details["overall_reliability"] == pytest.approx(0.5)
    samples = [c for c in llm.calls if "ANSWER:" in c.prompt]
    assert len(samples) == 3 and all(c.settings["temperature"] == 0.7 for c in samples)
    assert f.cost.llm_calls == (3 if presence == "lexical" else 6)


def test_budget_limits_the_samples() -> None:
    llm = sampler()
    report = Checker(["self_consistency"], llm=llm, policy=MaxPolicy(), budget=Budget(max_llm_calls=2),
                     detector_options={"self_consistency": {"presence": "lexical", "n_samples": 5}}).check(CASE)
    f = report.finding("self_consistency")
    assert f is not None and len(llm.calls) == 2 and f.features["sc_samples"] == 2.0
    assert any("budget" in n for n in f.notes)


def test_all_samples_failing_is_a_finding_with_error() -> None:
    report = Checker(["self_consistency"], llm=FakeLLM(LLMError("down")), policy=MaxPolicy(),
                     detector_options={"self_consistency": {"presence": "lexical", "n_samples": 2}}).check(CASE)
    f = report.finding("self_consistency")
    assert f is not None and f.error is not None and "down" in f.error


def test_bad_presence_replies_fall_back_to_lexical() -> None:
    llm = FakeLLM(rules={"ANSWER:": "It was founded in 2010 in Paris.", "YES or NO": "maybe?"})
    f = Checker(["self_consistency"], llm=llm, policy=MaxPolicy(),
                detector_options={"self_consistency": {"presence": "llm", "n_samples": 2}}).check(CASE).finding("self_consistency")
    assert f is not None and f.details["presence"] == ["lexical"] and f.spans


def test_bad_options() -> None:
    from hallucheck.detectors.llm.self_consistency import SelfConsistencyDetector

    with pytest.raises(ValueError):
        SelfConsistencyDetector(FakeLLM("x"), presence="telepathy")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SelfConsistencyDetector(None)
