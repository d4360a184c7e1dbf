"""Policies by name: the shipped ones, those registered by users, and fitted policy files."""

from __future__ import annotations

import importlib
from typing import Any

from hallucheck.policies.base import Policy, UnknownPolicyError
from hallucheck.policies.default import default_policy_name
from hallucheck.policies.policy_file import default_override, is_policy_file, load_policy_file

__all__ = ["available_policies", "get_policy", "register_policy"]

_POLICIES: dict[str, str] = {
    "tiered": "hallucheck.policies.tiered:TieredPolicy",
    "vote": "hallucheck.policies.vote:VotePolicy",
    "weighted": "hallucheck.policies.weighted:WeightedPolicy",
    "learned": "hallucheck.policies.learned:LearnedPolicy",
}


def register_policy(name: str, path: str) -> None:
    """Make a policy class available by name (``"module:Class"``)."""
    _POLICIES[name] = path


def available_policies() -> list[str]:
    return sorted(_POLICIES)


def get_policy(name: str, **options: Any) -> Policy:
    """A policy by name, or a fitted policy file (``POLICY.json`` from ``hallucheck calibrate``).

    ``"default"`` is what ``HALLUCHECK_POLICY`` names when set, else the learned policy when
    shipped, else the weighted one.
    """
    if name == "default":
        name = default_override() or default_policy_name()
    if is_policy_file(name):
        from hallucheck.policies.learned import LearnedPolicy  # lazy: numpy and the trees load only when chosen

        return LearnedPolicy(spec=load_policy_file(name), **options)
    if name not in _POLICIES:
        raise UnknownPolicyError(f"unknown policy {name!r} (known: {', '.join(available_policies())})")
    module, _, attr = _POLICIES[name].partition(":")
    return getattr(importlib.import_module(module), attr)(**options)  # type: ignore[no-any-return]
