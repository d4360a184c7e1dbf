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
