"""Numbers, dates, amounts, phones and names in the answer that the sources lack or contradict.

Figures and names are where an answer's errors are most checkable and most harmful: a wrong
price, an invented hotline (RAG prompting guide: 客服專線 0800-123-456), a founder nobody mentioned
(RAG detection guide: "... par Jean Dupont"). Every figure of the answer is normalised (:mod:`hallucheck.text.numbers`)
and looked up among the sources' figures; one the sources do not give is ``baseless``, unless the
best-matching source sentence talks about the same thing with a different figure, which makes it
a ``contradiction`` ("coûte 89€" against "coûte 99€"). Names (:mod:`hallucheck.text.entities`)
absent from the sources are ``baseless``. Figures and names in the question count as given.

Source-side parsing is cached on the shared SourceAnalysis, because RAG logs repeat sources.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from functools import cached_property, lru_cache
from itertools import compress
from typing import Any, ClassVar, NamedTuple

from hallucheck.analysis import CaseAnalysis, SourceAnalysis, string_set
from hallucheck.detectors.base import BaseDetector
from hallucheck.text import Segment
from hallucheck.text.durations import Duration, find_durations, half_durations, same_length
from hallucheck.text.entities import (
    REFERENCE_WORDS,
    EntityMention,
    entity_words,
    find_entities,
    name_words,
    transliteration_supported,
    word_supported,
)
from hallucheck.text.language import base_language, detect_language, is_cjk_char
from hallucheck.text.numbers import NumberMention, NumberScan, find_numbers, same_value, scan_numbers
from hallucheck.types import Coverage, Evidence, Finding, Role, Span

__all__ = ["NumbersDetector", "SourceFacts", "converted_durations", "source_facts", "durations_in_other_units"]

_AMBIGUOUS_CURRENCY = {"$": {"USD", "AUD", "CAD", "HKD", "TWD", "$"}, "¥": {"CNY", "JPY", "¥"}}
_NEIGHBOURS = 3  # content words on each side of a source figure that say what it measures
# Work cap of one answer: source figures compared while looking for a contradiction. A long
# answer full of figures against long sources full of figures (199,000 x 400,000 characters)
# once took minutes here; past the cap the rest of the answer is left out and said so in
# ``Finding.coverage``. RAGTruth answers stay far below it.
MAX_COMPARISONS = 1_000_000
_KIND_NAMES = {
    "number": "number", "percent": "percentage", "money": "amount", "date": "date", "year": "year",
    "time": "time", "phone": "phone number", "ordinal": "ordinal", "discount": "discount",
}


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
            if _plain(m):
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
        if not _plain(m):
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


def _restated_by(m: NumberMention, s: NumberMention) -> bool:
    """Whether the source figure ``s`` restates ``m``: the same value, and a spelled-out ordinal
    ("the first sector", "the second entry") only for an ordinal -- it does not give the answer's
    "sector 1" or "2 parts"."""
    if s.weak and s.kind == "ordinal" and m.kind != "ordinal":
        return False
    return same_value(m, s)


def _plain(m: NumberMention) -> bool:
    """A figure compared by value alone (not a date, phone or 12-hour time)."""
    return m.value is not None and m.kind not in ("date", "phone") and not (m.kind == "time" and m.unit == "12h")


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
        """Whether a figure of the source restates ``m`` (as ``any(_restated_by(m, s) for s in mentions)``).

        Guessing the source's language costs about 0.15 ms per new source (a statistical
        identifier), and it only matters for figures whose reading depends on it: when a figure
        that every language reads the same way restates ``m``, the answer is known without the
        guess. On the first 600 RAGTruth dev answers the guess went from 518 sources to 89.
        """
        return any(_restated_by(m, s) for s in _ValueIndex.of(self, "_invariant_index", self._scan.invariant).near(m)) \
            or any(_restated_by(m, s) for s in _ValueIndex.of(self, "_mentions_index", self.mentions).near(m))

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
        if not (_HALF_WORDS.search(text) or _DOUBLE_WORDS.search(text)):
            return []
        out: list[tuple[NumberMention, float]] = []
        for s, si in zip(self.mentions, self.mention_sentence, strict=True):
            if si < 0 or s.value is None or not _plain(s):
                continue
            said = self.sentences[si].text
            out += [(s, s.value * factor) for factor, words in ((0.5, _HALF_WORDS), (2.0, _DOUBLE_WORDS)) if words.search(said)]
        return out

    @cached_property
    def halves(self) -> list[Duration]:
        """Chinese halves of a unit the source writes without a figure ("半年")."""
        text = self.source.text
        return [d for _, d in half_durations(text)] if "半" in text else []

    @cached_property
    def _lengths(self) -> tuple[list[Duration], frozenset[tuple[str, float]], list[Duration], frozenset[int]]:
        """The source's lengths of time, the exact ones as (scale, length), the rounded ones, and
        the ids of the figures that state a length: looked up once per answer figure, whatever the
        source's size."""
        every = [d for d in self.durations if d is not None] + self.halves
        exact = frozenset((d.scale, round(d.length, 6)) for d in every if d.precision == 0)
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
        return any(_restated_by(m, s) and id(s) not in stating for s in near)

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
        by_sentence = _assign(self.mentions, self.sentences)
        where = {id(m): i for i, group in enumerate(by_sentence) for m in group}
        return [where.get(id(m), -1) for m in self.mentions]

    @cached_property
    def _around(self) -> tuple[list[frozenset[str]], list[frozenset[str]], list[tuple[str, str]]]:
        """Content lemmas near each figure, within the figure's own sentence.

        A word of the previous or next sentence says nothing about what a figure measures, and
        in a list of short lines ("100+ years : Acid free paper with ink" / "100 years : Optical
        storage") it would make a figure look like the one of the line before.
        """
        cols = self.source.columns
        starts = list(compress(cols.starts, cols.facts))  # content words, numbers left out
        norms = list(compress(cols.norms, cols.facts))
        sentences = self.sentences
        neighbours: list[frozenset[str]] = []
        close: list[frozenset[str]] = []
        sides: list[tuple[str, str]] = []
        for m, si in zip(self.mentions, self.mention_sentence, strict=True):
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
        return frozenset(w for m in self.mentions if (w := _meta_word(text.lower(), m.end)) is not None)

    @cached_property
    def words(self) -> Collection[str]:
        """Lower-cased word forms, for name lookup (a ``string_set``: it stays in the source cache)."""
        return string_set(name_words(self.source.text))


