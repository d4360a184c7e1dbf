"""What one running app holds: settings, the Checker (built once), the store, keys, limits, metrics.

Checks are CPU-bound; they run in worker threads (bounded by ``settings.workers``) so the event
loop stays free for health checks and metrics while a long answer is being checked. The check
and its store write happen in the same worker call, and the response is sent only after the
write has committed: a 200 means the check is stored.
"""

from __future__ import annotations

import importlib
import logging
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DataError, IntegrityError, SQLAlchemyError

from hallucheck.checker import Checker
from hallucheck.service.admission import Admission
from hallucheck.service.auth import KeyRing, RateLimiter, digests_of, read_key_file
from hallucheck.service.cost import count_sentences
from hallucheck.service.deadline import Abandoned, Ticket, guard_detectors, working_on
from hallucheck.service.errors import ApiError
from hallucheck.service.metrics import ServiceMetrics
from hallucheck.service.settings import Settings, SettingsError
from hallucheck.service.store import Store, build_record, new_id, store_problem, utcnow
from hallucheck.service.writer import GroupWriter
from hallucheck.types import Case, Report

__all__ = ["Principal", "ServiceContext", "build_admission", "build_checker", "open_store"]

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
    from hallucheck.batch import CheckerSpec  # lazy: loaded only on this path
    from hallucheck.detectors.base import UnknownDetectorError  # lazy: already loaded by this module's imports; kept where it is used
    from hallucheck.errors import HallucheckError  # lazy: already loaded by this module's imports; kept where it is used

    for module in settings.plugins:  # modules that register extra detectors or policies
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise SettingsError("HALLUCHECK_PLUGINS", ",".join(settings.plugins),
                                f"cannot import {module!r}: {exc}") from None
    try:
        checker: Checker = CheckerSpec.of(
            settings.detectors, settings.policy, settings.citations_expected, settings.detector_options
        ).build()
    except UnknownDetectorError as exc:
        raise SettingsError("HALLUCHECK_DETECTORS", ",".join(settings.detectors or ()),
                            str(exc.args[0] if exc.args else exc)) from None
    except (HallucheckError, KeyError, ValueError, OSError) as exc:
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, OSError) and exc.filename:
            message = f"{exc.filename}: {exc.strerror or exc}"
        raise SettingsError("HALLUCHECK_POLICY", settings.policy, " ".join(message.split())) from None
    for lang in settings.warmup:
        answer, source = _WARMUP.get(lang, _WARMUP["en"])
        checker.check(question="?", contexts=[source], answer=answer + " [1]")
    guarded: Checker = guard_detectors(checker)
    return guarded


def open_store(settings: Settings) -> Store:
    """The store, migrated and read back once; a store that cannot be opened or read is a
    configuration error naming the file (or the URL without its password)."""
    url = settings.db_url
    parsed = make_url(url)
    where = parsed.database if parsed.get_backend_name() == "sqlite" and parsed.database else \
        parsed.render_as_string(hide_password=True)
    try:
        store = Store(url)
    except (SQLAlchemyError, sqlite3.Error) as exc:
        raise SettingsError("HALLUCHECK_DB_URL", url, f"cannot open the store {where}: {store_problem(exc)}") from None
    except OSError as exc:
        raise SettingsError("HALLUCHECK_DB_URL", url,
                            f"cannot open the store {exc.filename or where}: {exc.strerror or exc}") from None
    problems = store.probe(space=False)
    if problems:
        store.close()
        raise SettingsError("HALLUCHECK_DB_URL", url, "; ".join(problems))
    return store


def build_admission(settings: Settings, detectors: int) -> Admission:
    """Half the workers (at least one) for heavy requests, the rest for small ones; the heavy
    lane's cost capacity is by default one case of the largest allowed size."""
    workers = max(1, settings.workers)
    heavy = max(1, workers // 2)
    small = workers - heavy
    per_case = (settings.max_answer_chars + settings.max_source_chars) * max(1, detectors)  # a full case's characters
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
        self._probe_lock = threading.Lock()
        self._probed: tuple[float, list[str]] | None = None
        self.writer = GroupWriter(self.store)
        self.admission = build_admission(self.settings, len(self.checker.detectors))
        # One thread per admission slot: an admitted check never queues for a thread.
        self.executor = ThreadPoolExecutor(max_workers=self.admission.slots, thread_name_prefix="hallucheck-check")

    def health(self, max_age_s: float = 5.0) -> list[str]:
        """What keeps the store from working now (empty when all is well): the store's probe
        (taken at most every ``max_age_s``) and a last write that failed for the store's sake."""
        with self._probe_lock:
            now = time.monotonic()
            if self._probed is None or now - self._probed[0] > max_age_s:
                self._probed = (now, self.store.probe())
            problems = list(self._probed[1])
        if self.writer.failing:
            problems.append(f"{self.store.where}: the last write failed: {self.writer.failing}")
        return problems

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.writer.close()
        self.store.close()

    @classmethod
    def build(cls, settings: Settings) -> ServiceContext:
        store = open_store(settings)
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
        from hallucheck.service.limits import check_case_fields  # lazy: loaded only on this path

        check_case_fields(case.model_dump(include={"answer", "contexts"}), self.settings.max_answer_chars,
                          self.settings.max_source_chars, f"cases[{index}]: " if index is not None else "")
        s = self.settings
        where = f"cases[{index}]: " if index is not None else ""
        if len(case.contexts) > s.max_contexts:
            raise ApiError(413, "case_too_large",
                           f"{where}the case has {len(case.contexts)} contexts; the limit is {s.max_contexts} "
                           "(HALLUCHECK_MAX_CONTEXTS)")
        sentences = count_sentences(case.answer)
        if sentences > s.max_sentences:
            raise ApiError(413, "case_too_large",
                           f"{where}the answer has {sentences} sentences; the limit is {s.max_sentences} "
                           "(HALLUCHECK_MAX_SENTENCES)")

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
        except (DataError, IntegrityError) as exc:
            log.error("store %s refused a check: %s", self.store.where, store_problem(exc))
            raise ApiError(422, "invalid_text", "the store refused the case's text; nothing was kept") from None
        except SQLAlchemyError as exc:
            log.error("store write failed on %s: %s", self.store.where, store_problem(exc))
            raise ApiError(503, "store_unavailable", "the check could not be stored; nothing was kept, retry later",
                           headers={"Retry-After": "5"}) from None
        store_ms = (time.perf_counter() - t1) * 1000.0
        self.metrics.stored.inc(len(records))
        for _, _, report, timings in results:
            self.metrics.observe(report, timings["check_ms"] / 1000.0)
        for _, _, _, timings in results:
            timings["store_ms"] = store_ms
        return results
