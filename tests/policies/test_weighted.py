"""Weighted fusion (production pipeline guide): weights 0.35 / 0.40 / 0.25, renormalisation over present roles,
severity cut-offs 0.8 / 0.6 / 0.35 and their mapping to levels and decisions."""

from __future__ import annotations

import pytest

from hallucheck.policies import get_policy
from hallucheck.policies.weighted import WEIGHTS, WeightedPolicy, fuse, severity_for

from .helpers import analysis, finding


@pytest.mark.parametrize(
    ("score", "severity"),
    [(1.0, "critical"), (0.8, "critical"), (0.7999, "high"), (0.6, "high"), (0.5999, "medium"),
     (0.35, "medium"), (0.3499, "low"), (0.0, "low")],
)
def test_severity_cut_offs(score: float, severity: str) -> None:
    assert severity_for(score) == severity


@pytest.mark.parametrize(
    ("risk", "level", "decision", "severity"),
    [(0.85, "high", "reject", "critical"), (0.6, "high", "reject", "high"), (0.59, "moderate", "review", "medium"),
     (0.35, "moderate", "review", "medium"), (0.34, "low", "accept", "low")],
)
def test_levels_and_decisions(risk: float, level: str, decision: str, severity: str) -> None:
    v = WeightedPolicy().decide(analysis(), [finding("ngram", risk)])
    assert v.risk_score == pytest.approx(risk)
    assert (v.risk_level, v.decision) == (level, decision)
    assert v.hallucinated is (level == "high")
    assert v.notes[0].startswith(f"weighted: severity {severity} ")


def test_seed_weights_and_renormalisation() -> None:
    assert WEIGHTS == {"self_consistency": 0.35, "factual_grounding": 0.40, "nli_consistency": 0.25}
    all_three = [finding("self_consistency", 1.0), finding("ngram", 0.0), finding("nli", 0.0)]
    assert WeightedPolicy().score(all_three) == pytest.approx(0.35)
    all_three = [finding("self_consistency", 0.2), finding("ngram", 0.5), finding("nli", 0.9)]
    assert WeightedPolicy().score(all_three) == pytest.approx(0.35 * 0.2 + 0.4 * 0.5 + 0.25 * 0.9)
    two = [finding("self_consistency", 1.0), finding("ngram", 0.0)]
    assert WeightedPolicy().score(two) == pytest.approx(0.35 / 0.75)
    assert WeightedPolicy().score([finding("nli", 0.7)]) == pytest.approx(0.7)
    assert fuse({}, WEIGHTS) == 0.0


def test_alarm_mean_lets_specific_evidence_stand() -> None:
    graded = [finding("ngram", 0.4), finding("overlap", 0.6)]
    assert WeightedPolicy().score(graded + [finding("numbers", 0.0), finding("citations", 0.0)]) == pytest.approx(0.5)
    assert WeightedPolicy().score(graded + [finding("numbers", 0.9)]) == pytest.approx(0.9)
    assert WeightedPolicy().score([finding("lexicon", 0.2)]) == pytest.approx(0.2)


@pytest.mark.parametrize(("combine", "expected"), [("max", 0.6), ("mean", 0.8 / 3), ("noisy_or", 1 - 0.8 * 0.4 * 1.0)])
def test_other_combinations(combine: str, expected: float) -> None:
    fs = [finding("ngram", 0.2), finding("overlap", 0.6), finding("numbers", 0.0)]
    assert WeightedPolicy(combine=combine).score(fs) == pytest.approx(expected)  # type: ignore[arg-type]


def test_detectors_in_no_role_are_noted_not_counted() -> None:
    v = WeightedPolicy().decide(analysis(), [finding("mystery", 0.99), finding("ngram", 0.1)])
    assert v.risk_score == pytest.approx(0.1)
    assert any("mystery" in n for n in v.notes)


def test_failed_findings_are_left_out() -> None:
    from hallucheck.types import Finding

    fs = [Finding(detector="numbers", risk=0.0, error="boom"), finding("ngram", 0.7)]
    v = WeightedPolicy().decide(analysis(), fs)
    assert v.risk_score == pytest.approx(0.7) and any("numbers failed" in n for n in v.notes)


def test_nothing_ran_is_low() -> None:
    v = WeightedPolicy().decide(analysis(), [])
    assert v.risk_level == "low" and v.risk_score == 0.0


def test_custom_weights_and_roles() -> None:
    p = WeightedPolicy(weights={"a": 1.0, "b": 3.0}, roles={"a": ["lexical"], "b": ["facts"]}, combine="max")
    assert p.score([finding("ngram", 1.0), finding("numbers", 0.0)]) == pytest.approx(0.25)


def test_escalate_settles_critical_and_very_low_scores() -> None:
    p = WeightedPolicy()
    assert p.escalate(analysis(), [finding("ngram", 0.85)], 3) is False
    assert p.escalate(analysis(), [finding("ngram", 0.05)], 3) is False
    assert p.escalate(analysis(), [finding("ngram", 0.5)], 3) is True


@pytest.mark.parametrize(
    "options",
    [{"weights": {"self_consistency": -1.0}}, {"roles": {"x": ["lexical"]}}, {"combine": "median"},
     {"cutoffs": (0.5, 0.6, 0.35)}],
)
def test_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        WeightedPolicy(**options)  # type: ignore[arg-type]


def test_registered_and_default_without_learned_weights() -> None:
    from hallucheck.policies.default import default_policy_name

    assert isinstance(get_policy("weighted"), WeightedPolicy)
    if default_policy_name() == "weighted":
        assert isinstance(get_policy("default"), WeightedPolicy)
