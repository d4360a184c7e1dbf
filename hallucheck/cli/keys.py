"""``hallucheck keys create|list|revoke``: API keys of the service, kept hashed in its store."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import typer

from hallucheck.cli.root import app

if TYPE_CHECKING:
    from hallucheck.service.store import Store

__all__ = ["keys"]

keys = typer.Typer(help="API keys for the service (only their SHA-256 digest is stored).", no_args_is_help=True)
app.add_typer(keys, name="keys")

_DB = typer.Option(None, "--db", help="Database URL (default: HALLUCHECK_DB_URL or the service's SQLite file).")


def _store(db: str | None) -> Store:
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used

    try:
        from hallucheck.service.settings import Settings  # lazy: start-up: the CLI imports a command's code only when it runs
        from hallucheck.service.store import Store  # lazy: optional extra (service)
    except ImportError as exc:
        raise InputError(f"keys need the 'service' extra: pip install 'hallucheck[service]' ({exc})") from None
    return Store(Settings.from_env(db_url=db).db_url)


@keys.command("create")
def create(name: str = typer.Argument("", help="A note saying who or what the key is for."), db: str | None = _DB) -> None:
    """Create a key and print it once (it cannot be shown again)."""
    from hallucheck.service.auth import digest_key, generate_key  # lazy: start-up: the CLI imports a command's code only when it runs

    store = _store(db)
    key_id, key = generate_key()
    store.add_key(key_id, name, digest_key(key))
    store.close()
    sys.stdout.write(json.dumps({"id": key_id, "name": name, "key": key}) + "\n")
    sys.stderr.write("Keep the key now: only its digest is stored. The server requires keys from now on.\n")


@keys.command("list")
def list_keys(db: str | None = _DB) -> None:
    """List keys (ids, names, dates; never the keys)."""
    store = _store(db)
    for row in store.keys():
        sys.stdout.write(json.dumps(row) + "\n")
    store.close()


@keys.command("revoke")
def revoke(key_id: str = typer.Argument(..., help="The key id (the part after 'hc_')."), db: str | None = _DB) -> None:
    """Revoke a key; servers stop accepting it within seconds."""
    from hallucheck.cli.errors import EXIT_FAILED, fail  # lazy: already loaded by the package; kept where it is used

    store = _store(db)
    ok = store.revoke_key(key_id)
    store.close()
    if not ok:
        fail(f"no active key {key_id!r}", EXIT_FAILED)
    sys.stderr.write(f"revoked {key_id}\n")
