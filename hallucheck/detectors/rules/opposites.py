"""Sentences that say the opposite of their source: a negation added or removed, a word swapped
for its opposite.

"The restaurant is not suitable for groups" against "The restaurant is suitable for groups", or
"prices fell" against "prices rose": every word but one is in the source, so n-gram novelty and
embedding similarity call such a sentence supported. This check aligns each answer sentence with
its best-matching source sentences (shared content lemmas, the top ``max_source_sentences``),
word by word (:class:`difflib.SequenceMatcher` over lemmas, negations made explicit by
:func:`hallucheck.text.opposites.polarity_symbols`), and looks at each place where they differ:

- **flipped negation** (kind ``flipped_negation``): the two sides differ only by negation words
  (an odd number of them) and the do-support that comes with them;
- **opposite word** (kind ``opposite_word``): one word against its opposite
  (:func:`hallucheck.text.opposites.are_opposites`), both sides negated alike; also where the
  sentences are ordered differently, when the two words stand next to a word both sentences share
  ("profit fell" / "profit rose", "weak demand" / "strong demand";
  :mod:`hallucheck.detectors.rules.anchored_opposites`);
- **swapped roles** (kind ``swapped_roles``): the answer reads "X M Y" where the source reads
  "Y M X" ("饿了么收购了阿里巴巴" against "阿里巴巴收购了饿了么"; :func:`hallucheck.text.swaps.find_swaps`),
  which the word-by-word alignment cannot see (it aligns one name and calls the other inserted);
- **replaced name** (kind ``replaced_name``): one name or term of the source sentence told as
  another ("the Jessie release" for "the Buster release", "apt-get" for "dpkg"), the rest the
  same: both words name-like (capitals past the first word, letters with digits, or the joints of
  a command or file name), neither inside the other.

A difference counts only where the two sentences otherwise say the same thing: words matched in
order right before and right after it, with at least ``min_context`` content words among the
``window`` nearest ones; ``min_matched`` of the shorter sentence's other content words matched;
the two sentences' negations and opposite words adding up to an odd number (a negation elsewhere
may carry the same meaning: "no X was issued" / "X was not issued", "not able" / "unable"); no
condition or correction around a flipped negation ("if it does not move", "not X, but Y"). It is
dropped when another of the best source sentences (up to :data:`SUPPORT_SENTENCES`) states the
answer's version (a source may say both; an aside between breaks that the answer leaves out,
"latin2 (iso-8859-2) encoding", does not keep it from stating it). Chinese is aligned by characters (see
:func:`hallucheck.text.opposites.polarity_symbols`). Each finding is a ``contradiction`` span with the source sentence as evidence; the
policies' floor table (measured precision) decides whether such a span alone rejects an answer.
"""

from __future__ import annotations

import difflib
import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, Literal

from hallucheck.analysis import CaseAnalysis, SourceAnalysis
from hallucheck.case_facts import SourceSentence
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.rules.anchored_opposites import anchored_han_opposites, anchored_opposites
from hallucheck.detectors.rules.polarity_sentences import Opcode, answer_sources, answer_symbols, matched_map
from hallucheck.detectors.rules.record_fields import YesNoField, mention_polarity, negated_before, yes_no_fields
from hallucheck.detectors.rules.replaced_places import replaced_places, source_place_ids
from hallucheck.text.demonyms import same_place
from hallucheck.text.han_names import name_at
from hallucheck.text.language import base_language, is_cjk_char
from hallucheck.text.lexicons import known_word
from hallucheck.text.opposites import (
    BREAK,
    CONDITION_WORDS,
    CORRECTION_WORDS,
    NEG,
    NEGATION_TIME_WORDS,
    REPLACED_BY_NEGATION,
    Symbol,
    are_opposites,
    negation_load,
)
from hallucheck.text.places import place_ids
from hallucheck.text.stopwords import is_stopword
from hallucheck.text.swaps import Swap, english_roles, find_swaps
from hallucheck.types import Evidence, Finding, Role, Span

