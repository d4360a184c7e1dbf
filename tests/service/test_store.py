"""The check store on SQLite and on a real PostgreSQL (HALLUCHECK_TEST_PG_URL, set by
.ci/setup-postgres.sh): migrations, filters, key scoping, monitoring figures, retention."""

from __future__ import annotations

import os
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from hallucheck.types import Case, CitationSummary, Finding, Report, Span

PG_URL = os.environ.get("HALLUCHECK_TEST_PG_URL")


def _reset_pg(url: str) -> None:
    from sqlalchemy import create_engine, text

    from hallucheck.service.store import Store

    engine = create_engine(Store._driver_url(url))
    with engine.begin() as conn:
        for table in ("hc_check_tags", "hc_checks", "hc_api_keys", "hc_schema_version", "alembic_version"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store' / 'checks.db'}"
    if not PG_URL:
        pytest.skip("HALLUCHECK_TEST_PG_URL is not set (source .ci/setup-postgres.sh to start a PostgreSQL)")
    _reset_pg(PG_URL)
    return PG_URL


@pytest.fixture
def store(db_url: str):  # type: ignore[no-untyped-def]
    from hallucheck.service.store import Store

    s = Store(db_url)
    yield s
    s.close()


CASE = Case(question="q", contexts=["Paris is in France."], answer="Paris is in France [1]. Lyon too [7].")


def report(risk: float, level: str, *, invalid: int = 0, uncited: int = 0, labels: tuple[str, ...] = (),
           flagged: tuple[str, ...] = ()) -> Report:
    spans = [Span(start=0, end=5, text="Paris", label=lbl, score=0.8, detector="d") for lbl in labels]  # type: ignore[arg-type]
    findings = [Finding(detector=name, risk=0.9, flagged=True) for name in flagged]
    findings.append(Finding(detector="quiet", risk=0.1, flagged=False))
    cit = CitationSummary(expected=True, applied=True, invalid=[str(i) for i in range(invalid)],
                          uncited_count=uncited, claims=3)
    decision = {"low": "accept", "moderate": "review", "high": "reject"}[level]
    return Report(hallucinated=risk > 0.5, risk_score=risk, risk_level=level, decision=decision,  # type: ignore[arg-type]
                  spans=spans, findings=findings, citations=cit, policy="test", language="en")


def add(store, rep: Report, key: str | None = None, at: datetime | None = None) -> str:  # type: ignore[no-untyped-def]
    from hallucheck.service.store import build_record

    [cid] = store.add([build_record(CASE, rep, api_key_id=key, timings={"check_ms": 2.0}, created_at=at)])
    return cid


def test_migrations_are_versioned_and_idempotent(db_url):
    from hallucheck.service.migrations import HEAD, schema_version
    from hallucheck.service.store import Store

    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            Store(db_url).close()
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    s = Store(db_url)
    assert s.version == int(HEAD) == schema_version(s.engine)
    s.close()


def test_wal_switch_waits_for_a_connection_that_holds_the_lock(tmp_path: Path) -> None:
    """Switching to WAL fails at once with "database is locked" when another connection holds a
    lock (SQLite does not call the busy handler for it); opening a store must wait instead."""
    import sqlite3

    from hallucheck.service.store import _enable_wal

    db = tmp_path / "locked.db"
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    threading.Timer(0.3, lambda: holder.execute("COMMIT")).start()
    conn = sqlite3.connect(db, isolation_level=None, timeout=0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        conn.execute("PRAGMA journal_mode=WAL")  # the failure the helper works around
    _enable_wal(conn.cursor(), wait_s=10)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    holder.close()


def test_wal_switch_gives_up_after_its_wait(tmp_path: Path) -> None:
    import sqlite3

    from hallucheck.service.store import _enable_wal

    db = tmp_path / "locked.db"
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    conn = sqlite3.connect(db, isolation_level=None, timeout=0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        _enable_wal(conn.cursor(), wait_s=0.3)
    holder.execute("COMMIT")
    conn.close()
    holder.close()


def test_roundtrip_filters_and_scopes(store):
    from hallucheck.service.store import ALL, CheckFilter

    a = add(store, report(0.9, "high", invalid=1, labels=("fabrication", "invalid_citation"), flagged=("numbers",)), "ka")
    b = add(store, report(0.2, "low"), "kb")
    c = add(store, report(0.5, "moderate", uncited=2, labels=("uncited",)), "ka")
    got = store.get(a, ALL)
    assert got["case"]["answer"] == CASE.answer
    assert got["report"]["risk_level"] == "high" and got["timings"] == {"check_ms": 2.0}
    assert got["labels"] == ["fabrication", "invalid_citation"] and got["flagged_by"] == ["numbers"]
    assert store.get(a, "ka")["id"] == a
    assert store.get(a, "kb") is None  # another key's check does not exist for it
    items, total = store.list("ka")
    assert total == 2 and [i["id"] for i in items] == [c, a]
    assert store.list("kb")[1] == 1 and store.list(ALL)[1] == 3
    assert [i["id"] for i in store.list(ALL, CheckFilter(risk_level="high"))[0]] == [a]
    assert [i["id"] for i in store.list(ALL, CheckFilter(label="uncited"))[0]] == [c]
    assert [i["id"] for i in store.list(ALL, CheckFilter(detector="numbers"))[0]] == [a]
    assert store.list(ALL, CheckFilter(detector="quiet"))[1] == 0  # ran but did not flag
    assert store.list("kb", CheckFilter(label="fabrication"))[1] == 0
    assert store.list(ALL, limit=1, offset=1)[0][0]["id"] == b


def test_monitoring_figures(store):
    from hallucheck.service.store import ALL, CheckFilter

    add(store, report(0.9, "high", invalid=2))
    add(store, report(0.5, "moderate", uncited=1))
    add(store, report(0.1, "low"))
    add(store, report(0.7, "high", uncited=3))
    f = store.stats(ALL)
    assert f["checks"] == 4
    assert f["avg_risk"] == pytest.approx(0.55)
    assert f["high_risk_share"] == pytest.approx(0.5)
    assert f["moderate_risk_share"] == pytest.approx(0.25)
    assert f["invalid_citation_rate"] == pytest.approx(0.25)
    assert f["invalid_citations_per_check"] == pytest.approx(0.5)
    assert f["uncited_claim_rate"] == pytest.approx(0.5)
    assert f["uncited_claims_per_check"] == pytest.approx(1.0)
    assert f["hallucinated_share"] == pytest.approx(0.5)
    assert store.stats("nobody")["checks"] == 0 and store.stats("nobody")["avg_risk"] is None
    assert store.stats(ALL, CheckFilter(risk_level="high"))["avg_risk"] == pytest.approx(0.8)


def test_trend_buckets(store):
    from hallucheck.service.store import ALL, CheckFilter

    base = datetime(2030, 5, 1, 10, 0, 0)
    add(store, report(0.9, "high", invalid=1), at=base + timedelta(minutes=5))
    add(store, report(0.1, "low"), at=base + timedelta(minutes=50))
    add(store, report(0.4, "moderate", uncited=1), at=base + timedelta(hours=2, minutes=1))
    points = store.trend(ALL, 3600, CheckFilter(since=base))
    assert [p["start"] for p in points] == ["2030-05-01T10:00:00Z", "2030-05-01T12:00:00Z"]
    assert [p["checks"] for p in points] == [2, 1]
    assert points[0]["avg_risk"] == pytest.approx(0.5) and points[0]["high_risk_share"] == pytest.approx(0.5)
    assert points[0]["invalid_citation_rate"] == pytest.approx(0.5) and points[1]["uncited_claim_rate"] == 1.0
    days = store.trend(ALL, 86400, CheckFilter(since=base))
    assert [p["checks"] for p in days] == [3]


def test_retention_purge(store):
    from hallucheck.service.store import ALL, CheckFilter, utcnow

    now = utcnow()
    old = add(store, report(0.9, "high", labels=("fabrication",)), at=now - timedelta(days=40))
    new = add(store, report(0.9, "high", labels=("fabrication",)), at=now - timedelta(days=1))
    assert store.purge(30, now=now) == 1
    assert store.get(old, ALL) is None and store.get(new, ALL) is not None
    assert [i["id"] for i in store.list(ALL, CheckFilter(label="fabrication"))[0]] == [new]
    assert store.purge(30, now=now) == 0


def test_api_keys_are_stored_hashed(store):
    from hallucheck.service.auth import KeyRing, digest_key, generate_key

    kid, key = generate_key()
    store.add_key(kid, "ci", digest_key(key))
    listed = store.keys()
    assert [k["id"] for k in listed] == [kid] and listed[0]["revoked_at"] is None
    assert key not in str(store.key_state()) and store.key_state()[0] == {kid: digest_key(key)}
    ring = KeyRing({}, loader=store.key_state, reload_every_s=0.0)
    assert ring.identify(key) == kid and ring.identify(key + "x") is None and ring.identify(None) is None
    assert store.revoke_key(kid) and not store.revoke_key(kid)
    assert ring.identify(key) is None
    assert ring.configured  # revoking the last key must not reopen the server


def test_group_writer_commits_concurrent_requests(store):
    from concurrent.futures import ThreadPoolExecutor

    from hallucheck.service.store import ALL, build_record
    from hallucheck.service.writer import GroupWriter

    writer = GroupWriter(store, max_rows=8)
    try:
        def one(i: int) -> list[str]:
            recs = [build_record(CASE, report(0.1 * (i % 10), "low"), api_key_id=f"k{i % 3}", timings={})
                    for _ in range(1 + i % 2)]
            return writer.add(recs)

        with ThreadPoolExecutor(8) as pool:
            ids = [cid for got in pool.map(one, range(40)) for cid in got]
        assert len(ids) == len(set(ids)) == 60
        assert store.count(ALL) == 60 and store.count("k0") == sum(1 + i % 2 for i in range(40) if i % 3 == 0)
        dup = build_record(CASE, report(0.2, "low"), api_key_id=None, timings={}, check_id=ids[0])
        from sqlalchemy.exc import IntegrityError

        with pytest.raises(IntegrityError):
            writer.add([dup])  # a failed commit reaches the request that waits on it
        assert store.count(ALL) == 60
        assert writer.add([build_record(CASE, report(0.2, "low"), api_key_id=None, timings={})])  # still works
    finally:
        writer.close()


def test_new_sqlite_store_is_private(tmp_path: Path) -> None:
    """A store it creates is readable by its owner only: file 0600, new folder 0700, and the
    WAL files SQLite makes beside it inherit the file's mode."""
    import stat

    from hallucheck.service.store import Store

    folder = tmp_path / "fresh" / "data"
    s = Store(f"sqlite:///{folder / 'checks.db'}")
    try:
        s.add([])
        s.add_key("k1", "n", "sha256:00")
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        for f in folder.iterdir():
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f.name
        assert (folder / "checks.db-wal").exists()
    finally:
        s.close()
