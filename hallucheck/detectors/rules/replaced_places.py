"""A place of a source sentence told as another, where the answer is in another language (or Chinese
script) than its sources.

"法国的首都是柏林。" or "Die Hauptstadt von Frankreich ist Berlin." over "Paris is the capital of
France.": the word-by-word alignment of :mod:`hallucheck.detectors.rules.opposites` has no shared
words to align across languages, and the sentence-pair verifier reads such a sentence as entailed
(the rest of it is a faithful translation). The place table (:mod:`hallucheck.text.places`) reads
the names in both languages, so the one difference can be seen: a place the sources never name
stands where the source sentence names another place of the same kind.

A precise rule is a promise, so it fires only where all of these hold:

- the answer's place is a known one of one kind (a city or a country; "Mexico" may be either and
  is left alone), not part of a hyphenated word ("US-Dollar"), and no source names it in any
  language, by an English adjective ("Filipino") or a Chinese one-character name ("美帝国主义")
  either: what counts as given is read generously;
- the source sentence names every other place of the answer sentence, and something aligns the
  two sentences across languages: another place, a figure of two digits or more or a capitalised
  Latin word of three letters or more written alike on both sides ("2019", "Harlem"), or else the
  sources name only this one place of the kind;
- the source sentence names exactly one place of the same kind that the answer sentence and the
  sentences around it do not name (the place that was replaced; "Paris, London and Tokyo" against
  one city is a list, not a replacement; a sentence may be split where the source's is not);
- the answer sentence holds no negation ("不是柏林", "nicht Berlin" may correct the source).

Each text is read in its own language's names (with English's): "Indien" is India in German, not
in French. On the translation pairs of ``bench/place_pairs.py`` (``bench/results/place_pairs.json``)
it marks 4 of 74,926 faithful translations, each a translation that names another country than
its original (Bolivia as "Chili", Austria as 澳大利亚), and 3,037 of 4,000 translations with one
place swapped for another of its kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial
from typing import NamedTuple

import regex

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import SourceSentence
from hallucheck.text.demonyms import PLACE_FORMS
from hallucheck.text.places import PlaceMention, place_ids, place_mentions, places_named

__all__ = ["ReplacedPlace", "given_places", "replaced_places", "source_place_ids"]


class ReplacedPlace(NamedTuple):
    """The answer's place (offsets into the answer) and the source sentence whose place it replaces."""

    start: int
    end: int
    evidence: SourceSentence


# What reads the same in every language: a figure of two digits or more, a capitalised Latin word of
# three letters or more ("Harlem", "NATO").
_VERBATIM = regex.compile(r"(?<!\d)\d{2,}(?!\d)|(?<!\p{Latin})(?=\p{Lu})\p{Latin}{3,}(?!\p{Latin})")


def _verbatim(text: str, language: str) -> frozenset[str]:
    """The figures and capitalised Latin words of ``text`` that no translation changes, place names left out."""
    places = {m.text for m in place_mentions(text, language)}
    return frozenset(w for w in _VERBATIM.findall(text) if w not in places)


def _ids(m: PlaceMention) -> frozenset[str]:
    return frozenset(p.id for p in m.places)


