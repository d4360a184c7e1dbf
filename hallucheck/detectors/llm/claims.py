"""Atomic claims of the answer, each with its offsets, and how much of each the sources carry.

Without an LLM (the default when the Checker has none) claims come from the rule-based splitter
(:mod:`hallucheck.detectors.llm.claim_split`); with one, the LLM extracts standalone claims with an
exact excerpt each, mapped back to answer offsets (exact → case → whitespace → fuzzy). Either way
each claim is scored by lexical support (share of its content lemmas found in the sources) and
claims below ``threshold`` become ``baseless`` spans. The claims are left in
``analysis.facts.claims`` for the self-consistency and knowledge detectors.
"""

from __future__ import annotations

from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.case_facts import Claim
from hallucheck.detectors.llm.claim_split import split_claims, trim_segment
from hallucheck.detectors.llm.llm_base import LLMDetector
from hallucheck.detectors.llm.quotes import locate_quote
from hallucheck.detectors.llm.schemas import ClaimList
from hallucheck.llm.base import Message
from hallucheck.llm.session import LLMSession
from hallucheck.prompts import render
from hallucheck.text import tokenize
from hallucheck.types import Finding, Role, Span

__all__ = ["ClaimsDetector", "answer_claims", "claim_support"]


def claim_support(analysis: CaseAnalysis, text: str) -> tuple[float, int, list[str]]:
    """(share of content lemmas of ``text`` found in the sources, content lemma count, missing)."""
    toks = [t for t in tokenize(text, analysis.language) if not t.is_punct and not t.is_stop]
    if not toks:
        return 1.0, 0, []
    norms = analysis.source.norms
    missing = [t.text for t in toks if t.norm not in norms]
    return 1.0 - len(missing) / len(toks), len(toks), missing


def _llm_claims(analysis: CaseAnalysis, session: LLMSession, language: str, reask: bool,
                settings: dict[str, Any]) -> tuple[list[Claim] | None, str | None, list[str]]:
    answer = analysis.answer
    result = session.structured([Message("user", render("claims/extract", language, answer=analysis.plain_answer()))], ClaimList,
                                reask=reask, **settings)
    if not result.ok:
        return None, f"{result.stage}: {result.error}", []
    claims: list[Claim] = []
    unmatched: list[str] = []
    hint = 0
    for c in result.value.claims:  # type: ignore[union-attr]
        if not c.text.strip():
            continue
        m = locate_quote(answer, c.quote, hint) if c.quote else None
        if m is None:
            m = locate_quote(answer, c.text, hint, threshold=0.7)
        if m is None:
            unmatched.append(c.text)
            continue
        s, e = trim_segment(answer, m.start, m.end)
        if e <= s:
            s, e = m.start, m.end
        hint = e
        claims.append(Claim(s, e, answer[s:e], origin="llm", statement=c.text, match=m.method))
    if not claims:
        # An empty list, or only claims not found in the answer (a template's placeholder, text
        # from elsewhere): the answer's own claims are then the rule splitter's, never none.
        what = f"none of its {len(unmatched)} claims occur in the answer" if unmatched else "it returned no claims"
        return None, f"unusable claim list: {what}", unmatched
    return claims, None, unmatched


def answer_claims(analysis: CaseAnalysis) -> list[Claim]:
    """The claims another detector found for this case, or the rule-based ones."""
    if analysis.facts.claims is None:
        analysis.facts.claims = split_claims(analysis.answer, analysis.sentences, analysis.language)
    return analysis.facts.claims


class ClaimsDetector(LLMDetector):
    """Works with or without ``llm``; ``use_llm=False`` keeps to the rules even when one is given."""

    name: ClassVar[str] = "claims"

    role: ClassVar[Role] = "claims"
    needs_llm: ClassVar[bool] = False

    def __init__(self, llm: Any = None, *, use_llm: bool = True, threshold: float = 0.5, min_words: int = 3,
                 max_claims: int = 200, **options: Any) -> None:
        super().__init__(llm, threshold=threshold, **options)
        self.use_llm = use_llm
        self.min_words = min_words
        self.max_claims = max_claims

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        answer = analysis.answer
        notes: list[str] = []
        details: dict[str, Any] = {}
        session = self.session(analysis)
        claims: list[Claim] | None = None
        if self.llm is not None and self.use_llm and answer.strip():
            claims, error, unmatched = _llm_claims(analysis, session, self.prompt_language(analysis), self.reask,
                                                   self.settings())
            if error:
                details["llm_error"] = error
                notes.append(f"LLM claim extraction failed ({error}); used the rule-based splitter")
            if unmatched:
                details["unmatched_claims"] = unmatched
        if claims is None:
            claims = split_claims(answer, analysis.sentences, analysis.language, min_words=self.min_words)
        coverage = None
        if len(claims) > self.max_claims:
            rest = claims[self.max_claims :]
            claims = claims[: self.max_claims]
            coverage = self.coverage(analysis, [(rest[0].start, len(answer))], f"only the first {self.max_claims} claims were scored")
        analysis.facts.claims = claims
        spans: list[Span] = []
        rows: list[dict[str, Any]] = []
        supports: list[float] = []
        risk = 0.0
        for c in claims:
            support, n, missing = claim_support(analysis, c.statement or c.text)
            row = {**c.as_dict(), "support": round(support, 4), "content_words": n}
            rows.append(row)
            if n == 0:
                continue
            supports.append(support)
            if n >= 2:
                risk = max(risk, 1.0 - support)
            if support < self.threshold and n >= 2:
                spans.append(Span(start=c.start, end=c.end, text=analysis.case.answer[c.start : c.end], label="baseless",
                                  score=round(1.0 - support, 4), detector=self.name,
                                  reason=f"{len(missing)} of {n} content words are not in the sources: "
                                         + ", ".join(missing[:8])))
        if not claims:
            notes.append("no claims found in the answer")
        flagged_frac = len(spans) / len(supports) if supports else 0.0
        details.update({
            "claims": rows,
            "origin": claims[0].origin if claims else ("llm" if self.llm is not None and self.use_llm else "rules"),
        })
        features = {
            "claims_total": float(len(claims)),
            "claims_unsupported_frac": float(flagged_frac),
            "claims_min_support": float(min(supports)) if supports else 1.0,
            "claims_mean_support": float(sum(supports) / len(supports)) if supports else 1.0,
        }
        return Finding(detector=self.name, risk=round(min(1.0, risk), 6), flagged=bool(spans), features=features, spans=spans,
                       notes=notes, details=details, cost=session.cost, coverage=coverage)
