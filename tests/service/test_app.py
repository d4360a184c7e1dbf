"""In-process checks of the app's plumbing: the catch-all error handler, settings from the
environment, the body limit without Content-Length, and a store that cannot be written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hallucheck.service.app import create_app
from hallucheck.service.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    import hc_test_plugin  # noqa: F401  (registers test_max and test_marker)

    return Settings(db_url=f"sqlite:///{tmp_path / 'c.db'}", detectors=("test_marker",), policy="test_max",
                    plugins=("hc_test_plugin",), retention_days=None)


def test_unexpected_error_is_json_500_without_details(settings):
    app = create_app(settings)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("secret internals")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
    assert r.status_code == 500
    assert r.json() == {"error": {"code": "internal", "message": "internal error; the server log has the details"}}
    assert "secret" not in r.text


def test_store_failure_is_503_and_nothing_counted(settings, tmp_path):
    from sqlalchemy import text

    app = create_app(settings)
    ctx = app.state.ctx
    with TestClient(app) as client:
        with ctx.store.engine.begin() as conn:
            conn.execute(text("DROP TABLE hc_check_tags"))
        body = {"question": "q", "contexts": ["a b"], "answer": "It was FABRICATED."}
        r = client.post("/v1/check", json=body)
        assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
        assert "hallucheck_checks_stored_total 0.0" in client.get("/metrics").text
        assert ctx.store.count() == 0  # the check row was rolled back with its tags


def test_settings_from_env():
    s = Settings.from_env({
        "HALLUCHECK_DB_URL": "postgresql://u@h/db", "HALLUCHECK_DETECTORS": "citations, numbers",
        "HALLUCHECK_AUTH": "on", "HALLUCHECK_API_KEYS": "k1,k2", "HALLUCHECK_RETENTION_DAYS": "off",
        "HALLUCHECK_CORS_ORIGINS": "https://a.example", "HALLUCHECK_MAX_BODY_BYTES": "1000",
        "HALLUCHECK_RATE_PER_SECOND": "2.5",
    }, policy="vote")
    assert s.db_url == "postgresql://u@h/db" and s.detectors == ("citations", "numbers") and s.auth is True
    assert s.api_keys == ("k1", "k2") and s.retention_days is None and s.cors_origins == ("https://a.example",)
    assert s.max_body_bytes == 1000 and s.rate_per_second == 2.5 and s.policy == "vote"
    assert Settings.from_env({}).auth is None and Settings.from_env({}).cors_origins == ()
    with pytest.raises(ValueError):
        Settings.from_env({"HALLUCHECK_AUTH": "maybe"})


def test_rate_limiter_refills():
    from hallucheck.service.auth import RateLimiter

    lim = RateLimiter(rate=1000.0, burst=2)
    assert lim.take("a") == 0.0 and lim.take("a") == 0.0
    assert lim.take("b") == 0.0  # buckets are per key
    wait = RateLimiter(rate=1.0, burst=1)
    assert wait.take("x") == 0.0 and wait.take("x") > 0.5
    assert RateLimiter(rate=0, burst=1).take("x") == 0.0  # rate 0 = unlimited


def test_hostile_client_settings_from_env():
    s = Settings.from_env({
        "HALLUCHECK_REQUEST_TIMEOUT": "12.5", "HALLUCHECK_MAX_COST": "1000", "HALLUCHECK_SMALL_REQUEST_CHARS": "50",
        "HALLUCHECK_HEADER_TIMEOUT": "3", "HALLUCHECK_BODY_TIMEOUT": "4", "HALLUCHECK_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2",
        "HALLUCHECK_API_DOCS": "on", "HALLUCHECK_MAX_WAITING": "7",
    })
    assert (s.request_timeout_s, s.max_cost, s.small_request_chars, s.max_waiting) == (12.5, 1000, 50, 7)
    assert (s.header_timeout_s, s.body_timeout_s, s.api_docs) == (3.0, 4.0, True)
    assert s.trusted_proxies == ("10.0.0.1", "10.0.0.2")
    assert Settings.from_env({}).trusted_proxies == () and Settings.from_env({}).api_docs is None
    with pytest.raises(ValueError):
        Settings.from_env({"HALLUCHECK_REQUEST_TIMEOUT": "0"})


def test_rate_limiter_charges_a_large_batch_in_full():
    from hallucheck.service.auth import RateLimiter

    lim = RateLimiter(rate=20.0, burst=40)
    assert lim.take("k", 60.0) == 0.0  # a full bucket admits a batch over the burst...
    assert lim.take("k", 1.0) > 0.9  # ...and the key then pays the whole cost back (20 tokens of debt + 1)
