"""The store's real state: readable (a damaged file is seen), writable (a full disk is seen)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")


def test_a_full_disk_is_a_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from hallucheck.service.store import Store

    store = Store(f"sqlite:///{tmp_path / 'checks.db'}")
    assert store.probe() == []
    real = os.statvfs

    class Full:
        def __init__(self, st: os.statvfs_result) -> None:
            self.f_frsize = st.f_frsize
            self.f_bavail = 3

    monkeypatch.setattr(os, "statvfs", lambda p: Full(real(p)))
    problems = store.probe()
    assert len(problems) == 1 and "disk is full" in problems[0] and str(tmp_path / "checks.db") in problems[0]
    assert store.probe(space=False) == []
    store.close()


def test_a_damaged_file_is_a_problem(tmp_path: Path):
    from hallucheck.service.store import Store, build_record
    from hallucheck.types import Case, Report

    db = tmp_path / "checks.db"
    store = Store(f"sqlite:///{db}")
    case = Case(question="q", contexts=["Paris is in France."], answer="Paris is in France. " * 30)
    rep = Report(hallucinated=False, risk_score=0.1, risk_level="low", decision="accept", policy="p")
    store.add([build_record(case, rep, api_key_id=None, timings={}) for _ in range(200)])
    store.close()
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with db.open("r+b") as fh:
        for offset in range(4096 * 2, db.stat().st_size - 4096, 4096 * 3):
            fh.seek(offset + 100)
            fh.write(os.urandom(2000))
    store = Store(f"sqlite:///{db}")
    problems = store.probe()
    assert problems and all(str(db) in p for p in problems)
    store.close()
