"""Policies turn detector findings into a verdict (tiered, vote, weighted, learned)."""

from hallucheck.policies.base import Policy, UnknownPolicyError, Verdict, decision_for, level_for
from hallucheck.policies.registry import available_policies, get_policy, register_policy

__all__ = [
    "Policy",
    "UnknownPolicyError",
    "Verdict",
    "available_policies",
    "decision_for",
    "get_policy",
    "level_for",
    "register_policy",
]
