"""Layer 4: contradictions between the answer's own sentences (internal consistency).

An answer that says "founded in 1990" and later "since its founding in 1995", or "the service is
free" and later "the service is not free", is wrong somewhere whatever the sources say. Two checks:

- rules (always, no model): two sentences about the same thing (shared content words) that give
  different values of the same kind for the same attribute (the number's neighbouring words
  agree, every other number agrees), or that say the same thing except that one is negated;
- an NLI cross-encoder when ``nli_model_path`` is given: each pair of related sentences is judged
  both ways and a contradiction probability above ``threshold`` counts.

The later sentence of a conflicting pair is marked ``contradiction``; its evidence is the earlier
sentence (``source_id="answer"``, offsets into the answer).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.text.numbers import NumberMention, find_numbers, same_value
from hallucheck.text.opposites import NEGATION_WORDS
from hallucheck.text.tokens import Token
from hallucheck.types import Evidence, Finding, Role, Span

__all__ = ["ConsistencyDetector", "NEGATIONS", "Conflict"]

# Whether a sentence is negated at all, for comparing two of them: every negation word of
# hallucheck.text.opposites (the one list per language), plus words that negate a whole statement
# there without being aligned as a negation (its IMPLICIT_NEGATIONS "without", "none", "nor", ...
# and the French prefix "non"), and the parts of a negation the alignment leaves out (English
# "n't" split off by the tokenizer, French "pas" after "ne"). Triplets reads the same set.
_SENTENCE_NEGATIONS: frozenset[str] = frozenset({"n't", "none", "nor", "without", "ohne", "sans", "non", "pas"})
NEGATIONS: frozenset[str] = NEGATION_WORDS | _SENTENCE_NEGATIONS


class Conflict:
    """One contradicting pair: sentence ``a`` (earlier) and ``b`` (later), where in ``b``, why."""

    def __init__(self, a: int, b: int, start: int, end: int, kind: str, score: float, reason: str) -> None:
        self.a, self.b, self.start, self.end = a, b, start, end
        self.kind, self.score, self.reason = kind, score, reason


def _content(tokens: list[Token]) -> set[str]:
    return {t.norm for t in tokens if not t.is_punct and not t.is_stop and not t.is_number and t.norm not in NEGATIONS}


def _negated(tokens: list[Token]) -> bool:
    return any(t.norm in NEGATIONS or t.text.lower().endswith("n't") for t in tokens)


def _neighbours(tokens: list[Token], m: NumberMention) -> set[str]:
    """Content words right before and after a number (what the number is a value of)."""
    before = [t for t in tokens if t.end <= m.start and not t.is_punct and not t.is_number]
    after = [t for t in tokens if t.start >= m.end and not t.is_punct and not t.is_number]
    out: set[str] = set()
    for seq in (before[-2:], after[:2]):
        out.update(t.norm for t in seq if not t.is_stop)
    return out


class ConsistencyDetector(BaseDetector):
    """Options: ``nli_model_path`` (optional NLI cross-encoder, see the ``nli`` detector),
    ``threshold`` (NLI contradiction probability, 0.6), ``min_shared`` (content words two
    sentences must share to be compared, 2), ``max_pairs`` (NLI pairs per answer, 40)."""

    name: ClassVar[str] = "consistency"

    role: ClassVar[Role] = "consistency"
    layer: ClassVar[int] = 4

    def __init__(
        self,
        nli_model_path: str | Path | None = None,
        threshold: float = 0.6,
        min_shared: int = 2,
        max_pairs: int = 40,
        backend: str = "auto",
    ) -> None:
        self.nli: Any = None
        if nli_model_path:
            from hallucheck.models.nli import get_nli_model  # lazy: heavy: pulls in numpy; loaded only when this path runs

            self.nli = get_nli_model(nli_model_path, backend)  # type: ignore[arg-type]
        self.threshold = threshold
        self.min_shared = min_shared
        self.max_pairs = max_pairs

    def _rule_conflicts(self, analysis: CaseAnalysis, related: list[tuple[int, int]]) -> list[Conflict]:
        sents = analysis.sentences
        toks = analysis.tokens_by_sentence
        nums = [find_numbers(s.text, analysis.language) for s in sents]
        out: list[Conflict] = []
        for i, j in related:
            ni = [m for m in nums[i] if not m.weak]
            nj = [m for m in nums[j] if not m.weak]
            found = False
            if ni and nj:
                unmatched_j = [m for m in nj if not any(m.kind == x.kind and same_value(m, x) for x in ni)]
                unmatched_i = [m for m in ni if not any(m.kind == x.kind and same_value(m, x) for x in nj)]
                if len(unmatched_j) == 1 and len(unmatched_i) == 1 and unmatched_i[0].kind == unmatched_j[0].kind:
                    mi, mj = unmatched_i[0], unmatched_j[0]
                    # shift to answer offsets for the neighbour lookup
                    ctx_i = _neighbours(toks[i], mi._replace(start=mi.start + sents[i].start, end=mi.end + sents[i].start))
                    ctx_j = _neighbours(toks[j], mj._replace(start=mj.start + sents[j].start, end=mj.end + sents[j].start))
                    if ctx_i & ctx_j:
                        s = sents[j].start + mj.start
                        out.append(Conflict(i, j, s, sents[j].start + mj.end, "number", 0.8,
                                            f"{mj.text!r} here but {mi.text!r} earlier for the same {'/'.join(sorted(ctx_i & ctx_j))}"))
                        found = True
            if found:
                continue
            ci, cj = _content(toks[i]), _content(toks[j])
            small = min(len(ci), len(cj))
            if small >= 3 and len(ci & cj) / small >= 0.7 and _negated(toks[i]) != _negated(toks[j]):
                out.append(Conflict(i, j, sents[j].start, sents[j].end, "negation", 0.6,
                                    "says the same as an earlier sentence but one of them is negated"))
        return out

    def _nli_conflicts(self, analysis: CaseAnalysis, related: list[tuple[int, int]]) -> list[Conflict]:
        sents = analysis.sentences
        pairs = related[: self.max_pairs]
        if not pairs:
            return []
        texts = [(sents[i].text, sents[j].text) for i, j in pairs] + [(sents[j].text, sents[i].text) for i, j in pairs]
        probs = self.nli.predict(texts)
        n = len(pairs)
        out = []
        for k, (i, j) in enumerate(pairs):
            p = float(max(probs[k, 2], probs[n + k, 2]))
            if p >= self.threshold:
                out.append(Conflict(i, j, sents[j].start, sents[j].end, "nli", p, f"contradicts an earlier sentence (NLI p={p:.2f})"))
        return out

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        sents = analysis.sentences
        toks = analysis.tokens_by_sentence
        content = [_content(t) for t in toks]
        related = [
            (i, j)
            for i, j in combinations(range(len(sents)), 2)
            if len(content[i] & content[j]) >= self.min_shared
        ]
        conflicts = self._rule_conflicts(analysis, related)
        notes: list[str] = []
        if self.nli is not None:
            skipped = max(0, len(related) - self.max_pairs)
            if skipped:
                notes.append(f"NLI compared {self.max_pairs} of {len(related)} related sentence pairs")
            conflicts += self._nli_conflicts(analysis, related)
        if len(sents) < 2:
            notes.append("fewer than two sentences: nothing to compare")
        best: dict[tuple[int, int], Conflict] = {}
        for c in conflicts:
            key = (c.start, c.end)
            if key not in best or c.score > best[key].score:
                best[key] = c
        spans = []
        answer = analysis.case.answer
        for c in sorted(best.values(), key=lambda c: c.start):
            a = sents[c.a]
            spans.append(Span(start=c.start, end=c.end, text=answer[c.start : c.end], label="contradiction",
                              score=round(c.score, 4), detector=self.name, reason=c.reason,
                              evidence=[Evidence(source_id="answer", text=a.text, relation="contradicts", start=a.start, end=a.end)]))
        risk = max((c.score for c in conflicts), default=0.0)
        feats = {
            "consistency_risk": risk,
            "consistency_conflicts": float(len(spans)),
            "consistency_number_conflicts": float(sum(c.kind == "number" for c in best.values())),
            "consistency_negation_conflicts": float(sum(c.kind == "negation" for c in best.values())),
            "consistency_related_pairs": float(len(related)),
        }
        return Finding(detector=self.name, risk=min(risk, 1.0), spans=spans, notes=notes, flagged=bool(spans),
                       features=feats)
