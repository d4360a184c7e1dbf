"""Request and response bodies of the HTTP API.

A check request is a Case (unknown fields are refused with 422, like everywhere in hallucheck);
responses carry the stored check's id so a client can fetch it again later.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hallucheck.service.errors import ApiError
from hallucheck.types import Case, Report

__all__ = [
    "MAX_CONTEXTS_CEILING",
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
    "unstorable",
]


MAX_METADATA_DEPTH = 32
MAX_CONTEXTS_CEILING = 100_000
"""Contexts a request may hold whatever HALLUCHECK_MAX_CONTEXTS says (its largest valid value).
Counted on the parsed JSON before any context is validated, so that a body of hundreds of
thousands of tiny contexts is refused for the price of reading it."""


def _too_many_contexts(n: int) -> ApiError:
    return ApiError(413, "case_too_large", f"the request has {n} contexts; no request may hold more than "
                    f"{MAX_CONTEXTS_CEILING} (and the server's limit, HALLUCHECK_MAX_CONTEXTS, may be lower)")


def unstorable(value: Any, where: str = "body") -> tuple[str, str] | None:
    """The first place in ``value`` (parsed JSON) that the store cannot keep as given, and why:
    a NUL character in any string or key (PostgreSQL's text refuses it), or a number that is not
    finite (JSON has no NaN or Infinity; it would come back as null). None when all is storable."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path, "contains a NUL character (\\u0000), which cannot be stored"
        elif isinstance(item, float):
            if not math.isfinite(item):
                return path, "is not a finite number (NaN or Infinity cannot be stored as JSON)"
        elif isinstance(item, dict):
            for k, v in item.items():
                if isinstance(k, str) and "\x00" in k:
                    return f"{path}.{k!r}", "this key contains a NUL character (\\u0000), which cannot be stored"
                stack.append((v, f"{path}.{k}"))
        elif isinstance(item, (list, tuple)):
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(item))
    return None


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

    @field_validator("contexts", mode="before")
    @classmethod
    def _not_too_many(cls, v: Any) -> Any:
        if isinstance(v, list) and len(v) > MAX_CONTEXTS_CEILING:
            raise _too_many_contexts(len(v))
        return v

    @field_validator("metadata", mode="before")
    @classmethod
    def _shallow_metadata(cls, v: Any) -> Any:
        if nesting_depth(v) > MAX_METADATA_DEPTH:
            raise ValueError(f"metadata nests deeper than {MAX_METADATA_DEPTH} levels")
        return v


class BatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cases: list[CheckRequest] = Field(min_length=1)

    @field_validator("cases", mode="before")
    @classmethod
    def _not_too_many(cls, v: Any) -> Any:
        if isinstance(v, list):
            n = sum(len(c["contexts"]) for c in v if isinstance(c, dict) and isinstance(c.get("contexts"), list))
            if n > MAX_CONTEXTS_CEILING:
                raise _too_many_contexts(n)
        return v


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
    problems: list[str] = Field(default_factory=list, description="why the store cannot be used (status failing)")
