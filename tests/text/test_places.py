"""The place table: which places a text names, in any of the five languages, and whether two names are one place."""

from __future__ import annotations

from pathlib import Path

import pytest

import hallucheck
from hallucheck.text.places import names_one_place, place_ids, place_mentions, places_named


def _named(text: str) -> list[tuple[str, list[str]]]:
    return [(m.text, sorted(p.id for p in m.places)) for m in place_mentions(text)]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Paris is the capital of France.", [("Paris", ["Europe/Paris"]), ("France", ["FR"])]),
        ("法国的首都是柏林。", [("法国", ["FR"]), ("柏林", ["Europe/Berlin"])]),
        ("法國的首都是巴黎。", [("法國", ["FR"]), ("巴黎", ["Europe/Paris"])]),
        ("Die Hauptstadt von Frankreich ist Berlin.", [("Frankreich", ["FR"]), ("Berlin", ["Europe/Berlin"])]),
        ("La capitale de la France est Lyon.", [("France", ["FR"]), ("Lyon", ["x/Lyon"])]),
        # several words one name, the longest first; a German genitive; a Latin name among Han characters
        ("Flights from New York to Rio de Janeiro", [("New York", ["America/New_York"]), ("Rio de Janeiro", ["x/Rio_de_Janeiro"])]),
        ("die Hauptstadt Frankreichs", [("Frankreichs", ["FR"])]),
        ("印度尼西亚和印度", [("印度尼西亚", ["ID"]), ("印度", ["IN"])]),
        ("Paris的人口", [("Paris", ["Europe/Paris"])]),
        ("Les États-Unis et le Royaume-Uni", [("États-Unis", ["US"]), ("Royaume-Uni", ["GB"])]),
    ],
)
def test_the_places_a_text_names(text: str, named: list[tuple[str, list[str]]]) -> None:
    assert _named(text) == named


@pytest.mark.parametrize("text", ["a nice day", "Parisian cafés", "the Berliner Zeitung", "Sparis", "法"])
def test_words_that_hold_a_name_or_differ_in_case_name_no_place(text: str) -> None:
    assert place_mentions(text) == ()


def test_a_name_may_stand_for_a_city_and_a_country() -> None:
    assert {p.kind for p in places_named("Mexico")} == {"country", "city"}
    assert {p.kind for p in places_named("Berlin")} == {"city"}


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [("柏林", "Berlin", True), ("Frankreich", "France", True), ("法國", "法国", True), ("Wien", "Vienne", True),
     ("US", "États-Unis", True), ("巴黎", "Berlin", False), ("Lyon", "Paris", False), ("Paris", "paris", False)],
)
def test_two_names_are_one_place_when_the_table_says_so(a: str, b: str, same: bool) -> None:
    assert names_one_place(a, b) is same


def test_place_ids_reads_every_place_of_a_text() -> None:
    assert place_ids("Vienna is the capital of Austria; 维也纳") == {"Europe/Vienna", "AT"}


def test_the_shipped_table_is_small_and_credits_its_source() -> None:
    table = Path(hallucheck.__file__).parent / "data" / "places.tsv"
    assert table.stat().st_size < 300_000
    assert "Unicode CLDR" in table.read_text(encoding="utf-8").splitlines()[1]


def test_a_text_is_read_in_its_own_languages_names_and_englishs() -> None:
    assert _named_in("l'océan Indien", "fr") == []
    assert _named_in("Indien und China", "de") == [("Indien", ["IN"]), ("China", ["CN"])]
    assert _named_in("Desert Island Discs", "en") == []
    assert _named_in("Desert Island Discs", None) == [("Island", ["IS"])]
    assert places_named("Island", "en") == frozenset() and places_named("Indien", "de")


def test_a_name_joined_to_a_word_by_a_hyphen_is_marked_as_joined() -> None:
    assert [(m.text, m.joined) for m in place_mentions("35 Millionen US-Dollar in Paris", "de")] == [("US", True), ("Paris", False)]


def _named_in(text: str, language: str | None) -> list[tuple[str, list[str]]]:
    return [(m.text, sorted(p.id for p in m.places)) for m in place_mentions(text, language)]
