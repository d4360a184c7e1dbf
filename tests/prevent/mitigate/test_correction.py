"""Span removal keeps every unflagged character and leaves no dangling fragment."""

from __future__ import annotations

from hallucheck.prevent.mitigate.correction import remove_spans, replace_spans, tidy
from hallucheck.types import Span


def span(text: str, part: str, label: str = "fabrication") -> Span:
    start = text.index(part)
    return Span(start=start, end=start + len(part), text=part, label=label, score=0.9, detector="t")


def test_small_span_is_cut_from_its_sentence():
    text = "The link is valid for 24 hours and free of charge [1]. Click Forgot password [2]."
    out = remove_spans(text, [span(text, " and free of charge")])
    assert out == "The link is valid for 24 hours [1]. Click Forgot password [2]."


def test_span_that_is_most_of_a_sentence_removes_it_with_its_trailing_citation():
    text = "Click Forgot password [2]. Our hotline 0800-123-456 is open all day. [3] The link lasts 24 hours [1]."
    out = remove_spans(text, [span(text, "Our hotline 0800-123-456 is open all day")])
    assert out == "Click Forgot password [2]. The link lasts 24 hours [1]."


def test_chinese_sentence_removal():
    text = "請點擊「忘記密碼」連結 [來源 1]。客服專線是 0800-123-456。連結有效期為 24 小時 [來源 2]。"
    out = remove_spans(text, [span(text, "客服專線是 0800-123-456")])
    assert out == "請點擊「忘記密碼」連結 [來源 1]。連結有效期為 24 小時 [來源 2]。"


def test_no_spans_changes_nothing():
    assert remove_spans("Unchanged  text.", []) == "Unchanged  text."


def test_replace_spans_at_exact_offsets():
    text = "Valid for 48 hours, says [1]."
    assert replace_spans(text, [span(text, "48 hours")], ["24 hours"]) == "Valid for 24 hours, says [1]."


def test_tidy_cleans_leftovers():
    assert tidy("A ,  b .\n\n\n\nC") == "A, b.\n\nC"
