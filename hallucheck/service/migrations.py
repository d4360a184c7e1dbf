"""Schema migrations: a version table and an ordered list of migration functions.

Kept small on purpose (no Alembic): each migration is a function applied once, in order, inside
one transaction with the version row it writes, so a crash leaves the schema at a known version.
To change the schema, append a function to ``MIGRATIONS`` written against the tables as they
are at that version (``ALTER TABLE ...``); never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from sqlalchemy import Connection, Engine, inspect, select, text

from hallucheck.service.models import ApiKeyRow, Base, CheckRow, CheckTag, SchemaVersion

__all__ = ["MIGRATIONS", "migrate", "schema_version"]


def _m001_initial(conn: Connection) -> None:
    """Checks, their tags and API keys, with the indexes the list filters and trends use."""
    tables = [CheckRow.__table__, CheckTag.__table__, ApiKeyRow.__table__]
    Base.metadata.create_all(conn, tables=tables)  # type: ignore[arg-type]


MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "checks, check tags and API keys", _m001_initial),
]


def schema_version(engine: Engine) -> int:
    with engine.connect() as conn:
        if not inspect(conn).has_table(SchemaVersion.__tablename__):
            return 0
        versions = conn.execute(select(SchemaVersion.version)).scalars().all()
        return max(versions, default=0)


def migrate(engine: Engine) -> int:
    """Bring the schema to the newest version; safe to call from several processes at once
    (PostgreSQL: an advisory lock; SQLite: the migration transaction takes the write lock first)."""
    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7319420511)"))  # released at commit
        Base.metadata.create_all(conn, tables=[SchemaVersion.__table__])  # type: ignore[list-item]
        done = set(conn.execute(select(SchemaVersion.version)).scalars().all())
        current = max(done, default=0)
        for version, description, apply in MIGRATIONS:
            if version in done:
                continue
            apply(conn)
            conn.execute(
                SchemaVersion.__table__.insert().values(
                    version=version,
                    applied_at=datetime.now(timezone.utc).replace(tzinfo=None),
                    description=description,
                )
            )
            current = version
    return current
