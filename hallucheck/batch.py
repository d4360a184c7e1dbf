"""Checking many cases: a picklable checker recipe, a pure per-record function, and a process pool.

The unit of work is :func:`check_record` — one input record in, one JSON-ready dict out — and it
depends only on its arguments (the checker it uses is built from a :class:`CheckerSpec` and
cached per process). That makes it reusable by any executor: the local process pool below, the
evaluation runner, or a distributed one, which only needs to ship the spec and the records.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from hallucheck.errors import InputError

__all__ = [
    "CheckerSpec",
    "checker_for",
    "apply_overrides",
    "check_record",
    "check_record_safe",
    "parallel_map",
    "iter_checked",
]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class CheckerSpec:
    """How to build a Checker, in a hashable, picklable form (names and JSON, no objects)."""

    detectors: tuple[str, ...] | None = None
    policy: str = "default"
    citations_expected: bool | None = None
    detector_options: str = "{}"  # JSON object {detector: {option: value}}
    settle: bool = True  # Checker(settle=...): off runs every detector on every case

    @classmethod
    def of(
        cls,
        detectors: Sequence[str] | None = None,
        policy: str = "default",
        citations_expected: bool | None = None,
        detector_options: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> CheckerSpec:
        return cls(
            detectors=tuple(detectors) if detectors is not None else None,
            policy=policy,
            citations_expected=citations_expected,
            detector_options=json.dumps(detector_options or {}, sort_keys=True),
        )

    def build(self) -> Any:
        """A new Checker for this recipe."""
        from hallucheck.checker import Checker  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs

        return Checker(
            detectors=list(self.detectors) if self.detectors is not None else None,
            policy=self.policy,
            citations_expected=self.citations_expected,
            detector_options=json.loads(self.detector_options),
            settle=self.settle,
        )


_CHECKERS: dict[CheckerSpec, Any] = {}


def checker_for(spec: CheckerSpec) -> Any:
    """The Checker for ``spec``, built once per process (detectors keep their loaded models)."""
    checker = _CHECKERS.get(spec)
    if checker is None:
        try:
            checker = spec.build()
        except ImportError as exc:
            # A detector or policy whose module (or optional dependency) is not installed.
            raise InputError(f"cannot load the checker: {exc}; install the extra that provides it") from None
        _CHECKERS[spec] = checker
    return checker


def apply_overrides(record: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """The record's case fields with command-line settings (task, language, ...) laid over them."""
    fields = {k: v for k, v in record.items() if k != "id"}
    for key, value in (overrides or {}).items():
        if value is not None:
            fields[key] = value
    return fields


def check_record(record: Mapping[str, Any], spec: CheckerSpec, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check one input record; the report as a JSON-ready dict, with the record's ``id`` first.

    Raises InputError when the record is not a valid case.
    """
    if not isinstance(record, Mapping):
        raise InputError(f"expected a JSON object, got {type(record).__name__}")
    from hallucheck.cases import make_case  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    case = make_case(apply_overrides(record, overrides))  # validate before any checker is built
    report = checker_for(spec).check(case)
    out: dict[str, Any] = {"id": record["id"]} if "id" in record else {}
    out.update(report.model_dump(mode="json"))
    return out


def check_record_safe(
    item: tuple[int, Mapping[str, Any]], spec: CheckerSpec, overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Like :func:`check_record` for ``(line, record)``, but an invalid record (or a
    :class:`hallucheck.jsonio.BadLine`) becomes ``{"line": ..., "error": ...}``."""
    line, record = item
    from hallucheck.jsonio import BadLine  # lazy: loaded only on this path

    if isinstance(record, BadLine):  # a line that was not readable JSON (``iter_jsonl(on_error="yield")``)
        return {"line": line, "error": record.error}
    try:
        return check_record(record, spec, overrides)
    except InputError as exc:
        out: dict[str, Any] = {"id": record["id"]} if isinstance(record, Mapping) and "id" in record else {}
        out.update({"line": line, "error": str(exc)})
        return out


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    # fork shares the already imported modules and warm caches with the workers at no cost.
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def parallel_map(fn: Callable[[T], R], items: Iterable[T], workers: int = 1, chunksize: int = 4) -> Iterator[R]:
    """``map(fn, items)`` in order, over ``workers`` local processes when ``workers > 1``.

    ``fn`` must be picklable (a module-level function or a ``functools.partial`` of one). Items
    are consumed lazily, so an input stream is never read into memory as a whole.
    """
    if workers < 1:
        raise InputError("--workers must be at least 1")
    if workers == 1:
        yield from map(fn, items)
        return
    with _context().Pool(processes=workers) as pool:
        yield from pool.imap(fn, items, chunksize=chunksize)


def iter_checked(
    records: Iterable[tuple[int, Mapping[str, Any]]],
    spec: CheckerSpec,
    overrides: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> Iterator[dict[str, Any]]:
    """Reports (or per-record errors) for ``(line, record)`` pairs, in input order."""
    fn = partial(check_record_safe, spec=spec, overrides=dict(overrides or {}))
    return parallel_map(fn, records, workers=workers, chunksize=8)
