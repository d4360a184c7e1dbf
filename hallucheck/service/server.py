"""Running the app with uvicorn (``hallucheck serve`` and ``python -m hallucheck.service``).

On SIGTERM/SIGINT uvicorn stops accepting connections and lets requests in flight finish
(up to ``graceful_s``), so a check that was accepted is answered and stored.

A start that fails says why in one line on stderr: exit 1 for a bad configuration (a setting,
the store, a plugin, a key file or a policy; the line names the variable, the value and the file)
or a machine that cannot run it (a full disk, a missing permission), 70 for anything else,
which is a bug (``HALLUCHECK_DEBUG=1`` shows its traceback).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from hallucheck.service.settings import Settings, SettingsError

__all__ = ["EXIT_CONFIG", "EXIT_BUG", "run", "main", "warn_if_exposed"]

EXIT_CONFIG = 1
EXIT_BUG = 70

log = logging.getLogger("hallucheck.service")


def warn_if_exposed(host: str, auth_enabled: bool) -> str | None:
    """A warning when the server listens beyond loopback with API keys off."""
    if host not in {"127.0.0.1", "localhost", "::1"} and not auth_enabled:
        return f"listening on {host} with API keys off: anyone who can reach it can read every stored check"
    return None


def run(settings: Settings, host: str = "127.0.0.1", port: int = 8000, *, log_level: str = "info",
        graceful_s: float = 30.0) -> None:
    import uvicorn  # lazy: optional extra (service)

    from hallucheck.models.runtime import disable_telemetry  # lazy: loaded only on this path
    from hallucheck.service.app import create_app  # lazy: optional extra (service)
    from hallucheck.service.protocol import bounded_protocol  # lazy: optional extra (service)

    disable_telemetry()  # before any detector loads ONNX Runtime
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(settings)
    ctx = app.state.ctx
    warning = warn_if_exposed(host, ctx.auth_enabled)
    if warning:
        log.warning(warning)
    # X-Forwarded-For / X-Forwarded-Proto are read only from the configured proxies: from anyone
    # else they would let a client pick its own address (and its own rate-limit bucket).
    proxies = list(settings.trusted_proxies)
    # uvicorn annotates the grace period as int, but waits with asyncio, which takes fractional seconds.
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=graceful_s,  # type: ignore[arg-type]
                access_log=log_level == "debug", proxy_headers=bool(proxies),
                forwarded_allow_ips=proxies or [], server_header=False,
                http=bounded_protocol(settings.header_timeout_s, ctx.metrics.refused.labels("slow_client").inc))


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m hallucheck.service", description="Run the hallucheck HTTP service.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="database URL (default: HALLUCHECK_DB_URL or an SQLite file)")
    p.add_argument("--detectors", default=None, help="comma-separated detector names (default: the default stack)")
    p.add_argument("--policy", default=None)
    p.add_argument("--log-level", default="info")
    return p


def _say(message: str) -> None:
    sys.stderr.write("hallucheck serve: " + " ".join(message.split())[:1000] + "\n")
    sys.stderr.flush()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    dets = tuple(d.strip() for d in args.detectors.split(",") if d.strip()) if args.detectors else None
    try:
        settings = Settings.from_env(db_url=args.db, detectors=dets, policy=args.policy)
        run(settings, args.host, args.port, log_level=args.log_level)
    except SettingsError as exc:
        _say(f"bad configuration: {exc}")
        return EXIT_CONFIG
    except ImportError as exc:  # an optional module of the service extra is missing
        _say(f"the service needs the 'service' extra: pip install 'hallucheck[service]' ({exc})")
        return EXIT_CONFIG
    except OSError as exc:  # the machine's trouble (a full disk, a permission), not a bug
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"cannot start: {where}{exc.strerror or exc}")
        return EXIT_CONFIG
    except Exception as exc:
        if os.environ.get("HALLUCHECK_DEBUG", "") not in ("", "0"):
            raise
        _say(f"internal error: {type(exc).__name__}: {exc} (set HALLUCHECK_DEBUG=1 to see the traceback)")
        return EXIT_BUG
    return 0
