"""Factual grounding against an external knowledge source (production pipeline guide).

Each claim of the answer is looked up in a :class:`~hallucheck.knowledge.KnowledgeSource`
(``source=``), or in a local BM25 index (``index=`` a folder of .txt/.md/.jsonl documents, or a
directory written by ``BM25Index.save``). A claim counts as verified when the source supports it
with confidence ≥ ``claim_threshold``; risk is the share of unverified claims. With an LLM (and
``use_llm``), the retrieved passages are judged by the LLM (prompt ``knowledge/verify``);
without one, by the source's own ``verify`` (lexical support for BM25).

This checks world knowledge, not the retrieved contexts of the case: an answer can be faithful
to its sources and still be flagged here when the knowledge base says otherwise, or knows nothing.
The Checker builds layer-5 detectors only with an LLM; to run this one without, pass
``detector_options={"knowledge": {"llm": None, "index": "kb/"}}``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, ClassVar

from hallucheck.analysis import CaseAnalysis
from hallucheck.detectors.llm.claims import answer_claims
from hallucheck.detectors.llm.llm_base import LLMDetector
from hallucheck.detectors.llm.schemas import KnowledgeVerdict
from hallucheck.knowledge.base import KnowledgeSource, Verification
from hallucheck.llm.base import LLMError, Message
from hallucheck.llm.session import BudgetExhausted, LLMSession
from hallucheck.prompts import render
from hallucheck.types import Evidence, Finding, Role, Span

__all__ = ["KnowledgeDetector", "open_index"]

_INDEXES: dict[str, Any] = {}
_LOCK = threading.Lock()


def open_index(path: str | Path) -> Any:
    """A BM25Index for ``path`` (a saved index directory or a folder of documents), built once."""
    from hallucheck.knowledge.bm25 import _META, BM25Index  # lazy: loaded only on this path

    key = str(Path(path).resolve())
    with _LOCK:
        if key not in _INDEXES:
            p = Path(path)
            _INDEXES[key] = BM25Index.load(p) if (p / _META).is_file() else BM25Index.from_folder(p)
        return _INDEXES[key]


class KnowledgeDetector(LLMDetector):
    name: ClassVar[str] = "knowledge"
    role: ClassVar[Role] = "knowledge"
    needs_llm: ClassVar[bool] = False

    def __init__(self, llm: Any = None, *, source: KnowledgeSource | None = None, index: str | Path | None = None,
                 k: int = 3, claim_threshold: float = 0.6, use_llm: bool = True, max_claims: int = 40,
                 **options: Any) -> None:
        super().__init__(llm, **options)
        if source is None and index is None:
            raise ValueError("the knowledge detector needs source=<KnowledgeSource> or index=<folder>")
        self.source: KnowledgeSource = source if source is not None else open_index(index)  # type: ignore[arg-type]
        self.k = k
        self.claim_threshold = claim_threshold
        self.use_llm = use_llm
        self.max_claims = max_claims

    def _verify(self, claim: str, session: LLMSession, language: str) -> tuple[Verification, str | None, str]:
        """(verification, passage id, how) for one claim."""
        if self.llm is not None and self.use_llm:
            passages = self.source.search(claim, self.k)
            if not passages:
                return Verification(False, 0.0, ""), None, "search"
            prompt = render("knowledge/verify", language, claim=claim,
                            passages=[{"id": p.id, "text": p.text} for p in passages])
            result = session.structured([Message("user", prompt)], KnowledgeVerdict, reask=self.reask, **self.settings())
            if result.stage == "budget":
                raise BudgetExhausted(result.error or "budget spent")
            if result.ok:
                v = result.value
                conf = v.confidence if v.confidence is not None else (0.8 if v.supported else 0.2)  # type: ignore[union-attr]
                return Verification(bool(v.supported), conf, v.evidence or passages[0].text[:300]), passages[0].id, "llm"  # type: ignore[union-attr]
            if result.stage == "llm_error":
                raise LLMError(result.error or "LLM failed")
        out = self.source.verify(claim)
        ver = Verification(*out) if not isinstance(out, Verification) else out
        return ver, None, "source"

    def _detect(self, analysis: CaseAnalysis) -> Finding:
        session = self.session(analysis)
        answer = analysis.case.answer
        language = self.prompt_language(analysis)
        claims = answer_claims(analysis)
        notes: list[str] = []
        coverage = None
        if len(claims) > self.max_claims:
            coverage = self.coverage(analysis, [(claims[self.max_claims].start, len(answer))],
                                     f"only the first {self.max_claims} claims were verified")
            claims = claims[: self.max_claims]
        rows: list[dict[str, Any]] = []
        spans: list[Span] = []
        verified = 0
        checked = 0
        errors: list[str] = []
        for c in claims:
            text = c.statement or c.text
            try:
                ver, pid, how = self._verify(text, session, language)
            except BudgetExhausted:
                notes.append(f"LLM call budget spent: {checked} of {len(claims)} claims verified")
                coverage = self.coverage(analysis, [(c.start, len(answer))], "not verified: LLM call budget spent")
                break
            except LLMError as exc:
                errors.append(str(exc))
                ver, pid, how = Verification(*self.source.verify(text)), None, "source"
            checked += 1
            ok = bool(ver.supported) and float(ver.confidence) >= self.claim_threshold
            verified += ok
            rows.append({**c.as_dict(), "supported": bool(ver.supported), "confidence": round(float(ver.confidence), 4),
                         "evidence": ver.evidence[:500], "verified_by": how, "verified": ok})
            if not ok:
                ev = [Evidence(source_id=pid, text=ver.evidence[:500], relation="nearest")] if ver.evidence else []
                spans.append(Span(start=c.start, end=c.end, text=answer[c.start : c.end], label="baseless",
                                  score=round(max(0.0, min(1.0, 1.0 - float(ver.confidence))), 4), detector=self.name,
                                  reason="not verified by the knowledge source", evidence=ev))
        if errors:
            notes.append(f"LLM verification failed for {len(errors)} claim(s) ({errors[0]}); used the source's own check")
        if not claims:
            notes.append("no claims found in the answer")
        score = verified / checked if checked else 1.0
        risk = 1.0 - score
        details = {"claims": rows, "score": round(score, 4)}
        features = {"kb_claims": float(checked), "kb_verified_frac": float(score), "kb_unverified": float(checked - verified)}
        return Finding(detector=self.name, risk=round(risk, 6), flagged=bool(checked and score < self.claim_threshold),
                       features=features, spans=spans, notes=notes, details=details, cost=session.cost, coverage=coverage)
