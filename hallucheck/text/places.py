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
genitive -s ("Frankreichs") read as its name. A text may be read in its own language's names
(with English's) or in every language's. A name may stand for several places ("Mexico" is
the country in English and its capital in French): a mention carries all of them.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Literal, NamedTuple

import regex

from hallucheck.text.language import base_language, is_cjk_char

__all__ = ["Place", "PlaceKind", "PlaceMention", "place_ids", "place_mentions", "names_one_place", "places_named"]

PlaceKind = Literal["country", "city"]


class Place(NamedTuple):
    """One place of the table: its id (a CLDR territory code or time-zone id) and kind."""

    id: str
    kind: PlaceKind


class PlaceMention(NamedTuple):
    """A name of one or more places in a text: offsets into the text, the name as written, the
    places; ``joined``: the name is part of a hyphenated word ("US-Dollar", "Paris-based")."""

    start: int
    end: int
    text: str
    places: frozenset[Place]
    joined: bool = False

    @property
    def kinds(self) -> frozenset[PlaceKind]:
        """The kinds of place the name may stand for."""
        return frozenset(p.kind for p in self.places)


_WORD = regex.compile(r"\w+")
# The table's columns, and those read for a text in each base language: its own, and English (the
# names a text in another language borrows most). "Indien" is India in German and "Indian" in
# French, "Island" Iceland in German: a text is read in its own language's names.
_COLUMNS: tuple[str, ...] = ("en", "de", "fr", "zh-Hans", "zh-Hant")
_READ: dict[str, frozenset[str]] = {"en": frozenset({"en"}), "de": frozenset({"de", "en"}), "fr": frozenset({"fr", "en"}),
                                    "zh": frozenset({"zh-Hans", "zh-Hant", "en"})}


class _Table(NamedTuple):
    by_name: dict[str, frozenset[Place]]
    latin_first: dict[str, tuple[str, ...]]  # first word of a Latin name -> names starting with it, longest first
    han_longest: int


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[Place, dict[str, tuple[str, ...]]], ...]:
    """Each place of the shipped table with its names by column (language)."""
    text = files("hallucheck").joinpath("data/places.tsv").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        kind, pid, *columns = line.split("\t")
        names = {lang: tuple(n for n in column.split("|") if len(n) >= 2) for lang, column in zip(_COLUMNS, columns)}
        out.append((Place(pid, "city" if kind == "city" else "country"), names))
    return tuple(out)


@lru_cache(maxsize=8)
def _table(language: str | None = None) -> _Table:
    """The names of the columns read for a text in ``language`` (a base language; None: every column)."""
    read = _READ.get(language, frozenset(_COLUMNS)) if language is not None else frozenset(_COLUMNS)
    by_name: dict[str, set[Place]] = {}
    for place, names in _rows():
        for lang, column in names.items():
            if lang in read:
                for name in column:
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


def _base(language: str | None) -> str | None:
    return base_language(language) if language else None


def places_named(name: str, language: str | None = None) -> frozenset[Place]:
    """The places ``name`` (written whole, as in the table) stands for in ``language`` (None: in
    any of the table's languages); none for other words."""
    return _table(_base(language)).by_name.get(name, frozenset())


def names_one_place(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` stand for one place ("柏林" / "Berlin", "Frankreich" / "France")."""
    return bool(places_named(a) & places_named(b))


def _word_char(ch: str) -> bool:
    """Whether ``ch`` continues a Latin word (a Han character next to it does not: "Paris的")."""
    return (ch.isalnum() or ch == "_") and not is_cjk_char(ch)


def _ends_word(text: str, end: int) -> bool:
    return end >= len(text) or not _word_char(text[end])


def _joined(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is joined by a hyphen to a word before or after it."""
    after = end + 1 < len(text) and text[end] in "-‐" and _word_char(text[end + 1])
    before = start >= 2 and text[start - 1] in "-‐" and _word_char(text[start - 2])
    return after or before


def _latin_at(text: str, start: int, word: str, table: _Table) -> PlaceMention | None:
    if start > 0 and _word_char(text[start - 1]):
        return None
    for name in table.latin_first.get(word, ()):
        end = start + len(name)
        if text.startswith(name, start) and (_ends_word(text, end) or not name[-1].isalnum()):
            return PlaceMention(start, end, name, table.by_name[name], _joined(text, start, end))
    # a German genitive ("Frankreichs", "Berlins") of a one-word name
    if len(word) > 3 and word.endswith("s") and word[:-1] in table.by_name and not is_cjk_char(word[0]):
        end = start + len(word)
        return PlaceMention(start, end, word, table.by_name[word[:-1]], _joined(text, start, end))
    return None


@lru_cache(maxsize=4096)
def place_mentions(text: str, language: str | None = None) -> tuple[PlaceMention, ...]:
    """The places ``text`` (a sentence: the answers are kept, one a call) names, in text order,
    none inside another. ``language``: the text's language, whose names are read (with English's,
    and both Chinese scripts for Chinese); None: the names of every language of the table."""
    return _scan(text, language)


def _scan(text: str, language: str | None) -> tuple[PlaceMention, ...]:
    table = _table(_base(language))
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


def place_ids(text: str, language: str | None = None) -> frozenset[str]:
    """The ids of every place ``text`` (of any length: nothing is kept) names (``language`` as for
    :func:`place_mentions`)."""
    return frozenset(p.id for m in _scan(text, language) for p in m.places)
