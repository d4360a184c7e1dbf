"""The RAG prompting guide's weighted score, with the weights and normalisers configurable.

score = keyword coverage × 0.30 + citation rate × 0.25 + (1 − hallucination risk) × 0.25
      + (1 − min(latency / 5000 ms, 1)) × 0.10 + (1 − min(tokens / 500, 1)) × 0.10

Weights are normalised to sum to 1 so scores stay in 0..1 whatever the user passes. The
hallucination risk is the risk score of hallucheck's own checker on the final answer, not the
RAG prompting guide's list of hedging words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from pydantic import BaseModel

from hallucheck.errors import InputError

__all__ = ["Weights", "StrategySummary", "CaseRun", "summarize", "parse_weights", "keyword_coverage"]


@dataclass(frozen=True)
class Weights:
    keyword: float = 0.30
    citation: float = 0.25
    hallucination: float = 0.25
    latency: float = 0.10
    tokens: float = 0.10
    latency_budget_ms: float = 5000.0  # a latency at or above this scores 0
    token_budget: float = 500.0  # completion tokens at or above this score 0

    def normalized(self) -> Weights:
        total = self.keyword + self.citation + self.hallucination + self.latency + self.tokens
        if total <= 0:
            raise InputError("the score weights must not all be zero")
        return Weights(
            self.keyword / total, self.citation / total, self.hallucination / total, self.latency / total,
            self.tokens / total, self.latency_budget_ms, self.token_budget,
        )

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def parse_weights(text: str | None) -> Weights:
    """``"keyword=0.4,citation=0.2,latency_budget_ms=8000"`` over the defaults."""
    if not text:
        return Weights()
    known = {f.name for f in fields(Weights)}
    values: dict[str, float] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in known:
            raise InputError(f"--weights: expected name=value with name in {', '.join(sorted(known))} (got {part.strip()!r})")
        try:
            number = float(value)
        except ValueError:
            raise InputError(f"--weights: {name} must be a number (got {value.strip()!r})") from None
        if number < 0 or number != number:
            raise InputError(f"--weights: {name} must be 0 or more")
        values[name] = number
    for budget in ("latency_budget_ms", "token_budget"):
        if values.get(budget, 1.0) <= 0:
            raise InputError(f"--weights: {budget} must be more than 0")
    w = Weights(**values)
    w.normalized()  # fails early when all weights are zero
    return w


def keyword_coverage(answer: str, keywords: Sequence[str]) -> float:
    """Share of keywords found in the answer (case-insensitive, spaces ignored); 1.0 without keywords."""
    if not keywords:
        return 1.0
    squashed = "".join(answer.lower().split())
    hits = sum(1 for k in keywords if "".join(k.lower().split()) in squashed)
    return hits / len(keywords)


class CaseRun(BaseModel):
    """One strategy on one case: the answer, its report summary and the measurements."""

    case_id: str
    strategy: str
    language: str
    raw: str
    answer: str
    keyword_coverage: float
    cited: bool  # at least one valid citation
    invalid_citations: list[str] = []
    risk_score: float
    risk_level: str
    decision: str
    hallucinated: bool
    spans: list[dict] = []  # type: ignore[type-arg]
    latency_ms: float
    prompt_tokens: int
    completion_tokens: int
    cached: bool = False
    parse_ok: bool | None = None  # structured strategy: the JSON answer could be parsed
    error: str | None = None


class StrategySummary(BaseModel):
    strategy: str
    runs: int
    errors: int
    keyword_coverage: float
    citation_rate: float
    hallucination_risk: float
    flagged_rate: float  # share of answers the checker called hallucinated
    latency_ms: float
    completion_tokens: float
    parse_rate: float | None = None
    components: dict[str, float]  # weighted contribution of each metric to the score
    score: float


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def summarize(runs: Sequence[CaseRun], weights: Weights, strategies: Sequence[str]) -> list[StrategySummary]:
    """One summary per strategy, best score first (a failed run counts as risk 1 and no keywords)."""
    w = weights.normalized()
    out: list[StrategySummary] = []
    for name in strategies:
        mine = [r for r in runs if r.strategy == name]
        if not mine:
            continue
        kw = _mean([r.keyword_coverage for r in mine])
        cite = _mean([1.0 if r.cited else 0.0 for r in mine])
        risk = _mean([r.risk_score for r in mine])
        latency = _mean([r.latency_ms for r in mine])
        tokens = _mean([float(r.completion_tokens) for r in mine])
        parsed = [r.parse_ok for r in mine if r.parse_ok is not None]
        components = {
            "keyword": kw * w.keyword,
            "citation": cite * w.citation,
            "hallucination": (1.0 - risk) * w.hallucination,
            "latency": (1.0 - min(latency / w.latency_budget_ms, 1.0)) * w.latency,
            "tokens": (1.0 - min(tokens / w.token_budget, 1.0)) * w.tokens,
        }
        out.append(
            StrategySummary(
                strategy=name,
                runs=len(mine),
                errors=sum(1 for r in mine if r.error),
                keyword_coverage=kw,
                citation_rate=cite,
                hallucination_risk=risk,
                flagged_rate=_mean([1.0 if r.hallucinated else 0.0 for r in mine]),
                latency_ms=latency,
                completion_tokens=tokens,
                parse_rate=_mean([1.0 if p else 0.0 for p in parsed]) if parsed else None,
                components=components,
                score=sum(components.values()),
            )
        )
    out.sort(key=lambda s: s.score, reverse=True)
    return out
