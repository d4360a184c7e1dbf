"""Shared helpers of the benchmark commands: where the data is, machine facts, result files."""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "RAGTRUTH", "RESULTS", "machine", "write_result", "available_policies_here", "cheap_detectors"]

ROOT = Path(__file__).resolve().parents[1]
RAGTRUTH = ROOT.parent / "shared" / "data" / "ragtruth" / "train.jsonl.gz"
RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> dict[str, Any]:
    """What the numbers were measured on, including how busy the machine was."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "load_average_1m": round(load[0], 2),
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
    }


def write_result(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _importable(path: str) -> bool:
    import importlib

    module = path.partition(":")[0]
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def available_policies_here() -> list[str]:
    """Policies whose module is installed, in a fixed order (learned only when its weights ship)."""
    from hallucheck.policies.default import default_policy_name
    from hallucheck.policies.registry import _POLICIES

    out: list[str] = [p for p in ("tiered", "vote", "weighted") if p in _POLICIES and _importable(_POLICIES[p])]
    if default_policy_name() == "learned" and _importable(_POLICIES["learned"]):
        out.append("learned")
    return out


def cheap_detectors() -> list[str]:
    """The rules and lexical layers (1 and 2) whose modules are installed."""
    from hallucheck.detectors.base import _LAZY, available_detectors

    return [
        name
        for name, layer in sorted(available_detectors().items(), key=lambda kv: (kv[1], kv[0]))
        if layer <= 2 and _importable(_LAZY.get(name, (name, 0))[0])
    ]