class _AnswerFigures(NamedTuple):
    """The answer's figures and the lengths of time among them, read once per check."""

    found: list[NumberMention]  # every figure, weak ones included
    durations: dict[int, Duration]  # by the figure's start
    halves: list[tuple[NumberMention, Duration]]  # "半年": a weak mention for the 半, not among ``found``


def _answer_figures(analysis: CaseAnalysis) -> _AnswerFigures:
    """The answer's figures, kept in ``analysis.shared``: the numbers detector and the model
    layer's cap read the same answer."""
    return analysis.shared_result("answer_figures", lambda: _read_answer_figures(analysis))


def _read_answer_figures(analysis: CaseAnalysis) -> _AnswerFigures:
    answer = analysis.answer
    found = find_numbers(answer, analysis.language)
    taken = [(m.start, m.end) for m in found]
    halves = [(m, d) for m, d in half_durations(answer) if not any(a < d.end and d.start < b for a, b in taken)] \
        if "半" in answer else []
    return _AnswerFigures(found, find_durations(answer, found, analysis.language), halves)


def durations_in_other_units(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets of :func:`converted_durations` (the model layer keeps its marks off them)."""
    return sorted({(d.start, d.end) for d in converted_durations(analysis)})


def figures_in_other_forms(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    """Offsets of the answer's figures that a source figure of the same value gives while the
    sources never write the figure's own characters: "1250" over "1,250", "百分之十二" over "12%",
    "21.6万元" over "21.59万元", "15 km" over "15公里" (lengths of time: :func:`converted_durations`).
    A reader that compares words or word pieces cannot see that these are the same; the numbers
    detector compares values and has checked them, so the model layer keeps its marks off them.
    Spelled-out small figures that read as words ("one", weak mentions) and phone numbers are left
    to the reader, and so are clock times: on RAGTruth calib 126 of the 547 clock times written
    another way ("5:30 PM" over "17:30") lie in a labelled hallucination (opening hours given for
    the wrong days), and keeping the marks off them cost 0.007 of span F1."""
    return analysis.shared_result("figures_in_other_forms", lambda: _figures_in_other_forms(analysis))


def _figures_in_other_forms(analysis: CaseAnalysis) -> list[tuple[int, int]]:
    if not analysis.answer.strip() or not analysis.source.text.strip():
        return []
    figures = _answer_figures(analysis)
    mentions = [m for m in figures.found if not m.weak and m.kind not in ("phone", "time") and m.start not in figures.durations]
    if not mentions:
        return []
    facts = source_facts(analysis.source)
    return [(m.start, m.end) for m in mentions if m.text.lower() not in facts.written and facts.gives(m)]


def converted_durations(analysis: CaseAnalysis) -> list[Duration]:
    """The answer's lengths of time that the sources give only in another unit ("一年" over
    "12个月", "2 years" over "24 months", "半年" over "6个月"), in the answer's order. A reader that
    compares words cannot see that these are the same; the model layer keeps its marks off them,
    and the restated check counts them as the source's figures.

    Only lengths of time: clock times, discounts and halved figures written another way were
    measured too and left out. On RAGTruth calib a quarter of the clock times the sources give
    another way lie in a labelled hallucination (business hours given for the wrong days), and
    keeping the tagger's marks off all of them cost 0.007 of span F1."""
    # the model layer's cap, the restated check and its safeguard all ask
    return analysis.shared_result("converted_durations", lambda: _converted_durations(analysis))


def _converted_durations(analysis: CaseAnalysis) -> list[Duration]:
    if not analysis.answer.strip() or not analysis.source.text.strip():
        return []
    figures = _answer_figures(analysis)
    durations = [*figures.durations.values(), *(d for _, d in figures.halves)]
    if not durations:
        return []
    facts = source_facts(analysis.source)
    lower = analysis.source.lower
    return sorted((d for d in durations if d.text.lower() not in lower and facts.gives_duration(d)), key=lambda d: d.start)


def _assign(items: list[Any], sentences: list[Segment]) -> list[list[Any]]:
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


def source_facts(source: SourceAnalysis) -> SourceFacts:
    """Parsed figures, sentences and words of a source, cached on the (shared) source analysis."""
    return source.derived("_hc_numbers", lambda: SourceFacts(source))


