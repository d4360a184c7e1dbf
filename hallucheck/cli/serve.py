"""``hallucheck serve``: the HTTP service (extra ``service``) on uvicorn."""

from __future__ import annotations

import typer

from hallucheck.cli.root import app

__all__ = ["serve"]


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (loopback by default)."),
    port: int = typer.Option(8000, "--port", help="TCP port."),
    db: str | None = typer.Option(
        None, "--db", help="Database URL: sqlite:///path.db or postgresql://user@host/db (default: HALLUCHECK_DB_URL "
        "or an SQLite file under ~/.local/share/hallucheck)."
    ),
    detectors: str | None = typer.Option(None, "--detectors", "-d", help="Comma-separated detector names."),
    policy: str | None = typer.Option(
        None, "--policy", "-p", help="tiered, vote, weighted, learned, default, or a POLICY.json from 'hallucheck calibrate'."
    ),
    workers: int | None = typer.Option(None, "--workers", help="Checks run at once (threads)."),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error."),
) -> None:
    """Serve POST /v1/check, the check store, /metrics and the dashboard (settings: HALLUCHECK_* env vars)."""
    from hallucheck.cli.errors import EXIT_FAILED, fail  # lazy: already loaded by the package; kept where it is used
    from hallucheck.cli.options import check_policy, parse_detectors  # lazy: already loaded by the package; kept where it is used
    from hallucheck.errors import InputError  # lazy: already loaded by the package; kept where it is used

    try:
        from hallucheck.service.server import run  # lazy: start-up: the CLI imports a command's code only when it runs

        # lazy: start-up: the CLI imports a command's code only when it runs
        from hallucheck.service.settings import Settings, SettingsError
    except ImportError as exc:
        raise InputError(f"the service needs the 'service' extra: pip install 'hallucheck[service]' ({exc})") from None
    names = parse_detectors(detectors)
    if policy is not None:
        check_policy(policy)
    if not 0 < port < 65536:
        raise InputError("--port must be between 1 and 65535")
    if workers is not None and workers < 1:
        raise InputError("--workers must be at least 1")
    try:  # a bad configuration (setting, store, plugin, key file, policy) is one line and exit 1
        settings = Settings.from_env(db_url=db, detectors=tuple(names) if names else None, policy=policy,
                                     workers=workers)
        run(settings, host, port, log_level=log_level)
    except SettingsError as exc:
        fail(f"bad configuration: {exc}", EXIT_FAILED)