__all__ = ["OPPOSITE_FEATURES", "SUPPORT_SENTENCES", "OppositesDetector"]

# Source sentences read for a sentence that states the answer's version, once a difference is found.
SUPPORT_SENTENCES = 12
OPPOSITE_FEATURES: tuple[str, ...] = ("opposites_checked", "opposites_negations", "opposites_words", "opposites_fields",
                                      "opposites_swaps", "opposites_names")

# The kinds of contradiction this detector marks: precise kinds (hallucheck.types.PreciseKind)
# whose precision the floor table measures, so a span carries its kind as it is.
_Kind = Literal["flipped_negation", "opposite_word", "contradicted_field", "swapped_roles", "replaced_name"]

_SCORES: dict[_Kind, float] = {"flipped_negation": 0.9, "opposite_word": 0.9, "contradicted_field": 0.9, "swapped_roles": 0.9,
                               "replaced_name": 0.8}
_REASONS: dict[_Kind, str] = {
    "flipped_negation": "the source says the same without this negation (or with one this sentence lacks)",
    "opposite_word": "the source says the same with the opposite word",
    "contradicted_field": "the record's yes/no field says the opposite",
    "swapped_roles": "the source says this with the two sides the other way round",
    "replaced_name": "the source says the same of another name",
}
_FEATURE: dict[_Kind, str] = {"flipped_negation": "opposites_negations", "opposite_word": "opposites_words",
            "contradicted_field": "opposites_fields", "swapped_roles": "opposites_swaps", "replaced_name": "opposites_names"}


@dataclass
class _Conflict:
    kind: _Kind
    start: int  # answer character offsets
    end: int
    first: int  # answer symbol range of the difference
    last: int
    evidence: SourceSentence


def _fields(sa: SourceAnalysis, language: str) -> list[YesNoField]:
    return sa.derived(f"_opposites_fields_{language}", lambda: yes_no_fields(sa.text, language))


def _field_conflicts(syms: list[Symbol], fields: list[tuple[int, YesNoField]], answer: str) -> list[_Conflict]:
    """Mentions of a record's yes/no field with the opposite polarity ("is not suitable for
    groups" against ``GoodForGroups: true``); a name several fields share with different values
    says nothing."""
    by_name: dict[str, list[tuple[int, YesNoField]]] = {}
    for k, f in fields:
        for name in f.names:
            by_name.setdefault(name, []).append((k, f))
    out = []
    for i, s in enumerate(syms):
        hits = by_name.get(s.form) or by_name.get(s.word)
        if not hits or len({f.value for _, f in hits}) > 1:
            continue
        k, f = hits[0]
        if _in_name(answer, syms, i):
            continue  # a name ("Montecito Street"), not the field
        positive = mention_polarity(syms, i)
        if positive == f.value or (positive and negated_before(syms, i)):
            continue  # agrees, or a negation earlier in the sentence may reach it (a list)
        lo = i
        while lo > 0 and i - lo < 4 and syms[lo - 1].form != BREAK:
            lo -= 1
        first = next((j for j in range(lo, i) if syms[j].form == NEG), lo) if not positive else lo
        ev = SourceSentence(k, 0, 0, f.text, frozenset(), [], [], 0)
        out.append(_Conflict("contradicted_field", syms[first].start, s.end, first, i + 1, ev))
    return out


