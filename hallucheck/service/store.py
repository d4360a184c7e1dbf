"""The check store: every served check with its case, report and timings, and the monitoring
queries over them (average risk, high-risk share, invalid-citation and uncited-claim frequency).

An SQLite file needs no set-up and is the default; PostgreSQL is used when the URL says so.
Writes commit before they return (SQLite in WAL mode with ``synchronous=FULL``), so a request
answered 200 is on disk even if the process dies right after.

Scoping: every read takes ``scope``; ``ALL`` (auth off) sees every row, a key id sees only the
rows written with that key. There is no query that ignores the scope by accident.
"""

from __future__ import annotations

import builtins
import math
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, case, create_engine, delete, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from hallucheck.service.migrations import migrate
from hallucheck.service.models import ApiKeyRow, CheckRow, CheckTag
from hallucheck.types import Case, Report

__all__ = ["ALL", "MIN_FREE_BYTES", "CheckFilter", "Store", "StoredCheck", "build_record", "utcnow", "new_id",
           "store_problem"]

MIN_FREE_BYTES = 16 * 1024 * 1024
"""Below this much free space on the SQLite file's disk the store is reported as not writable."""


def store_problem(exc: BaseException) -> str:
    """The first line of a database error's own message (SQLAlchemy appends a link to its docs)."""
    orig = getattr(exc, "orig", None) or exc
    return " ".join(str(orig).split("\n")[0].split())[:300] or type(exc).__name__


class _All:
    def __repr__(self) -> str:
        return "ALL"


ALL: Any = _All()
"""The scope that sees every check (used when API keys are off)."""


def utcnow() -> datetime:
    """Naive UTC: both backends store it alike, with no timezone conversion surprises."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class CheckFilter:
    since: datetime | None = None
    until: datetime | None = None
    risk_level: str | None = None
    detector: str | None = None
    label: str | None = None
    decision: str | None = None


@dataclass
class StoredCheck:
    """One row ready to insert (built by ``build_record``)."""

    row: CheckRow
    tags: list[tuple[str, str]] = field(default_factory=list)


def _flagged_detectors(report: Report) -> list[str]:
    return sorted({f.detector for f in report.findings if f.error is None and f.flagged})


def build_record(
    case: Case,
    report: Report,
    *,
    api_key_id: str | None,
    timings: dict[str, float],
    batch_id: str | None = None,
    created_at: datetime | None = None,
    check_id: str | None = None,
) -> StoredCheck:
    """The row and tags for one check; the scalar columns are what monitoring reads."""
    created = created_at or utcnow()
    cit = report.citations
    invalid = len(cit.invalid) if cit else sum(1 for s in report.spans if s.label == "invalid_citation")
    uncited = cit.uncited_count if cit else sum(1 for s in report.spans if s.label == "uncited")
    row = CheckRow(
        id=check_id or new_id(),
        created_at=created,
        created_epoch=int(created.replace(tzinfo=UTC).timestamp()),
        api_key_id=api_key_id,
        batch_id=batch_id,
        task=report.task or case.task,
        language=report.language or "",
        policy=report.policy,
        hallucinated=report.hallucinated,
        risk_score=float(report.risk_score),
        risk_level=report.risk_level,
        decision=report.decision,
        span_count=len(report.spans),
        invalid_citations=invalid,
        uncited_sentences=uncited,
        citations_applied=bool(cit.applied) if cit else False,
        llm_calls=report.cost.llm_calls,
        llm_tokens=report.cost.prompt_tokens + report.cost.completion_tokens,
        latency_ms=float(timings.get("total_ms", report.timings_ms.get("total", 0.0))),
        answer_preview=case.answer[:200],
        case=case.model_dump(mode="json"),
        report=report.model_dump(mode="json"),
        timings=dict(timings),
    )
    tags: list[tuple[str, str]] = [("label", lbl) for lbl in sorted({s.label for s in report.spans})]
    tags += [("detector", d) for d in _flagged_detectors(report)]
    return StoredCheck(row=row, tags=tags)


def _summary(row: CheckRow, labels: list[str], detectors: list[str]) -> dict[str, Any]:
    return {
        "id": row.id,
        "created_at": row.created_at.isoformat() + "Z",
        "task": row.task,
        "language": row.language,
        "hallucinated": row.hallucinated,
        "risk_score": row.risk_score,
        "risk_level": row.risk_level,
        "decision": row.decision,
        "span_count": row.span_count,
        "invalid_citations": row.invalid_citations,
        "uncited_sentences": row.uncited_sentences,
        "latency_ms": row.latency_ms,
        "answer_preview": row.answer_preview,
        "labels": labels,
        "flagged_by": detectors,
        "batch_id": row.batch_id,
    }


_SQLITE_BUSY_SECONDS = 30.0


def _enable_wal(cur: Any, wait_s: float = _SQLITE_BUSY_SECONDS) -> None:
    """Put the database in WAL mode, waiting for other connections that hold a lock.

    Switching the journal mode needs an exclusive lock and SQLite reports "database is locked"
    at once instead of calling the busy handler, so several processes (or threads) opening a
    new store together would fail. The mode is stored in the file: once one connection has set
    it, the others only read it.
    """
    deadline = time.monotonic() + wait_s
    delay = 0.01
    while True:
        try:
            if str(cur.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.25)


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # let SQLAlchemy's BEGIN below own transactions
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={int(_SQLITE_BUSY_SECONDS * 1000)}")
        _enable_wal(cur)
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # IMMEDIATE takes the write lock up front (waiting on busy_timeout) where a transaction
        # reads before it writes; a deferred one could not upgrade under concurrency.
        immediate = conn.get_execution_options().get("sqlite_immediate", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _create_private(path: Path) -> None:
    """Create the SQLite file 0600, in a 0700 folder when the folder is new: the store holds
    every question, source and answer checked, and API key digests. Existing files and folders
    keep the modes their owner gave them. SQLite gives its -wal and -shm files the mode of the
    database file."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)  # mkdir's mode is reduced by the umask
    if not path.exists():
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:  # another process created it a moment ago
            return
        os.close(fd)
        os.chmod(path, 0o600)


