"""Request and response bodies of the HTTP API.

A check request is a Case (unknown fields are refused with 422, like everywhere in hallucheck);
responses carry the stored check's id so a client can fetch it again later.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hallucheck.types import Case, Report

__all__ = [
    "MAX_METADATA_DEPTH",
    "CheckRequest",
    "BatchRequest",
    "CheckResponse",
    "BatchResponse",
    "CheckSummary",
    "CheckList",
    "StoredCheckOut",
    "Figures",
    "TrendPoint",
    "Trend",
    "ErrorBody",
    "ErrorResponse",
    "Health",
    "nesting_depth",
]


MAX_METADATA_DEPTH = 32


def nesting_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a scalar), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if depth > MAX_METADATA_DEPTH:
            return depth
        stack.extend((c, depth) for c in children)
    return deepest


class CheckRequest(Case):
    """One case to check: question, contexts (strings or {id, text}), answer, optional task...

    ``metadata`` may nest at most 32 levels: it is stored and returned as JSON, and deeper
    structures are refused here (422) rather than failing later in the encoders.
    """

    @field_validator("metadata", mode="before")
    @classmethod
    def _shallow_metadata(cls, v: Any) -> Any:
        if nesting_depth(v) > MAX_METADATA_DEPTH:
            raise ValueError(f"metadata nests deeper than {MAX_METADATA_DEPTH} levels")
        return v


class BatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cases: list[CheckRequest] = Field(min_length=1)


class CheckResponse(BaseModel):
    id: str
    created_at: str
    report: Report
    timings_ms: dict[str, float]


class BatchResponse(BaseModel):
    batch_id: str
    results: list[CheckResponse]


class CheckSummary(BaseModel):
    id: str
    created_at: str
    task: str
    language: str
    hallucinated: bool
    risk_score: float
    risk_level: str
    decision: str
    span_count: int
    invalid_citations: int
    uncited_sentences: int
    latency_ms: float
    answer_preview: str
    labels: list[str]
    flagged_by: list[str]
    batch_id: str | None = None


class CheckList(BaseModel):
    items: list[CheckSummary]
    total: int
    limit: int
    offset: int


class StoredCheckOut(CheckSummary):
    case: dict[str, Any]
    report: dict[str, Any]
    timings: dict[str, Any]


class Figures(BaseModel):
    """The detection guideline's monitoring figures; None where there is no check in the window."""

    checks: int
    avg_risk: float | None
    high_risk_share: float | None
    moderate_risk_share: float | None
    hallucinated_share: float | None
    invalid_citation_rate: float | None = Field(description="share of checks with at least one invalid citation")
    invalid_citations_per_check: float | None
    uncited_claim_rate: float | None = Field(description="share of checks with at least one uncited long sentence")
    uncited_claims_per_check: float | None
    citation_rules_applied: int
    avg_latency_ms: float | None
    llm_calls: int


class TrendPoint(Figures):
    start: str


class Trend(BaseModel):
    bucket: Literal["minute", "hour", "day"]
    points: list[TrendPoint]


class ErrorBody(BaseModel):
    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorResponse(BaseModel):
    error: ErrorBody


class Health(BaseModel):
    status: str
    version: str
    store: str
    schema_version: int
    detectors: list[str]
    policy: str
    auth: bool