def _replaced_places(analysis: CaseAnalysis, sources: list[SourceSentence]) -> list[_Conflict]:
    """Places of the answer told as another place of their source sentence, across languages or
    Chinese scripts (:mod:`hallucheck.detectors.rules.replaced_places`), where the word-by-word
    alignment has no shared words to align or reads the sentences in another order; a sentence
    with a negation is left alone."""
    source_ids = source_place_ids(analysis)
    sentences = analysis.sentences
    out = []
    for k, (sentence, syms) in enumerate(zip(sentences, answer_symbols(analysis), strict=True)):
        if any(s.form == NEG for s in syms):
            continue
        near = place_ids(analysis.answer[sentences[max(k - 1, 0)].start : sentences[min(k + 1, len(sentences) - 1)].end],
                         analysis.language)
        for r in replaced_places(analysis.answer, sentence.start, sentence.end, sources, source_ids,
                                 language=analysis.language, source_language=analysis.source_language, near=near):
            out.append(_Conflict("replaced_name", r.start, r.end, 0, 0, r.evidence))
    return out


def _in_name(answer: str, syms: list[Symbol], i: int) -> bool:
    """Whether symbol ``i`` is part of a capitalised name of several words ("Main Street")."""
    def cap(k: int) -> bool:
        return 0 <= k < len(syms) and answer[syms[k].start : syms[k].start + 1].isupper()

    return cap(i) and (cap(i - 1) or cap(i + 1))


# difflib's opcodes: (tag, answer start, answer end, source start, source end)
# The longest aside (in symbols, its two breaks included) that a source sentence may hold between
# two words the answer writes side by side and still state the answer's version.
_ASIDE = 8


def _supported(mapping: dict[int, int], lo: int, hi: int, source: list[Symbol]) -> bool:
    """Whether answer symbols ``lo..hi-1`` are matched, in order and contiguously, in a source
    sentence (``source``: its symbols). An aside between breaks that the answer leaves out does not
    break the run: "the latin2 encoding" is stated by "the latin2 (iso-8859-2) encoding"."""
    if lo < 0 or hi <= lo:
        return False
    prev = mapping.get(lo)
    if prev is None:
        return False
    for i in range(lo + 1, hi):
        j = mapping.get(i)
        if j is None or j <= prev:
            return False
        skipped = source[prev + 1 : j]
        if skipped and not (len(skipped) <= _ASIDE and skipped[0].form == BREAK and skipped[-1].form == BREAK):
            return False
        prev = j
    return True


