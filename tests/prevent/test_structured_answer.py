"""Tolerant parsing of the structured strategy's JSON answer."""

from __future__ import annotations

import pytest

from hallucheck.prevent.structured_answer import StructuredAnswerError, parse_structured_answer


def test_prose_and_fences_around_json():
    text = (
        'Sure! Here it is:\n```json\n{"answer": "Click it [1].", "confidence": "High", "sources_used": [1, "來源 2"],'
        ' "key_points": "one"}\n```\nBye.'
    )
    a = parse_structured_answer(text)
    assert a is not None and a.answer == "Click it [1]." and a.confidence == "high"
    assert a.sources_used == ["1", "2"] and a.key_points == ["one"] and not a.unable_to_answer


@pytest.mark.parametrize(
    ("raw", "expected"), [("中", "medium"), ("LOW", "low"), (0.9, "high"), ("high/medium/low", "high"), ("??", "medium")]
)
def test_confidence_variants(raw, expected):
    import json

    a = parse_structured_answer(json.dumps({"answer": "x", "confidence": raw}))
    assert a is not None and a.confidence == expected


def test_repaired_json_and_flags():
    a = parse_structured_answer("{'answer': 'x', 'unable_to_answer': 'true', 'sources_used': '[source:doc-1], 2',}")
    assert a is not None and a.unable_to_answer and a.sources_used == ["doc-1", "2"]


def test_missing_answer_or_json():
    assert parse_structured_answer("no json here") is None
    assert parse_structured_answer('{"confidence": "high"}') is None
    with pytest.raises(StructuredAnswerError, match="no 'answer'"):
        parse_structured_answer('{"confidence": "high"}', strict=True)
