"""Alembic upgrades of the check store, from the schema every store had before Alembic, on
SQLite and on a real PostgreSQL (HALLUCHECK_TEST_PG_URL, set by .ci/setup-postgres.sh)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    inspect,
    text,
)

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("HALLUCHECK_TEST_PG_URL")


def legacy_metadata() -> MetaData:
    """The tables as the store created them before Alembic (schema version 1), frozen here."""
    md = MetaData()
    Table("hc_schema_version", md, Column("version", Integer, primary_key=True),
          Column("applied_at", DateTime, nullable=False), Column("description", String(200), nullable=False))
    Table("hc_checks", md,
          Column("id", String(32), primary_key=True), Column("created_at", DateTime, nullable=False),
          Column("created_epoch", BigInteger, nullable=False), Column("api_key_id", String(64)),
          Column("batch_id", String(32)), Column("task", String(16), nullable=False),
          Column("language", String(16), nullable=False), Column("policy", String(32), nullable=False),
          Column("hallucinated", Boolean, nullable=False), Column("risk_score", Float, nullable=False),
          Column("risk_level", String(16), nullable=False), Column("decision", String(16), nullable=False),
          Column("span_count", Integer, nullable=False), Column("invalid_citations", Integer, nullable=False),
          Column("uncited_sentences", Integer, nullable=False), Column("citations_applied", Boolean, nullable=False),
          Column("llm_calls", Integer, nullable=False), Column("llm_tokens", Integer, nullable=False),
          Column("latency_ms", Float, nullable=False), Column("answer_preview", Text, nullable=False),
          Column("case", JSON, nullable=False), Column("report", JSON, nullable=False),
          Column("timings", JSON, nullable=False),
          Index("ix_hc_checks_created_at", "created_at"), Index("ix_hc_checks_risk_level", "risk_level"),
          Index("ix_hc_checks_key_created", "api_key_id", "created_at"))
    Table("hc_check_tags", md,
          Column("id", Integer, primary_key=True, autoincrement=True),
          Column("check_id", String(32), ForeignKey("hc_checks.id", ondelete="CASCADE"), nullable=False),
          Column("kind", String(16), nullable=False), Column("value", String(64), nullable=False),
          Index("ix_hc_check_tags_lookup", "kind", "value", "check_id"), Index("ix_hc_check_tags_check", "check_id"))
    Table("hc_api_keys", md,
          Column("id", String(64), primary_key=True), Column("name", String(200), nullable=False),
          Column("digest", String(128), nullable=False), Column("created_at", DateTime, nullable=False),
          Column("revoked_at", DateTime))
    return md


def _drop_all(url: str) -> None:
    from hallucheck.service.store import Store

    engine = create_engine(Store._driver_url(url))
    with engine.begin() as conn:
        for table in ("hc_check_tags", "hc_checks", "hc_api_keys", "hc_schema_version", "alembic_version"):
            conn.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'legacy.db'}"
    if not PG_URL:
        pytest.skip("HALLUCHECK_TEST_PG_URL is not set (source .ci/setup-postgres.sh to start a PostgreSQL)")
    _drop_all(PG_URL)
    return PG_URL


def _row(cid: str, decision: str, key: str | None, when: datetime) -> dict[str, object]:
    return {"id": cid, "created_at": when, "created_epoch": int(when.timestamp()), "api_key_id": key,
            "batch_id": None, "task": "qa", "language": "en", "policy": "default", "hallucinated": decision != "accept",
            "risk_score": 0.9 if decision == "reject" else 0.1, "risk_level": "high" if decision == "reject" else "low",
            "decision": decision, "span_count": 1, "invalid_citations": 0, "uncited_sentences": 0,
            "citations_applied": False, "llm_calls": 0, "llm_tokens": 0, "latency_ms": 12.5,
            "answer_preview": f"answer {cid}", "case": {"question": "q", "answer": f"answer {cid}"},
            "report": {"risk_score": 0.5, "spans": []}, "timings": {"check_ms": 12.5}}


def test_upgrade_from_the_schema_before_alembic_keeps_every_row(db_url):
    from hallucheck.service.migrations import HEAD, schema_version
    from hallucheck.service.store import ALL, CheckFilter, Store

    engine = create_engine(Store._driver_url(db_url))
    md = legacy_metadata()
    md.create_all(engine)
    when = datetime(2026, 11, 20, 12, 0, 0)
    with engine.begin() as conn:
        conn.execute(md.tables["hc_schema_version"].insert().values(version=1, applied_at=when,
                                                                    description="checks, check tags and API keys"))
        conn.execute(md.tables["hc_checks"].insert(), [_row("a" * 32, "reject", None, when),
                                                        _row("b" * 32, "accept", "k1", when)])
        conn.execute(md.tables["hc_check_tags"].insert().values(check_id="a" * 32, kind="label", value="fabrication"))
        conn.execute(md.tables["hc_api_keys"].insert().values(id="k1", name="old key", digest="sha256:00", created_at=when))
    assert schema_version(engine) == 1
    engine.dispose()

    store = Store(db_url)  # migrates at open
    try:
        assert store.version == int(HEAD) == schema_version(store.engine)
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
            names = {ix["name"] for ix in inspect(conn).get_indexes("hc_checks")}
            assert {"ix_hc_checks_decision", "ix_hc_checks_created_at", "ix_hc_checks_key_created"} <= names
            assert conn.execute(text("SELECT count(*) FROM hc_schema_version")).scalar() == 1
        old = store.get("a" * 32, ALL)
        assert old is not None and old["case"]["answer"] == "answer " + "a" * 32 and old["labels"] == ["fabrication"]
        rejected, total = store.list(ALL, CheckFilter(decision="reject"))
        assert total == 1 and rejected[0]["id"] == "a" * 32
        assert store.count("k1") == 1 and store.key_state() == ({"k1": "sha256:00"}, True)
    finally:
        store.close()
    again = Store(db_url)  # a second open finds it at head and changes nothing
    try:
        assert again.version == int(HEAD) and again.count() == 2
    finally:
        again.close()


def test_new_store_is_created_at_head_and_the_command_upgrades(tmp_path):
    from hallucheck.service.migrations import HEAD
    from hallucheck.service.models import Base

    url = f"sqlite:///{tmp_path / 'new.db'}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "hallucheck.service.migrations", url], check=False,
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(f"schema revision 0 -> {int(HEAD)}")
    engine = create_engine(url)
    with engine.connect() as conn:
        insp = inspect(conn)
        for table in ("hc_checks", "hc_check_tags", "hc_api_keys"):
            want = {c.name for c in Base.metadata.tables[table].columns}
            assert {c["name"] for c in insp.get_columns(table)} == want, table
            assert {ix.name for ix in Base.metadata.tables[table].indexes} == {ix["name"] for ix in insp.get_indexes(table)}
    engine.dispose()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--help"], 0, "usage: python -m hallucheck.service.migrations"),
        (["not a url"], 2, "error: cannot read the database URL"),
        (["postgresql+psycopg://app@127.0.0.1:1/none"], 1, "error: cannot upgrade 127.0.0.1:1/none"),
    ],
)
def test_the_command_answers_help_and_bad_urls_without_a_traceback(args, code, message):
    proc = subprocess.run([sys.executable, "-m", "hallucheck.service.migrations", *args], check=False,
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])))
    assert proc.returncode == code, proc.stderr
    assert message in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
