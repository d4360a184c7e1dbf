"""What one running app holds: settings, the Checker (built once), the store, keys, limits, metrics.

Checks are CPU-bound; they run in worker threads (bounded by ``settings.workers``) so the event
loop stays free for health checks and metrics while a long answer is being checked. The check
and its store write happen in the same worker call, and the response is sent only after the
write has committed: a 200 means the check is stored.
"""

from __future__ import annotations

import importlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from hallucheck.checker import Checker
from hallucheck.service.admission import Admission
from hallucheck.service.auth import KeyRing, RateLimiter, digests_of, read_key_file
from hallucheck.service.deadline import Abandoned, Ticket, guard_detectors, working_on
from hallucheck.service.errors import ApiError
from hallucheck.service.metrics import ServiceMetrics
from hallucheck.service.settings import Settings
from hallucheck.service.store import Store, build_record, new_id, utcnow
from hallucheck.service.writer import GroupWriter
from hallucheck.types import Case, Report

__all__ = ["Principal", "ServiceContext", "build_admission", "build_checker"]

log = logging.getLogger("hallucheck.service")


@dataclass(frozen=True)
class Principal:
    """Who is calling: ``key_id`` (None when keys are off) and the scope of their reads."""

    key_id: str | None
    scope: Any
    rate_key: str


_WARMUP = {
    "en": ("The plant probably opened in 2011.", "The plant opened in 2011 in Lyon."),
    "de": ("Das Werk wurde wahrscheinlich 2011 eröffnet.", "Das Werk wurde 2011 in Lyon eröffnet."),
    "fr": ("L'usine a probablement ouvert en 2011.", "L'usine a ouvert en 2011 à Lyon."),
    "zh": ("工厂可能在2011年开业。", "工厂于2011年在里昂开业。"),
}


def build_checker(settings: Settings) -> Checker:
    """The Checker for these settings, warmed up on one small case per language so that no
    request pays for loading lemma tables, word lists and models (seconds per language)."""
    from hallucheck.batch import CheckerSpec

    for module in settings.plugins:  # modules that register extra detectors or policies
        importlib.import_module(module)
    checker: Checker = CheckerSpec.of(
        settings.detectors, settings.policy, settings.citations_expected, settings.detector_options
    ).build()
    for lang in settings.warmup:
        answer, source = _WARMUP.get(lang, _WARMUP["en"])
        checker.check(question="?", contexts=[source], answer=answer + " [1]")
    guarded: Checker = guard_detectors(checker)
    return guarded


def build_admission(settings: Settings, detectors: int) -> Admission:
    """Half the workers (at least one) for heavy requests, the rest for small ones; the heavy
    lane's cost capacity is by default one case of the largest allowed size."""
    workers = max(1, settings.workers)
    heavy = max(1, workers // 2)
    small = workers - heavy
    per_case = (settings.max_answer_chars + settings.max_source_chars) * max(1, detectors)
    return Admission(capacity=float(settings.max_cost or per_case), small_chars=settings.small_request_chars,
                     heavy_slots=heavy, small_slots=small, max_waiting=settings.max_waiting)


@dataclass
class ServiceContext:
    settings: Settings
    store: Store
    checker: Checker
    keys: KeyRing
    limiter: RateLimiter
    metrics: ServiceMetrics = field(default_factory=ServiceMetrics)
    thread_limiter: Any = None  # anyio CapacityLimiter, made at startup inside the event loop
    writer: GroupWriter = field(init=False)
    admission: Admission = field(init=False)
    executor: ThreadPoolExecutor = field(init=False)

    def __post_init__(self) -> None:
        self.writer = GroupWriter(self.store)
        self.admission = build_admission(self.settings, len(self.checker.detectors))
        # One thread per admission slot: an admitted check never queues for a thread.
        self.executor = ThreadPoolExecutor(max_workers=self.admission.slots, thread_name_prefix="hallucheck-check")

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.writer.close()
        self.store.close()

    @classmethod
    def build(cls, settings: Settings) -> ServiceContext:
        store = Store(settings.db_url)
        static = digests_of(settings.api_keys)
        if settings.api_keys_file:
            static.update(read_key_file(settings.api_keys_file))
        keys = KeyRing(static, loader=store.key_state)
        return cls(
            settings=settings,
            store=store,
            checker=build_checker(settings),
            keys=keys,
            limiter=RateLimiter(settings.rate_per_second, settings.rate_burst),
        )

    @property
    def auth_enabled(self) -> bool:
        if self.settings.auth is not None:
            return self.settings.auth
        return self.keys.configured

    def check_limits(self, case: Case, index: int | None = None) -> None:
        from hallucheck.service.limits import check_case_fields

        check_case_fields(case.model_dump(include={"answer", "contexts"}), self.settings.max_answer_chars,
                          self.settings.max_source_chars, f"cases[{index}]: " if index is not None else "")

    def run_and_store(self, cases: list[Case], key_id: str | None, batch_id: str | None = None,
                      ticket: Ticket | None = None) -> list[tuple[str, str, Report, dict[str, float]]]:
        """Check the cases, store them in one transaction, return (id, created_at, report, timings).

        With a ``ticket`` the work stops (``Abandoned``) as soon as its request gave up, and the
        write happens only if the ticket could be committed first.
        """
        results = []
        records = []
        for case in cases:
            if ticket is not None:
                ticket.check()
            t0 = time.perf_counter()
            if ticket is not None:
                with working_on(ticket):
                    report = self.checker.check(case)
            else:
                report = self.checker.check(case)
            seconds = time.perf_counter() - t0
            timings = {"check_ms": seconds * 1000.0, **{f"{k}_ms": v for k, v in report.timings_ms.items()}}
            created = utcnow()
            rec = build_record(case, report, api_key_id=key_id, timings=timings, batch_id=batch_id,
                               created_at=created, check_id=new_id())
            records.append(rec)
            results.append((rec.row.id, created.isoformat() + "Z", report, timings))
        if ticket is not None and not ticket.commit():
            raise Abandoned
        t1 = time.perf_counter()
        try:
            self.writer.add(records)
        except SQLAlchemyError as exc:
            log.error("store write failed: %s", exc)
            raise ApiError(503, "store_unavailable", "the check could not be stored; nothing was kept, retry later",
                           headers={"Retry-After": "5"}) from None
        store_ms = (time.perf_counter() - t1) * 1000.0
        self.metrics.stored.inc(len(records))
        for _, _, report, timings in results:
            self.metrics.observe(report, timings["check_ms"] / 1000.0)
        for _, _, _, timings in results:
            timings["store_ms"] = store_ms
        return results
