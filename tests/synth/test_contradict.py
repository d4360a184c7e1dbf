"""Contradiction edits of English answers: one change each, exact span, the right type."""

from __future__ import annotations

import random

import pytest

from hallucheck.synth.contradict import CONTRADICTION_KINDS, contradict, english_parser

SOURCE = (
    "Acme Corp acquired Globex in 2019 for 45 million dollars. The deal was approved by all shareholders. "
    "Revenue increased after the merger because demand grew. Maria Lopez said she expects growth in March. "
    "Globex had earlier bought Initech."
)
ANSWER = (
    "Acme Corp acquired Globex in 2019 for 45 million dollars. The deal was approved by all shareholders. "
    "Revenue increased because demand grew. Maria Lopez said she expects growth."
)


@pytest.mark.parametrize(
    ("kind", "expected_type", "check"),
    [
        ("entity", "conflict", lambda t: t == "Initech"),  # the one name of the sources the answer lacks
        ("number", "conflict", lambda t: t.isdigit() and t != "45"),
        ("date", "conflict", lambda t: t.isdigit() and t != "2019"),
        ("negation", "conflict", lambda t: t == "was not"),
        ("antonym", "conflict", lambda t: t == "decreased"),
        ("pronoun", "conflict", lambda t: t == "he"),
        ("quantifier", "conflict", lambda t: t == "some"),
        ("cause", "conflict", lambda t: t == "Demand grew because revenue increased"),
    ],
)
def test_each_kind_changes_one_thing_with_its_span(kind: str, expected_type: str, check) -> None:  # type: ignore[no-untyped-def]
    got = contradict(ANSWER, SOURCE, kind, random.Random(0))
    assert got is not None and got.kind == kind and got.type == expected_type
    span = got.text[got.start : got.end]
    assert check(span), span
    assert got.text != ANSWER
    assert got.text[: got.start] == ANSWER[: got.start]  # nothing before the span changed


def test_role_swap_by_pattern_and_by_parse() -> None:
    answer = "In 2019, Acme Corp acquired Globex for cash."
    got = contradict(answer, SOURCE, "role", random.Random(0))
    assert got is not None and got.text == "In 2019, Globex acquired Acme Corp for cash."
    assert got.text[got.start : got.end] == "Globex acquired Acme Corp"
    parser = english_parser()
    if parser is None:
        pytest.skip("the spacy extra is not installed")
    got = contradict("The committee rejected the proposal.", "The committee rejected the proposal.", "role",
                     random.Random(0), parser)
    assert got is not None and got.text == "The proposal rejected the committee."
    assert got.text[got.start : got.end] == "The proposal rejected the committee"


def test_number_absent_from_the_sources_is_baseless() -> None:
    got = contradict("It costs 30 dollars.", "The price is not given.", "number", random.Random(0))
    assert got is not None and got.type == "baseless"


def test_nothing_to_change_and_unknown_kind() -> None:
    for kind in CONTRADICTION_KINDS:
        assert contradict("ok", "ok", kind, random.Random(0)) is None
    with pytest.raises(ValueError, match="unknown edit kind"):
        contradict("x", "y", "colour", random.Random(0))


def test_no_longer_is_not_an_antonym() -> None:
    assert contradict("He is no longer there.", "x", "antonym", random.Random(0)) is None
