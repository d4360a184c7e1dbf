"""Hand-built findings for policy tests (no detector has to exist to test a policy)."""

from __future__ import annotations

from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.types import CitationSummary, Finding, Role

__all__ = ["analysis", "finding", "citations", "llm", "ROLE_OF"]

# The role each built-in detector gives its findings (what BaseDetector fills in).
ROLE_OF: dict[str, Role] = {
    "citations": "citations", "lexicon": "phrases", "numbers": "facts", "ngram": "lexical", "overlap": "lexical",
    "semantic": "semantic", "ngram_semantic": "semantic", "model": "tagger", "nli": "entailment", "triplets": "entailment",
    "consistency": "consistency", "llm_judge": "llm_judge", "two_step": "llm_judge", "claims": "claims",
    "self_consistency": "sampling", "knowledge": "knowledge",
}


def analysis() -> CaseAnalysis:
    return CaseAnalysis(make_case(question="q", contexts=["Some source."], answer="Some answer.", language="en"))


def finding(detector: str, risk: float, flagged: bool | None = None, **details: Any) -> Finding:
    typed: dict[str, Any] = {"role": ROLE_OF.get(detector, "other")}
    if flagged is not None:
        typed["flagged"] = flagged
    return Finding(detector=detector, risk=risk, details=details, **typed)


def citations(
    risk: float,
    *,
    invalid: int = 0,
    uncited: int = 0,
    ratio: float | None = None,
    claims: int = 5,
    applied: bool = True,
) -> Finding:
    """A citations finding as the citations detector reports it (typed citation summary)."""
    summary = {
        "expected": applied,
        "applied": applied,
        "found": [],
        "valid": [],
        "invalid": [f"x{i}" for i in range(invalid)],
        "claims": claims,
        "ratio": 1.0 - risk if ratio is None else ratio,
        "risk": risk,
        "uncited_sentences": [],
        "uncited_count": uncited,
    }
    return Finding(detector="citations", role="citations", risk=risk, citations=CitationSummary.model_validate(summary),
                   flagged=risk > 0.3)


def llm(risk: float, notes: str = "", detector: str = "llm_judge", **features: float) -> Finding:
    """An LLM judge's finding; ``notes`` are the judge's notes, read as the detector reads them."""
    from hallucheck.text.unsupported import notes_state_unsupported

    feats = {"notes_unsupported": float(notes_state_unsupported(notes)), **features}
    return Finding(
        detector=detector,
        role="llm_judge",
        risk=risk,
        flagged=risk > 0.5,
        features=feats,
        details={"hallucination_risk": risk, "hallucination_notes": notes},
    )
