"""Group commit on SQLite and on a real PostgreSQL (HALLUCHECK_TEST_PG_URL, set by
.ci/setup-postgres.sh): one request's bad row never fails another request's write, and the
store's own failures (not one request's data) are what ``failing`` reports for /healthz."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy.exc import SQLAlchemyError
from test_store import _reset_pg

from hallucheck.types import Case, Report

PG_URL = os.environ.get("HALLUCHECK_TEST_PG_URL")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    from hallucheck.service.store import Store

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'checks.db'}"
    else:
        if not PG_URL:
            pytest.skip("HALLUCHECK_TEST_PG_URL is not set (source .ci/setup-postgres.sh to start a PostgreSQL)")
        _reset_pg(PG_URL)
        url = PG_URL
    s = Store(url)
    yield s
    s.close()


def record(answer: str = "Paris is in France.", check_id: str | None = None) -> Any:
    from hallucheck.service.store import build_record

    case = Case(question="q", contexts=["Paris is in France."], answer=answer)
    rep = Report(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept", policy="p")
    return build_record(case, rep, api_key_id=None, timings={}, check_id=check_id)


class _Gated:
    """A store whose first write waits until released, so the next requests queue into one group."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.gate = threading.Event()
        self.first = True
        self.calls: list[int] = []

    def add(self, records: Any) -> Any:
        if self.first:
            self.first = False
            self.gate.wait(10)
        self.calls.append(len(records))
        return self.store.add(records)


def _bad_record(store: Any) -> Any:
    if store.backend == "postgresql":
        return record("Paris\x00 is in France.")  # PostgreSQL's text refuses NUL
    return record(check_id="dup")  # a primary key taken by the first request


def test_one_bad_row_fails_only_its_own_request(store):
    from hallucheck.service.writer import GroupWriter

    gated = _Gated(store)
    writer = GroupWriter(gated)  # type: ignore[arg-type]
    try:
        with ThreadPoolExecutor(8) as pool:
            first = pool.submit(writer.add, [record(check_id="dup")])
            while not gated.calls and gated.first:  # the writer holds the first request at the gate
                threading.Event().wait(0.01)
            threading.Event().wait(0.2)
            good = [pool.submit(writer.add, [record(f"Answer {i}.")]) for i in range(5)]
            bad = pool.submit(writer.add, [_bad_record(store)])
            more = [pool.submit(writer.add, [record(f"Later {i}.")]) for i in range(3)]
            threading.Event().wait(0.3)  # all queued behind the gate: they form one group
            gated.gate.set()
            assert first.result(10) == ["dup"]
            with pytest.raises(SQLAlchemyError):
                bad.result(10)
            for fut in good + more:
                assert len(fut.result(10)) == 1  # stored despite the bad row in their group
        assert max(gated.calls) > 1, "the requests were not grouped; the test proves nothing"
        assert store.count() == 1 + 5 + 3
        assert writer.failing is None  # a bad row is the request's problem, not the store's
    finally:
        writer.close()


def test_a_store_failure_is_reported_until_a_write_succeeds(store):
    from sqlalchemy import text

    from hallucheck.service.writer import GroupWriter

    writer = GroupWriter(store)
    moved = False
    try:
        with store.engine.begin() as conn:
            conn.execute(text("ALTER TABLE hc_check_tags RENAME TO hc_check_tags_away"))
        moved = True
        rec = record()
        rec.tags.append(("label", "fabrication"))
        with pytest.raises(SQLAlchemyError):
            writer.add([rec])
        assert writer.failing
        with store.engine.begin() as conn:
            conn.execute(text("ALTER TABLE hc_check_tags_away RENAME TO hc_check_tags"))
        moved = False
        writer.add([record()])
        assert writer.failing is None
    finally:
        writer.close()
        if moved:  # leave the database as the other tests expect it
            with store.engine.begin() as conn:
                conn.execute(text("ALTER TABLE hc_check_tags_away RENAME TO hc_check_tags"))
