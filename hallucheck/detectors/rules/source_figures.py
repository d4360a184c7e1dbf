"""What the numbers detector reads from a source: its figures (each read in the source's own
language), the lengths of time they state, the words around each figure that say what it
measures, and its name forms -- computed once per source and cached on the shared
:class:`~hallucheck.analysis.SourceAnalysis`, because RAG logs repeat sources."""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from functools import cached_property
from itertools import compress
from typing import Any, Protocol

from hallucheck.analysis import SourceAnalysis, string_set
from hallucheck.text import Segment
from hallucheck.text.durations import Duration, conventional_lengths, find_durations, half_durations, same_length, spelled_durations
from hallucheck.text.entities import name_words
from hallucheck.text.language import base_language, detect_language, has_cjk_char
from hallucheck.text.number_words import MONTHS
from hallucheck.text.numbers import NumberMention, NumberScan, find_numbers, same_value, scan_numbers

__all__ = [
    "DOUBLE_WORDS",
    "HALF_WORDS",
    "Located",
    "SourceFacts",
    "group_by_sentence",
    "meta_word",
    "plain_figure",
    "restated_by",
    "sentence_of",
    "source_facts",
]

_NEIGHBOURS = 3  # content words on each side of a source figure that say what it measures
_META_AFTER = re.compile(
    r"\s*(?:words?|sentences?|characters?|bullet\s+points|wörtern?|sätzen?|zeichen|mots|phrases|caractères|字|个字|句)\b",
    re.IGNORECASE,
)
# A source sentence that halves or doubles one of its figures: "children pay half price",
# "Kinder zahlen die Hälfte", "demi-tarif", "儿童半价", "weekends cost double".
HALF_WORDS = re.compile(r"\b(?:half|halb\w*|hälfte|moitié|demi)\b|半价|半價|一半|五折|半票", re.IGNORECASE)
DOUBLE_WORDS = re.compile(r"\b(?:double|twice|doppelt\w*|zweifach\w*|le\s+double)\b|双倍|雙倍|两倍|兩倍|翻倍", re.IGNORECASE)


def meta_word(text: str, end: int) -> str | None:
    """The word of text size right after a figure ("words", "Zeichen", "字"), singular, or None."""
    mt = _META_AFTER.match(text, end)
    if mt is None:
        return None
    word = mt.group().strip().lower()
    return word[:-1] if word.endswith("s") else word