_REFERENCE_BEFORE = re.compile(
    r"([^\W\d_]+)\.?\s*(?:#|no\.?\s*|nr\.?\s*)?(?:\d+\s*(?:,|-|–|and|und|et|&|or|to)\s*)*$", re.IGNORECASE
)
_ABBREVIATION = 5  # a word with a dot before a figure is an abbreviation ("Fig. 3") up to this length
_SCALE_BEFORE = re.compile(r"(?:out\s+of|of\s+a\s+possible|sur|von|auf)\s*$|/\s*$", re.IGNORECASE)
_META_AFTER = re.compile(
    r"\s*(?:words?|sentences?|characters?|bullet\s+points|wörtern?|sätzen?|zeichen|mots|phrases|caractères|字|个字|句)\b",
    re.IGNORECASE,
)
# "in 92 words", "(about 120 words)", "unter 100 Wörtern": an answer measuring itself.
_SELF_BEFORE = re.compile(
    r"(?:\b(?:in|within|under|using|of\s+about|about|approximately|roughly|around|in\s+about|in\s+under|"
    r"unter|mit|en|environ|moins\s+de)\s+|\(\s*(?:about\s+|ca\.\s*|environ\s+)?)$",
    re.IGNORECASE,
)
_OPEN_PAREN = re.compile(r"\(\s*[^()\d]{0,12}$")
# The second figure of a range inside such parentheses: "55-75°F (13-24°C)".
_OPEN_PAREN_RANGE = re.compile(r"\(\s*[^()\d]{0,12}\d[\d.,]*\s*(?:[-–—]|to|bis|à)\s*[^()\d]{0,4}$")
# Round-the-clock idioms, not quantities: "open 24/7", "24x7 support", "24/7/365".
_IDIOM = re.compile(r"(?<![\d.,])24\s*[/x×]\s*7(?:\s*/\s*365)?(?![\d.,])")
# Words that say a figure is rounded or a bound: "over 3,800 people", "nearly $195,000".
_HEDGE_BEFORE = re.compile(
    r"(?:\b(?:(?P<low>over|more\s+than|at\s+least|upwards\s+of|just\s+over|in\s+excess\s+of|über|mehr\s+als|"
    r"mindestens|plus\s+de|au\s+moins)|(?P<high>nearly|almost|under|less\s+than|fewer\s+than|up\s+to|just\s+under|"
    r"knapp|fast|fast|presque|moins\s+de|près\s+de)|(?:about|approximately|approx\.|around|roughly|some|close\s+to|"
    r"circa|ca\.|an\s+estimated|estimated|rund|etwa|ungefähr|environ|quelque))\s+|~\s*|约|約|大约|大約"
    r"|(?P<low_zh>超过|超過|逾)|(?P<high_zh>近|将近|將近))$",
    re.IGNORECASE,
)
_HEDGE_SHARE = 0.1  # and a hedged figure is never more than 10% off the source's
# A rate, not a total: "$1.50 per square foot", "10 mg/kg", "$5 a month", "twice each day".
_RATE_AFTER = re.compile(
    r"\s*(?:[^\W\d_]+\s+){0,2}?(?:per\b|/\s*[^\W\d_]|each\b|a\s+(?:day|week|month|year|hour|night|minute|person)\b|"
    r"an\s+hour\b|pro\b|par\b|je\b)",
    re.IGNORECASE,
)
_RANGE_AFTER = re.compile(r"\s*(?:[-–—]|to|and|or|bis|à)\s*\d")
_RATE_BEFORE = re.compile(r"\b(?:every|each|per|alle|jede[nrs]?|chaque|tous\s+les)\s+$", re.IGNORECASE)
# An arithmetic result: "$50,000 x 2.4% = $1,200".
_EQUALS_BEFORE = re.compile(r"=\s*(?:approximately\s+|about\s+|~\s*|≈\s*)?$", re.IGNORECASE)
_OPERATOR = re.compile(r"(?:^|\s)([x×*/÷+\-−–])(?=\s)")
_EXPRESSION_BREAK = re.compile(r"[=:;\n]|[.!?](?:\s|$)")


def _meta_word(text: str, end: int) -> str | None:
    """The word of text size right after a figure ("words", "Zeichen", "字"), singular, or None."""
    mt = _META_AFTER.match(text, end)
    if mt is None:
        return None
    word = mt.group().strip().lower()
    return word[:-1] if word.endswith("s") else word


def _written_date(m: NumberMention, facts: SourceFacts) -> bool:
    """Whether the sources write the answer's all-digit date with the same characters ("9.4.11").

    Which of its parts is the day and which the month depends on the language it is read in
    (English reads "9.4.11" as 4 September, German, French and Chinese as 9 April), so a Chinese
    answer that copies "第 9.4.11 节" from an English source's "Section 9.4.11" gave two dates and an
    unsupported one. The same digits in the same order say the same thing, whatever they mean."""
    if m.kind != "date" or not re.fullmatch(r"\d{1,4}(?:[./-]\d{1,4}){1,2}", m.text):
        return False
    return m.text.lower() in facts.written


def _reference_word(answer: str, m: NumberMention) -> str | None:
    """The word that makes a figure a reference to a part ("passage 3", "lines 7 to 10"), or None."""
    if m.kind not in ("number", "ordinal"):
        return None
    ref = _REFERENCE_BEFORE.search(answer[max(0, m.start - 40) : m.start])
    if ref is None:
        return None
    word = ref.group(1).lower()
    if len(word) > _ABBREVIATION and ref.group().startswith(".", len(ref.group(1))):
        return None  # "... for paper documents. 27 years": a full stop, not "Fig. 3" or "No. 5"
    return word if word in REFERENCE_WORDS else None


_LABEL_BEFORE = re.compile(r"(?:^|\n)[ \t*#>\-•]*[^\W\d_]+\.?\s*$")
_CITE_OPEN = re.compile(r"\([^()\n]*$")


def _own_label(answer: str, m: NumberMention) -> bool:
    """A numbered part that is the answer's own layout ("Step 3:" opening a line) or a pointer to
    the sources in parentheses ("(Passage 2, Fact 5)"), not a claim about the text."""
    before = answer[max(0, m.start - 40) : m.start]
    return bool(_LABEL_BEFORE.search(before) or _CITE_OPEN.search(before))


def _sources_number(facts: SourceFacts, word: str) -> bool:
    """Whether the sources number their own parts with ``word`` too ("lines 7 to 10"): then a
    part the answer numbers differently in the same context is a changed figure, not a reference
    to the sources' layout."""
    return re.search(rf"(?<![^\W\d_]){re.escape(word)}\.?\s*(?:#|no\.?\s*|nr\.?\s*)?\d", facts.lower) is not None