def replaced_places(answer: str, start: int, end: int, sources: Sequence[SourceSentence], source_ids: frozenset[str], *,
                    language: str, source_language: str, near: frozenset[str] = frozenset()) -> list[ReplacedPlace]:
    """The places of answer sentence ``answer[start:end]`` that replace a place of a source sentence
    (``sources``: every source sentence; ``source_ids``: the ids of every place the sources name, in
    any language; ``near``: the ids of the places the sentences around it name, which the answer
    does not leave out: a sentence may be split where the source's is not). The answer is read in
    ``language``'s names, the sources in ``source_language``'s."""
    sentence = answer[start:end]
    mentions = place_mentions(sentence, language)
    if not mentions:
        return []
    named = frozenset().union(near, *(_ids(m) for m in mentions))
    out: list[ReplacedPlace] = []
    read: list[tuple[SourceSentence, tuple[PlaceMention, ...]]] | None = None  # the sources' places, read for a first candidate
    for m in mentions:
        ids = _ids(m)
        if m.joined or ids & source_ids or len(m.kinds) != 1:
            continue  # a part of a word ("US-Dollar"), a place the sources name, or a name of two kinds
        others = [_ids(o) for o in mentions if o is not m]
        if any(o & ids for o in others):
            continue  # the same place named twice in the sentence
        if read is None:
            read = [(s, place_mentions(s.text, source_language)) for s in sources]
        only_one = len({_ids(x) for _, xs in read for x in xs if x.kinds == m.kinds}) == 1
        for s, s_mentions in read:
            s_ids = frozenset().union(*(_ids(x) for x in s_mentions)) if s_mentions else frozenset()
            if not all(o & s_ids for o in others):
                continue
            if not others and not _verbatim(sentence, language) & _verbatim(s.text, source_language) and not only_one:
                continue  # nothing aligns the two sentences
            left_out = {_ids(x) for x in s_mentions if x.kinds == m.kinds and not _ids(x) & named}
            if len(left_out) == 1:
                out.append(ReplacedPlace(start + m.start, start + m.end, s))
                break
    return out


# Chinese one-character names of countries ("美帝国主义", "中美关系", "英媒"): such a character names
# its country where another of them or one of _ABBREVIATED_BEFORE follows it, or another precedes it.
_ABBREVIATIONS: dict[str, str] = {"中": "CN", "美": "US", "英": "GB", "法": "FR", "德": "DE", "日": "JP", "俄": "RU", "韩": "KR",
                                  "韓": "KR", "朝": "KP", "澳": "AU", "加": "CA", "意": "IT", "印": "IN", "越": "VN", "泰": "TH"}
_ABBREVIATED_BEFORE = frozenset("方军軍媒籍帝企股元资資")
_WORDS = regex.compile(r"\p{L}+")


@lru_cache(maxsize=1)
def _demonyms() -> dict[str, frozenset[str]]:
    """English adjectives and peoples of a place ("Filipino", "Italians") -> the ids of its place."""
    out: dict[str, frozenset[str]] = {}
    for forms in PLACE_FORMS:
        ids = frozenset(p.id for f in forms for p in places_named(f))
        if ids:
            out.update((f, ids) for f in forms)
    return out


def _given_ids(text: str) -> frozenset[str]:
    """The ids of the places ``text`` names in any language, also by an English adjective
    ("Filipino people") or a Chinese one-character name ("美帝国主义"): what counts as given is read
    generously, since a place read as not given may be marked."""
    ids = set(place_ids(text))
    demonyms = _demonyms()
    ids.update(i for w in _WORDS.findall(text) if w in demonyms for i in demonyms[w])
    for k, ch in enumerate(text):
        if ch in _ABBREVIATIONS:
            after = text[k + 1] if k + 1 < len(text) else ""
            if after in _ABBREVIATIONS or after in _ABBREVIATED_BEFORE or (k and text[k - 1] in _ABBREVIATIONS):
                ids.add(_ABBREVIATIONS[ch])
    return frozenset(ids)


def source_place_ids(analysis: CaseAnalysis) -> frozenset[str]:
    """The ids of every place the case's sources name, in any language (read once a source)."""
    return frozenset().union(*(sa.derived("_place_ids", partial(_given_ids, sa.text)) for sa in analysis.sources))


def given_places(analysis: CaseAnalysis, start: int, end: int) -> list[tuple[int, int]]:
    """The answer offsets of the places in ``answer[start:end]`` that the sources name, perhaps in
    another language or script ("Vienne" or "Wien" over "Vienna"): such a name is given."""
    mentions = place_mentions(analysis.answer[start:end], analysis.language)
    if not mentions:
        return []
    given = source_place_ids(analysis)
    return [(start + m.start, start + m.end) for m in mentions if _ids(m) & given]
