"""The rule-based claim splitter: offsets exact, clauses split only when both halves are claims."""

from __future__ import annotations

from hallucheck.detectors.llm.claim_split import split_claims


def test_clauses_bullets_and_offsets() -> None:
    text = ("The firm was founded in 2010 in Paris, and it employs 300 people; revenue grew 20%.\n"
            "- Salt and pepper are sold.\n2. It opened an office in Berlin, but the office closed in 2015.")
    claims = split_claims(text)
    assert [c.text for c in claims] == [
        "The firm was founded in 2010 in Paris", "it employs 300 people", "revenue grew 20%",
        "Salt and pepper are sold", "It opened an office in Berlin", "the office closed in 2015"]
    assert all(text[c.start : c.end] == c.text for c in claims)


def test_chinese_and_german() -> None:
    zh = "公司成立于2010年，而且总部位于巴黎。它有300名员工；收入增长了20%。"
    assert [c.text for c in split_claims(zh, language="zh-Hans")] == ["公司成立于2010年", "总部位于巴黎", "它有300名员工", "收入增长了20%"]
    de = "Die Firma wurde 2010 gegründet, und sie hat heute 300 Mitarbeiter."
    assert len(split_claims(de, language="de")) == 2


def test_nothing_to_claim() -> None:
    assert split_claims("...!!") == [] and split_claims("") == []
