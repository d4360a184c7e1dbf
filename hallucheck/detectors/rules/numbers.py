"""Numbers, dates, amounts, phones and names in the answer that the sources lack or contradict.

Figures and names are where an answer's errors are most checkable and most harmful: a wrong
price, an invented hotline (RAG prompting guide: 客服專線 0800-123-456), a founder nobody mentioned
(RAG detection guide: "... par Jean Dupont"). Every figure of the answer is normalised (:mod:`hallucheck.text.numbers`)
and looked up among the sources' figures; one the sources do not give is ``baseless``, unless the
best-matching source sentence talks about the same thing with a different figure, which makes it
a ``contradiction`` ("coûte 89€" against "coûte 99€"). Names (:mod:`hallucheck.text.entities`)
absent from the sources are ``baseless``. Figures and names in the question count as given.
Weekday ranges (:mod:`hallucheck.detectors.rules.weekday_ranges`) are compared as sets of days:
"weekdays" restates "Monday to Friday", "Monday to Saturday" contradicts it.

Source-side parsing is cached on the shared SourceAnalysis, because RAG logs repeat sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import AnswerFigures
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.rules.answer_figures import (
    answer_figures,
    converted_durations,
    durations_in_other_units,
    figures_given_otherwise,
    figures_in_other_forms,
)
from hallucheck.detectors.rules.derived_figures import computed_result, halved_or_doubled, hedged_match, weaker_bound
from hallucheck.detectors.rules.figure_claims import (
    conversion,
    named_month,
    not_a_claim,
    own_label,
    paren_differs,
    reference_word,
    sources_number,
    written_date,
)
from hallucheck.detectors.rules.figure_match import (
    COUNTED,
    HEDGE_BEFORE,
    answer_unit,
    compatible,
    decade,
    figure_sides,
    is_rate,
    overlap_share,
    same_quantity,
    same_side,
    words_around,
    year_or_count,
)
from hallucheck.detectors.rules.replaced_places import given_places
from hallucheck.detectors.rules.source_figures import SourceFacts, group_by_sentence, sentence_of, source_facts
from hallucheck.detectors.rules.weekday_ranges import answer_weekdays, source_weekdays
from hallucheck.text import Segment
from hallucheck.text.demonyms import adjective_in
from hallucheck.text.durations import Duration, same_length
from hallucheck.text.entities import EntityMention, entity_words, find_entities, name_words, transliteration_supported, word_supported
from hallucheck.text.language import base_language, detect_language, is_cjk_char
from hallucheck.text.lexicons import known_word
from hallucheck.text.name_glosses import glossed_name
from hallucheck.text.name_sounds import han_name_in_han, latin_name_in_han
from hallucheck.text.name_translations import translated_name_in
from hallucheck.text.numbers import NumberMention, find_numbers, same_value
from hallucheck.text.weekdays import WeekdaySpan, find_weekdays, same_days
from hallucheck.types import Coverage, Evidence, Finding, Role, Span

__all__ = [
    "NumbersDetector",
    "SourceFacts",
    "converted_durations",
    "durations_in_other_units",
    "figures_given_otherwise",
    "figures_in_other_forms",
    "source_facts",
]

# Work cap of one answer: source figures compared while looking for a contradiction. A long
# answer full of figures against long sources full of figures (199,000 x 400,000 characters)
# once took minutes here; past the cap the rest of the answer is left out and said so in
# ``Finding.coverage``. RAGTruth answers stay far below it.
MAX_COMPARISONS = 1_000_000
_KIND_NAMES = {
    "number": "number", "percent": "percentage", "money": "amount", "date": "date", "year": "year",
    "time": "time", "phone": "phone number", "ordinal": "ordinal", "discount": "discount",
}



@lru_cache(maxsize=1024)
def _question_numbers(question: str, language: str) -> tuple[NumberMention, ...]:
    """Figures of a question (cached: RAG logs ask the same question of many answers)."""
    return tuple(find_numbers(question, language))


@lru_cache(maxsize=1024)
def _question_weekdays(question: str) -> tuple[WeekdaySpan, ...]:
    """Weekday ranges of a question (what the user said is given)."""
    return tuple(w for w in find_weekdays(question) if not w.single)


@lru_cache(maxsize=1024)
def _question_words(question: str) -> frozenset[str]:
    return name_words(question)



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
        before, after = words_around(analysis, sent_idx, a, b)
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
            score, shared = overlap_share(local, norms)
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
        figures = answer_figures(analysis)
        durations = figures.durations
        mentions = [m for m in figures.found if not m.weak]
        sentences = analysis.sentences
        by_sentence = group_by_sentence(mentions, sentences)
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
                    or written_date(m, facts) or named_month(m, facts)
                    or any(same_value(m, c) for c in computed) or hedged_match(answer, m, facts, work)
                    or weaker_bound(answer, m, facts, work)
                    or halved_or_doubled(m, facts, work)
                ):
                    supported_end = m.end
                    supported = m
                    continue
                if computed_result(answer, m, mentions):
                    # The answer's own arithmetic, done right ("$50,000 x 2.4% = $1,200"): the
                    # operands are checked as figures of their own, the result restates them.
                    computed.append(m)
                    supported_end = m.end
                    supported = m
                    continue
                if conversion(answer, m, supported_end):
                    # In parentheses after a supported figure: held against the answer only when
                    # the sources put another figure in parentheses after that same figure
                    # ("sector 0 (512 bytes)" against "sector 0 (522 bytes)").
                    if supported is None or not paren_differs(facts, supported, m):
                        continue
                elif not_a_claim(answer, m, supported_end, facts.meta_words):
                    ref = reference_word(answer, m)
                    if ref is None or own_label(answer, m) or not sources_number(facts, ref):
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
            figureless = {id(m) for m, _ in figures.halves}  # no figure written: its value alone says nothing
            for m, d, si in self._weak_durations(figures, sentences, question_mentions):
                if facts.gives_duration(d) or (id(m) not in figureless and facts.gives(m)):
                    continue
                local = self._local(analysis, si, m.start, m.end)
                span = self._judge(analysis, facts, m, local, self._around(analysis, si, m.start, m.end, 1), work, d,
                                   durations_only=True)
                if span.label == "contradiction":
                    number_spans.append(span)
                    contradicted += 1

        judged: list[tuple[int, int]] = []  # weekday ranges compared with the sources' (no names in them)
        if stopped_at is None:
            q_weekdays = _question_weekdays(case.question) if case.question else ()
            for w, si in zip(ranges := answer_weekdays(analysis), sentence_of(ranges, sentences), strict=True):
                if si < 0:
                    continue
                if any(same_days(w, q) for q in q_weekdays) or source_weekdays(analysis.source).gives(w):
                    judged.append((w.start, w.end))
                    continue
                weekday_span = self._judge_weekdays(analysis, facts, w, si)
                if weekday_span is not None:
                    judged.append((w.start, w.end))
                    number_spans.append(weekday_span)
                    contradicted += 1

        spans.extend(number_spans)
        n_entities = unsupported_entities = 0
        if self.entities:
            taken = [(m.start, m.end) for m in mentions] + judged
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
        figures: AnswerFigures, sentences: list[Segment], question_mentions: Sequence[NumberMention],
    ) -> list[tuple[NumberMention, Duration, int]]:
        """The durations whose figure is a weak mention or a Chinese half ("半年"), with the
        figure and its sentence index."""
        pairs = {m.start: (m, figures.durations[m.start]) for m in figures.found
                 if m.weak and m.start in figures.durations and not any(same_value(m, q) for q in question_mentions)}
        pairs.update((m.start, (m, d)) for m, d in figures.halves)
        weak = [pairs[k][0] for k in sorted(pairs)]
        return [(m, pairs[m.start][1], si) for si, group in enumerate(group_by_sentence(weak, sentences)) for m in group]

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
        unit = answer_unit(analysis, m) if m.kind in COUNTED else ""
        rate = is_rate(analysis.answer, m)
        hedged = bool(HEDGE_BEFORE.search(analysis.answer, max(0, m.start - 24), m.start))
        source_text = facts.source.text
        sides = figure_sides(analysis, m)
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
            if not compatible(m, other) and not (
                year_or_count(m, other) and same_side(sides, facts.sides[k])
                and not decade(analysis.answer, m) and not decade(source_text, other)
            ):
                continue
            idx = facts.mention_sentence[k]
            near = len(local & facts.neighbours[k])
            if idx < 0 or not near:
                continue  # the source figure measures something else
            tight = len(close & facts.neighbours[k]) + len(local & facts.close[k])
            score, _ = overlap_share(local, facts.sentence_norms[idx])
            key = (len(close & facts.close[k]), tight, near, score)
            if key > best_key:
                best, best_key, best_other, best_k = idx, key, other, k
        best_length = facts.durations[best_k] if duration is not None and best_k >= 0 else None
        if duration is not None and facts.figureless:
            # a length the source writes with no figure ("an hour and a half" where the answer
            # says "80 minutes"), read like a source figure
            where, neighbours, close_words = facts.figureless_context
            for j, (other, other_duration) in enumerate(facts.figureless):
                idx, near = where[j], len(local & neighbours[j])
                if idx < 0 or not near or same_length(duration, other_duration) is not False:
                    continue
                tight = len(close & neighbours[j]) + len(local & close_words[j])
                score, _ = overlap_share(local, facts.sentence_norms[idx])
                key = (len(close & close_words[j]), tight, near, score)
                if key > best_key:
                    best, best_key, best_other, best_k, best_length = idx, key, other, -1, other_duration
        # The source figure that best matches the answer's in context must measure the same
        # quantity; when it does not, the answer's figure is unsupported, not contradicted (a
        # weaker match further away would only be a guess).
        both_durations = duration is not None and best_length is not None
        if both_durations:  # compared by length: "up to 90 minutes" bounds "two hours" as 7,200 seconds
            m, best_other = m._replace(value=duration.length), best_other._replace(value=best_length.length)  # type: ignore[union-attr]
        if (
            best >= 0 and best_key[3] >= self.contradiction_overlap and best_other is not None
            and same_quantity(m, best_other, unit, facts.units[best_k] if best_k >= 0 else "", rate, hedged, source_text,
                              both_durations)
        ):
            ev = self._evidence(analysis, facts, best, "contradicts", best_key[3])
            said, given = m.text, best_other.text
            if both_durations:  # "the sources give '24个月' where the answer says '三年'"
                said, given = duration.text, best_length.text  # type: ignore[union-attr]
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

    def _judge_weekdays(self, analysis: CaseAnalysis, facts: SourceFacts, w: WeekdaySpan, si: int) -> Span | None:
        """A contradiction when a source range about the same thing states other days ("Monday to
        Friday" where the answer says "Monday to Saturday"), else None: days no source range
        states are left to the other detectors."""
        given = source_weekdays(analysis.source)
        if not given.ranges:
            return None
        local = self._local(analysis, si, w.start, w.end)
        close = self._around(analysis, si, w.start, w.end, 1)
        neighbours, close_words = given.context
        best, best_key = -1, (0, 0, 0, 0.0)
        for j, idx in enumerate(given.sentence):
            near = len(local & neighbours[j])
            if idx < 0 or not near:
                continue
            tight = len(close & neighbours[j]) + len(local & close_words[j])
            score, _ = overlap_share(local, facts.sentence_norms[idx])
            key = (len(close & close_words[j]), tight, near, score)
            if key > best_key:
                best, best_key = j, key
        if best < 0 or best_key[3] < self.contradiction_overlap:
            return None
        other = given.ranges[best]
        ev = self._evidence(analysis, facts, given.sentence[best], "contradicts", best_key[3])
        return Span(
            start=w.start,
            end=w.end,
            text=w.text,
            label="contradiction",
            score=self.contradiction_score,
            detector=self.name,
            reason=f"the sources give {other.text!r} where the answer says {w.text!r}",
            evidence=[ev],
            kind="contradicted_figure",
        )

    def _transliterated(self, analysis: CaseAnalysis, facts: SourceFacts, ent: EntityMention) -> Span | None:
        """A dot-joined name (赫尔曼·福格特) the Chinese sources do not give, in those characters or in
        others that sound alike (another translator's 亨利克·斯滕森 for 亨瑞克·史坦森). Only checked when the
        sources are in the answer's script: over English sources the name is spelt in Latin
        letters, and simplified and traditional characters spell the same name differently."""
        if analysis.source_language != detect_language(analysis.answer) or transliteration_supported(ent.text, facts.source.text) \
                or han_name_in_han(ent.text, facts.source.text):
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
        if facts.has_han and latin_name_in_han(ent.text, facts.source.text):
            return None  # the sources transliterate it (Nigel Farage: 奈杰尔·法拉奇)
        if facts.has_han and translated_name_in(ent.text, facts.source.text):
            return None  # a name Chinese gives by meaning (Tory: 保守党)
        if lang.startswith("zh") and glossed_name(answer, ent.start, ent.end, facts.source.text):
            return None  # the original of a name the answer has just given in the sources' words
        # Over sources in another language a dictionary word of the answer's own language is no
        # name the sources lack but a word they say otherwise (German "Richter", "Präsident")
        base = base_language(lang)
        common = analysis.cross_lingual and base != "zh"
        adjectives = base in ("fr", "de") and not analysis.cross_lingual
        missing: list[tuple[int, int]] = []
        places: list[tuple[int, int]] | None = None  # places the sources name in other words, read once a word is missing
        for a, b in ent.words:
            forms = entity_words(answer[a:b], lower=False)
            if not forms:
                continue
            if places is None and not all(word_supported(f, facts.words, lang) for f in forms):
                places = given_places(analysis, ent.start, ent.end)
            if places and any(x <= a and b <= y for x, y in places):
                continue  # a place the sources name in another language or script ("Vienne" over "Vienna")
            if common and all(known_word(f, base) for f in forms):
                continue
            if adjectives and len(forms) == 1 and adjective_in(forms[0], facts.words, facts.source.text):
                continue  # "Macédoine" over "macédonien": the place the sources' adjective names
            if all(
                word_supported(f, facts.words, lang) or word_supported(f, q_words, lang)
                or (lang.startswith("zh") and f.lower() in facts.lower)
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