class OppositesDetector(BaseDetector):
    """Options: ``max_source_sentences`` (3), ``min_overlap`` (content lemmas an answer sentence
    and a source sentence share before they are aligned; 2), ``window`` (matched symbols on each
    side of a difference that count as its context; 4), ``min_context`` (content words needed
    among them; 2), ``min_matched`` (share of the answer sentence's content words, but one, that
    the source sentence must match in order; 0.8)."""

    name: ClassVar[str] = "opposites"
    role: ClassVar[Role] = "facts"
    layer: ClassVar[int] = 1

    def __init__(self, max_source_sentences: int = 3, min_overlap: int = 2, window: int = 4, min_context: int = 2,
                 min_matched: float = 0.8) -> None:
        if max_source_sentences < 1:
            raise ValueError("max_source_sentences must be at least 1")
        if window < 1 or min_context < 1:
            raise ValueError("window and min_context must be at least 1")
        self.max_source_sentences = max_source_sentences
        self.min_overlap = min_overlap
        self.window = window
        self.min_context = min_context
        self.min_matched = min_matched

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        feats = {k: 0.0 for k in OPPOSITE_FEATURES}
        if not case.answer.strip() or not any(c.text.strip() for c in case.contexts):
            return Finding(detector=self.name, risk=0.0, notes=["nothing to compare: empty answer or no source"],
                           flagged=False, features=feats)
        language = analysis.language
        verb_last = base_language(language) == "de"
        sources, index = answer_sources(analysis)
        conflicts: list[_Conflict] = []
        fields = [(k, f) for k, sa in enumerate(analysis.sources) for f in _fields(sa, language)]
        if analysis.cross_lingual or analysis.language != analysis.source_language:  # another language or Chinese script
            conflicts.extend(_replaced_places(analysis, sources))
        for syms in answer_symbols(analysis):
            if fields:
                conflicts.extend(_field_conflicts(syms, fields, case.answer))
            content = {s.form for s in syms if s.content}
            counts: Counter[int] = Counter()
            for w in content:
                counts.update(index.get(w, ()))
            ranked = [n for n, c in sorted(counts.items(), key=lambda x: (-x[1], x[0])) if c >= self.min_overlap]
            best = ranked[: self.max_source_sentences]
            if not best:
                continue
            feats["opposites_checked"] += 1
            forms = [s.form for s in syms]
            aligned = [(sources[n], *matched_map(forms, sources[n])) for n in best]
            found: list[_Conflict] = []
            n_content = sum(s.content for s in syms)
            for n, (src, ops, mapping) in zip(best, aligned, strict=True):
                # X, M and Y of a swap each hold a content word both sentences have: fewer than
                # three shared ones, no swap (most of the best sentences share two, and the
                # search for one is the costliest part of this check)
                if counts[n] >= 3 and any(s.content and i not in mapping for i, s in enumerate(syms)):
                    # a swap leaves one of its two sides unmatched in order: a sentence matched whole has none
                    found.extend(self._swaps(syms, forms, src, aligned, ranked, sources, case.answer, language))
                # the two sentences say the same thing (one word may differ); one of them may be
                # longer ("A; B" against a source sentence "B")
                if sum(syms[i].content for i in mapping) < self.min_matched * (min(n_content, src.content) - 1):
                    continue
                differences = self._differences(syms, src, ops, mapping, verb_last=verb_last)
                differences += self._replaced_names(syms, case.answer, src, analysis.sources[src.source].text, ops, language)
                for c in differences:
                    lo, hi = max(c.first - 1, 0), min(c.last + 1, len(syms))
                    if not self._stated_elsewhere(forms, src, aligned, ranked, sources, lo, hi):
                        found.append(c)
            # an opposite next to a shared word, where reordering kept the alignment from seeing it
            width, anchored = (2, anchored_han_opposites) if base_language(language) == "zh" else (1, anchored_opposites)
            for n in best:
                others = [sources[m].symbols for m in ranked[:SUPPORT_SENTENCES] if m != n]
                found.extend(_Conflict("opposite_word", syms[i].start, syms[i + width - 1].end, i, i + width, sources[n])
                             for i, _j in anchored(syms, sources[n].symbols, others))
            conflicts.extend(found)
        spans: list[Span] = []
        seen: set[tuple[int, int]] = set()
        for c in conflicts:
            if any(c.start < e and s < c.end for s, e in seen):
                continue
            seen.add((c.start, c.end))
            feats[_FEATURE[c.kind]] += 1
            context = case.contexts[c.evidence.source]
            field = c.kind == "contradicted_field"  # evidence: the record's readable line, not a span of it
            spans.append(Span(
                start=c.start, end=c.end, text=case.answer[c.start : c.end], label="contradiction",
                score=_SCORES[c.kind], detector=self.name, reason=_REASONS[c.kind], kind=c.kind,
                evidence=[Evidence(source_id=context.id, text=c.evidence.text, relation="contradicts",
                                   start=None if field else c.evidence.start, end=None if field else c.evidence.end)],
            ))
        risk = max((s.score for s in spans), default=0.0)
        return Finding(detector=self.name, risk=risk, spans=spans, flagged=bool(spans), features=feats)

    def _swaps(self, syms: list[Symbol], forms: list[str], src: SourceSentence,
               aligned: list[tuple[SourceSentence, list[Opcode], dict[int, int]]], ranked: list[int],
               sources: list[SourceSentence], text: str, language: str) -> list[_Conflict]:
        """Swapped roles against ``src`` (in English, :func:`_roles`), unless another of the best
        source sentences reads as the answer does (a source may state both directions)."""
        return [
            _Conflict("swapped_roles", syms[sw.x_start].start, syms[sw.y_end - 1].end, sw.x_start, sw.y_end, src)
            for sw in find_swaps(syms, src.symbols)
            if _roles(syms, sw, text, language)
            and not self._stated_elsewhere(forms, src, aligned, ranked, sources, sw.x_start, sw.y_end)
        ]

    def _stated_elsewhere(self, forms: list[str], src: SourceSentence,
                          aligned: list[tuple[SourceSentence, list[Opcode], dict[int, int]]], ranked: list[int],
                          sources: list[SourceSentence], lo: int, hi: int) -> bool:
        """Whether a best source sentence other than ``src`` matches answer symbols ``lo..hi-1`` in
        order: then a source states the answer's version. A found difference is rare, so the next
        best sentences (up to ``SUPPORT_SENTENCES``) are read too, for a source stating it a little
        further down."""
        if any(_supported(m, lo, hi, s2.symbols) for s2, _, m in aligned if s2 is not src):
            return True
        more = ranked[self.max_source_sentences : SUPPORT_SENTENCES]
        return any(_supported(matched_map(forms, sources[n])[1], lo, hi, sources[n].symbols) for n in more)

    def _differences(self, syms: list[Symbol], src: SourceSentence, ops: list[Opcode],
                     mapping: dict[int, int], verb_last: bool = False) -> list[_Conflict]:
        """The flipped negations and opposite words between an answer sentence and a source
        sentence. ``verb_last``: the language puts the verb at the end of the clause (German: "hat
        den Plan genehmigt" / "abgelehnt"), so an opposite word there needs no more context than
        one in the middle of the sentence."""
        out: list[_Conflict] = []
        s_matched = set(mapping.values())
        kinds = [None if tag == "equal" else _kind(syms[i1:i2], src.symbols[j1:j2]) for tag, i1, i2, j1, j2 in ops]
        # a word against its opposite counts once, as an opposite, even where one of the two also
        # negates without a negation word ("禁止" / "允许", "reject" / "accept")
        a_opp = {i for k, (_t, i1, i2, _j1, _j2) in zip(kinds, ops, strict=True) if k == "opposite_word" for i in range(i1, i2)}
        s_opp = {j for k, (_t, _i1, _i2, j1, j2) in zip(kinds, ops, strict=True) if k == "opposite_word" for j in range(j1, j2)}
        # ... and where the opposite is itself written with a negation character ("无效" / "有效"),
        # that character is the opposite's, not a negation of its own
        a_load = negation_load(syms, [i for i in range(len(syms)) if i not in mapping and i not in a_opp]) \
            - sum(syms[i].form == NEG for i in a_opp)
        s_load = negation_load(src.symbols, [j for j in range(len(src.symbols)) if j not in s_matched and j not in s_opp]) \
            - sum(src.symbols[j].form == NEG for j in s_opp)
        # The sentences disagree only when their negations and opposite words add up to an odd
        # number: a negation elsewhere may carry the same meaning ("no X was issued" / "X was not
        # issued", "failed to provide accurate" / "provided inaccurate", "not able" / "unable").
        if (a_load - s_load + kinds.count("opposite_word")) % 2 == 0:
            return out
        for n, (_tag, i1, i2, j1, j2) in enumerate(ops):
            kind = kinds[n]
            if kind is None:
                continue
            if kind == "flipped_negation" and (_framed(syms, i1, i2) or _framed(src.symbols, j1, j2)):
                continue
            if not self._in_context(syms, src, ops, n, edge_twice=not (verb_last and kind == "opposite_word")):
                continue
            if i2 > i1:
                start, end = syms[i1].start, syms[i2 - 1].end
                # a Chinese word aligned by its characters is marked whole ("无效", not "无")
                word = syms[i1].word
                if len(word) > syms[i1].end - start and all(is_cjk_char(ch) for ch in word):
                    end = max(end, start + len(word))
            else:  # the answer lacks the source's negation: the words on both sides of where it was
                start, end = syms[max(i1 - 1, 0)].start, syms[min(i1, len(syms) - 1)].end
            out.append(_Conflict(kind, start, end, i1, max(i2, i1 + 1) if i2 > i1 else i1, src))
        return out


    def _in_context(self, syms: list[Symbol], src: SourceSentence, ops: list[Opcode], n: int, *,
                    edge_twice: bool = True) -> bool:
        """Whether difference ``ops[n]`` sits between words both sentences have (or at the start or
        end of both), with ``min_context`` content words among the ``window`` nearest ones (twice as
        many at a sentence's start or end, unless ``edge_twice`` is off)."""
        _tag, i1, i2, j1, j2 = ops[n]
        before = ops[n - 1] if n > 0 else None
        after = ops[n + 1] if n + 1 < len(ops) else None
        if (before is None and (i1 or j1)) or (after is None and (i2 < len(syms) or j2 < len(src.symbols))):
            return False
        if (before is not None and before[0] != "equal") or (after is not None and after[0] != "equal"):
            return False
        left = syms[max(before[1], i1 - self.window) : i1] if before is not None else []
        right = syms[i2 : min(after[2], i2 + self.window)] if after is not None else []
        # at the very start or end of both sentences, one side's context must count twice
        need = self.min_context if (before is not None and after is not None) or not edge_twice else 2 * self.min_context
        return bool(left or right) and sum(s.content for s in left + right) >= need

    def _replaced_names(self, syms: list[Symbol], answer: str, src: SourceSentence, source_text: str,
                        ops: list[Opcode], language: str) -> list[_Conflict]:
        """One name or term of a source sentence told as another ("runs Jessie" for "runs Buster",
        "uses apt-get" for "uses dpkg"), the rest of the sentence the same."""
        out = []
        zh = base_language(language) == "zh"
        for n, (tag, i1, i2, j1, j2) in enumerate(ops):
            # a name at a sentence's end ("他住在北京。") needs no more context: that both sides are
            # names of one kind is itself the check
            if zh and tag == "replace" and self._in_context(syms, src, ops, n, edge_twice=False):
                name = _replaced_han_name(syms, answer, src, i1, i2, j1, j2)
                if name is not None:
                    out.append(_Conflict("replaced_name", name[0], name[1], i1, i2, src))
                    continue
            if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
                continue
            a, b = syms[i1], src.symbols[j1]
            if a.form in (NEG, BREAK) or b.form in (NEG, BREAK):
                continue
            new, old = answer[a.start : a.end], source_text[b.start : b.end]
            if not (_name_like(answer, a.start, a.end, i1 > 0, language) and _name_like(source_text, b.start, b.end, j1 > 0, language)):
                continue
            if new.lower() in old.lower() or old.lower() in new.lower() or are_opposites(a.word, b.word, a.form, b.form):
                continue
            if _ORDINAL.fullmatch(new) or _ORDINAL.fullmatch(old):
                continue  # a rank or century ("17e" for "XVIIe", "40e" for "40è"): the figure rules read those
            if difflib.SequenceMatcher(None, new.lower(), old.lower()).ratio() >= SPELLING_RATIO:
                continue  # the same name spelt another way ("Günter" / "Guenter", "Sn0wBreeze" / "Sn0Breeze")
            if _one_word_two_forms(new, old) or same_place(new, old):
                continue
            if self._in_context(syms, src, ops, n):
                out.append(_Conflict("replaced_name", a.start, a.end, i1, i2, src))
        return out


