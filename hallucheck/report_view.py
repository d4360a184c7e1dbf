"""How much of a report goes out as JSON: the verdict and its evidence by default, internals on request.

Why: a full report carries every detector's internals — token probabilities of the tagger,
feature dumps for the learned policy, each detector's own spans before merging — about 15 KB of
JSON per answer, most of it unreadable to a person and useless to a pipeline that wants the
verdict. The command line (``--verbose``) and the HTTP service (``?include=``) both compact the
same way through :func:`report_dict`; the Python API keeps returning the whole ``Report``.

What each part adds back:

- ``details``: each finding's free-form data (per-token probabilities, thresholds, counts);
- ``features``: each finding's numbers that a learned policy stacks;
- ``finding_spans``: each detector's own spans (the report's ``spans`` are the merged ones and
  are always there);
- ``sentence_verdicts``: the verifier's reading of each sentence it read (probabilities and the
  evidence sentence);
- ``all``: everything above.

Left-out parts are emptied (``"details": {}``, ``"spans": []``), not removed, so the JSON keeps
the one documented shape of a Report whatever was asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hallucheck.errors import InputError

__all__ = ["INCLUDE_PARTS", "compact_report", "compact_report_dict", "parse_include", "report_dict"]

INCLUDE_PARTS: tuple[str, ...] = ("details", "features", "finding_spans", "sentence_verdicts")
# part -> (finding field, its empty value)
_FINDING_KEYS: dict[str, tuple[str, Any]] = {
    "details": ("details", {}),
    "features": ("features", {}),
    "finding_spans": ("spans", []),
    "sentence_verdicts": ("sentence_verdicts", []),
}


def _emptied(include: Iterable[str], present: Iterable[str]) -> dict[str, Any]:
    keep = set(include)
    fields = set(present)
    return {key: type(empty)() for part, (key, empty) in _FINDING_KEYS.items() if part not in keep and key in fields}


def parse_include(value: str | Iterable[str] | None) -> frozenset[str]:
    """The parts named by ``"details,features"`` (or a list; ``"all"`` = every part); InputError
    naming the known parts on an unknown one."""
    if value is None:
        return frozenset()
    items = value.split(",") if isinstance(value, str) else list(value)
    names = {str(n).strip() for n in items if str(n).strip()}
    if "all" in names:
        return frozenset(INCLUDE_PARTS)
    unknown = sorted(names - set(INCLUDE_PARTS))
    if unknown:
        raise InputError(f"unknown include part {unknown[0]!r} (known: all, {', '.join(INCLUDE_PARTS)})")
    return frozenset(names)


def compact_report_dict(data: Mapping[str, Any], include: Iterable[str] = ()) -> dict[str, Any]:
    """A report already dumped to JSON-ready form, without the finding parts not in ``include``.

    Anything that is not a report (an error line of a batch, say) comes back unchanged.
    """
    out = dict(data)
    findings = out.get("findings")
    if not isinstance(findings, list):
        return out
    out["findings"] = [{**f, **_emptied(include, f)} if isinstance(f, Mapping) else f for f in findings]
    return out


def compact_report(report: Any, include: Iterable[str] = ()) -> Any:
    """A copy of ``report`` (a :class:`hallucheck.types.Report`) with the parts not in ``include``
    emptied in every finding; the report itself is not changed."""
    parts = frozenset(include)
    if parts >= set(INCLUDE_PARTS):
        return report
    findings = [f.model_copy(update=_emptied(parts, type(f).model_fields)) for f in report.findings]
    return report.model_copy(update={"findings": findings})


def report_dict(report: Any, include: Iterable[str] = ()) -> dict[str, Any]:
    """``report`` (a :class:`hallucheck.types.Report`) as a JSON-ready dict, compacted."""
    out: dict[str, Any] = compact_report(report, include).model_dump(mode="json")
    return out
