"""Places told by name, short form or adjective are one place; two places are two."""

from __future__ import annotations

import pytest

from hallucheck.text.demonyms import same_place


@pytest.mark.parametrize(("a", "b"), [("US", "American"), ("american", "USA"), ("Maltese", "Malta"), ("Britain", "UK")])
def test_forms_of_one_place(a: str, b: str) -> None:
    assert same_place(a, b)


@pytest.mark.parametrize(("a", "b"), [("Maltese", "Italian"), ("American", "Canadian"), ("Paris", "France"), ("US", "US ")])
def test_other_places_or_unknown_words(a: str, b: str) -> None:
    assert not same_place(a, b)


@pytest.mark.parametrize(("name", "text", "found"), [
    ("Macédoine", "Le Président macédonien, Gjorge Ivanov, opposé au référendum.", True),
    ("Indonésie", "Le Président indonésien, Joko Widodo.", True),
    ("Mazedonien", "Der mazedonische Präsident.", True),
    ("Macédoine", "Le Président Macédonien.", False),  # written with a capital: a name, not an adjective
    ("Australie", "le gouvernement autrichien", False),
    ("Italie", "la cuisine italienne", True),
    ("Chili", "la cuisine chilienne", False),  # a name of fewer than six letters is too short to tell
])
def test_adjective_in(name: str, text: str, found: bool) -> None:
    from hallucheck.text.demonyms import adjective_in
    from hallucheck.text.entities import name_words

    assert adjective_in(name, name_words(text), text) is found
