"""A verdict written in the RAG detection guide's line format instead of JSON is still read."""

from __future__ import annotations

from hallucheck.detectors.llm.schemas import JudgeOutput
from hallucheck.llm.judge_text import judge_from_text
from hallucheck.llm.structured import parse_structured

TEXT = """VERDICT: HAS_HALLUCINATIONS
ANALYSIS:
- "founded in 2010 in Paris": SUPPORTED - stated in context
- "by Jean Dupont": HALLUCINATION - not in context
2. [It has 300 employees]: [EXTRAPOLATION]
SUMMARY: The founder is invented."""


def test_line_format_is_read() -> None:
    value = judge_from_text(TEXT)
    assert value is not None
    assert [(c["quote"], c["label"]) for c in value["claims"]] == [
        ("founded in 2010 in Paris", "SUPPORTED"), ("by Jean Dupont", "HALLUCINATION"), ("It has 300 employees", "EXTRAPOLATION")]
    assert value["hallucination_risk"] == 0.8 and value["explanation"] == "The founder is invented."


def test_clean_verdict_and_explicit_risk() -> None:
    assert judge_from_text("VERDICT: CLEAN\nSUMMARY: fine")["hallucination_risk"] == 0.1  # type: ignore[index]
    assert judge_from_text("hallucination_risk: 0.35")["hallucination_risk"] == 0.35  # type: ignore[index]


def test_prose_without_a_verdict_is_none() -> None:
    assert judge_from_text("The answer looks good to me overall.") is None
    assert judge_from_text("") is None


def test_used_when_the_json_is_missing_or_unusable() -> None:
    result = parse_structured(TEXT, JudgeOutput, fallback=judge_from_text)
    assert result.ok and result.repaired and len(result.value.claims) == 3  # type: ignore[union-attr]
    assert not parse_structured(TEXT, JudgeOutput).ok  # without the fallback the "[..]" in prose is no verdict