def _not_a_claim(answer: str, m: NumberMention, supported_end: int, source_meta: Collection[str] = ()) -> bool:
    """Figures that are not claims about the world.

    A reference to the sources' own parts ("passage 3", "steps 7 and 8"), the top of a rating
    scale ("4 out of 5"), the answer talking about itself ("in 79 words") unless the sources
    count the same thing ("passwords of 6 to 8 characters"), and a conversion in parentheses
    right after a supported figure ("145 degrees F (63 degrees C)") -- that last one only when
    the sources do not give it differently (see ``_detect``).
    """
    if m.kind not in ("number", "ordinal"):
        return False
    idiom = _IDIOM.search(answer, max(0, m.start - 6), min(len(answer), m.end + 10))
    if idiom and idiom.start() <= m.start and m.end <= idiom.end():
        return True
    before = answer[max(0, m.start - 40) : m.start]
    if _reference_word(answer, m) is not None:
        return True
    if m.value in (5.0, 10.0, 100.0) and _SCALE_BEFORE.search(before):
        return True
    meta = _meta_word(answer, m.end)
    if meta is not None and (meta not in source_meta or _SELF_BEFORE.search(answer, max(0, m.start - 30), m.start)):
        return True
    return _conversion(answer, m, supported_end)


def _paren_differs(facts: SourceFacts, before: NumberMention, m: NumberMention) -> bool:
    """Whether a source gives ``before`` followed, in parentheses, by a figure of ``m``'s kind
    with another value."""
    text = facts.source.text
    mentions = facts.mentions
    for k, s in enumerate(mentions[:-1]):
        if not same_value(before, s):
            continue
        nxt = mentions[k + 1]
        if nxt.start - s.end > 30 or not _OPEN_PAREN.search(text, s.end, nxt.start):
            continue
        if _compatible(m, nxt) and not same_value(m, nxt):
            return True
    return False


def _conversion(answer: str, m: NumberMention, supported_end: int) -> bool:
    """A figure in parentheses right after a supported one: a conversion the answer may have
    worked out itself ("145 degrees F (63 degrees C)")."""
    return m.kind in ("number", "ordinal") and 0 <= m.start - supported_end <= 30 and bool(
        _OPEN_PAREN.search(answer, supported_end, m.start) or _OPEN_PAREN_RANGE.search(answer, supported_end, m.start)
    )


@lru_cache(maxsize=1024)
def _question_numbers(question: str, language: str) -> tuple[NumberMention, ...]:
    """Figures of a question (cached: RAG logs ask the same question of many answers)."""
    return tuple(find_numbers(question, language))


@lru_cache(maxsize=1024)
def _question_words(question: str) -> frozenset[str]:
    return name_words(question)


def _four_digits(m: NumberMention) -> bool:
    """A plain number of four digits or more written without a separator, which may measure what
    a year-like figure does ("MTU of 1460" against "14600"); "500,000" or "12,000" do not."""
    return m.value is not None and m.value >= 1000 and m.value == int(m.value) and m.text.strip().isdigit()


def _compatible(a: NumberMention, b: NumberMention) -> bool:
    """Whether two figures measure the same kind of thing (so different values contradict)."""
    if a.kind == "money":
        if b.kind == "number":
            return True  # "3.47 million dollars ..., up from 2.9 million": the currency is said once
        if b.kind != "money":
            return False
        if a.unit == b.unit or not a.unit or not b.unit:
            return True
        return b.unit in _AMBIGUOUS_CURRENCY.get(a.unit, ()) or a.unit in _AMBIGUOUS_CURRENCY.get(b.unit, ())
    if a.kind == "year":
        # A four-digit quantity is read as a year when nothing says otherwise ("MTU of 1460"):
        # against a plain number of four digits or more it may well measure the same thing.
        return b.kind == "year" or (b.kind == "date" and b.year is not None) or (b.kind == "number" and _four_digits(b))
    if a.kind == "number" and b.kind == "year":
        return _four_digits(a)
    if a.kind == "date":
        if b.kind != "date":
            return False
        return any(p is not None and q is not None for p, q in ((a.year, b.year), (a.month, b.month), (a.day, b.day)))
    return a.kind == b.kind


class _Hedge(NamedTuple):
    """What a hedge word before a figure of the answer allows: a source value within ``slack`` of
    it, above it only (``low``: "over 3,800"), below it only (``high``: "nearly $195,000"), and
    whether the figure is rounded at all (``rounded``)."""

    slack: float
    low: bool
    high: bool
    rounded: bool


def _hedge(answer: str, m: NumberMention) -> _Hedge | None:
    """The hedge before a plain figure of the answer ("over", "nearly", "about", 约), or None."""
    if m.value is None or not m.value or not _plain(m):
        return None
    hedge = _HEDGE_BEFORE.search(answer, max(0, m.start - 24), m.start)
    if hedge is None:
        return None
    v = float(m.value)
    # the figure's own rounding: 3,800 is rounded to hundreds, 79 to units, 2.5 to tenths
    unit = max(m.precision, 1.0) if v == int(v) else m.precision
    if v == int(v) and v >= 10:
        text = str(int(abs(v)))
        unit = float(10 ** (len(text) - len(text.rstrip("0"))))
    return _Hedge(
        slack=min(unit, _HEDGE_SHARE * abs(v)) + 1e-9 * abs(v),
        low=bool(hedge.group("low") or hedge.group("low_zh")),  # "over 3,800": the true figure is above
        high=bool(hedge.group("high") or hedge.group("high_zh")),  # "nearly $195,000": below
        rounded=not (v == int(v) and unit <= 1.0),
    )


def _hedge_fits(m: NumberMention, s: NumberMention, hedge: _Hedge) -> bool:
    """Whether the source figure ``s`` is one the hedged figure ``m`` may stand for.

    An unrounded whole number stands only for itself or for a value its rounding hides: "nearly
    17" may say 16.6, not 16 -- "up to 17 partitions" against the sources' "up to 16" is another
    figure, not a rounded one."""
    if not _plain(s) or s.weak or s.kind != m.kind or not _compatible(m, s):
        return False
    sv = float(s.value)  # type: ignore[arg-type]
    if not hedge.rounded and sv == int(sv):
        return False
    d = sv - float(m.value)  # type: ignore[arg-type]
    return abs(d) <= hedge.slack and not (hedge.low and d < -1e-9) and not (hedge.high and d > 1e-9)


