"""Quotes from an LLM mapped back to exact answer offsets."""

from __future__ import annotations

import pytest

from hallucheck.detectors.llm.quotes import locate_quote

ANSWER = "The company was founded in 2010 in Paris by Jean Dupont.  It sells   bikes. It sells cars."


@pytest.mark.parametrize("quote,method,expected", [
    ("founded in 2010", "exact", "founded in 2010"),
    ("FOUNDED IN 2010", "casefold", "founded in 2010"),
    ('"It sells bikes."', "whitespace", "It sells   bikes"),
    ("founded in 2011 in paris by jean", "fuzzy", "founded in 2010 in Paris by Jean"),
    ("The company ... in Paris", "exact", "The company was founded in 2010 in Paris"),
])
def test_match_ladder(quote: str, method: str, expected: str) -> None:
    m = locate_quote(ANSWER, quote)
    assert m is not None and m.method == method and ANSWER[m.start : m.end] == expected


def test_unplaceable_quote_is_none() -> None:
    assert locate_quote(ANSWER, "a totally different sentence about weather") is None
    assert locate_quote(ANSWER, "") is None and locate_quote("", "x") is None


def test_hint_prefers_the_later_occurrence() -> None:
    first = locate_quote(ANSWER, "It sells")
    later = locate_quote(ANSWER, "It sells", hint=first.end)  # type: ignore[union-attr]
    assert first is not None and later is not None and later.start > first.start


def test_chinese_quote() -> None:
    answer = "公司成立于2010年，总部位于巴黎。"
    m = locate_quote(answer, "总部位于巴黎")
    assert m is not None and answer[m.start : m.end] == "总部位于巴黎"
