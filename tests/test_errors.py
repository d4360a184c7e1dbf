"""One error tree: every exception class the package defines derives from ``HallucheckError``, so
``except hallucheck.HallucheckError`` catches anything hallucheck raises on purpose."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import hallucheck
from hallucheck.errors import HallucheckError

PACKAGE = Path(hallucheck.__file__).resolve().parent

# Signals that must pass through ``except Exception`` (a detector wrapper that turns errors into
# findings must not swallow them): they derive from BaseException alone, on purpose.
CONTROL_SIGNALS = {"hallucheck.service.deadline.Abandoned"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules_defining_classes() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.ClassDef) for node in ast.walk(tree)):
            out.append(_module_name(path))
    return out


def _exception_classes() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for name in _modules_defining_classes():
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # an optional extra this environment lacks
            if (exc.name or "").split(".")[0] == "hallucheck":
                raise
            continue
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, BaseException) and obj.__module__ == name:
                found.append(obj)
    return found


EXCEPTIONS = _exception_classes()


def test_the_walk_finds_the_package_exceptions() -> None:
    names = {f"{c.__module__}.{c.__qualname__}" for c in EXCEPTIONS}
    assert {"hallucheck.policies.base.UnknownPolicyError", "hallucheck.llm.base.LLMError",
            "hallucheck.models.embedder.EmbedderUnavailable", "hallucheck.testing.GroundednessError"} <= names


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_package_exception_is_a_hallucheck_error(cls: type[BaseException]) -> None:
    if f"{cls.__module__}.{cls.__qualname__}" in CONTROL_SIGNALS:
        assert not issubclass(cls, Exception)
        return
    assert issubclass(cls, HallucheckError)


def test_each_error_also_is_the_builtin_it_resembles() -> None:
    from hallucheck.detectors.base import UnknownDetectorError
    from hallucheck.llm.base import LLMError
    from hallucheck.models.embedder import EmbedderUnavailable
    from hallucheck.policies.base import UnknownPolicyError
    from hallucheck.testing import GroundednessError

    assert issubclass(UnknownPolicyError, KeyError) and issubclass(UnknownDetectorError, KeyError)
    assert issubclass(EmbedderUnavailable, RuntimeError) and issubclass(LLMError, RuntimeError)
    assert issubclass(GroundednessError, AssertionError)


def test_one_clause_catches_them_all() -> None:
    from hallucheck.policies import get_policy

    with pytest.raises(hallucheck.HallucheckError):
        get_policy("no-such-policy")
    assert "HallucheckError" in hallucheck.__all__
