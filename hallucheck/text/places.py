"""Countries and cities named in a text, in any of the five languages and either Chinese script.

Why: an answer may name a place in another language or script than its source ("柏林" or
"Frankreich" over "Paris is the capital of France"). Word overlap cannot tell that 巴黎 is Paris and
柏林 is not, and neither can the surface name rules, which read Han text and single German nouns
as no names at all. A table of places and their names (``hallucheck/data/places.tsv``, from the
Unicode CLDR, built by :mod:`hallucheck.train.place_table`) answers both questions: which places a
text names, and whether two names are one place.

Han-script text is read by longest match at each character (names of two characters or more);
Latin-script text by whole words, a name of several words ("New York", "Rio de Janeiro") as one,
the longest first, in the table's own capitals ("Nice" is a city, "nice" is not), with a German
genitive -s ("Frankreichs") read as its name. A name may stand for several places ("Mexico" is
the country in English and its capital in French): a mention carries all of them.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Literal, NamedTuple

import regex

from hallucheck.text.language import is_cjk_char

__all__ = ["Place", "PlaceKind", "PlaceMention", "place_ids", "place_mentions", "places_named", "same_place"]

PlaceKind = Literal["country", "city"]


class Place(NamedTuple):
    """One place of the table: its id (a CLDR territory code or time-zone id) and kind."""

    id: str
    kind: PlaceKind


class PlaceMention(NamedTuple):
    """A name of one or more places in a text: offsets into the text, the name as written, the places."""

    start: int
    end: int
    text: str
    places: frozenset[Place]

    @property
    def kinds(self) -> frozenset[PlaceKind]:
        """The kinds of place the name may stand for."""
        return frozenset(p.kind for p in self.places)


_WORD = regex.compile(r"\w+")


class _Table(NamedTuple):
    by_name: dict[str, frozenset[Place]]
    latin_first: dict[str, tuple[str, ...]]  # first word of a Latin name -> names starting with it, longest first
    han_longest: int


@lru_cache(maxsize=1)
def _table() -> _Table:
    text = files("hallucheck").joinpath("data/places.tsv").read_text(encoding="utf-8")
    by_name: dict[str, set[Place]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, pid, *columns = line.split("\t")
        place = Place(pid, "city" if kind == "city" else "country")
        for column in columns:
            for name in column.split("|"):
                if len(name) >= 2:
                    by_name.setdefault(name, set()).add(place)
    first: dict[str, list[str]] = {}
    longest = 0
    for name in by_name:
        if is_cjk_char(name[0]):
            longest = max(longest, len(name))
            continue
        m = _WORD.match(name)
        if m is not None:
            first.setdefault(m.group(), []).append(name)
    return _Table(
        by_name={k: frozenset(v) for k, v in by_name.items()},
        latin_first={k: tuple(sorted(v, key=len, reverse=True)) for k, v in first.items()},
        han_longest=longest,
    )


def places_named(name: str) -> frozenset[Place]:
    """The places ``name`` (written whole, as in the table) stands for; none for other words."""
    return _table().by_name.get(name, frozenset())


def same_place(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` stand for one place ("柏林" / "Berlin", "Frankreich" / "France")."""
    return bool(places_named(a) & places_named(b))


def _word_char(ch: str) -> bool:
    """Whether ``ch`` continues a Latin word (a Han character next to it does not: "Paris的")."""
    return (ch.isalnum() or ch == "_") and not is_cjk_char(ch)


def _ends_word(text: str, end: int) -> bool:
    return end >= len(text) or not _word_char(text[end])


def _latin_at(text: str, start: int, word: str, table: _Table) -> PlaceMention | None:
    if start > 0 and _word_char(text[start - 1]):
        return None
    for name in table.latin_first.get(word, ()):
        end = start + len(name)
        if text.startswith(name, start) and (_ends_word(text, end) or not name[-1].isalnum()):
            return PlaceMention(start, end, name, table.by_name[name])
    # a German genitive ("Frankreichs", "Berlins") of a one-word name
    if len(word) > 3 and word.endswith("s") and word[:-1] in table.by_name and not is_cjk_char(word[0]):
        return PlaceMention(start, start + len(word), word, table.by_name[word[:-1]])
    return None


@lru_cache(maxsize=4096)
def place_mentions(text: str) -> tuple[PlaceMention, ...]:
    """The places ``text`` names, in text order, none inside another."""
    table = _table()
    out: list[PlaceMention] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if is_cjk_char(ch):
            for length in range(min(table.han_longest, n - i), 1, -1):
                places = table.by_name.get(text[i : i + length])
                if places:
                    out.append(PlaceMention(i, i + length, text[i : i + length], places))
                    i += length
                    break
            else:
                i += 1
            continue
        if ch.isalpha():
            m = _WORD.match(text, i)
            word = m.group() if m is not None else ch
            # a word is read up to its first Han character ("Paris的" reads as "Paris")
            word = next((word[:k] for k, c in enumerate(word) if is_cjk_char(c)), word)
            hit = _latin_at(text, i, word, table)
            if hit is not None:
                out.append(hit)
                i = hit.end
                continue
            i += len(word)
            continue
        i += 1
    return tuple(out)


def place_ids(text: str) -> frozenset[str]:
    """The ids of every place ``text`` names."""
    return frozenset(p.id for m in place_mentions(text) for p in m.places)
