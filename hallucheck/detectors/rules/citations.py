"""The citation rules of the detection guideline, exactly, plus where they apply.

What it checks: every citation marker in the answer names a source the case really has (an
invalid citation is always a high-risk sign); how many claims (sentences longer than 20
characters) are covered by valid citations; which long sentences (over 50 characters) cite
nothing. The guideline's risk is ``1 - min(valid citations / max(claims, 1), 1)`` and its tiers
are carried in ``Finding.citations.level`` for the tiered policy.

Why "where they apply": most RAG answers in the wild cite nothing because nobody asked them to.
Counting missing citations there would call every such answer hallucinated, so the ratio and
uncited rules run only when the case says citations were expected, or (when the case does not
say) when the answer itself uses citation markers.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.base import BaseDetector
from hallucheck.detectors.rules.attribution import misattributed_spans
from hallucheck.text.citations import CitationMarker, find_citations, source_sections
from hallucheck.types import CitationSummary, Finding, RiskLevel, Role, Source, Span

__all__ = ["CitationDetector", "CitationCount", "EMPTY_NOTE", "NO_CLAIMS_NOTE", "copied_with_text", "resolve_citation"]

CitationCount = Literal["distinct", "markers", "sentences"]

EMPTY_NOTE = "Answer is empty, cannot detect hallucinations"
NO_CLAIMS_NOTE = "No valid claims found, cannot detect hallucinations"
_END_PUNCT = ".!?。！？…;；:： \t"
_RISK_FLOOR: dict[str, float] = {"high": 0.7, "moderate": 0.45, "low": 0.0}


def resolve_citation(cid: str, contexts: list[Source], known: dict[str, str]) -> str | None:
    """The id of the source that citation ``cid`` names, or None when no source has it.

    ``known`` maps every source id and parent id (and their lower-cased forms) to a source id.
    A number that is not itself an id names the n-th context (1-based), which is how ``[1]``
    works when contexts carry their own ids.
    """
    hit = known.get(cid) or known.get(cid.lower())
    if hit is not None:
        return hit
    # Only decimal digits make a number ("²" is a digit to ``str.isdigit`` but no number), and one
    # longer than the count of contexts names none of them (``int`` of 5,000 digits even raises).
    digits = cid.lstrip("0")
    if cid.isdecimal() and len(digits) <= len(str(len(contexts))):
        n = int(digits or "0")
        if 1 <= n <= len(contexts):
            return contexts[n - 1].id
    return None


def _known_ids(contexts: list[Source]) -> dict[str, str]:
    """Every id a citation may name, mapped to the source that has it.

    Besides ids and parent ids, a source text that is itself a list of numbered sections
    ("passage 1: ... passage 2: ...", as RAG frameworks often pack several passages into one
    context) makes those section numbers valid, pointing at that source.
    """
    known: dict[str, str] = {}
    for src in contexts:
        for key in (src.id, src.parent_id):
            if key:
                known.setdefault(key, src.id)
                known.setdefault(key.lower(), src.id)
    for src in contexts:
        for number in _section_numbers(src.text):
            known.setdefault(number, src.id)
    return known


# What one id of a marker cites: a source's id, and the number of a section inside it or None.
Cited = tuple[str, str | None]


# Characters around a bracket compared with a source's, and how many of them must be more than spaces.
_COPY_REACH = 12
_COPY_MIN = 4


def copied_with_text(answer: str, marker: CitationMarker, contexts: list[Source]) -> bool:
    """Whether ``marker`` stands in the answer as it stands in a source, with the same characters
    right before or right after it ("sh://[user@]machine[:options]/[remote-dir]" copied from a
    manual): then the answer quotes it. A bracket only somewhere in a source does not count."""
    before = answer[max(0, marker.start - _COPY_REACH) : marker.start]
    after = answer[marker.end : marker.end + _COPY_REACH]
    for src in contexts:
        text = src.text
        pos = text.find(marker.text)
        while pos >= 0:
            end = pos + len(marker.text)
            if len(before.strip()) >= _COPY_MIN and text[max(0, pos - len(before)) : pos] == before:
                return True
            if len(after.strip()) >= _COPY_MIN and text[end : end + len(after)] == after:
                return True
            pos = text.find(marker.text, pos + 1)
    return False


def _section_numbers(text: str) -> tuple[str, ...]:
    """Numbers of the numbered sections of one source text, in order."""
    return tuple(number for number, _, _ in source_sections(text))


def _claim_length(text: str, start: int, markers: list[CitationMarker]) -> int:
    """Characters of a sentence without its citation markers (and the blank before each) and
    final punctuation (CJK count one): "Paris is big [1]." counts as "Paris is big"."""
    inside = [mk for mk in markers if mk.end > start and mk.start < start + len(text)]
    if not inside:
        return len(text.strip().rstrip(_END_PUNCT).strip())
    parts: list[str] = []
    pos = 0
    for mk in inside:
        a, b = max(mk.start - start, 0), min(mk.end - start, len(text))
        parts.append(text[pos:a].rstrip(" \t"))
        pos = max(pos, b)
    parts.append(text[pos:])
    return len("".join(parts).strip().rstrip(_END_PUNCT).strip())


class CitationDetector(BaseDetector):
    """The detection guideline's rule-based citation check.

    Options:
      claim_chars: a sentence longer than this is a claim (20).
      uncited_chars: a claim longer than this must cite something (50).
      at_risk: the guideline's "at risk" cut on its risk score (0.3).
      high: the guideline's high tier cut (0.6).
      count: what "valid citations" counts in the ratio: ``"distinct"`` source ids (the
        guideline, default), valid ``"markers"``, or cited claim ``"sentences"``.
      uncited_score: the score of an uncited-sentence span (0.5).
      attribution: also mark citations naming a source that does not say the cited text while
        another source does (True; :mod:`hallucheck.detectors.rules.attribution`).
    """

    name = "citations"

    role: ClassVar[Role] = "citations"
    layer = 1

    def __init__(
        self,
        claim_chars: int = 20,
        uncited_chars: int = 50,
        at_risk: float = 0.3,
        high: float = 0.6,
        count: CitationCount = "distinct",
        uncited_score: float = 0.5,
        attribution: bool = True,
    ) -> None:
        if count not in ("distinct", "markers", "sentences"):
            raise ValueError(f"count must be 'distinct', 'markers' or 'sentences', not {count!r}")
        self.claim_chars = claim_chars
        self.uncited_chars = uncited_chars
        self.at_risk = at_risk
        self.high = high
        self.count = count
        self.uncited_score = uncited_score
        self.attribution = attribution

    def __repr__(self) -> str:
        return f"CitationDetector(count={self.count!r}, attribution={self.attribution!r})"

    def level(self, risk: float, invalid: int, uncited: int, ratio: float, claims: int) -> RiskLevel:
        """The guideline's tier from its rule-based signals (detection guideline, "綜合判定準則")."""
        if risk > self.high or invalid > 0 or uncited >= 3 or (ratio < self.at_risk and claims >= 3):
            return "high"
        if risk > self.at_risk or uncited >= 1:
            return "moderate"
        return "low"

    def _check_markers(
        self, markers: list[CitationMarker], contexts: list[Source], known: dict[str, str], known_list: str
    ) -> tuple[list[str], list[str], list[str], set[str], int, list[Span], list[tuple[Cited, ...]]]:
        """Every id as written: (found, valid, invalid, the sources named, valid ids, spans of the
        markers that name an unknown source, and per marker what it cites: a source, or a numbered
        section of one; empty when one of its ids is unknown)."""
        found: list[str] = []
        valid: list[str] = []
        invalid: list[str] = []
        resolved: set[str] = set()
        valid_markers = 0
        spans: list[Span] = []
        targets: list[tuple[Cited, ...]] = []
        direct = {k.lower() for src in contexts for k in (src.id, src.parent_id) if k}
        texts = {src.id: src.text for src in contexts}
        for mk in markers:
            bad = []
            named: list[Cited] = []
            for cid in mk.ids:
                target = resolve_citation(cid, contexts, known)
                if cid not in found:
                    found.append(cid)
                if target is None:
                    bad.append(cid)
                    if cid not in invalid:
                        invalid.append(cid)
                else:
                    resolved.add(target)
                    section = None if cid.lower() in direct or cid not in _section_numbers(texts.get(target, "")) else cid
                    named.append((target, section))
                    valid_markers += 1
                    if cid not in valid:
                        valid.append(cid)
            targets.append(() if bad else tuple(named))
            if bad:
                spans.append(
                    Span(
                        start=mk.start,
                        end=mk.end,
                        text=mk.text,
                        label="invalid_citation",
                        score=1.0,
                        detector=self.name,
                        kind="invalid_citation",
                        reason=f"cites {', '.join(repr(b) for b in bad)}, which is not among the sources "
                        f"(known ids: {known_list})",
                    )
                )
        return found, valid, invalid, resolved, valid_markers, spans, targets

    def _claims(
        self, analysis: CaseAnalysis, markers: list[CitationMarker], notes: list[str]
    ) -> tuple[int, int, list[tuple[int, int, str]], int, int]:
        """(claims, cited claims, uncited long sentences, claims and long claims of the masked answer).

        Claims are the sentences longer than ``claim_chars`` as written (markers in place); the
        masked answer's counts do not move with the markers, so a fitted policy can read them.
        """
        answer = analysis.case.answer
        claims = cited_claims = long_claims = shape_claims = 0
        uncited: list[tuple[int, int, str]] = []
        if not answer.strip():
            notes.append(EMPTY_NOTE)
            return claims, cited_claims, uncited, shape_claims, long_claims
        for sent in analysis.marked_sentences:
            inside = [mk for mk in markers if sent.start <= mk.start < sent.end]
            length = _claim_length(sent.text, sent.start, inside)
            if length > self.claim_chars:
                claims += 1
                cited_claims += bool(inside)
            if length > self.uncited_chars and not inside:
                uncited.append((sent.start, sent.end, sent.text))
        if claims == 0:
            notes.append(NO_CLAIMS_NOTE)
        # The same counts on the sentences of the masked answer: they do not move with markers.
        for sent in analysis.sentences:
            length = _claim_length(answer[sent.start : sent.end], sent.start, markers)
            shape_claims += length > self.claim_chars
            long_claims += length > self.uncited_chars
        return claims, cited_claims, uncited, shape_claims, long_claims

    def _formula(
        self, answered: bool, citations_expected: bool | None, applied: bool, numerator: int, claims: int, n_invalid: int,
        uncited_count: int, notes: list[str],
    ) -> tuple[float, float, RiskLevel]:
        """The guideline's citation ratio, its risk (0 where the rules do not apply) and the tier."""
        # Rounded so that the guideline's boundaries hold exactly (1 - 0.7 is 0.30000000000000004).
        ratio = round(numerator / max(claims, 1), 9)
        formula_risk = round(1.0 - min(ratio, 1.0), 9)
        if not answered or claims == 0:
            formula_risk = 0.0
        if not applied:
            formula_risk = 0.0
            if answered:
                why = (
                    "the case says citations were not expected"
                    if citations_expected is False
                    else "the answer uses no citation markers and the case does not say citations were expected"
                )
                notes.append(f"Citation coverage rules not applied: {why}.")
        if applied and claims > 0:
            level = self.level(formula_risk, n_invalid, uncited_count, ratio, claims)
        else:
            level = "high" if n_invalid else "low"
        return ratio, formula_risk, level

    def _uncited_span(self, start: int, end: int, text: str) -> Span:
        return Span(
            start=start,
            end=end,
            text=text,
            label="uncited",
            score=self.uncited_score,
            detector=self.name,
            reason=f"a claim of more than {self.uncited_chars} characters with no citation",
        )

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        case = analysis.case
        answer = case.answer
        expected = case.citations_expected is True
        known = _known_ids(case.contexts)
        markers = find_citations(answer, known) if answer.strip() else []
        # brackets copied with their text from a source (a command's "[options]", a footnote) are
        # quoted content, not references the answer makes: an unknown id among them is no invention
        markers = [mk for mk in markers
                   if all(resolve_citation(c, case.contexts, known) for c in mk.ids) or not copied_with_text(answer, mk, case.contexts)]
        applied = case.citations_expected is True or (case.citations_expected is None and bool(markers))

        # Validity of every id, as written, and which source each valid one names.
        known_list = ", ".join(s.id for s in case.contexts) or "none"
        found, valid, invalid, resolved, valid_markers, spans, targets = self._check_markers(
            markers, case.contexts, known, known_list)
        misattributed = misattributed_spans(analysis, markers, targets, self.name) if self.attribution else []
        spans.extend(misattributed)

        notes: list[str] = []
        claims, cited_claims, uncited, shape_claims, long_claims = self._claims(analysis, markers, notes)

        numerator = {"distinct": len(resolved), "markers": valid_markers, "sentences": cited_claims}[self.count]
        uncited_count = len(uncited) if applied else 0
        ratio, formula_risk, level = self._formula(
            bool(answer.strip()), case.citations_expected, applied, numerator, claims, len(invalid), uncited_count, notes
        )
        if applied and claims > 0:
            spans.extend(self._uncited_span(a, b, text) for a, b, text in uncited)
        spans.sort(key=lambda s: (s.start, s.end))
        if invalid:
            notes.append(f"Invalid citations: {', '.join(invalid)} (known ids: {known_list}).")
        if misattributed:
            notes.append(f"Citations naming a source that does not say the cited text: "
                         f"{', '.join(s.text for s in misattributed)}.")

        summary = CitationSummary(
            expected=expected,
            applied=applied,
            found=found,
            valid=valid,
            invalid=invalid,
            claims=claims,
            ratio=round(ratio, 6),
            risk=round(formula_risk, 6),
            uncited_sentences=[t[:100] for _, _, t in uncited[:3]] if applied else [],
            uncited_count=uncited_count,
            level=level,
        )
        # Finding.risk is the guideline's formula, raised to the floor of its tier, so that a
        # policy reading only the risk sees the same tier as one reading citations.level.
        risk = max(formula_risk, _RISK_FLOOR[level])
        # What the markers say (counts, ratio, the guideline's risk) is for the citation rules and
        # the floors; a fitted policy reads only the shape of the answer, which is the same with
        # or without markers, so that correct citations never count for or against an answer.
        counts: dict[str, float] = {
            "n_markers": float(len(markers)),
            "n_ids": float(len(found)),
            "n_valid": float(len(valid)),
            "n_invalid": float(len(invalid)),
            "n_sources_cited": float(len(resolved)),
            "cited_claims": float(cited_claims),
            "cited_claim_fraction": cited_claims / claims if claims else 0.0,
            "ratio": float(ratio),
            "risk": float(formula_risk),
            "uncited_count": float(len(uncited)),
            "uncited_fraction": len(uncited) / claims if claims else 0.0,
            "applied": float(applied),
            "n_misattributed": float(len(misattributed)),
        }
        features: dict[str, float] = {
            # An unknown id counts against an answer; a correct marker leaves this at 0, as none does.
            "invalid_markers": float(sum(1 for s in spans if s.kind == "invalid_citation")),
            "claims": float(shape_claims),
            "long_claims": float(long_claims),
            "long_claim_fraction": long_claims / shape_claims if shape_claims else 0.0,
            "expected": float(expected),
        }
        details: dict[str, Any] = {
            "level": level,
            "at_risk": formula_risk > self.at_risk,
            "counts": counts,
            "count": self.count,
        }
        return Finding(
            detector=self.name,
            risk=risk,
            flagged=formula_risk > self.at_risk or bool(invalid) or bool(misattributed) or level == "high",
            features=features,
            citations=summary,
            spans=spans,
            notes=notes,
            details=details,
        )
