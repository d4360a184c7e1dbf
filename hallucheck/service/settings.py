"""Service settings, read from HALLUCHECK_* environment variables (or given directly).

One frozen object holds everything the app needs so that tests can build an app with exact
settings and a deployment can configure it from the environment alone, with no file to write.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

__all__ = ["Settings", "default_data_dir", "default_db_url"]


def default_data_dir() -> Path:
    """Where the SQLite file lives when no database URL is given ($XDG_DATA_HOME/hallucheck)."""
    base = os.environ.get("HALLUCHECK_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "hallucheck"


def default_db_url() -> str:
    return f"sqlite:///{default_data_dir() / 'hallucheck.db'}"


def _split(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return tuple(p.strip() for p in value.replace("\n", ",").split(",") if p.strip())


def _bool(value: str | None, default: bool | None) -> bool | None:
    if value is None or value.strip() == "" or value.strip().lower() == "auto":
        return default
    v = value.strip().lower()
    if v in {"1", "true", "yes", "on"}:
        return True
    if v in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"expected on/off, got {value!r}")


@dataclass(frozen=True)
class Settings:
    """Everything the service is configured with.

    ``auth``: True requires an API key on every /v1 request; False never does; None ("auto")
    requires one as soon as any key is configured (in the store, the environment or a key file),
    so that creating the first key can never leave a server open by accident.

    Work is admitted by its cost, characters x detectors (``max_cost`` in flight at once, default
    one case of the largest allowed size through every detector); a request of at most
    ``small_request_chars`` characters runs in its own lane so that it stays fast beside heavy
    ones. Every request must be answered within ``request_timeout_s`` (503 when it could not
    start, 504 when its check did not finish; nothing is stored then). A client must send its
    request headers within ``header_timeout_s`` and its body within ``body_timeout_s``.
    ``X-Forwarded-For`` is read only from ``trusted_proxies``. ``api_docs`` (None = auto) serves
    /openapi.json, /docs and /redoc, by default only while API keys are off.
    """

    db_url: str = field(default_factory=default_db_url)
    detectors: tuple[str, ...] | None = None
    policy: str = "default"
    detector_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    citations_expected: bool | None = None
    auth: bool | None = None
    api_keys: tuple[str, ...] = ()
    api_keys_file: str | None = None
    max_body_bytes: int = 2 * 1024 * 1024
    max_batch_cases: int = 100
    max_answer_chars: int = 50_000
    max_source_chars: int = 500_000
    rate_per_second: float = 20.0
    rate_burst: int = 40
    retention_days: float | None = 90.0
    retention_interval_s: float = 3600.0
    cors_origins: tuple[str, ...] = ()
    workers: int = 4
    plugins: tuple[str, ...] = ()
    warmup: tuple[str, ...] = ("en", "de", "fr", "zh")
    request_timeout_s: float = 60.0
    max_cost: int | None = None
    small_request_chars: int = 20_000
    max_waiting: int = 64
    header_timeout_s: float = 10.0
    body_timeout_s: float = 20.0
    trusted_proxies: tuple[str, ...] = ()
    api_docs: bool | None = None

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from HALLUCHECK_* variables; keyword overrides win (the CLI's flags)."""
        e = os.environ if env is None else env
        kw: dict[str, Any] = {}
        if e.get("HALLUCHECK_DB_URL"):
            kw["db_url"] = e["HALLUCHECK_DB_URL"]
        if e.get("HALLUCHECK_DETECTORS"):
            kw["detectors"] = _split(e["HALLUCHECK_DETECTORS"])
        if e.get("HALLUCHECK_POLICY"):
            kw["policy"] = e["HALLUCHECK_POLICY"]
        if "HALLUCHECK_CITATIONS_EXPECTED" in e:
            kw["citations_expected"] = _bool(e["HALLUCHECK_CITATIONS_EXPECTED"], None)
        if "HALLUCHECK_AUTH" in e:
            kw["auth"] = _bool(e["HALLUCHECK_AUTH"], None)
        if e.get("HALLUCHECK_API_KEYS"):
            kw["api_keys"] = _split(e["HALLUCHECK_API_KEYS"])
        if e.get("HALLUCHECK_API_KEYS_FILE"):
            kw["api_keys_file"] = e["HALLUCHECK_API_KEYS_FILE"]
        ints = {
            "HALLUCHECK_MAX_BODY_BYTES": "max_body_bytes",
            "HALLUCHECK_MAX_BATCH_CASES": "max_batch_cases",
            "HALLUCHECK_MAX_ANSWER_CHARS": "max_answer_chars",
            "HALLUCHECK_MAX_SOURCE_CHARS": "max_source_chars",
            "HALLUCHECK_RATE_BURST": "rate_burst",
            "HALLUCHECK_WORKERS": "workers",
            "HALLUCHECK_MAX_COST": "max_cost",
            "HALLUCHECK_SMALL_REQUEST_CHARS": "small_request_chars",
            "HALLUCHECK_MAX_WAITING": "max_waiting",
        }
        for var, name in ints.items():
            if e.get(var):
                kw[name] = int(e[var])
        floats = {
            "HALLUCHECK_RATE_PER_SECOND": "rate_per_second",
            "HALLUCHECK_REQUEST_TIMEOUT": "request_timeout_s",
            "HALLUCHECK_HEADER_TIMEOUT": "header_timeout_s",
            "HALLUCHECK_BODY_TIMEOUT": "body_timeout_s",
        }
        for var, name in floats.items():
            if e.get(var):
                kw[name] = float(e[var])
        if e.get("HALLUCHECK_TRUSTED_PROXIES"):
            kw["trusted_proxies"] = _split(e["HALLUCHECK_TRUSTED_PROXIES"])
        if "HALLUCHECK_API_DOCS" in e:
            kw["api_docs"] = _bool(e["HALLUCHECK_API_DOCS"], None)
        if "HALLUCHECK_RETENTION_DAYS" in e:
            v = e["HALLUCHECK_RETENTION_DAYS"].strip()
            kw["retention_days"] = None if v in {"", "0", "none", "off"} else float(v)
        if e.get("HALLUCHECK_CORS_ORIGINS"):
            kw["cors_origins"] = _split(e["HALLUCHECK_CORS_ORIGINS"])
        if "HALLUCHECK_WARMUP" in e:
            v = e["HALLUCHECK_WARMUP"].strip().lower()
            kw["warmup"] = () if v in {"", "off", "none", "0"} else _split(v)
        if e.get("HALLUCHECK_PLUGINS"):
            kw["plugins"] = _split(e["HALLUCHECK_PLUGINS"])
        kw.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**kw)

    def __post_init__(self) -> None:
        for name in ("request_timeout_s", "header_timeout_s", "body_timeout_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.max_cost is not None and self.max_cost < 1:
            raise ValueError("max_cost must be positive")
        if self.small_request_chars < 0 or self.max_waiting < 0:
            raise ValueError("small_request_chars and max_waiting must not be negative")
