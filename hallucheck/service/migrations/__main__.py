"""``python -m hallucheck.service.migrations [DB_URL]``: upgrade a check store to the newest revision.

A module of its own because it opens the store (``Store._driver_url``), and the store runs the
migrations: the package ``migrations`` does not import the store back.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sqlalchemy import create_engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from hallucheck.service.migrations import migrate, schema_version
from hallucheck.service.settings import default_db_url
from hallucheck.service.store import Store


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hallucheck.service.migrations [DB_URL]``: upgrade a store and say to what.

    Exit codes follow the CLI's: 2 for a URL that cannot be read, 1 for a database that cannot be
    reached or upgraded, each with a one-line message instead of a traceback.
    """
    parser = argparse.ArgumentParser(
        prog="python -m hallucheck.service.migrations",
        description="Upgrade a check store (SQLite file or PostgreSQL) to the newest schema revision.",
    )
    parser.add_argument("db_url", nargs="?", default=None, help="database URL (default: the service's store)")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    url = args.db_url or default_db_url()
    try:
        engine = create_engine(Store._driver_url(url))
    except (ArgumentError, ValueError) as exc:
        print(f"error: cannot read the database URL {url!r}: {exc}", file=sys.stderr)
        return 2
    try:
        before = schema_version(engine)
        after = migrate(engine)
    except SQLAlchemyError as exc:
        print(f"error: cannot upgrade {url.split('@')[-1]}: {type(exc).__name__}: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(f"schema revision {before} -> {after} ({url.split('@')[-1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
