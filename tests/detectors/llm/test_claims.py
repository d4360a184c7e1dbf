"""The claims detector: rule-based without an LLM, LLM extraction mapped to offsets with one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import MaxPolicy

from hallucheck import Checker
from hallucheck.llm.fake import FakeLLM

CASE = {"question": "When?", "contexts": ["The company was founded in 2010 in Paris."],
        "answer": "It was founded in 2010 in Paris, and Jean Dupont leads a team of engineers."}


def test_runs_without_llm_and_flags_the_unsupported_clause() -> None:
    report = Checker(["claims"], policy=MaxPolicy()).check(CASE)
    f = report.finding("claims")
    assert f is not None and f.details["origin"] == "rules" and f.cost.llm_calls == 0
    assert [c["text"] for c in f.details["claims"]] == ["It was founded in 2010 in Paris", "Jean Dupont leads a team of engineers"]
    assert [s.text for s in f.spans] == ["Jean Dupont leads a team of engineers"]
    assert f.flagged and 0.5 < f.risk <= 1.0
    assert set(f.features) == {"claims_total", "claims_unsupported_frac", "claims_min_support", "claims_mean_support"}


def test_llm_claims_are_mapped_to_offsets() -> None:
    reply = json.dumps({"claims": [
        {"text": "The company was founded in 2010.", "quote": "founded in 2010"},
        {"text": "Jean Dupont leads a team of engineers.", "quote": "jean dupont leads a team"},
        {"text": "The CEO is French.", "quote": "CEO is French"},
    ]})
    llm = FakeLLM(reply)
    f = Checker(["claims"], llm=llm, policy=MaxPolicy()).check(CASE).finding("claims")
    assert f is not None and f.details["origin"] == "llm" and len(llm.calls) == 1
    answer = CASE["answer"]
    for c in f.details["claims"]:
        assert answer[c["start"] : c["end"]] == c["text"]
    assert [c["match"] for c in f.details["claims"]] == ["exact", "casefold"]
    assert f.details["unmatched_claims"] == ["The CEO is French."]


def test_llm_failure_falls_back_to_rules() -> None:
    f = Checker(["claims"], llm=FakeLLM("no idea"), policy=MaxPolicy()).check(CASE).finding("claims")
    assert f is not None and f.error is None and f.details["origin"] == "rules" and "llm_error" in f.details
    assert len(f.details["claims"]) == 2


def test_empty_sources_and_chinese() -> None:
    checker = Checker(["claims"], policy=MaxPolicy())
    f = checker.check(question="", contexts=[""], answer="公司成立于2010年，而且总部位于巴黎。").finding("claims")
    assert f is not None and len(f.details["claims"]) == 2 and f.risk == 1.0
    f2 = checker.check(question="", contexts=["x"], answer="?!").finding("claims")
    assert f2 is not None and f2.risk == 0.0 and f2.details["claims"] == []


def test_empty_or_placeholder_claim_lists_fall_back_to_the_rule_claims() -> None:
    for reply in ({"claims": []}, {"claims": [{"text": "<claim 1>", "quote": "<exact quote>"}]}):
        f = Checker(["claims"], llm=FakeLLM(json.dumps(reply)), policy=MaxPolicy()).check(CASE).finding("claims")
        assert f is not None and f.error is None and f.details["origin"] == "rules", reply
        assert len(f.details["claims"]) == 2 and f.flagged
        assert any("unusable claim list" in n for n in f.notes)