def _replaced_han_name(syms: list[Symbol], answer: str, src: SourceSentence, i1: int, i2: int, j1: int,
                       j2: int) -> tuple[int, int] | None:
    """The answer offsets of a Han-script name that stands where its source sentence has another
    name of the same kind ("王强" for "李明", "深圳" for "杭州"), for a difference of Chinese
    characters ``syms[i1:i2]`` / ``src.symbols[j1:j2]``; None when either side is no name
    (:func:`hallucheck.text.han_names.name_at`) or one name holds the other."""
    if any(s.form in (NEG, BREAK) for s in syms[i1:i2]) or any(s.form in (NEG, BREAK) for s in src.symbols[j1:j2]):
        return None
    base = syms[0].start
    sentence = answer[base : syms[-1].end]
    new = name_at(sentence, syms[i1].start - base, syms[i2 - 1].end - base)
    old = name_at(src.text, src.symbols[j1].start - src.start, src.symbols[j2 - 1].end - src.start)
    if new is None or old is None or new.kind != old.kind or new.text in old.text or old.text in new.text:
        return None
    return base + new.start, base + new.end


_CODE_CHARS = frozenset("-_./:+")
# An ordinal in digits or Roman numerals, with the endings English, French and German give it.
_ORDINAL = re.compile(r"(?:\d+|[IVXLCDM]+)(?:e|è|ème|eme|er|ère|re|nd|nde|st|th|rd|\.)?")
# Languages whose dictionary tells a lower-case term from a word well enough (measured on the
# synth train part: in French, reworded adverbs were read as terms).
_TERM_DICTIONARIES = frozenset({"en", "de"})
# Two names at least this alike (difflib's ratio) are one name spelt two ways.
SPELLING_RATIO = 0.75


