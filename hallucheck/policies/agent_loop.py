"""What an agent loop should do next with a checked answer (the detection guideline's risk tiers and actions).

Low risk: synthesize (accept the answer). Moderate: refine the search and try again. High:
continue searching. Near the iteration limit — ``iteration >= max_iterations - 3`` — a high-risk
answer is accepted anyway so the loop ends, but it stays marked high risk (``forced=True``) for
the logs and the caller. A moderate answer keeps asking for a refined search; the loop's own
limit bounds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hallucheck.types import RiskLevel

__all__ = ["AgentAction", "AgentStep", "agent_action", "NEAR_LIMIT"]

AgentAction = Literal["synthesize", "refine_search", "continue"]
NEAR_LIMIT = 3
_ACTIONS: dict[str, AgentAction] = {"low": "synthesize", "moderate": "refine_search", "high": "continue"}


@dataclass(frozen=True)
class AgentStep:
    """The next action, and whether a high-risk answer was accepted only because of the limit."""

    action: AgentAction
    risk_level: RiskLevel
    forced: bool = False
    near_limit: bool = False

    @property
    def high_risk(self) -> bool:
        """True for a high-risk answer, also when it is accepted at the limit."""
        return self.risk_level == "high"

    @property
    def note(self) -> str:
        if self.forced:
            return "accepted near the iteration limit despite high hallucination risk"
        return f"{self.risk_level} risk: {self.action}"


def agent_action(level: RiskLevel | str, iteration: int, max_iterations: int) -> AgentStep:
    """The next step of the loop for an answer at ``level`` in ``iteration`` (0- or 1-based alike)."""
    if level not in _ACTIONS:
        raise ValueError(f"risk level must be low, moderate or high, got {level!r}")
    for name, value in (("iteration", iteration), ("max_iterations", max_iterations)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    near = iteration >= max_iterations - NEAR_LIMIT
    lvl: RiskLevel = level  # type: ignore[assignment]
    if lvl == "high" and near:
        return AgentStep(action="synthesize", risk_level=lvl, forced=True, near_limit=True)
    return AgentStep(action=_ACTIONS[lvl], risk_level=lvl, near_limit=near)
