"""Schema migrations of the check store, with Alembic (``alembic`` is in the ``service`` extra).

The revisions live in ``hallucheck/service/migrations/versions/`` and are written against the
tables as they are at that revision (``op.create_table``, ``op.create_index``...), never against
today's models, so an old database upgrades through every step. ``migrate(engine)`` brings a
database to the newest revision; the server runs it at start, and an operator can run it alone:

    python -m hallucheck.service.migrations [DB_URL]

It is safe to call from several processes at once: the whole upgrade runs in one transaction
that first takes a lock (PostgreSQL: an advisory lock; SQLite: the write lock, BEGIN
IMMEDIATE), so the second process finds the schema already at head. A store created before
Alembic (tables present, versioned by the old ``hc_schema_version`` table) is the first
revision: it is stamped ``0001`` and upgraded from there, its rows untouched.

To change the schema, add a revision file to ``versions/`` (``down_revision`` = the current
head, ``revision`` = the next four-digit number) and update ``models.py`` to match.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from sqlalchemy import Connection, Engine, inspect, text

__all__ = ["HEAD", "alembic_config", "main", "migrate", "schema_version"]

HEAD = "0002"
"""The newest revision; ``schema_version`` reports it as an integer (2)."""

_LOCK_ID = 7319420511
_LEGACY_TABLE = "hc_schema_version"


def alembic_config(connection: Connection | None = None) -> Any:
    """An Alembic Config pointing at the shipped revisions (and at ``connection`` when given)."""
    from alembic.config import Config  # lazy: optional extra (service)

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("hallucheck.service").joinpath("migrations")))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def schema_version(engine: Engine) -> int:
    """The store's revision as a number (0 for an empty database, 1 for one made before Alembic)."""
    with engine.connect() as conn:
        rev = _revision(conn)
        if rev is None:
            return 1 if inspect(conn).has_table("hc_checks") else 0
        return int(rev)


def migrate(engine: Engine) -> int:
    """Upgrade the schema to ``HEAD`` in one locked transaction; returns the revision number."""
    from alembic import command  # lazy: optional extra (service)

    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        if engine.dialect.name == "postgresql":
            conn.execute(text(f"SELECT pg_advisory_xact_lock({_LOCK_ID})"))  # released at commit
        cfg = alembic_config(conn)
        if _revision(conn) is None and inspect(conn).has_table("hc_checks"):
            command.stamp(cfg, "0001")  # a store made before Alembic has the first revision's schema
        command.upgrade(cfg, "head")
        rev = _revision(conn)
    return int(rev or 0)