class Store:
    """Repository over the check tables. Thread-safe: one short session per call."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        parsed = make_url(url)
        self.url = url
        self.backend = parsed.get_backend_name()
        self.file: Path | None = None
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        if self.backend == "sqlite":
            db = parsed.database
            if db and db != ":memory:" and not db.startswith("file:"):
                self.file = Path(db).expanduser()
                _create_private(self.file)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": _SQLITE_BUSY_SECONDS}
        elif self.backend == "postgresql":
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self._driver_url(url), **kwargs)
        if self.backend == "sqlite":
            _sqlite_pragmas(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.version = migrate(self.engine)

    @staticmethod
    def _driver_url(url: str) -> str:
        """``postgresql://`` means psycopg 3 here (the ``service`` extra), not psycopg2."""
        parsed = make_url(url)
        if parsed.drivername in {"postgresql", "postgres"}:
            return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
        return url

    @property
    def where(self) -> str:
        """The store for messages: the SQLite file, or the URL without its password."""
        if self.file is not None:
            return str(self.file)
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def probe(self, *, space: bool = True) -> list[str]:
        """What keeps the store from being used right now (empty when it is readable and
        writable): the newest checks must read back whole; an SQLite file of up to 64 MiB is
        also counted through and verified (``PRAGMA quick_check``: a damaged page anywhere fails
        here); and (``space``) an SQLite file's disk must have room for more writes. Larger files
        and PostgreSQL are not scanned whole, so that a probe stays cheap."""
        problems: list[str] = []
        try:
            with self._session() as s:
                newest = s.execute(select(CheckRow).order_by(CheckRow.created_at.desc()).limit(5)).scalars().all()
                for row in newest:
                    _ = (row.case, row.report, row.timings)
                s.execute(select(CheckTag.check_id).limit(1)).all()
                if self.backend == "sqlite" and self._small():
                    s.execute(select(func.count(CheckRow.id))).scalar_one()
                    verdict = s.execute(text("PRAGMA quick_check(1)")).scalar_one()
                    if str(verdict).lower() != "ok":
                        problems.append(f"{self.where}: the database file is damaged ({verdict})")
        except (SQLAlchemyError, sqlite3.Error) as exc:
            problems.append(f"{self.where}: cannot read the store: {store_problem(exc)}")
        if space and self.file is not None:
            try:
                st = os.statvfs(self.file.parent)
                free = st.f_bavail * st.f_frsize
            except OSError as exc:
                problems.append(f"{self.file.parent}: {exc.strerror or exc}")
            else:
                if free < MIN_FREE_BYTES:
                    problems.append(f"{self.where}: the disk is full ({free // 1024} KiB free)")
        return problems

    def _small(self) -> bool:
        """Whether the SQLite file is small enough (64 MiB) to verify whole on each probe."""
        try:
            return self.file is not None and self.file.stat().st_size <= 64 * 1024 * 1024
        except OSError:
            return False

    # ---- writes -------------------------------------------------------------------------
    def add(self, records: Sequence[StoredCheck]) -> list[str]:
        """Insert checks in one transaction; returns their ids once committed."""
        with self._session.begin() as s:
            for rec in records:
                s.add(rec.row)
            s.flush()
            for rec in records:
                for kind, value in rec.tags:
                    s.add(CheckTag(check_id=rec.row.id, kind=kind, value=value))
        return [r.row.id for r in records]

    @staticmethod
    def cutoff(older_than_days: float, now: datetime | None = None) -> datetime:
        """The creation time before which checks are older than ``older_than_days`` (at least 1)."""
        if not (isinstance(older_than_days, (int, float)) and math.isfinite(older_than_days)
                and older_than_days >= 1):
            raise ValueError(f"a retention window must be a finite number of days, at least 1, not {older_than_days!r}")
        return (now or utcnow()) - timedelta(days=older_than_days)

    def count_before(self, cutoff: datetime) -> int:
        """How many checks were created before ``cutoff`` (what a purge would delete)."""
        with self._session() as s:
            return int(s.execute(select(func.count(CheckRow.id)).where(CheckRow.created_at < cutoff)).scalar_one())

    def purge(self, older_than_days: float, *, now: datetime | None = None) -> int:
        """Delete checks (and their tags) older than the retention window; returns how many.
        A window that is not a finite number of days of at least 1 is refused (ValueError)."""
        return self.delete_before(self.cutoff(older_than_days, now))

    def delete_before(self, cutoff: datetime) -> int:
        """Delete checks (and their tags) created before ``cutoff``; returns how many."""
        with self._session.begin() as s:
            old = select(CheckRow.id).where(CheckRow.created_at < cutoff)
            s.execute(delete(CheckTag).where(CheckTag.check_id.in_(old)))
            res = s.execute(delete(CheckRow).where(CheckRow.created_at < cutoff))
            return int(res.rowcount or 0)  # type: ignore[attr-defined]

    # ---- reads --------------------------------------------------------------------------
    def _where(self, stmt: Any, scope: Any, flt: CheckFilter | None) -> Any:
        if scope is not ALL:
            stmt = stmt.where(CheckRow.api_key_id == scope)
        if flt is None:
            return stmt
        if flt.since is not None:
            stmt = stmt.where(CheckRow.created_at >= flt.since)
        if flt.until is not None:
            stmt = stmt.where(CheckRow.created_at < flt.until)
        if flt.risk_level:
            stmt = stmt.where(CheckRow.risk_level == flt.risk_level)
        if flt.decision:
            stmt = stmt.where(CheckRow.decision == flt.decision)
        for kind, value in (("label", flt.label), ("detector", flt.detector)):
            if value:
                tagged = select(CheckTag.check_id).where(CheckTag.kind == kind, CheckTag.value == value)
                stmt = stmt.where(CheckRow.id.in_(tagged))
        return stmt

    def get(self, check_id: str, scope: Any) -> dict[str, Any] | None:
        with self._session() as s:
            stmt = self._where(select(CheckRow).where(CheckRow.id == check_id), scope, None)
            row = s.execute(stmt).scalar_one_or_none()
            if row is None:
                return None
            tags = self._tags(s, [row.id]).get(row.id, ([], []))
            out = _summary(row, *tags)
            out.update(case=row.case, report=row.report, timings=row.timings)
            return out

    def _tags(self, s: Session, ids: Iterable[str]) -> dict[str, tuple[list[str], list[str]]]:
        out: dict[str, tuple[list[str], list[str]]] = {}
        ids = list(ids)
        if not ids:
            return out
        rows = s.execute(
            select(CheckTag.check_id, CheckTag.kind, CheckTag.value).where(CheckTag.check_id.in_(ids))
        ).all()
        for cid, kind, value in rows:
            labels, dets = out.setdefault(cid, ([], []))
            (labels if kind == "label" else dets).append(value)
        return out

    def list(
        self, scope: Any, flt: CheckFilter | None = None, *, limit: int = 50, offset: int = 0
    ) -> tuple[list[dict[str, Any]], int]:
        """Newest first; returns (page of summaries, total matching)."""
        with self._session() as s:
            total = s.execute(self._where(select(func.count(CheckRow.id)), scope, flt)).scalar_one()
            stmt = self._where(select(CheckRow), scope, flt)
            stmt = stmt.order_by(CheckRow.created_at.desc(), CheckRow.id.desc()).limit(limit).offset(offset)
            rows = s.execute(stmt).scalars().all()
            tags = self._tags(s, [r.id for r in rows])
            return [_summary(r, *tags.get(r.id, ([], []))) for r in rows], int(total)

    def count(self, scope: Any = ALL) -> int:
        with self._session() as s:
            return int(s.execute(self._where(select(func.count(CheckRow.id)), scope, None)).scalar_one())

    @staticmethod
    def _aggregates() -> builtins.list[Any]:
        n = func.count(CheckRow.id)
        as_float: Callable[[Any], Any] = lambda cond: func.sum(case((cond, 1.0), else_=0.0))  # noqa: E731
        return [
            n.label("checks"),
            func.avg(CheckRow.risk_score).label("avg_risk"),
            as_float(CheckRow.risk_level == "high").label("high"),
            as_float(CheckRow.risk_level == "moderate").label("moderate"),
            as_float(CheckRow.hallucinated.is_(True)).label("hallucinated"),
            as_float(CheckRow.invalid_citations > 0).label("with_invalid"),
            func.sum(CheckRow.invalid_citations).label("invalid_total"),
            as_float(CheckRow.uncited_sentences > 0).label("with_uncited"),
            func.sum(CheckRow.uncited_sentences).label("uncited_total"),
            as_float(CheckRow.citations_applied.is_(True)).label("citations_applied"),
            func.avg(CheckRow.latency_ms).label("avg_latency_ms"),
            func.sum(CheckRow.llm_calls).label("llm_calls"),
        ]

    @staticmethod
    def _figures(r: Any) -> dict[str, Any]:
        n = int(r.checks or 0)

        def share(x: Any) -> float | None:
            return round(float(x or 0) / n, 6) if n else None

        return {
            "checks": n,
            "avg_risk": round(float(r.avg_risk), 6) if n and r.avg_risk is not None else None,
            "high_risk_share": share(r.high),
            "moderate_risk_share": share(r.moderate),
            "hallucinated_share": share(r.hallucinated),
            "invalid_citation_rate": share(r.with_invalid),
            "invalid_citations_per_check": share(r.invalid_total),
            "uncited_claim_rate": share(r.with_uncited),
            "uncited_claims_per_check": share(r.uncited_total),
            "citation_rules_applied": int(r.citations_applied or 0),
            "avg_latency_ms": round(float(r.avg_latency_ms), 3) if n and r.avg_latency_ms is not None else None,
            "llm_calls": int(r.llm_calls or 0),
        }

    def stats(self, scope: Any, flt: CheckFilter | None = None) -> dict[str, Any]:
        """The detection guideline's monitoring figures over the checks in scope and filter.

        ``*_rate`` = share of checks with at least one (invalid citation / uncited long sentence);
        ``*_per_check`` = mean count per check.
        """
        with self._session() as s:
            r = s.execute(self._where(select(*self._aggregates()), scope, flt)).one()
            return self._figures(r)

    def trend(self, scope: Any, bucket_seconds: int, flt: CheckFilter | None = None) -> builtins.list[dict[str, Any]]:
        """The same figures per time bucket (oldest first)."""
        bucket = (CheckRow.created_epoch // int(bucket_seconds)).label("bucket")
        with self._session() as s:
            stmt = self._where(select(bucket, *self._aggregates()), scope, flt).group_by(bucket).order_by(bucket)
            out = []
            for r in s.execute(stmt).all():
                start = datetime.fromtimestamp(int(r.bucket) * int(bucket_seconds), UTC)
                out.append({"start": start.replace(tzinfo=None).isoformat() + "Z", **self._figures(r)})
            return out

    # ---- API keys -------------------------------------------------------------------------
    def add_key(self, key_id: str, name: str, digest: str) -> None:
        with self._session.begin() as s:
            s.add(ApiKeyRow(id=key_id, name=name, digest=digest, created_at=utcnow()))

    def keys(self) -> builtins.list[dict[str, Any]]:
        with self._session() as s:
            rows = s.execute(select(ApiKeyRow).order_by(ApiKeyRow.created_at)).scalars().all()
            return [
                {
                    "id": r.id,
                    "name": r.name,
                    "created_at": r.created_at.isoformat() + "Z",
                    "revoked_at": r.revoked_at.isoformat() + "Z" if r.revoked_at else None,
                }
                for r in rows
            ]

    def key_state(self) -> tuple[dict[str, str], bool]:
        """(active key id -> digest, whether any key was ever created). Revoking the last key
        must not reopen a server that once required keys."""
        with self._session() as s:
            rows = s.execute(select(ApiKeyRow.id, ApiKeyRow.digest, ApiKeyRow.revoked_at)).all()
            return {k: d for k, d, revoked in rows if revoked is None}, bool(rows)

    def revoke_key(self, key_id: str) -> bool:
        with self._session.begin() as s:
            row = s.get(ApiKeyRow, key_id)
            if row is None or row.revoked_at is not None:
                return False
            row.revoked_at = utcnow()
            return True
