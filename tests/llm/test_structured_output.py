"""JSON extraction and repair for the replies small models actually write."""

from __future__ import annotations

import json

import pytest

from hallucheck.detectors.llm.schemas import ClaimList, JudgeOutput, PresenceList
from hallucheck.llm.structured import extract_json, loads_lenient, parse_structured, repair_json

MESSY = [
    ('Here you go:\n```json\n{"a": 1, "b": [1, 2,],}\n```\nAnything else?', {"a": 1, "b": [1, 2]}),
    ("{'a': True, 'b': None, 'c': False}", {"a": True, "b": None, "c": False}),
    ('{a: 1, b: "x"}', {"a": 1, "b": "x"}),
    ('{"a": 1, // a comment\n "b": 2 /* another */, # hash\n "c": 3}', {"a": 1, "b": 2, "c": 3}),
    ('{"claims": [{"quote": "the cat", "label": "SUPPORTED"}, {"quote": "the d',
     {"claims": [{"quote": "the cat", "label": "SUPPORTED"}, {"quote": "the d"}]}),
    ('{"a": {"b": [1, 2', {"a": {"b": [1, 2]}}),
    ('{"q": "He said "hello" to me", "r": 1}', {"q": 'He said "hello" to me', "r": 1}),
    ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),
    ('{"x": NaN, "y": Infinity, "z": undefined}', {"x": None, "y": None, "z": None}),
    ("Sure! The answer [1] is grounded. {\"risk\": 0.1}", {"risk": 0.1}),
    ('<think>let me see {not json}</think>{"ok": true}', {"ok": True}),
    ("{\u201cquote\u201d: \u201cit\u2019s fine\u201d}", {"quote": "it\u2019s fine"}),
    ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),
    ('{"a": [1, 2 3]}', {"a": [1, 2, 3]}),
    ('{"a": 1}} trailing', {"a": 1}),
    ('{"key": }', {"key": None}),
]


@pytest.mark.parametrize("text,expected", MESSY)
def test_messy_json_is_recovered(text: str, expected: object) -> None:
    value, _ = loads_lenient(text)
    assert value == expected


def test_valid_json_is_not_marked_repaired() -> None:
    assert loads_lenient('{"a": [1, {"b": null}]}') == ({"a": [1, {"b": None}]}, False)


def test_repair_output_is_always_valid_json() -> None:
    for text, _ in MESSY:
        for cand in extract_json(text):
            json.loads(repair_json(cand))


@pytest.mark.parametrize("text", ["", "   ", "I cannot help with that.", "Yes.", "[]", "{}"])
def test_nonsense_is_a_typed_failure(text: str) -> None:
    result = parse_structured(text, JudgeOutput)
    assert not result.ok and result.stage in ("empty", "no_json", "invalid") and result.error


def test_json_of_the_wrong_shape_fails_validation() -> None:
    result = parse_structured('{"verdict": "great answer", "stars": 5}', JudgeOutput)
    assert result.stage == "invalid" and "neither claims nor a hallucination_risk" in (result.error or "")


def test_unknown_label_fails_validation() -> None:
    result = parse_structured('{"claims": [{"quote": "x", "label": "MAYBE"}]}', JudgeOutput)
    assert result.stage == "invalid" and "label" in (result.error or "")


def test_lenient_judge_fields() -> None:
    result = parse_structured(
        "```\n{'analysis': [{'text': 'a', 'verdict': 'Not Supported'}, {'claim': 'b', 'status': 'grounded'}],"
        " 'risk': '75%', 'confidence': 9, 'decision': 'Refine Search', 'hallucination_type': 'Contradiction',"
        " 'problematic_segments': [{'text': 'a'}], dimensions: {relevance: 'high', completeness: 'n/a'}}\n```",
        JudgeOutput,
    )
    assert result.ok and result.repaired
    v = result.value
    assert v is not None
    assert [c.label for c in v.claims] == ["HALLUCINATION", "SUPPORTED"]
    assert v.hallucination_risk == pytest.approx(0.75) and v.confidence == pytest.approx(0.9)
    assert v.decision == "refine_search" and v.type == "contradiction"
    assert v.problematic_segments == ["a"]
    assert v.dimensions.relevance == pytest.approx(0.8) and v.dimensions.completeness is None


def test_a_bare_list_of_claims_is_accepted() -> None:
    result = parse_structured('[{"quote": "x", "label": "EXTRAPOLATION"}]', JudgeOutput)
    assert result.ok and result.value is not None and result.value.claims[0].label == "EXTRAPOLATION"


def test_claim_list_and_presence_shapes() -> None:
    claims = parse_structured('{"claims": ["a is b", {"claim": "c", "quote": "c!"}]}', ClaimList)
    assert claims.ok and [c.text for c in claims.value.claims] == ["a is b", "c"]  # type: ignore[union-attr]
    presence = parse_structured('{"present": {"1": "YES", "2": "no"}}', PresenceList)
    assert presence.ok and presence.value.present == [True, False]  # type: ignore[union-attr]


def test_out_of_range_risk_is_rejected() -> None:
    assert parse_structured('{"hallucination_risk": 250}', JudgeOutput).stage == "invalid"
    assert parse_structured('{"hallucination_risk": "very"}', JudgeOutput).stage == "invalid"