def _one_word_two_forms(a: str, b: str) -> bool:
    """Whether two words are one name or term in two forms: another ending of one stem
    ("Catering" / "Caterers": a shared start of 5 letters, at most 3 more each; "Austria" /
    "Australia" stay apart) or a contraction ("St" / "Saint", "Mt" / "Mount", "Dr" / "Doctor": at
    most 3 letters, not all capitals (state codes such as "CA" are names of their own), the same
    first and last letter as the long form, all of them in order in it)."""
    x, y = sorted((a.lower(), b.lower()), key=len)
    stem = len(os.path.commonprefix((x, y)))
    if stem >= 5 and len(x) - stem <= 3 and len(y) - stem <= 3:
        return True
    short = a if len(a) <= len(b) else b
    if len(x) <= 3 and not short.isupper() and x[0] == y[0] and x[-1] == y[-1] and len(y) > len(x):
        rest = iter(y[1:])
        return all(c in rest for c in x[1:])
    return False


def _roles(syms: list[Symbol], sw: Swap, text: str, language: str) -> bool:
    """Whether a swap's two sides can be roles: always outside English; in English two names
    traded ("the Protocol Transfer Hypertext", "sqrt package for libc6"), or two parts that can
    take roles around a verb (:func:`hallucheck.text.swaps.english_roles`), so that an adverb or
    adjective moved around its noun ("perfectly prepared coffee" over "coffee prepared
    perfectly") is no swap."""
    if base_language(language) != "en":
        return True
    x, m, y = syms[sw.x_start : sw.m_start], syms[sw.m_start : sw.y_start], syms[sw.y_start : sw.y_end]
    if all(any(s.content and _name_like(text, s.start, s.end, True, language) for s in side) for side in (x, y)):
        return True
    return english_roles(x, m, y)


