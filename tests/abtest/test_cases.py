"""Loading A/B test cases from JSONL, JSON and YAML, and the shipped demo set."""

from __future__ import annotations

import json

import pytest

from hallucheck.abtest.cases import demo_cases, load_cases
from hallucheck.errors import InputError


def test_demo_set_has_the_seed_cases_in_both_languages():
    cases = demo_cases()
    ids = {c.id for c in cases}
    for topic in ("account", "payment", "subscription", "refund", "hotline"):
        assert {f"{topic}-zh", f"{topic}-en"} <= ids
    zh = next(c for c in cases if c.id == "account-zh")
    assert zh.language == "zh-Hant" and zh.contexts[0].id == "FAQ-001" and "24 小時" in zh.expected_keywords


def test_jsonl_json_and_yaml(tmp_path):
    rec = {"question": "Q?", "contexts": ["a", {"content": "b", "source": "S-2"}], "expected_keywords": ["a"]}
    (tmp_path / "c.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    (tmp_path / "c.json").write_text(json.dumps({"cases": [rec]}), encoding="utf-8")
    (tmp_path / "c.yaml").write_text("- question: Q?\n  contexts: [a, b]\n  id: y1\n", encoding="utf-8")
    a = load_cases(tmp_path / "c.jsonl")[0]
    assert a.id == "case-1" and [s.id for s in a.contexts] == ["1", "S-2"] and a.contexts[1].text == "b"
    assert load_cases(tmp_path / "c.json")[0].contexts[1].id == "S-2"
    assert load_cases(tmp_path / "c.yaml")[0].id == "y1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"question": "Q?"}\n', "case 1: contexts"),
        ('{"question": "", "contexts": ["a"]}\n', "case 1: question"),
        ('{"id": "x", "question": "Q", "contexts": ["a"]}\n{"id": "x", "question": "Q", "contexts": ["a"]}\n', "duplicate id"),
        ("not json\n", "line 1"),
    ],
)
def test_bad_cases_name_the_case(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_cases(path)


def test_bad_yaml_and_missing_file(tmp_path):
    (tmp_path / "b.yaml").write_text("a: [", encoding="utf-8")
    with pytest.raises(InputError, match="not valid YAML"):
        load_cases(tmp_path / "b.yaml")
    with pytest.raises(InputError, match="no such file"):
        load_cases(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="no demo set"):
        demo_cases("nope")
