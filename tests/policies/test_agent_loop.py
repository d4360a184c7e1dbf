"""Agent-loop actions (detection guideline): low synthesizes, moderate refines, high continues, and near
the iteration limit a high-risk answer is accepted but stays marked high risk."""

from __future__ import annotations

import pytest

from hallucheck.policies.agent_loop import AgentStep, agent_action


@pytest.mark.parametrize(("level", "action"), [("low", "synthesize"), ("moderate", "refine_search"), ("high", "continue")])
def test_actions_far_from_the_limit(level: str, action: str) -> None:
    step = agent_action(level, 0, 10)
    assert isinstance(step, AgentStep)
    assert step.action == action and not step.forced and not step.near_limit


def test_near_limit_boundary() -> None:
    # iteration >= max_iterations - 3 is near the limit.
    far = agent_action("high", 6, 10)
    assert far.action == "continue" and not far.forced
    near = agent_action("high", 7, 10)
    assert near.action == "synthesize" and near.forced and near.near_limit
    assert near.high_risk and near.risk_level == "high"
    assert "despite high" in near.note
    assert agent_action("high", 10, 10).forced


def test_near_limit_leaves_low_and_moderate_alone() -> None:
    assert agent_action("low", 9, 10).action == "synthesize"
    step = agent_action("moderate", 9, 10)
    assert step.action == "refine_search" and not step.forced and step.near_limit


def test_small_limits_are_always_near() -> None:
    assert agent_action("high", 0, 3).forced


@pytest.mark.parametrize(("level", "it", "mx"), [("severe", 0, 5), ("low", -1, 5), ("low", 0, -2), ("low", 1.5, 5)])
def test_bad_input(level: str, it: object, mx: object) -> None:
    with pytest.raises(ValueError):
        agent_action(level, it, mx)  # type: ignore[arg-type]