def _name_like(text: str, start: int, end: int, mid_sentence: bool, language: str) -> bool:
    """Whether ``text[start:end]`` is a name or term, not a common word: capitals (past the
    sentence's first word; in German, which capitalises every noun, only for words its dictionary
    does not know), a lower-case word the English or German dictionary does not know ("dpkg"), digits among letters,
    a part of a command or file name ("apt-get", "/etc/fstab", "python3"), or a Latin word in
    Chinese text."""
    base = base_language(language)
    zh = base == "zh"
    word = text[start:end]
    if len(word) < 2 or not any(c.isalpha() for c in word):
        return False
    if any(c in _CODE_CHARS for c in word[1:-1]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)):
        return True
    if (start > 0 and text[start - 1] in _CODE_CHARS) or (end < len(text) - 1 and text[end] in _CODE_CHARS and text[end + 1].isalnum()):
        return True
    if zh and word.isascii() and word.isalpha():
        return True
    if not word.isalpha():
        return False
    # a capital counts after a word or a comma, not where a sentence or a list item begins ("2. Choose")
    before = text[:start].rstrip()
    opens = not before or not (before[-1].isalpha() or before[-1] == ",")
    if any(c.isupper() for c in word[1:]):
        return True
    if word.islower():
        # a command or a term the language's dictionary does not know ("dpkg", "fstab"); not in
        # French, whose dictionary lacks common adverbs ("normalement", "habituellement"); never a
        # stop word, which the dictionary may lack ("her")
        return (len(word) >= 3 and base in _TERM_DICTIONARIES and not known_word(word, base)
                and not is_stopword(word, base))
    if not (mid_sentence and not opens and word[0].isupper()):
        return False
    return not (base == "de" and known_word(word, "de"))


