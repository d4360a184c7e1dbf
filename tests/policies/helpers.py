"""Hand-built findings for policy tests (no detector has to exist to test a policy)."""

from __future__ import annotations

from typing import Any

from hallucheck.analysis import CaseAnalysis
from hallucheck.cases import make_case
from hallucheck.types import Finding

__all__ = ["analysis", "finding", "citations", "llm"]


def analysis() -> CaseAnalysis:
    return CaseAnalysis(make_case(question="q", contexts=["Some source."], answer="Some answer.", language="en"))


def finding(detector: str, risk: float, flagged: bool | None = None, **details: Any) -> Finding:
    if flagged is not None:
        details["flagged"] = flagged
    return Finding(detector=detector, risk=risk, details=details)


def citations(
    risk: float,
    *,
    invalid: int = 0,
    uncited: int = 0,
    ratio: float | None = None,
    claims: int = 5,
    applied: bool = True,
) -> Finding:
    """A citations finding as the citations detector reports it (summary in details)."""
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
    return Finding(detector="citations", risk=risk, details={"citations": summary, "flagged": risk > 0.3})


def llm(risk: float, notes: str = "", detector: str = "llm_judge", **features: float) -> Finding:
    return Finding(
        detector=detector,
        risk=risk,
        details={"hallucination_risk": risk, "hallucination_notes": notes, "flagged": risk > 0.5, "features": features},
    )
