"""The weight admission gives a check: characters, contexts and sentences."""

from __future__ import annotations

from hallucheck.service.cost import CONTEXT_WEIGHT, SENTENCE_WEIGHT, case_chars, case_weight, count_sentences
from hallucheck.types import Case


def test_sentences_are_counted_by_their_ends():
    assert count_sentences("") == 0
    assert count_sentences("One. Two! Three? four") == 4
    assert count_sentences("3.5 million people live there.") == 1
    assert count_sentences("一。二。") == 2
    assert count_sentences("a\nb\n\nc") == 3


def test_many_tiny_contexts_weigh_more_than_their_characters():
    tiny = Case(question="q", contexts=["x"] * 1000, answer="a")
    assert case_chars(tiny) == 1 + 1 + 1000
    assert case_weight(tiny) >= 1000 * (1 + CONTEXT_WEIGHT)
    short = Case(question="q", contexts=["A source."], answer="Yes. " * 100)
    assert case_weight(short) >= 100 * SENTENCE_WEIGHT + len(short.answer)
