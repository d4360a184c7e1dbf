"""Cutting the characters nobody sees out of a text, and mapping offsets back."""

from __future__ import annotations

import pytest

from hallucheck.text.invisible import INVISIBLE_CHARS, strip_invisible

ZWSP, SHY, LRO, PDF, BOM = "\u200b", "\u00ad", "\u202d", "\u202c", "\ufeff"
WJ, LRM, RLI, PDI, ZWJ = "\u2060", "\u200e", "\u2067", "\u2069", "\u200d"


def test_a_text_without_invisible_characters_is_kept_as_it_is() -> None:
    text = "Lyon has 500 thousand inhabitants.\u00a0Non-breaking and\u2009thin spaces stay."
    cut, omap = strip_invisible(text)
    assert cut is text and omap is None


@pytest.mark.parametrize("ch", [ZWSP, "\u200c", ZWJ, WJ, BOM, LRM, "\u200f", "\u202a", "\u202b", PDF, LRO, "\u202e",
                                "\u2066", RLI, "\u2068", PDI, SHY, "\u061c", "\u180e", "\ufe0f", "\U000e0041"])
def test_each_invisible_character_is_cut(ch: str) -> None:
    cut, omap = strip_invisible(f"5{ch}00 Fran{ch}ce")
    assert cut == "500 France" and omap is not None


def test_letters_and_visible_spaces_are_not_invisible() -> None:
    text = "a\u00a0b\u2009c\u202fd\u3000e\u1100\u1161f"  # no-break, thin, narrow no-break, ideographic space, jamo
    assert strip_invisible(text) == (text, None)
    assert "\u00a0" not in INVISIBLE_CHARS


def test_a_span_maps_back_with_the_invisible_characters_inside_it_but_not_around_it() -> None:
    text = f"It has {LRO}5{ZWSP}00{PDF} thousand{SHY} people."
    cut, omap = strip_invisible(text)
    assert cut == "It has 500 thousand people." and omap is not None
    a, b = cut.index("500"), cut.index("500") + 3
    start, end = omap.span(a, b)
    assert text[start:end] == f"5{ZWSP}00"
    start, end = omap.span(cut.index("thousand"), cut.index("thousand") + len("thousand"))
    assert text[start:end] == "thousand"
    assert omap.span(0, len(cut)) == (0, len(text))


def test_every_offset_maps_onto_the_same_visible_character() -> None:
    text = f"{BOM}{ZWSP}ab{SHY}c{ZWJ}{ZWJ}d{PDI}"
    cut, omap = strip_invisible(text)
    assert cut == "abcd" and omap is not None
    for i, ch in enumerate(cut):
        assert text[omap.start(i)] == ch
        assert text[omap.end(i + 1) - 1] == ch
    assert omap.start(len(cut)) == len(text)  # past the trailing invisible character
    assert omap.end(0) == 0
    assert omap.span(2, 2) == (omap.start(2), omap.start(2))  # empty stays empty


def test_a_text_made_only_of_invisible_characters_cuts_to_nothing() -> None:
    cut, omap = strip_invisible(ZWSP * 5)
    assert cut == "" and omap is not None and omap.span(0, 0) == (5, 5)
