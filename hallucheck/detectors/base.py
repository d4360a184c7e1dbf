"""The Detector protocol and the registry that finds detectors by name.

A detector looks at one CaseAnalysis and returns a Finding. Detectors are registered by name with
the dotted path of their class, and imported only when asked for, so that importing hallucheck
never pulls in onnxruntime, an LLM client or anything else heavy.
"""

from __future__ import annotations

import importlib
import time
from typing import Any, ClassVar, Protocol, runtime_checkable

from hallucheck.analysis import CaseAnalysis
from hallucheck.errors import HallucheckError
from hallucheck.types import Finding, Role

__all__ = [
    "LAYERS",
    "Detector",
    "BaseDetector",
    "register",
    "register_lazy",
    "get_detector",
    "available_detectors",
    "detector_layer",
    "UnknownDetectorError",
]

LAYERS = {1: "rules", 2: "lexical", 3: "semantic", 4: "model", 5: "llm"}


class UnknownDetectorError(HallucheckError, KeyError):
    """Raised for a detector name nobody registered."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown detector"


@runtime_checkable
class Detector(Protocol):
    """Anything with a name, a layer and ``detect(analysis) -> Finding`` (a ``role`` is optional:
    without one, its findings count as role "other")."""

    name: str
    layer: int

    def detect(self, analysis: CaseAnalysis) -> Finding: ...


class BaseDetector:
    """Convenience base: times ``_detect`` and fills in the detector's role and latency.

    ``role`` says what kind of evidence the detector gives (see ``hallucheck.types.Role``);
    policies choose findings by it, so a detector sets it once here rather than on every Finding.
    """

    name: ClassVar[str] = "base"
    layer: ClassVar[int] = 1
    role: ClassVar[Role] = "other"

    def detect(self, analysis: CaseAnalysis) -> Finding:
        t0 = time.perf_counter()
        finding = self._detect(analysis)
        if "role" not in finding.model_fields_set:
            finding.role = self.role
        finding.latency_ms = (time.perf_counter() - t0) * 1000.0
        return finding

    def _detect(self, analysis: CaseAnalysis) -> Finding:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


# name -> (dotted path "module:Class", layer)
_LAZY: dict[str, tuple[str, int]] = {}
_CLASSES: dict[str, type] = {}


def register(cls: type) -> type:
    """Class decorator: make a detector class available by its ``name``."""
    _CLASSES[cls.name] = cls  # type: ignore[attr-defined]
    return cls


def register_lazy(name: str, path: str, layer: int) -> None:
    """Make a detector available by name without importing its module until it is used."""
    _LAZY[name] = (path, layer)


def _resolve(name: str) -> type:
    if name in _CLASSES:
        return _CLASSES[name]
    if name not in _LAZY:
        known = ", ".join(sorted(available_detectors()))
        raise UnknownDetectorError(f"unknown detector {name!r} (known: {known})")
    module, _, attr = _LAZY[name][0].partition(":")
    cls: type = getattr(importlib.import_module(module), attr)
    _CLASSES[name] = cls
    return cls


def get_detector(name: str, **options: Any) -> Detector:
    """A new detector instance by registered name, with its options."""
    return _resolve(name)(**options)  # type: ignore[no-any-return]


def detector_layer(name: str) -> int:
    if name in _CLASSES:
        return int(_CLASSES[name].layer)  # type: ignore[attr-defined]
    if name in _LAZY:
        return _LAZY[name][1]
    raise UnknownDetectorError(f"unknown detector {name!r}")


def available_detectors() -> dict[str, int]:
    """Registered detector names and their layer."""
    out = {n: layer for n, (_, layer) in _LAZY.items()}
    out.update({n: int(c.layer) for n, c in _CLASSES.items()})  # type: ignore[attr-defined]
    return out
