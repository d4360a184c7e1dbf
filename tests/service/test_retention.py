"""Retention: a window that is not a finite number of days of at least one never deletes, and
each pass logs what it is about to delete before it deletes it."""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from hallucheck.types import Case, Report

NOW = datetime(2026, 6, 1, 12, 0, 0)


@pytest.fixture
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    from hallucheck.service.store import Store, build_record

    s = Store(f"sqlite:///{tmp_path / 'checks.db'}")
    case = Case(question="q", contexts=["Paris is in France."], answer="Paris is in France.")
    rep = Report(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept", policy="p")
    s.add([build_record(case, rep, api_key_id=None, timings={}, created_at=NOW - timedelta(days=age))
           for age in (0, 1, 10, 100, 200)])
    yield s
    s.close()


@pytest.mark.parametrize("days", [-1, -1e-9, 0, 1e-9, 0.5, math.nan, math.inf, -math.inf])
def test_a_nonsense_window_deletes_nothing(store, days):
    from hallucheck.service.retention import purge_once

    with pytest.raises(ValueError):
        store.purge(days, now=NOW)
    with pytest.raises(ValueError):
        purge_once(store, days, now=NOW)
    assert store.count() == 5


def test_the_loop_refuses_a_nonsense_window_before_its_first_pass(store):
    from hallucheck.service.retention import retention_loop

    with pytest.raises(ValueError):
        asyncio.run(asyncio.wait_for(retention_loop(store, -1.0, 3600.0), 5))
    assert store.count() == 5


def test_what_will_be_deleted_is_logged_before_it_is_deleted(store, caplog):
    from hallucheck.service.retention import purge_once

    seen: list[tuple[str, int]] = []

    class Witness(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append((record.getMessage(), store.count()))

    handler = Witness()
    logging.getLogger("hallucheck.service").addHandler(handler)
    try:
        with caplog.at_level(logging.INFO, logger="hallucheck.service"):
            assert purge_once(store, 30, now=NOW) == 2
    finally:
        logging.getLogger("hallucheck.service").removeHandler(handler)
    message, rows_then = seen[0]
    assert "deleting 2 checks" in message and "2026-05-02T12:00:00" in message and str(store.where) in message
    assert rows_then == 5  # logged while the rows were still there
    assert store.count() == 3
    assert purge_once(store, 30, now=NOW) == 0  # nothing more to delete, nothing logged as deleted
