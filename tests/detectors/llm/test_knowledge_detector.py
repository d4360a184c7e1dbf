"""Factual grounding against a knowledge source (production pipeline guide)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "llm"))

from llm_testkit import MaxPolicy

from hallucheck import Checker
from hallucheck.knowledge import Passage, Verification
from hallucheck.llm.fake import FakeLLM

pytest.importorskip("bm25s")

ANSWER = "The Eiffel Tower was completed in 1889. It was painted blue in 1920."


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    (tmp_path / "paris.md").write_text("Paris is the capital of France.\n\nThe Eiffel Tower was completed in 1889.",
                                       encoding="utf-8")
    return tmp_path


def test_bm25_without_llm(kb: Path) -> None:
    report = Checker(["knowledge"], policy=MaxPolicy(),
                     detector_options={"knowledge": {"llm": None, "index": str(kb)}}).check(contexts=["x"], answer=ANSWER)
    f = report.finding("knowledge")
    assert f is not None and f.risk == pytest.approx(0.5) and f.cost.llm_calls == 0
    assert [s.text for s in f.spans] == ["It was painted blue in 1920"]
    assert f.details["claims"][0]["evidence"] == "The Eiffel Tower was completed in 1889."


def test_llm_verification(kb: Path) -> None:
    llm = FakeLLM(json.dumps({"supported": "no", "confidence": 0.9, "evidence": "completed in 1889"}))
    f = Checker(["knowledge"], llm=llm, policy=MaxPolicy(),
                detector_options={"knowledge": {"index": str(kb)}}).check(contexts=["x"], answer=ANSWER).finding("knowledge")
    assert f is not None and len(llm.calls) == 1  # the second claim retrieves nothing: no call
    assert f.risk == 1.0 and "completed in 1889" in llm.calls[0].prompt


def test_custom_source_protocol() -> None:
    class Always:
        def search(self, query: str, k: int = 5) -> list[Passage]:
            return [Passage("kb1", "everything is true", 1.0)]

        def verify(self, claim: str) -> tuple[bool, float, str]:
            return True, 0.95, "everything is true"

    f = Checker(["knowledge"], policy=MaxPolicy(), detector_options={"knowledge": {"llm": None, "source": Always()}}).check(
        contexts=["x"], answer=ANSWER).finding("knowledge")
    assert f is not None and f.risk == 0.0 and not f.spans
    assert Verification(True, 1.0, "") == (True, 1.0, "")


def test_needs_a_source() -> None:
    from hallucheck.detectors.llm.knowledge import KnowledgeDetector

    with pytest.raises(ValueError, match="source"):
        KnowledgeDetector()
