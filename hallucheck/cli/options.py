"""Command-line option parsing shared by several commands (detector lists, policies, overrides)."""

from __future__ import annotations

from typing import Any

import typer

from hallucheck.errors import InputError

__all__ = [
    "parse_detectors",
    "check_policy",
    "check_workers",
    "case_overrides",
    "OUTPUT_FORMATS",
    "DETECTORS_OPTION",
    "POLICY_OPTION",
    "CITATIONS_OPTION",
    "WORKERS_OPTION",
    "RAY_OPTION",
]

# Options several commands share, declared once so their names and help stay the same everywhere.
DETECTORS_OPTION: Any = typer.Option(
    None, "--detectors", "-d", help="Comma-separated detector names (default: the default stack)."
)
POLICY_OPTION: Any = typer.Option(
    "default", "--policy", "-p", help="tiered, vote, weighted, learned, default, or a POLICY.json from 'hallucheck calibrate'."
)
CITATIONS_OPTION: Any = typer.Option(
    None,
    "--citations-expected/--no-citations-expected",
    help="Whether answers were asked to cite sources (default: only when the answer cites).",
)
WORKERS_OPTION: Any = typer.Option(1, "--workers", "-w", help="Local processes (cores) to spread the cases over.")
RAY_OPTION: Any = typer.Option(
    None,
    "--ray",
    metavar="ADDRESS",
    help="Run on Ray (extra 'distributed'): 'local' starts one here, 'auto' joins this machine's cluster, "
    "or ray://host:10001.",
)

OUTPUT_FORMATS = ("json", "text")


def parse_detectors(value: str | None) -> list[str] | None:
    """``"a,b,c"`` as a list of registered detector names (None = the default stack)."""
    if value is None:
        return None
    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise InputError("--detectors needs at least one detector name")
    from hallucheck.detectors import available_detectors  # lazy: start-up: the CLI imports a command's code only when it runs

    known = available_detectors()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(f"unknown detector {unknown[0]!r} (known: {', '.join(sorted(known))})")
    return list(dict.fromkeys(names))


def check_policy(name: str) -> str:
    """A known policy name, or a policy file that loads (InputError otherwise)."""
    from hallucheck.policies import available_policies  # lazy: start-up: the CLI imports a command's code only when it runs

    # lazy: start-up: the CLI imports a command's code only when it runs
    from hallucheck.policies.policy_file import is_policy_file, load_policy_file

    if is_policy_file(name):
        load_policy_file(name)
        return name
    if name != "default" and name not in available_policies():
        raise InputError(f"unknown policy {name!r} (known: default, {', '.join(available_policies())})")
    return name


def check_workers(workers: int) -> int:
    if workers < 1:
        raise InputError("--workers must be at least 1")
    return workers


def case_overrides(task: str | None, language: str | None, citations_expected: bool | None) -> dict[str, Any]:
    """Case fields set on the command line; they win over the same fields in the input."""
    out: dict[str, Any] = {}
    if task is not None:
        out["task"] = task
    if language is not None:
        out["language"] = language
    if citations_expected is not None:
        out["citations_expected"] = citations_expected
    return out
