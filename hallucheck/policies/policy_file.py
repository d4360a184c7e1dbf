"""A fitted policy in a file (``POLICY.json``), as ``hallucheck calibrate`` writes it.

Wherever a policy name is accepted (``Checker(policy=...)``, ``--policy`` on ``detect``, ``eval``
and ``serve``, ``HALLUCHECK_POLICY``), a path to such a file works too: it is a learned-policy spec
(the shipped ``learned.json`` format) with its own calibration, threshold and detectors. The
environment variable ``HALLUCHECK_POLICY`` changes what ``"default"`` means, so a service or a
script picks up a user's calibration without code changes.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from hallucheck.errors import InputError

__all__ = ["ENV", "default_override", "is_policy_file", "load_policy_file"]

ENV = "HALLUCHECK_POLICY"


def is_policy_file(name: str) -> bool:
    """Whether ``name`` names a policy file rather than a registered policy."""
    return name.endswith(".json") or os.sep in name or "/" in name


def default_override() -> str | None:
    """What ``"default"`` means when ``HALLUCHECK_POLICY`` is set (a name or a file), else None."""
    value = os.environ.get(ENV, "").strip()
    return value or None


def load_policy_file(path: str | Path) -> dict[str, Any]:
    """The spec in ``path``; InputError (one line) when it is missing or not a fitted policy."""
    p = Path(path).expanduser()
    try:
        stamp = p.stat().st_mtime_ns
    except OSError:
        raise InputError(f"policy file {path}: not found") from None
    return _load(str(p.resolve()), stamp)


@lru_cache(maxsize=16)
def _load(path: str, stamp: int) -> dict[str, Any]:
    del stamp  # part of the cache key: a rewritten file is read again
    try:
        spec = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"policy file {path}: not readable as JSON ({exc})") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("stages"), dict) or "threshold" not in spec:
        raise InputError(f"policy file {path}: not a fitted policy (expected 'stages' and 'threshold'; "
                         "write one with: hallucheck calibrate DATA --out POLICY.json)")
    for name, stage in spec["stages"].items():
        if not isinstance(stage, dict) or not {"features", "trees", "platt", "fill", "detectors"} <= set(stage):
            raise InputError(f"policy file {path}: stage {name!r} is incomplete")
    if not isinstance(spec.get("detectors"), list) or not spec["detectors"]:
        raise InputError(f"policy file {path}: no 'detectors' list")
    from hallucheck.policies.learned_spec import spec_of  # lazy: numpy and pydantic load when a file is read

    return spec_of(spec, f"file {path}")[0]