def _framed(syms: list[Symbol], lo: int, hi: int, reach: int = 8) -> bool:
    """Whether a negation at symbols ``lo..hi-1`` stands in a condition (a condition word earlier
    in its clause, within ``reach`` symbols) or a correction (a "but" within ``reach`` after it)."""
    for s in reversed(syms[max(0, lo - reach) : lo]):
        if s.form == BREAK:
            break
        if s.word in CONDITION_WORDS or s.form in CONDITION_WORDS:
            return True
    return any(s.word in CORRECTION_WORDS or s.form in CORRECTION_WORDS for s in syms[hi : hi + reach])


# The second character of a Chinese "already" or "still" word (已经, 仍然, 依然): aligned by
# characters, 已经 is 已 and 经, and 经 goes with it.
_ZH_SECOND = {"经": "已", "經": "已", "然": "仍依"}


def _without_replaced(forms: list[str]) -> list[str]:
    kept = [f for f in forms if f not in NEGATION_TIME_WORDS]
    return [f for k, f in enumerate(kept) if f not in REPLACED_BY_NEGATION
            and not (f in _ZH_SECOND and k and kept[k - 1] in _ZH_SECOND[f])]


def _kind(a_side: list[Symbol], s_side: list[Symbol]) -> _Kind | None:
    """What one difference between an answer and a source sentence is, if it flips the polarity."""
    if len(a_side) == 1 and len(s_side) == 1:
        a, s = a_side[0], s_side[0]
        if are_opposites(a.word, s.word, a.form, s.form):
            return "opposite_word"
    a_rest = [s.form for s in a_side if s.form != NEG]
    s_rest = [s.form for s in s_side if s.form != NEG]
    a_neg = sum(s.form == NEG for s in a_side)
    s_neg = sum(s.form == NEG for s in s_side)
    if (a_neg - s_neg) % 2 == 1 and (a_rest == s_rest or (
            a_neg + s_neg == 1 and _without_replaced(a_rest) == _without_replaced(s_rest))):
        # "no warranty" / "a warranty", "keine" / "eine", "没有" / "有", "未" / "已": the negation takes a word's place
        return "flipped_negation"
    if (a_neg - s_neg) % 2 == 0 and len(a_rest) <= 4 and len(s_rest) <= 4 and all(len(x) == 1 for x in a_rest + s_rest):
        # Chinese, aligned by characters: a word against its opposite ("增加" / "减少")
        if are_opposites("".join(a_rest), "".join(s_rest)):
            return "opposite_word"
    if len(a_rest) == 1 and len(s_rest) == 1 and (a_neg - s_neg) % 2 == 0:
        a = next(s for s in a_side if s.form != NEG)
        s = next(x for x in s_side if x.form != NEG)
        if are_opposites(a.word, s.word, a.form, s.form):
            return "opposite_word"
    return None