class Located(Protocol):
    """Something found in a text at ``[start, end)``: a figure, a weekday range."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


class _ValueIndex:
    """The figures of a source sorted by value, so that only those near a value are compared.

    ``same_value`` accepts two plain values only within half the coarser precision of the two,
    so for each precision present in the source the candidates lie in one window around the
    value; dates, phones and 12-hour times (compared by other rules) are always candidates. The
    answer is the same as comparing with every figure, at a cost that no longer grows with the
    number of figures of a long source.
    """

    def __init__(self, mentions: Sequence[NumberMention]) -> None:
        self.special: list[NumberMention] = []
        groups: dict[float, list[tuple[float, int, NumberMention]]] = {}
        for i, m in enumerate(mentions):
            if plain_figure(m):
                groups.setdefault(m.precision, []).append((float(m.value), i, m))  # type: ignore[arg-type]
            else:
                self.special.append(m)
        self.groups = {p: sorted(rows, key=lambda r: (r[0], r[1])) for p, rows in groups.items()}
        self.keys = {p: [r[0] for r in rows] for p, rows in self.groups.items()}
        self.everything = list(mentions)

    @classmethod
    def of(cls, owner: object, attr: str, mentions: Sequence[NumberMention]) -> _ValueIndex:
        index = vars(owner).get(attr)
        if index is None:
            index = cls(mentions)
            vars(owner)[attr] = index
        return index

    def near(self, m: NumberMention) -> list[NumberMention]:
        if not plain_figure(m):
            return self.everything
        v = float(m.value)  # type: ignore[arg-type]
        found: list[tuple[int, NumberMention]] = []
        for p, rows in self.groups.items():
            half = max(m.precision, p) / 2.0
            slack = half + 2e-9 * (abs(v) + half + 1.0)
            keys = self.keys[p]
            lo, hi = bisect_left(keys, v - slack), bisect_right(keys, v + slack)
            found.extend((i, s) for _, i, s in rows[lo:hi])
        found.sort(key=lambda r: r[0])
        return [s for _, s in found] + self.special


def restated_by(m: NumberMention, s: NumberMention) -> bool:
    """Whether the source figure ``s`` restates ``m``: the same value, and a spelled-out ordinal
    ("the first sector", "the second entry") only for an ordinal -- it does not give the answer's
    "sector 1" or "2 parts"."""
    if s.weak and s.kind == "ordinal" and m.kind != "ordinal":
        return False
    return same_value(m, s)


def plain_figure(m: NumberMention) -> bool:
    """A figure compared by value alone (not a date, phone or 12-hour time)."""
    return m.value is not None and m.kind not in ("date", "phone") and not (m.kind == "time" and m.unit == "12h")


_NOT_MONTHS = frozenset({"sept", "march"})
_CAPITAL_MONTHS = re.compile(r"\b(May|March)\b")


class SourceFacts:
    """What the numbers detector needs from a source text, computed once per source and only
    when needed: the figures always, the rest (sentence lemmas, words around each figure, name
    forms) the first time an answer has something the figures alone do not settle."""

    def __init__(self, source: SourceAnalysis) -> None:
        # Only a weak reference back: the source analysis holds this object in its ``__dict__``,
        # and a strong one would make a reference cycle, so that every source evicted from the
        # analysis cache would wait for a full garbage collection instead of being freed at once.
        self._source = weakref.ref(source)
        self.lower = source.lower

    @cached_property
    def _scan(self) -> NumberScan:
        """The figures of the source read in the answer's language (only when the answer has
        figures: one in seven RAGTruth answers has none), with those any language would give."""
        return scan_numbers(self.source.text, self.source.language)

    @cached_property
    def mentions(self) -> list[NumberMention]:
        """The figures of the source, read in the source's own language: a German source's "3.000"
        is 3000 even when the answer is English."""
        source = self.source
        language = detect_language(source.text, default=source.language) if source.text.strip() else source.language
        if base_language(language) not in ("en", "de", "fr", "zh"):
            language = source.language
        if base_language(language) == base_language(source.language):
            return self._scan.mentions
        return find_numbers(source.text, language)

    def gives(self, m: NumberMention) -> bool:
        """Whether a figure of the source restates ``m`` (as ``any(restated_by(m, s) for s in mentions)``).

        Guessing the source's language costs about 0.15 ms per new source (a statistical
        identifier), and it only matters for figures whose reading depends on it: when a figure
        that every language reads the same way restates ``m``, the answer is known without the
        guess. On the first 600 RAGTruth dev answers the guess went from 518 sources to 89.
        """
        return any(restated_by(m, s) for s in _ValueIndex.of(self, "_invariant_index", self._scan.invariant).near(m)) \
            or any(restated_by(m, s) for s in _ValueIndex.of(self, "_mentions_index", self.mentions).near(m))

    @cached_property
    def has_han(self) -> bool:
        """Whether the source holds Han characters, so that a Latin-script name of an answer may
        be transliterated there (:func:`hallucheck.text.name_sounds.latin_name_in_han`)."""
        return has_cjk_char(self.source.text)

    @cached_property
    def written(self) -> frozenset[str]:
        """The figures of the source as written (lower case): an answer figure written the same
        way is one a reader of words can see in the sources. A set, not a search of the text: an
        answer holds up to thousands of figures and a source millions of characters."""
        return frozenset(m.text.lower() for m in self.mentions)

    @cached_property
    def durations(self) -> list[Duration | None]:
        """The duration each figure states ("24" of "24 months"), or None (aligned with ``mentions``)."""
        found = find_durations(self.source.text, self.mentions, self.source.language)
        return [found.get(m.start) for m in self.mentions]

    @cached_property
    def scaled(self) -> list[tuple[NumberMention, float]]:
        """Half or twice each figure whose sentence says to halve or double it ("children pay
        half price" after "$20"), with the figure: computed once per source."""
        text = self.source.text
        if not (HALF_WORDS.search(text) or DOUBLE_WORDS.search(text)):
            return []
        out: list[tuple[NumberMention, float]] = []
        for s, si in zip(self.mentions, self.mention_sentence, strict=True):
            if si < 0 or s.value is None or not plain_figure(s):
                continue
            said = self.sentences[si].text
            out += [(s, s.value * factor) for factor, words in ((0.5, HALF_WORDS), (2.0, DOUBLE_WORDS)) if words.search(said)]
        return out

    @cached_property
    def figureless(self) -> list[tuple[NumberMention, Duration]]:
        """Lengths of time the source writes without a figure: Chinese halves of a unit ("半年")
        and spelled ones ("an hour and a half", "une demi-heure"), each with the weak mention
        that stands for its figure, in text order."""
        text = self.source.text
        found = [*half_durations(text), *spelled_durations(text)] if "半" in text else spelled_durations(text)
        return sorted(found, key=lambda pair: pair[0].start)

    @property
    def halves(self) -> list[Duration]:
        """The lengths of :attr:`figureless`."""
        return [d for _, d in self.figureless]

    @cached_property
    def figureless_context(self) -> tuple[list[int], list[frozenset[str]], list[frozenset[str]]]:
        """The sentence of each of :attr:`figureless` (-1 when none), the content lemmas near it
        and the one right before and after it: what it measures, read as for a figure."""
        where = sentence_of([m for m, _ in self.figureless], self.sentences)
        neighbours, close, _ = self.words_near([m for m, _ in self.figureless], where)
        return where, neighbours, close

    @cached_property
    def _lengths(self) -> tuple[list[Duration], frozenset[tuple[str, float]], list[Duration], frozenset[int]]:
        """The source's lengths of time, the exact ones as (scale, length) together with their
        conventional lengths on the other scale (:func:`conventional_lengths`: "两个月" as 60 days),
        the rounded ones, and the ids of the figures that state a length: looked up once per answer
        figure, whatever the source's size."""
        every = [d for d in self.durations if d is not None] + self.halves
        exact = frozenset(key for d in every if d.precision == 0 for key in ((d.scale, round(d.length, 6)), *conventional_lengths(d)))
        rounded = [d for d in every if d.precision > 0]
        ids = frozenset(id(m) for m, d in zip(self.mentions, self.durations, strict=True) if d is not None)
        return every, exact, rounded, ids

    def gives_duration(self, d: Duration) -> bool:
        """Whether a duration of the source is as long as ``d`` ("24 months" gives "2 years")."""
        every, exact, rounded, _ = self._lengths
        if d.precision == 0 and (d.scale, round(d.length, 6)) in exact:
            return True
        return any(same_length(d, o) for o in (rounded if d.precision == 0 else every))

    def gives_as_duration(self, m: NumberMention, d: Duration) -> bool:
        """``gives(m)`` for a figure that states the duration ``d``: a source figure of the same
        value restates it unless it states another length of time ("2 years" does not give "2 hours")."""
        if self.gives_duration(d):
            return True
        if not self.gives(m):
            return False
        stating = self._lengths[3]
        near = _ValueIndex.of(self, "_mentions_index", self.mentions).near(m)
        return any(restated_by(m, s) and id(s) not in stating for s in near)

    @cached_property
    def neighbour_index(self) -> dict[str, list[int]]:
        """For each content lemma, the figures (indices into ``mentions``) it stands next to."""
        out: dict[str, list[int]] = {}
        for k, words in enumerate(self.neighbours):
            for w in words:
                out.setdefault(w, []).append(k)
        return out

    @property
    def source(self) -> SourceAnalysis:
        """The source analysis these facts belong to (alive while anyone can reach the facts)."""
        source = self._source()
        assert source is not None, "SourceFacts outlived its SourceAnalysis"
        return source

    @cached_property
    def sentences(self) -> list[Segment]:
        return self.source.sentences

    @cached_property
    def sentence_norms(self) -> list[frozenset[str]]:
        """Content lemmas of each sentence (numbers left out)."""
        cols = self.source.columns
        starts, norms, facts = cols.starts, cols.norms, cols.facts
        out: list[frozenset[str]] = []
        for seg in self.sentences:  # the tokens that start inside the sentence
            lo, hi = bisect_left(starts, seg.start), bisect_left(starts, seg.end)
            out.append(frozenset(compress(norms[lo:hi], facts[lo:hi])))
        return out

    @cached_property
    def mention_sentence(self) -> list[int]:
        """The sentence index of each figure (-1 when none)."""
        return sentence_of(self.mentions, self.sentences)

    @cached_property
    def _around(self) -> tuple[list[frozenset[str]], list[frozenset[str]], list[tuple[str, str]]]:
        """Content lemmas near each figure, within the figure's own sentence.

        A word of the previous or next sentence says nothing about what a figure measures, and
        in a list of short lines ("100+ years : Acid free paper with ink" / "100 years : Optical
        storage") it would make a figure look like the one of the line before.
        """
        return self.words_near(self.mentions, self.mention_sentence)

    def words_near(
        self, mentions: Sequence[Located], in_sentence: Sequence[int],
    ) -> tuple[list[frozenset[str]], list[frozenset[str]], list[tuple[str, str]]]:
        """For each of ``mentions`` (in ``in_sentence`` its sentence): the content lemmas within
        ``_NEIGHBOURS`` of it in its sentence, the one right before and after it, and those two as a pair."""
        cols = self.source.columns
        starts = list(compress(cols.starts, cols.facts))  # content words, numbers left out
        norms = list(compress(cols.norms, cols.facts))
        sentences = self.sentences
        neighbours: list[frozenset[str]] = []
        close: list[frozenset[str]] = []
        sides: list[tuple[str, str]] = []
        for m, si in zip(mentions, in_sentence, strict=True):
            lo, hi = 0, len(starts)
            if si >= 0:
                lo, hi = bisect_left(starts, sentences[si].start), bisect_left(starts, sentences[si].end)
            i = bisect_left(starts, m.start)
            j = bisect_left(starts, m.end, lo=i)
            neighbours.append(frozenset(norms[max(lo, i - _NEIGHBOURS) : i] + norms[j : min(hi, j + _NEIGHBOURS)]))
            close.append(frozenset(norms[max(lo, i - 1) : i] + norms[j : min(hi, j + 1)]))
            sides.append((norms[i - 1] if lo < i else "", norms[j] if j < hi else ""))
        return neighbours, close, sides

    @cached_property
    def units(self) -> list[str]:
        """The content word right after each figure ("people" in "72 people"), or "" when the
        next token is punctuation, a stop word or a number."""
        cols = self.source.columns
        starts, norms, facts = cols.starts, cols.norms, cols.facts
        out: list[str] = []
        for m in self.mentions:
            j = bisect_left(starts, m.end)
            out.append(norms[j] if j < len(starts) and facts[j] else "")
        return out

    @property
    def neighbours(self) -> list[frozenset[str]]:
        """Content lemmas near each figure: what it measures."""
        return self._around[0]

    @property
    def close(self) -> list[frozenset[str]]:
        """The content lemma right before and right after each figure."""
        return self._around[1]

    @property
    def sides(self) -> list[tuple[str, str]]:
        """The content lemma right before and the one right after each figure ("" for none)."""
        return self._around[2]

    @cached_property
    def meta_words(self) -> frozenset[str]:
        """Words of text size ("characters", "Wörter") that follow a figure in the source: there
        a figure of the answer followed by one is a claim about the world, not about the answer."""
        text = self.source.text
        return frozenset(w for m in self.mentions if (w := meta_word(text.lower(), m.end)) is not None)

    @cached_property
    def words(self) -> Collection[str]:
        """Lower-cased word forms, for name lookup (a ``string_set``: it stays in the source cache)."""
        return string_set(name_words(self.source.text))

    @cached_property
    def named_months(self) -> frozenset[int]:
        """The months the source names in words of any language ("July", "juillet", "Juli"): a bare
        month of a Chinese answer ("7月", "七月") restates one. Words that are more often something
        else are left out ("sept" is seven in French; "may" and "march" count only capitalised)."""
        text = self.source.text
        named = {MONTHS[w] for w in self.words if w in MONTHS and (len(w) >= 4 or w == "mai") and w not in _NOT_MONTHS}
        named.update(MONTHS[w.lower()] for w in _CAPITAL_MONTHS.findall(text))
        return frozenset(named)



def group_by_sentence(items: Sequence[Any], sentences: list[Segment]) -> list[list[Any]]:
    """Items with ``start`` offsets grouped by the sentence they fall in (both sorted)."""
    out: list[list[Any]] = [[] for _ in sentences]
    if not sentences:
        return out
    i = 0
    for it in items:
        while i < len(sentences) - 1 and it.start >= sentences[i].end:
            i += 1
        if sentences[i].start <= it.start < sentences[i].end:
            out[i].append(it)
    return out


def sentence_of(mentions: Sequence[Located], sentences: list[Segment]) -> list[int]:
    """The sentence index of each of ``mentions`` (sorted; -1 when none)."""
    by_sentence = group_by_sentence(mentions, sentences)
    where = {id(m): i for i, group in enumerate(by_sentence) for m in group}
    return [where.get(id(m), -1) for m in mentions]


def source_facts(source: SourceAnalysis) -> SourceFacts:
    """Parsed figures, sentences and words of a source, cached on the (shared) source analysis."""
    return source.derived("_hc_numbers", lambda: SourceFacts(source))
