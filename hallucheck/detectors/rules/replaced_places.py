"""A place of a source sentence told as another, where the answer is in another language than its sources.

"法国的首都是柏林。" or "Die Hauptstadt von Frankreich ist Berlin." over "Paris is the capital of
France.": the word-by-word alignment of :mod:`hallucheck.detectors.rules.opposites` has no shared
words to align across languages, and the sentence-pair verifier reads such a sentence as entailed
(the rest of it is a faithful translation). The place table (:mod:`hallucheck.text.places`) reads
the names in both languages, so the one difference can be seen: a place the sources never name
stands where the source sentence names another place of the same kind.

A precise rule is a promise, so it fires only where all of these hold:

- the answer's place is a known one of one kind (a city or a country; "Mexico" may be either and
  is left alone), and no source names it, in any language;
- the answer sentence names at least one other place, and the source sentence names every other
  place of the answer sentence (that is what aligns the two sentences across languages);
- the source sentence names exactly one place of the same kind that the answer sentence does not
  name (the place that was replaced; "Paris, London and Tokyo" against one city is a list, not a
  replacement);
- the answer sentence holds no negation ("不是柏林", "nicht Berlin" may correct the source).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import SourceSentence
from hallucheck.text.places import PlaceMention, place_ids, place_mentions

__all__ = ["ReplacedPlace", "given_places", "replaced_places", "source_place_ids"]


class ReplacedPlace(NamedTuple):
    """The answer's place (offsets into the answer) and the source sentence whose place it replaces."""

    start: int
    end: int
    evidence: SourceSentence


def _ids(m: PlaceMention) -> frozenset[str]:
    return frozenset(p.id for p in m.places)


def replaced_places(answer: str, start: int, end: int, sources: Sequence[SourceSentence],
                    source_ids: frozenset[str]) -> list[ReplacedPlace]:
    """The places of answer sentence ``answer[start:end]`` that replace a place of a source sentence
    (``sources``: every source sentence; ``source_ids``: the ids of every place the sources name)."""
    mentions = place_mentions(answer[start:end])
    if len(mentions) < 2:
        return []
    named = frozenset().union(*(_ids(m) for m in mentions))
    out: list[ReplacedPlace] = []
    for m in mentions:
        ids = _ids(m)
        if ids & source_ids or len(m.kinds) != 1:
            continue
        others = [_ids(o) for o in mentions if o is not m]
        if any(o & ids for o in others):
            continue  # the same place named twice in the sentence
        for s in sources:
            s_mentions = place_mentions(s.text)
            s_ids = frozenset().union(*(_ids(x) for x in s_mentions)) if s_mentions else frozenset()
            if not all(o & s_ids for o in others):
                continue
            left_out = {_ids(x) for x in s_mentions if x.kinds == m.kinds and not _ids(x) & named}
            if len(left_out) == 1:
                out.append(ReplacedPlace(start + m.start, start + m.end, s))
                break
    return out


def source_place_ids(analysis: CaseAnalysis) -> frozenset[str]:
    """The ids of every place the case's sources name, in any language (read once a source)."""
    return frozenset().union(*(sa.derived("_place_ids", partial(place_ids, sa.text)) for sa in analysis.sources))


def given_places(analysis: CaseAnalysis, start: int, end: int) -> list[tuple[int, int]]:
    """The answer offsets of the places in ``answer[start:end]`` that the sources name, perhaps in
    another language or script ("Vienne" or "Wien" over "Vienna"): such a name is given."""
    mentions = place_mentions(analysis.answer[start:end])
    if not mentions:
        return []
    given = source_place_ids(analysis)
    return [(start + m.start, start + m.end) for m in mentions if _ids(m) & given]
