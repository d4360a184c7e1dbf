"""Service settings, read from HALLUCHECK_* environment variables (or given directly).

One frozen, typed model holds everything the app needs so that tests can build an app with
exact settings and a deployment can configure it from the environment alone, with no file to
write. Every value is checked against its meaning when the model is built (ranges, finite
numbers, a key source that yields keys, a store URL of a supported database), so a bad value
stops the start with one line naming the variable and the value instead of surfacing later as a
server that refuses every request, deletes every check or runs without a rate limit.
"""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from hallucheck.errors import InputError

__all__ = ["ENV_VARS", "Settings", "SettingsError", "default_data_dir", "default_db_url"]


class SettingsError(InputError):
    """An invalid setting: ``variable`` (the HALLUCHECK_* name, or the field name for a value
    given in code), the ``value`` as given and what is wrong with it, in one line. A ValueError,
    like every InputError."""

    def __init__(self, variable: str, value: Any, problem: str) -> None:
        self.variable, self.value, self.problem = variable, value, problem
        super().__init__(f"{variable}={_show(variable, value)}: {problem}")


def _show(variable: str, value: Any) -> str:
    """The value for a message: quoted, cut to 120 characters, a database password hidden."""
    text = value if isinstance(value, str) else repr(value)
    if variable in {"HALLUCHECK_DB_URL", "db_url"} and isinstance(value, str):
        text = _hide_password(value)
    if variable in {"HALLUCHECK_API_KEYS", "api_keys"}:
        text = "<hidden>" if text.replace(",", "").strip() else text
    if len(text) > 120:
        text = text[:117] + "..."
    return repr(text) if isinstance(value, str) else text


def _hide_password(url: str) -> str:
    return re.sub(r"(://[^/:@]*:)[^/@]*@", r"\1***@", url)


