"""Runs of marked words: joined across unjudged words, cut by judged ones and clause ends."""

from __future__ import annotations

from hallucheck.detectors.lexical.token_runs import marked_runs
from hallucheck.text import tokenize


def runs(text: str, marked_words: set[str]) -> list[str]:
    toks = tokenize(text, "en")
    judged = {t.start for t in toks if not t.is_punct and not t.is_stop}
    marked = {t.start for t in toks if t.text in marked_words}
    return [text[a:b] for a, b in marked_runs(toks, marked, judged)]


def test_runs_span_stop_words_and_stop_at_known_words() -> None:
    text = "Apple bought Tesla in the spring and sold Ford quickly."
    assert runs(text, {"Tesla", "spring"}) == ["Tesla in the spring"]
    assert runs(text, {"Tesla", "Ford"}) == ["Tesla", "Ford"]


def test_runs_stop_at_clause_ends_but_not_commas() -> None:
    assert runs("Tesla, Ford; Honda.", {"Tesla", "Ford", "Honda"}) == ["Tesla, Ford", "Honda"]


def test_nothing_marked() -> None:
    assert runs("Apple bought Tesla.", set()) == []