def _year_or_count(a: NumberMention, b: NumberMention) -> bool:
    """A four-digit whole number read as a year against a plain whole number, or the reverse:
    "exits with 1010" against "exits with 101", "port 1174" against "port 587". The reading as a
    year is only a guess, so the two may measure the same thing -- where the same word stands
    right next to both (the caller checks that)."""
    if {a.kind, b.kind} != {"year", "number"} or a.value is None or b.value is None:
        return False
    return float(a.value).is_integer() and float(b.value).is_integer()


def _same_side(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """Whether the same content word stands right before both figures, or right after both."""
    return bool(a[0] and a[0] == b[0] or a[1] and a[1] == b[1])


def _decade(text: str, m: NumberMention) -> bool:
    """A decade ("the 1990s", "the 90s", "the '90s"): a time, never a count."""
    return text.startswith(("s", "'s", "’s"), m.end)


def _words_around(analysis: CaseAnalysis, sent_idx: int, a: int, b: int) -> tuple[list[str], list[str]]:
    """Content lemmas of answer sentence ``sent_idx`` before offset ``a`` and after offset ``b``,
    in text order (punctuation, stop words and numbers left out)."""
    toks = [t for t in analysis.tokens_by_sentence[sent_idx] if not t.is_punct and not t.is_stop and not t.is_number]
    return [t.norm for t in toks if t.end <= a], [t.norm for t in toks if t.start >= b]


def _sides(analysis: CaseAnalysis, m: NumberMention) -> tuple[str, str]:
    """The content lemma right before and right after a figure of the answer, in its sentence."""
    for si, sentence in enumerate(analysis.tokens_by_sentence):
        if not sentence or sentence[-1].end <= m.start:
            continue
        before, after = _words_around(analysis, si, m.start, m.end)
        return (before[-1] if before else "", after[0] if after else "")
    return ("", "")


def _hedged_match(answer: str, m: NumberMention, facts: SourceFacts, work: list[int]) -> bool:
    """A rounded or bounded figure that restates a source figure: "over 3,800" for 3,862, "nearly
    $195,000" for $194,497. Only where the answer says it is not exact, and within 10%."""
    hedge = _hedge(answer, m)
    if hedge is None:
        return False
    work[0] += len(facts.mentions)
    return any(_hedge_fits(m, s, hedge) for s in facts.mentions)


# A source sentence that halves or doubles one of its figures: "children pay half price",
# "Kinder zahlen die Hälfte", "demi-tarif", "儿童半价", "weekends cost double".
_HALF_WORDS = re.compile(r"\b(?:half|halb\w*|hälfte|moitié|demi)\b|半价|半價|一半|五折|半票", re.IGNORECASE)
_DOUBLE_WORDS = re.compile(r"\b(?:double|twice|doppelt\w*|zweifach\w*|le\s+double)\b|双倍|雙倍|两倍|兩倍|翻倍", re.IGNORECASE)


def _halved_or_doubled(m: NumberMention, facts: SourceFacts, work: list[int]) -> bool:
    """A figure the sources give as half or twice one of theirs, in a sentence that says so
    ("children pay half price" over "$20 for adults" gives the answer's "$10")."""
    if m.value is None or not _plain(m) or m.kind not in ("number", "money"):
        return False
    scaled = facts.scaled
    if not scaled:
        return False
    work[0] += len(scaled)
    return any(abs(m.value - value) <= 1e-9 * max(abs(m.value), 1.0) and _compatible(m, s) for s, value in scaled)


def _operand_value(m: NumberMention) -> float | None:
    if m.value is None or not _plain(m):
        return None
    return float(m.value) / 100.0 if m.kind == "percent" else float(m.value)


def _computed(answer: str, m: NumberMention, mentions: Sequence[NumberMention]) -> bool:
    """Whether ``m`` is the right result of arithmetic the answer writes out just before it:
    "$50,000 x 2.4% = $1,200", "$4,000 (sales) - $3,000 (cost of sales) = $1,000".

    Only two or more figures joined by one operator each (x × * / ÷ + -) count, evaluated left
    to right, and the result must agree within the rounding of the written result; a wrong
    result is judged like any other figure.
    """
    if m.value is None or not _plain(m):
        return False
    eq = _EQUALS_BEFORE.search(answer, max(0, m.start - 16), m.start)
    if eq is None:
        return False
    eq_at = answer.rfind("=", 0, m.start)
    stop = max((b.end() for b in _EXPRESSION_BREAK.finditer(answer, max(0, eq_at - 200), eq_at)), default=max(0, eq_at - 200))
    operands = [o for o in mentions if stop <= o.start and o.end <= eq_at]
    if len(operands) < 2:
        return False
    total = _operand_value(operands[0])
    for left, right in zip(operands, operands[1:]):
        ops = _OPERATOR.findall(answer[left.end : right.start])
        value = _operand_value(right)
        if total is None or value is None or len(ops) != 1:
            return False
        op = ops[0]
        if op in "x×*":
            total *= value
        elif op in "/÷":
            if not value:
                return False
            total /= value
        elif op == "+":
            total += value
        else:
            total -= value
    if total is None:
        return False
    result = float(m.value)
    tolerance = max(m.precision / 2.0, 0.005) + 1e-9 * max(abs(result), 1.0)
    return abs(total - result) <= tolerance


def _is_rate(text: str, m: NumberMention) -> bool:
    """Whether a figure is a rate ("$1.50 per square foot", "every 30 minutes") rather than a total."""
    return bool(_RATE_AFTER.match(text, m.end) or _RATE_BEFORE.search(text, max(0, m.start - 16), m.start))


def _mantissa(m: NumberMention) -> str:
    """The digits of a figure as written, before any scale word: "2.4" for "2.4 million"."""
    digits = "".join(ch for ch in m.text if ch.isdigit() or ch in ".,")
    return digits.strip(".,")


_COUNTED = frozenset({"number", "percent", "money", "ordinal"})


def _answer_unit(analysis: CaseAnalysis, m: NumberMention) -> str:
    """The content word right after a figure of the answer ("people" in "3,800 people"), or ""."""
    for sentence in analysis.tokens_by_sentence:
        if not sentence or sentence[-1].end <= m.end:
            continue
        nxt = next((t for t in sentence if t.start >= m.end), None)
        if nxt is None or nxt.is_punct or nxt.is_stop or nxt.is_number:
            return ""
        return nxt.norm
    return ""


def _same_quantity(
    m: NumberMention, other: NumberMention, unit: str, other_unit: str, rate: bool, hedged: bool, source_text: str,
    durations: bool = False,
) -> bool:
    """Whether a source figure can measure what the answer's figure measures, so that a different
    value there contradicts it. Not when the words that name what is counted differ ("25 years"
    against "12,000 women"), when one is a rate and the other a total ("$1.50 per square foot"
    against "$480 for 1000 square feet"), when the source's figure is a bound the answer's value
    keeps ("at least 165 degrees" against "250 degrees"; not when the answer gives a bound too,
    "more than 22" against "more than 4", nor for a range, "at least 6 to 8"), or when the two write the same digits
    and only the answer's scale word differs (the source's was not read: "2.4 milllion").
    ``durations``: both state a length of time on one scale, so "36 months" and "2 years" measure
    the same thing though their unit words differ."""
    if m.kind in _COUNTED and other.kind in _COUNTED:
        if unit and other_unit and unit != other_unit and not durations:
            return False
        if rate != _is_rate(source_text, other):
            return False
    if _plain(m) and _plain(other) and m.kind == other.kind and not hedged and not _RANGE_AFTER.match(source_text, other.end):
        bound = _HEDGE_BEFORE.search(source_text, max(0, other.start - 24), other.start)
        if bound is not None:  # "at least 165 degrees" is not contradicted by "250-300 degrees"
            if (bound.group("low") or bound.group("low_zh")) and m.value >= other.value:  # type: ignore[operator]
                return False
            if (bound.group("high") or bound.group("high_zh")) and m.value <= other.value:  # type: ignore[operator]
                return False
    if m.value is not None and other.value is not None and m.value != other.value and not durations:
        digits = _mantissa(m)
        if digits and digits == _mantissa(other) and other.text.strip(" .,").replace(",", "") == digits.replace(",", ""):
            return False
    return True


def _overlap(local: frozenset[str], sentence: frozenset[str]) -> tuple[float, int]:
    if not local:
        return 0.0, 0
    shared = len(local & sentence)
    return shared / len(local), shared


class NumbersDetector(BaseDetector):
    """Figures and names of the answer that the sources do not give, or give differently.

    Options:
      entities: also check proper names (True).
      window: content words on each side of a figure that describe it (5).
      contradiction_overlap: share of those words the source sentence must contain for a
        different figure there to count as a contradiction (0.5).
      contradiction_score / baseless_score / entity_score: span scores (0.8 / 0.6 / 0.4).
    """

    name = "numbers"

    role: ClassVar[Role] = "facts"
    layer = 1

    def __init__(
        self,
        entities: bool = True,
        window: int = 5,
        contradiction_overlap: float = 0.5,
        contradiction_score: float = 0.8,
        baseless_score: float = 0.6,
        entity_score: float = 0.4,
    ) -> None:
        self.entities = entities
        self.window = window
        self.contradiction_overlap = contradiction_overlap
        self.contradiction_score = contradiction_score
        self.baseless_score = baseless_score
        self.entity_score = entity_score

    # ------------------------------------------------------------------ helpers

    def _local(self, analysis: CaseAnalysis, sent_idx: int, a: int, b: int) -> frozenset[str]:
        """Content lemmas within ``window`` content tokens of [a, b) in its sentence."""
        return self._around(analysis, sent_idx, a, b, self.window)

    @staticmethod
    def _around(analysis: CaseAnalysis, sent_idx: int, a: int, b: int, n: int) -> frozenset[str]:
        before, after = _words_around(analysis, sent_idx, a, b)
        return frozenset(before[-n:] + after[:n])

    @staticmethod
    def _evidence(analysis: CaseAnalysis, facts: SourceFacts, idx: int, relation: str, score: float) -> Evidence:
        seg = facts.sentences[idx]
        source_id: str | None = None
        start, end = seg.start, seg.end
        pos = 0
        for src in analysis.case.contexts:
            if pos <= seg.start < pos + len(src.text) + 2:
                source_id = src.id
                start, end = seg.start - pos, seg.end - pos
                break
            pos += len(src.text) + 2
        return Evidence(source_id=source_id, text=seg.text, relation=relation, score=round(score, 4), start=start, end=end)

    def _nearest(self, facts: SourceFacts, local: frozenset[str]) -> tuple[int, float]:
        best, best_score = -1, 0.0
        for i, norms in enumerate(facts.sentence_norms):
            score, shared = _overlap(local, norms)
            if shared and score > best_score:
                best, best_score = i, score
        return best, best_score

    # ------------------------------------------------------------------ detection

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        answer = analysis.answer
        lang = analysis.language
        notes: list[str] = []
        if not answer.strip():
            return Finding(
                detector=self.name,
                risk=0.0,
                notes=["Answer is empty, nothing to check"],
                flagged=False,
                features=_features(0, 0, 0, 0, 0),
            )
        facts = source_facts(analysis.source)
        if not analysis.source.text.strip():
            notes.append("The sources are empty: every figure and name of the answer is unsupported")
        question_mentions = _question_numbers(case.question, lang) if case.question else ()
        figures = _answer_figures(analysis)
        durations = figures.durations
        mentions = [m for m in figures.found if not m.weak]
        sentences = analysis.sentences
        by_sentence = _assign(mentions, sentences)
        spans: list[Span] = []
        number_spans: list[Span] = []
        unsupported = contradicted = 0
        supported_end = -100
        work = [0]  # source figures compared so far (see MAX_COMPARISONS)
        stopped_at: int | None = None
        supported: NumberMention | None = None
        computed: list[NumberMention] = []
        for si, group in enumerate(by_sentence):
            if stopped_at is not None:
                break
            for m in group:
                if work[0] > MAX_COMPARISONS:
                    stopped_at = m.start
                    break
                d = durations.get(m.start)
                if (
                    any(same_value(m, q) for q in question_mentions)
                    or (facts.gives_as_duration(m, d) if d is not None else facts.gives(m))
                    or _written_date(m, facts)
                    or any(same_value(m, c) for c in computed) or _hedged_match(answer, m, facts, work)
                    or _halved_or_doubled(m, facts, work)
                ):
                    supported_end = m.end
                    supported = m
                    continue
                if _computed(answer, m, mentions):
                    # The answer's own arithmetic, done right ("$50,000 x 2.4% = $1,200"): the
                    # operands are checked as figures of their own, the result restates them.
                    computed.append(m)
                    supported_end = m.end
                    supported = m
                    continue
                conversion = _conversion(answer, m, supported_end)
                if conversion:
                    # In parentheses after a supported figure: held against the answer only when
                    # the sources put another figure in parentheses after that same figure
                    # ("sector 0 (512 bytes)" against "sector 0 (522 bytes)").
                    if supported is None or not _paren_differs(facts, supported, m):
                        continue
                elif _not_a_claim(answer, m, supported_end, facts.meta_words):
                    ref = _reference_word(answer, m)
                    if ref is None or _own_label(answer, m) or not _sources_number(facts, ref):
                        continue
                    # A numbered part the sources number too: held against the answer only when
                    # the sources give another number in the same context ("lines 7 to 10").
                    local = self._local(analysis, si, m.start, m.end)
                    span = self._judge(analysis, facts, m, local, self._around(analysis, si, m.start, m.end, 1), work)
                    if span.label == "contradiction":
                        number_spans.append(span)
                        contradicted += 1
                    continue
                local = self._local(analysis, si, m.start, m.end)
                span = self._judge(analysis, facts, m, local, self._around(analysis, si, m.start, m.end, 1), work, d)
                number_spans.append(span)
                if span.label == "contradiction":
                    contradicted += 1
                else:
                    unsupported += 1
        if stopped_at is None:
            # Spelled and one-character figures ("two years", "三年") are too ambiguous to be
            # unsupported, but a length of time the sources give otherwise, in the same context,
            # is contradicted ("RO膜三年换一次" where the sources say every 24 months).
            for m, d, si in self._weak_durations(figures, sentences, question_mentions):
                if facts.gives_duration(d) or (m.text != "半" and facts.gives(m)):
                    continue
                local = self._local(analysis, si, m.start, m.end)
                span = self._judge(analysis, facts, m, local, self._around(analysis, si, m.start, m.end, 1), work, d,
                                   durations_only=True)
                if span.label == "contradiction":
                    number_spans.append(span)
                    contradicted += 1

        spans.extend(number_spans)
        n_entities = unsupported_entities = 0
        if self.entities:
            taken = [(m.start, m.end) for m in mentions]
            q_words = _question_words(case.question) if case.question else frozenset()
            for ent in find_entities(answer, lang, sentences):
                if any(not (ent.end <= a or ent.start >= b) for a, b in taken):
                    continue
                n_entities += 1
                name_span = self._entity(analysis, facts, ent, q_words, lang)
                if name_span is not None:
                    unsupported_entities += 1
                    spans.append(name_span)

        spans.sort(key=lambda s: (s.start, s.end))
        keep = 1.0
        for s in spans:
            keep *= 1.0 - s.score
        risk = round(1.0 - keep, 6)
        features = _features(len(mentions), unsupported, contradicted, n_entities, unsupported_entities)
        details: dict[str, Any] = {
            "unsupported_numbers": [s.text for s in number_spans if s.label == "baseless"],
            "contradicted_numbers": [s.text for s in number_spans if s.label == "contradiction"],
            "unsupported_entities": [s.text for s in spans if s not in number_spans],
        }
        coverage = None
        if stopped_at is not None:
            why = f"figures from character {stopped_at} on were not checked (more than {MAX_COMPARISONS:,} comparisons)"
            notes.append(why)
            coverage = Coverage(answer_chars=len(answer), checked_chars=stopped_at,
                                unchecked=[(stopped_at, len(answer))], note=why)
        return Finding(detector=self.name, risk=risk, flagged=risk >= 0.5, features=features, spans=spans, notes=notes,
                       details=details, coverage=coverage)

    @staticmethod
    def _weak_durations(
        figures: _AnswerFigures, sentences: list[Segment], question_mentions: Sequence[NumberMention],
    ) -> list[tuple[NumberMention, Duration, int]]:
        """The durations whose figure is a weak mention or a Chinese half ("半年"), with the
        figure and its sentence index."""
        pairs = {m.start: (m, figures.durations[m.start]) for m in figures.found
                 if m.weak and m.start in figures.durations and not any(same_value(m, q) for q in question_mentions)}
        pairs.update((m.start, (m, d)) for m, d in figures.halves)
        weak = [pairs[k][0] for k in sorted(pairs)]
        return [(m, pairs[m.start][1], si) for si, group in enumerate(_assign(weak, sentences)) for m in group]

    def _judge(
        self, analysis: CaseAnalysis, facts: SourceFacts, m: NumberMention, local: frozenset[str], close: frozenset[str],
        work: list[int] | None = None, duration: Duration | None = None, durations_only: bool = False,
    ) -> Span:
        """Contradiction when a source sentence about the same thing gives another figure, else baseless.

        ``duration``: the length of time ``m`` states; a source duration then counts only on the
        same scale (a month is not a whole number of days) and with its unit read, and
        ``durations_only`` leaves out source figures that state no duration."""
        what = _KIND_NAMES.get(m.kind, "figure")
        best, best_key, best_other = -1, (0, 0, 0, 0.0), None
        index = facts.neighbour_index
        # only figures next to a word of ``local`` can be "near" (the rest are skipped below)
        candidates = sorted({k for w in local for k in index.get(w, ())})
        if work is not None:
            work[0] += len(candidates)
        unit = _answer_unit(analysis, m) if m.kind in _COUNTED else ""
        rate = _is_rate(analysis.answer, m)
        hedged = bool(_HEDGE_BEFORE.search(analysis.answer, max(0, m.start - 24), m.start))
        source_text = facts.source.text
        sides = _sides(analysis, m)
        best_k = -1
        for k in candidates:
            other = facts.mentions[k]
            if other.weak and m.kind != "number":
                continue
            other_duration = facts.durations[k] if duration is not None else None
            if duration is not None and (
                (other_duration is None and durations_only)
                or (other_duration is not None and same_length(duration, other_duration) is not False)
            ):
                continue  # another scale, or the same length (that is support, not a conflict)
            if not _compatible(m, other) and not (
                _year_or_count(m, other) and _same_side(sides, facts.sides[k])
                and not _decade(analysis.answer, m) and not _decade(source_text, other)
            ):
                continue
            idx = facts.mention_sentence[k]
            near = len(local & facts.neighbours[k])
            if idx < 0 or not near:
                continue  # the source figure measures something else
            tight = len(close & facts.neighbours[k]) + len(local & facts.close[k])
            score, _ = _overlap(local, facts.sentence_norms[idx])
            key = (len(close & facts.close[k]), tight, near, score)
            if key > best_key:
                best, best_key, best_other, best_k = idx, key, other, k
        # The source figure that best matches the answer's in context must measure the same
        # quantity; when it does not, the answer's figure is unsupported, not contradicted (a
        # weaker match further away would only be a guess).
        both_durations = duration is not None and best_k >= 0 and facts.durations[best_k] is not None
        if (
            best >= 0 and best_key[3] >= self.contradiction_overlap and best_other is not None
            and _same_quantity(m, best_other, unit, facts.units[best_k], rate, hedged, source_text, both_durations)
        ):
            ev = self._evidence(analysis, facts, best, "contradicts", best_key[3])
            said, given = m.text, best_other.text
            if both_durations:  # "the sources give '24个月' where the answer says '三年'"
                said, given = duration.text, facts.durations[best_k].text  # type: ignore[union-attr]
            return Span(
                start=m.start,
                end=m.end,
                text=m.text,
                label="contradiction",
                score=self.contradiction_score,
                detector=self.name,
                reason=f"the sources give {given!r} where the answer says {said!r}",
                evidence=[ev],
                kind="contradicted_figure",
            )
        near, near_score = self._nearest(facts, local)
        evidence = [self._evidence(analysis, facts, near, "nearest", near_score)] if near >= 0 else []
        return Span(
            start=m.start,
            end=m.end,
            text=m.text,
            label="baseless",
            score=self.baseless_score,
            detector=self.name,
            reason=f"the {what} {m.text!r} does not occur in the sources",
            evidence=evidence,
            kind="unsupported_figure",
        )

    def _transliterated(self, analysis: CaseAnalysis, facts: SourceFacts, ent: EntityMention) -> Span | None:
        """A dot-joined name (赫尔曼·福格特) the Chinese sources do not give. Only checked when the
        sources are in the answer's script: over English sources the name is spelt in Latin
        letters, and simplified and traditional characters spell the same name differently."""
        if analysis.source_language != detect_language(analysis.answer) or transliteration_supported(ent.text, facts.source.text):
            return None
        return self._name_span(analysis, facts, ent.start, ent.end)

    def _name_span(self, analysis: CaseAnalysis, facts: SourceFacts, a: int, b: int) -> Span:
        """An ``unknown_name`` span on ``answer[a:b]``, with the nearest source sentence as evidence."""
        text = analysis.answer[a:b]
        sent_idx = next((i for i, s in enumerate(analysis.sentences) if s.start <= a < s.end), -1)
        evidence: list[Evidence] = []
        if sent_idx >= 0:
            near, near_score = self._nearest(facts, self._local(analysis, sent_idx, a, b))
            if near >= 0:
                evidence.append(self._evidence(analysis, facts, near, "nearest", near_score))
        return Span(
            start=a,
            end=b,
            text=text,
            label="baseless",
            score=self.entity_score,
            detector=self.name,
            reason=f"the name {text!r} does not occur in the sources",
            evidence=evidence,
            kind="unknown_name",
        )

    def _entity(
        self, analysis: CaseAnalysis, facts: SourceFacts, ent: EntityMention, q_words: frozenset[str], lang: str
    ) -> Span | None:
        answer = analysis.answer
        if lang.startswith("zh") and is_cjk_char(ent.text[0]):  # a dot-joined name (Latin ones start with a letter)
            return self._transliterated(analysis, facts, ent)
        missing: list[tuple[int, int]] = []
        for a, b in ent.words:
            forms = entity_words(answer[a:b], lower=False)
            if not forms:
                continue
            if all(
                word_supported(f, facts.words) or word_supported(f, q_words) or (lang.startswith("zh") and f.lower() in facts.lower)
                for f in forms
            ):
                continue
            missing.append((a, b))
        if not missing:
            return None
        return self._name_span(analysis, facts, missing[0][0], missing[-1][1])


def _features(n_numbers: int, unsupported: int, contradicted: int, n_entities: int, unsupported_entities: int) -> dict[str, float]:
    total = n_numbers + n_entities
    return {
        "numbers": float(n_numbers),
        "unsupported_numbers": float(unsupported),
        "contradicted_numbers": float(contradicted),
        "entities": float(n_entities),
        "unsupported_entities": float(unsupported_entities),
        "frac_unsupported_numbers": (unsupported + contradicted) / n_numbers if n_numbers else 0.0,
        "frac_unsupported_entities": unsupported_entities / n_entities if n_entities else 0.0,
        "frac_unsupported": (unsupported + contradicted + unsupported_entities) / total if total else 0.0,
    }
