"""Floors under the verdict: precise evidence a fitted model may weigh but never erase.

Some findings are precise enough to decide an answer on their own: a citation id that names no
source (a fabricated reference, per the guideline), a figure, date or amount that contradicts the
same quantity in the sources, a name the sources never mention. Detectors mark such spans with a
``kind`` (:data:`hallucheck.types.PreciseKind`). A learned policy fitted on data where these are
rare (RAGTruth has no citations and no Chinese) can score such an answer low; the floor table
stops that: where a kind's measured precision in the answer's language is at least
``min_precision`` (0.9), one span of that kind makes the answer hallucinated (reject), whatever
the policy said, and the span is shown in the report.

The table is measured, not assumed: ``bench/floors.py`` runs the detectors on labelled calib data
per language and writes each kind's answer-level precision (of the answers holding such a span,
the share labelled hallucinated) into the shipped policy JSON under ``"floors"``. The one
exception is ``invalid_citation``, which the guideline makes a floor in every language and under
every policy; its measured precision is still recorded where data has citations.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from hallucheck.policies.base import Verdict
from hallucheck.types import Finding, Span

__all__ = ["Floor", "FloorTable", "ALWAYS", "MIN_PRECISION", "MIN_SUPPORT", "shipped_floors", "language_key"]

MIN_PRECISION = 0.9
MIN_SUPPORT = 20
# Kinds that are a floor in every language by rule (the guideline), measured or not.
ALWAYS: frozenset[str] = frozenset({"invalid_citation"})
_GROUPS = {"zh-hans": "zh-Hans", "zh-hant": "zh-Hant", "zh-cn": "zh-Hans", "zh-tw": "zh-Hant", "zh": "zh-Hans"}


def language_key(language: str | None) -> str:
    """The floor table's language key: ``zh-Hans`` / ``zh-Hant`` for Chinese, else the base code."""
    lang = (language or "").strip()
    low = lang.lower()
    if low in _GROUPS:
        return _GROUPS[low]
    return low.split("-")[0] if low else "*"


@dataclass(frozen=True)
class Floor:
    """One kind of precise evidence in one language (``"*"``: every language)."""

    kind: str
    language: str = "*"
    precision: float | None = None  # answer-level precision on the measuring set
    support: int = 0  # answers of the measuring set that hold a span of this kind
    span_precision: float | None = None  # share of such spans that overlap a labelled span
    data: str = ""  # what it was measured on
    active: bool = False

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class FloorTable:
    """The floors by (kind, language); ``floor_for`` falls back from the language to ``"*"``."""

    def __init__(self, floors: Iterable[Floor], *, min_precision: float = MIN_PRECISION, min_support: int = MIN_SUPPORT,
                 command: str = "") -> None:
        self.floors = list(floors)
        self.min_precision = min_precision
        self.min_support = min_support
        self.command = command
        self._by = {(f.kind, f.language): f for f in self.floors}

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> FloorTable:
        """From a policy JSON's ``"floors"`` section; without one, the guideline's floors only."""
        if not spec:
            return default_floors()
        fields = {f.name for f in dataclasses.fields(Floor)}
        floors = [Floor(**{k: v for k, v in e.items() if k in fields}) for e in spec.get("entries", [])]
        if not any(f.kind in ALWAYS for f in floors):
            floors += default_floors().floors
        return cls(floors, min_precision=float(spec.get("min_precision", MIN_PRECISION)),
                   min_support=int(spec.get("min_support", MIN_SUPPORT)), command=str(spec.get("command", "")))

    def to_spec(self) -> dict[str, Any]:
        return {"min_precision": self.min_precision, "min_support": self.min_support, "command": self.command,
                "entries": [f.to_dict() for f in self.floors]}

    def floor_for(self, kind: str, language: str | None) -> Floor | None:
        """The active floor for a span kind in a language, or None."""
        for key in (language_key(language), "*"):
            f = self._by.get((kind, key))
            if f is not None:
                return f if f.active else None
        return None

    def hits(self, findings: Sequence[Finding], language: str | None) -> list[tuple[Span, Floor]]:
        """Spans of usable findings that stand on an active floor."""
        out: list[tuple[Span, Floor]] = []
        for f in findings:
            if not f.usable:
                continue
            for s in f.spans:
                if s.kind is None:
                    continue
                fl = self.floor_for(s.kind, language)
                if fl is not None:
                    out.append((s, fl))
        return out

    def apply(self, verdict: Verdict, findings: Sequence[Finding], language: str | None) -> Verdict:
        """The verdict raised to reject when a floor holds; otherwise unchanged."""
        hits = self.hits(findings, language)
        if not hits:
            return verdict
        risk = max(verdict.risk_score, *(fl.precision if fl.precision is not None else 1.0 for _, fl in hits))
        notes = list(verdict.notes)
        for s, fl in hits[:5]:
            # the data behind the figure is in the policy file's floor table (``data``), not in every report
            why = f"precision {fl.precision:.2f} on {fl.support} answers" if fl.precision is not None else "a floor by rule"
            notes.append(f"floor: {s.kind.replace('_', ' ') if s.kind else s.label} {s.text!r} makes the answer "
                         f"hallucinated ({language_key(language)}: {why})")
        spans = verdict.spans
        if spans is not None:
            have = {(s.start, s.end, s.label) for s in spans}
            spans = [*spans, *(s for s, _ in hits if (s.start, s.end, s.label) not in have)]
        return dataclasses.replace(verdict, hallucinated=True, risk_score=min(1.0, risk), risk_level="high",
                                   decision="reject", notes=notes, spans=spans)


def default_floors() -> FloorTable:
    """The guideline's floors alone: an invalid citation id, in every language."""
    return FloorTable([Floor(kind=k, language="*", data="guideline: a fabricated reference", active=True) for k in sorted(ALWAYS)])


@lru_cache(maxsize=1)
def shipped_floors() -> FloorTable:
    """The floor table shipped with the learned policy (``learned.json``), or the guideline's."""
    try:
        text = resources.files("hallucheck.policies").joinpath("learned.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return default_floors()
    return FloorTable.from_spec(json.loads(text).get("floors"))
