"""Layer 4: who did what to whom — subject–verb–object triples of the answer against its sources.

N-gram novelty cannot see "Beta acquired Acme" as wrong when the source says "Acme acquired
Beta": every word is in the source. This detector extracts triples (agent, verb, patient,
negated) from each answer sentence and from its best-matching source sentences (content-lemma
overlap, the top ``max_source_sentences``), and compares those with the same verb:

- **role swap**: the answer's agent is the source's patient and the other way round;
- **swapped argument**: same verb and one argument, but the other differs, and all of them are
  names or numbers ("Acme acquired Gamma" when the source says "Acme acquired Beta" and nothing else);
- **negation flip**: same verb and arguments, one side negated.

Each gives a ``contradiction`` span (on the swapped arguments, or the clause for a negation)
with the source sentence as evidence. English is parsed with spaCy (extra ``triplets``; passives
turned active); other languages, or English without spaCy, use word order around a verb both
sentences share (see :mod:`hallucheck.text.triples`), which gives no triple for passive clauses.

Numbers for the learned policy are in ``Finding.features``: triples in the answer, how many
met a source triple with the same verb, were supported, and each kind of conflict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.text.triples import (
    Triple,
    order_triples,
    parse_triples,
    spacy_available,
)
from hallucheck.types import Evidence, Finding, PreciseKind, Role, Span

__all__ = ["TRIPLET_FEATURES", "TripletsDetector"]

TRIPLET_FEATURES: tuple[str, ...] = (
    "triplets_answer",
    "triplets_checked",
    "triplets_supported",
    "triplets_role_swaps",
    "triplets_arg_swaps",
    "triplets_negation_flips",
    "triplets_max",
)

_Kind = Literal["role_swap", "negation_flip", "arg_swap"]
_SCORES: dict[_Kind, float] = {"role_swap": 0.85, "negation_flip": 0.7, "arg_swap": 0.6}
# The precise kind the floor table knows (hallucheck.types.PreciseKind); its negation flips are not
# marked with the ``opposites`` detector's kind, whose precision was measured on that detector alone.
_KINDS: dict[_Kind, PreciseKind] = {"role_swap": "swapped_roles"}
_REASONS: dict[_Kind, str] = {
    "role_swap": "the source has the roles the other way round",
    "negation_flip": "the source says the opposite (negation)",
    "arg_swap": "the source names another {role} for this action",
}


@dataclass
class _SourceSentence:
    source: int  # index into case.contexts
    start: int | None  # offsets into that context (None for a line read out of a JSON record)
    end: int | None
    text: str
    norms: frozenset[str]
    tokens: list[Any]


@dataclass
class _Conflict:
    kind: _Kind
    start: int
    end: int
    evidence: _SourceSentence
    role: str = ""


class TripletsDetector(BaseDetector):
    """Options: ``parser`` (``auto``: spaCy for English when installed, word order otherwise;
    ``spacy``; ``rules``), ``max_source_sentences`` (3), ``min_overlap`` (content lemmas an
    answer and a source sentence share before their triples are compared; 2)."""

    name: ClassVar[str] = "triplets"
    role: ClassVar[Role] = "entailment"
    layer: ClassVar[int] = 4

    def __init__(
        self,
        parser: Literal["auto", "spacy", "rules"] = "auto",
        max_source_sentences: int = 3,
        min_overlap: int = 2,
    ) -> None:
        if parser not in ("auto", "spacy", "rules"):
            raise ValueError("parser must be 'auto', 'spacy' or 'rules'")
        if max_source_sentences < 1:
            raise ValueError("max_source_sentences must be at least 1")
        if parser == "spacy" and not spacy_available():
            raise RuntimeError("parser='spacy' needs the English pipeline: pip install 'hallucheck[triplets]'")
        self.parser = parser
        self.max_source_sentences = max_source_sentences
        self.min_overlap = min_overlap

    def _use_spacy(self, language: str) -> bool:
        if self.parser == "rules" or not language.lower().startswith("en"):
            return False
        return self.parser == "spacy" or spacy_available()

    def _source_sentences(self, analysis: CaseAnalysis, language: str) -> list[_SourceSentence]:
        """Source sentences; a structured record (JSON / Python literal) gives one readable
        ``key: value`` line per leaf instead, long texts in it (reviews) cut into sentences."""
        from hallucheck.models.structured_sources import flatten_structured  # lazy: loaded only on this path
        from hallucheck.models.tagger_evidence import source_view  # lazy: loaded only on this path
        from hallucheck.text import tokenize  # lazy: already loaded by this module's imports; kept where it is used

        out: list[_SourceSentence] = []
        for k, sa in enumerate(analysis.sources):
            if flatten_structured(sa.text) is not None:
                for u in source_view((sa.text,), language, None).units:
                    utoks = tokenize(u.text, language)
                    norms = frozenset(t.norm for t in utoks if not t.is_punct and not t.is_stop)
                    out.append(_SourceSentence(k, u.start, u.end, u.text, norms, utoks))
                continue
            toks = sa.tokens
            j = 0
            for seg in sa.sentences:
                while j < len(toks) and toks[j].end <= seg.start:
                    j += 1
                i = j
                while i < len(toks) and toks[i].start < seg.end:
                    i += 1
                stoks = toks[j:i]
                norms = frozenset(t.norm for t in stoks if not t.is_punct and not t.is_stop)
                out.append(_SourceSentence(k, seg.start, seg.end, seg.text, norms, stoks))
        return out

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        feats = {k: 0.0 for k in TRIPLET_FEATURES}
        if not case.answer.strip() or not any(c.text.strip() for c in case.contexts):
            return Finding(detector=self.name, risk=0.0, notes=["nothing to compare: empty answer or no source"],
                           flagged=False, features=feats)
        language = analysis.language
        if language.split("-")[0].lower() not in ("en", "de", "fr", "zh"):
            # a short answer's language guess is unreliable; the sources say more
            from hallucheck.text.language import detect_language  # lazy: already loaded by this module's imports; kept where it is used

            language = detect_language(case.source_text)
        use_spacy = self._use_spacy(language)
        sources = self._source_sentences(analysis, language)
        conflicts: list[_Conflict] = []
        markers = [(m.start, m.end) for m in analysis.citation_markers]
        for si, seg in enumerate(analysis.sentences):
            stoks = [t for t in analysis.tokens_by_sentence[si] if not any(a <= t.start < b for a, b in markers)]
            content = frozenset(t.norm for t in stoks if not t.is_punct and not t.is_stop)
            ranked = sorted(
                ((len(content & s.norms), n) for n, s in enumerate(sources)), key=lambda x: (-x[0], x[1])
            )
            best = [sources[n] for ov, n in ranked[: self.max_source_sentences] if ov >= self.min_overlap]
            if not best:
                continue
            if use_spacy:
                ans_triples = parse_triples(_masked(seg.text, seg.start, markers), seg.start)
                pairs = [(s, parse_triples(s.text, s.start or 0)) for s in best]
            else:
                from hallucheck.detectors.model.consistency import NEGATIONS  # lazy: loaded only on this path

                pairs = []
                ans_triples = []
                for s in best:
                    shared = {t.norm for t in stoks if not t.is_punct and not t.is_stop and not t.is_number} & s.norms
                    src_t = order_triples(s.tokens, shared, language, NEGATIONS)
                    verbs = {t.verb for t in src_t}
                    a_t = order_triples(stoks, verbs, language, NEGATIONS)
                    ans_triples.extend(a_t)
                    pairs.append((s, src_t))
            feats["triplets_answer"] += len(ans_triples)
            for t in ans_triples:
                found, supported, c = _compare(t, pairs)
                feats["triplets_checked"] += found
                feats["triplets_supported"] += supported
                if c is not None and not supported:
                    conflicts.append(c)
        spans: list[Span] = []
        seen: set[tuple[int, int]] = set()
        for c in conflicts:
            if (c.start, c.end) in seen:
                continue
            seen.add((c.start, c.end))
            feats[{"role_swap": "triplets_role_swaps", "arg_swap": "triplets_arg_swaps",
                   "negation_flip": "triplets_negation_flips"}[c.kind]] += 1
            src = case.contexts[c.evidence.source]
            spans.append(
                Span(
                    start=c.start,
                    end=c.end,
                    text=case.answer[c.start : c.end],
                    label="contradiction",
                    score=_SCORES[c.kind],
                    detector=self.name,
                    reason=_REASONS[c.kind].format(role=c.role),
                    kind=_KINDS.get(c.kind),
                    evidence=[Evidence(source_id=src.id, text=c.evidence.text, relation="contradicts",
                                       start=c.evidence.start, end=c.evidence.end)],
                )
            )
        risk = max((s.score for s in spans), default=0.0)
        feats["triplets_max"] = risk
        notes = [f"parser: {'spaCy (English)' if use_spacy else 'word order'}"]
        if not use_spacy and language.lower().startswith("en") and self.parser == "auto":
            notes.append("spaCy's English pipeline is not installed (extra 'triplets'): word-order rules used")
        return Finding(detector=self.name, risk=risk, spans=spans, notes=notes, flagged=bool(spans), features=feats)


def _masked(text: str, offset: int, markers: list[tuple[int, int]]) -> str:
    """``text`` with citation markers blanked (same length, so offsets hold)."""
    if not markers:
        return text
    chars = list(text)
    for a, b in markers:
        for i in range(max(a - offset, 0), min(b - offset, len(chars))):
            chars[i] = " "
    return "".join(chars)


def _compare(t: Triple, pairs: list[tuple[_SourceSentence, list[Triple]]]) -> tuple[int, int, _Conflict | None]:
    """(met a same-verb source triple, supported, the strongest conflict) for one answer triple."""
    found = supported = 0
    best: _Conflict | None = None
    rank = {"role_swap": 3, "negation_flip": 2, "arg_swap": 1}
    same_verb = [(s, st) for s, sts in pairs for st in sts if st.verb == t.verb]
    if not same_verb:
        return 0, 0, None
    found = 1
    for _s, st in same_verb:
        a_ok, p_ok = t.agent.matches(st.agent), t.patient.matches(st.patient)
        if a_ok and p_ok and t.negated == st.negated:
            return found, 1, None
    for s, st in same_verb:
        a_ok, p_ok = t.agent.matches(st.agent), t.patient.matches(st.patient)
        c: _Conflict | None = None
        if a_ok and p_ok:
            c = _Conflict("negation_flip", min(t.agent.start, t.verb_start), max(t.patient.end, t.verb_end), s)
        elif (t.verb != "be" and t.agent.matches(st.patient) and t.patient.matches(st.agent)
              and t.negated == st.negated):
            c = _Conflict("role_swap", min(t.agent.start, t.patient.start), max(t.agent.end, t.patient.end), s)
        elif a_ok and t.negated == st.negated and t.agent.is_name and t.patient.is_name and st.patient.is_name:
            # another object only if no same-verb source triple of this agent has the answer's one
            if not _has(same_verb, t, "patient"):
                c = _Conflict("arg_swap", t.patient.start, t.patient.end, s, "object")
        elif (p_ok and t.negated == st.negated and t.patient.is_name and t.agent.is_name and st.agent.is_name
              and not _has(same_verb, t, "agent")):
            c = _Conflict("arg_swap", t.agent.start, t.agent.end, s, "subject")
        if c is not None and (best is None or rank[c.kind] > rank[best.kind]):
            best = c
    return found, supported, best


def _has(same_verb: list[tuple[_SourceSentence, Triple]], t: Triple, role: str) -> bool:
    """Whether a same-verb source triple that agrees on the other argument has the answer's ``role`` one."""
    other = "agent" if role == "patient" else "patient"
    return any(
        getattr(t, role).matches(getattr(o, role)) for _, o in same_verb if getattr(t, other).matches(getattr(o, other))
    )