def default_data_dir() -> Path:
    """Where the SQLite file lives when no database URL is given ($XDG_DATA_HOME/hallucheck)."""
    base = os.environ.get("HALLUCHECK_DATA_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "hallucheck"


def default_db_url() -> str:
    return f"sqlite:///{default_data_dir() / 'hallucheck.db'}"


def _split(value: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in value.replace("\n", ",").split(",") if p.strip())


_ON = {"1", "true", "yes", "on"}
_OFF = {"0", "false", "no", "off"}


def _tristate(value: Any) -> bool | None:
    """on/off/auto from a string; booleans and None pass through."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = value.strip().lower()
        if v in {"", "auto"}:
            return None
        if v in _ON:
            return True
        if v in _OFF:
            return False
    raise ValueError("expected on, off or auto")


# Every field and the variable that sets it (the order of docs/service.md's table).
ENV_VARS: dict[str, str] = {
    "db_url": "HALLUCHECK_DB_URL",
    "detectors": "HALLUCHECK_DETECTORS",
    "policy": "HALLUCHECK_POLICY",
    "citations_expected": "HALLUCHECK_CITATIONS_EXPECTED",
    "plugins": "HALLUCHECK_PLUGINS",
    "auth": "HALLUCHECK_AUTH",
    "api_keys": "HALLUCHECK_API_KEYS",
    "api_keys_file": "HALLUCHECK_API_KEYS_FILE",
    "api_docs": "HALLUCHECK_API_DOCS",
    "cors_origins": "HALLUCHECK_CORS_ORIGINS",
    "trusted_proxies": "HALLUCHECK_TRUSTED_PROXIES",
    "max_body_bytes": "HALLUCHECK_MAX_BODY_BYTES",
    "max_batch_cases": "HALLUCHECK_MAX_BATCH_CASES",
    "max_answer_chars": "HALLUCHECK_MAX_ANSWER_CHARS",
    "max_source_chars": "HALLUCHECK_MAX_SOURCE_CHARS",
    "max_contexts": "HALLUCHECK_MAX_CONTEXTS",
    "max_sentences": "HALLUCHECK_MAX_SENTENCES",
    "rate_per_second": "HALLUCHECK_RATE_PER_SECOND",
    "rate_burst": "HALLUCHECK_RATE_BURST",
    "workers": "HALLUCHECK_WORKERS",
    "max_cost": "HALLUCHECK_MAX_COST",
    "small_request_chars": "HALLUCHECK_SMALL_REQUEST_CHARS",
    "max_waiting": "HALLUCHECK_MAX_WAITING",
    "request_timeout_s": "HALLUCHECK_REQUEST_TIMEOUT",
    "stream_work_s": "HALLUCHECK_STREAM_WORK_BUDGET",
    "header_timeout_s": "HALLUCHECK_HEADER_TIMEOUT",
    "body_timeout_s": "HALLUCHECK_BODY_TIMEOUT",
    "retention_days": "HALLUCHECK_RETENTION_DAYS",
    "warmup": "HALLUCHECK_WARMUP",
}

# Variables whose presence counts even when empty ("" = auto / off); the others are unset when empty.
_EMPTY_MEANS_SOMETHING = {"HALLUCHECK_CITATIONS_EXPECTED", "HALLUCHECK_AUTH", "HALLUCHECK_API_DOCS",
                          "HALLUCHECK_RETENTION_DAYS", "HALLUCHECK_WARMUP"}

_MODULE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_NAME = re.compile(r"^[A-Za-z0-9_.:/\\-]+$")
_LANG = re.compile(r"^[a-z]{2,3}$")
_ORIGIN = re.compile(r"^https?://[^/\s]+$")
_DAY_S = 86_400.0


class Settings(BaseModel):
    """Everything the service is configured with (see docs/service.md for each variable).

    ``auth``: True requires an API key on every /v1 request; False never does; None ("auto")
    requires one as soon as any key is configured (in the store, the environment or a key file),
    so that creating the first key can never leave a server open by accident. A key source that
    is configured but yields no key (an empty key file, ``HALLUCHECK_API_KEYS=" , "``) is an
    error, never "auth off".

    Work is admitted by its cost (characters, contexts and sentences, times detectors; ``max_cost``
    in flight at once, default one case of the largest allowed size through every detector); a
    request of at most ``small_request_chars`` characters runs in its own lane so that it stays
    fast beside heavy ones. Every request must be answered within ``request_timeout_s`` (503 when
    it could not start, 504 when its check did not finish; nothing is stored then); a streamed
    check may spend at most ``stream_work_s`` of checking in all. A client must send its request
    headers within ``header_timeout_s`` and its body within ``body_timeout_s``.
    ``X-Forwarded-For`` is read only from ``trusted_proxies``. ``api_docs`` (None = auto) serves
    /openapi.json, /docs and /redoc, by default only while API keys are off. ``retention_days``
    (None = keep forever) deletes older checks at start and then every ``retention_interval_s``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=False)

    db_url: str = Field(default_factory=default_db_url, min_length=1)
    detectors: tuple[str, ...] | None = None
    policy: str = Field("default", min_length=1)
    detector_options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    citations_expected: bool | None = None
    auth: bool | None = None
    api_keys: tuple[str, ...] = ()
    api_keys_file: str | None = None
    max_body_bytes: int = Field(2 * 1024 * 1024, ge=256, le=1 << 30)
    max_batch_cases: int = Field(100, ge=1, le=10_000)
    max_answer_chars: int = Field(50_000, ge=1, le=10_000_000)
    max_source_chars: int = Field(500_000, ge=1, le=100_000_000)
    max_contexts: int = Field(1_000, ge=1, le=100_000)
    max_sentences: int = Field(5_000, ge=1, le=1_000_000)
    rate_per_second: float = Field(20.0, ge=0.0, le=1e9, allow_inf_nan=False)
    rate_burst: int = Field(40, ge=1, le=1_000_000_000)
    retention_days: float | None = Field(90.0, ge=1.0, le=36_500.0, allow_inf_nan=False)
    retention_interval_s: float = Field(3600.0, gt=0.0, le=_DAY_S, allow_inf_nan=False)
    cors_origins: tuple[str, ...] = ()
    workers: int = Field(4, ge=1, le=1024)
    plugins: tuple[str, ...] = ()
    warmup: tuple[str, ...] = ("en", "de", "fr", "zh")
    request_timeout_s: float = Field(60.0, gt=0.0, le=_DAY_S, allow_inf_nan=False)
    stream_work_s: float = Field(120.0, gt=0.0, le=_DAY_S, allow_inf_nan=False)
    max_cost: int | None = Field(None, ge=1, le=10**15)
    small_request_chars: int = Field(20_000, ge=0, le=100_000_000)
    max_waiting: int = Field(64, ge=0, le=1_000_000)
    header_timeout_s: float = Field(10.0, gt=0.0, le=_DAY_S, allow_inf_nan=False)
    body_timeout_s: float = Field(20.0, gt=0.0, le=_DAY_S, allow_inf_nan=False)
    trusted_proxies: tuple[str, ...] = ()
    api_docs: bool | None = None

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as exc:
            raise _one_error(exc, data) from None

    def with_(self, **changes: Any) -> Settings:
        """A copy with ``changes``, validated like the original."""
        return type(self)(**{**{name: getattr(self, name) for name in type(self).model_fields}, **changes})

    # ---- parsing of the variables' strings --------------------------------------------------
    @field_validator("citations_expected", "auth", "api_docs", mode="before")
    @classmethod
    def _tri(cls, v: Any) -> Any:
        return _tristate(v)

    @field_validator("detectors", "cors_origins", "plugins", "trusted_proxies", mode="before")
    @classmethod
    def _list(cls, v: Any) -> Any:
        return _split(v) if isinstance(v, str) else v

    @field_validator("api_keys", mode="before")
    @classmethod
    def _key_list(cls, v: Any) -> Any:
        if isinstance(v, str):
            keys = _split(v)
            if not keys:
                raise ValueError("holds no key (a configured key source must yield one; unset it for no keys)")
            return keys
        return v

    @field_validator("warmup", mode="before")
    @classmethod
    def _warmup_off(cls, v: Any) -> Any:
        if isinstance(v, str):
            return () if v.strip().lower() in {"", "off", "none", "0"} else _split(v.lower())
        return v

    @field_validator("retention_days", mode="before")
    @classmethod
    def _retention_off(cls, v: Any) -> Any:
        if isinstance(v, str):
            s = v.strip().lower()
            if s in {"", "0", "none", "off"}:
                return None
            try:
                v = float(s)
            except ValueError:
                raise ValueError("expected a number of days (at least 1) or off") from None
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0:
            return None  # 0 = keep forever, as "off"
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("expected a finite number of days (at least 1), or off to keep checks forever")
        return v

    # ---- meaning ----------------------------------------------------------------------------
    @field_validator("db_url")
    @classmethod
    def _db(cls, v: str) -> str:
        from sqlalchemy.engine import make_url  # lazy: optional extra (service)
        from sqlalchemy.exc import ArgumentError  # lazy: optional extra (service)

        try:
            backend = make_url(v.strip()).get_backend_name()
        except (ArgumentError, ValueError):
            raise ValueError("not a database URL (sqlite:///path/to/file.db or postgresql://user@host/db)") from None
        if backend not in {"sqlite", "postgresql"}:
            raise ValueError(f"the store must be SQLite or PostgreSQL, not {backend!r}")
        return v.strip()

    @field_validator("detectors")
    @classmethod
    def _detectors(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if v is not None:
            if not v:
                raise ValueError("names no detector (leave it unset for the default stack)")
            for name in v:
                if not _NAME.match(name):
                    raise ValueError(f"{name!r} is not a detector name")
        return v

    @field_validator("api_keys_file")
    @classmethod
    def _key_file(cls, v: str | None) -> str | None:
        if v is None:
            return None
        from hallucheck.service.auth import read_key_file  # lazy: loaded only on this path

        if not v.strip():
            raise ValueError("names no file")
        try:
            keys = read_key_file(v)
        except UnicodeDecodeError:
            raise ValueError("the key file is not UTF-8 text") from None
        except OSError as exc:
            raise ValueError(f"cannot read the key file: {exc.strerror or exc}") from None
        if not keys:
            raise ValueError("the key file holds no key (a configured key source must yield one)")
        return v

    @field_validator("plugins")
    @classmethod
    def _plugins(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for name in v:
            if not _MODULE.match(name):
                raise ValueError(f"{name!r} is not a Python module name")
        return v

    @field_validator("warmup")
    @classmethod
    def _langs(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for lang in v:
            if not _LANG.match(lang):
                raise ValueError(f"{lang!r} is not a language code (en, de, fr, zh)")
        return v

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for origin in v:
            if origin != "*" and not _ORIGIN.match(origin):
                raise ValueError(f"{origin!r} is not an origin (https://host[:port] or *)")
        return v

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for proxy in v:
            if proxy == "*":
                continue
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(f"{proxy!r} is not an IP address or network") from None
        return v

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from HALLUCHECK_* variables; keyword overrides win (the CLI's flags).

        Raises ``SettingsError`` naming the first invalid variable and its value."""
        e = os.environ if env is None else env
        kw: dict[str, Any] = {}
        from_vars: dict[str, str] = {}
        for name, var in ENV_VARS.items():
            raw = e.get(var)
            if raw is None:
                continue
            # empty = unset, unless empty has a meaning; but a key list of blanks (" , ,") is a
            # key source that yields no key, an error
            if not raw.strip() and var not in _EMPTY_MEANS_SOMETHING and not (name == "api_keys" and raw):
                continue
            kw[name] = raw
            from_vars[name] = var
        for name, value in overrides.items():
            if value is not None:
                kw[name] = value
                from_vars.pop(name, None)
        try:
            return cls(**kw)
        except SettingsError as exc:
            if exc.variable in from_vars:
                raise SettingsError(from_vars[exc.variable], exc.value, exc.problem) from None
            raise


def _one_error(exc: ValidationError, data: Mapping[str, Any]) -> SettingsError:
    """The first error of ``exc`` as one line naming the field and the value as given
    (``from_env`` renames the field to its variable)."""
    err = exc.errors(include_url=False)[0]
    loc = err.get("loc", ())
    key = str(loc[0]) if loc else "settings"
    variable = key
    value = data.get(key, err.get("input"))
    msg = str(err.get("msg", "invalid value"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if err.get("type") == "extra_forbidden":
        msg = "not a setting"
    return SettingsError(variable, value, msg)
