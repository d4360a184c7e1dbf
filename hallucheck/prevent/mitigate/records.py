"""What a repair run leaves behind: one record per attempt, and the outcome.

Every attempt is kept (also the failed ones) so a caller can show why the final answer looks the
way it does, what each step cost, and audit a guard's decisions later.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from hallucheck.types import Report

__all__ = ["Attempt", "MitigationResult"]


class Attempt(BaseModel):
    """One step: the first generation (``generate``) or one mitigation strategy."""

    index: int
    strategy: str
    severity: str = ""  # severity of the answer this step started from
    answer: str = ""
    risk_score: float | None = None
    risk_level: str | None = None
    decision: str | None = None
    hallucinated: bool | None = None
    spans: int = 0
    accepted: bool = False  # the answer became the current best
    temperature: float | None = None
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0
    note: str = ""
    error: str | None = None


class MitigationResult(BaseModel):
    """The final answer, its report, and every attempt that led there."""

    answer: str
    report: Report
    attempts: list[Attempt] = Field(default_factory=list)
    initial_severity: str
    final_severity: str
    strategy: str  # the strategy that produced the final answer ("generate"/"original" if none did)
    abstained: bool = False
    repaired: bool = False  # the final answer differs from the one we started with
    retry_limit_reached: bool = False
