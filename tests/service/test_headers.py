"""Response headers: redirects that name no host, and no caching of API answers."""

from __future__ import annotations

import pytest

from hallucheck.service.headers import relative_location


@pytest.mark.parametrize(("location", "relative"), [
    (b"http://evil.example/v1/check", b"/v1/check"),
    (b"https://evil.example:8443/v1/checks?limit=5", b"/v1/checks?limit=5"),
    (b"http://evil.example//other.example/x", b"/other.example/x"),
    (b"/v1/check", b"/v1/check"),
    (b"//evil.example/v1/check", b"/v1/check"),
])
def test_redirects_keep_only_the_path_and_query(location, relative):
    assert relative_location(location) == relative


def test_api_answers_are_not_cached_and_redirects_are_relative(tmp_path):
    pytest.importorskip("fastapi")
    import hc_test_plugin  # noqa: F401
    from fastapi.testclient import TestClient

    from hallucheck.service.app import create_app
    from hallucheck.service.settings import Settings

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'h.db'}", detectors=("test_marker",), policy="test_max",
                              retention_days=None, warmup=()))
    with TestClient(app, base_url="http://evil.example") as client:
        r = client.post("/v1/check/", json={"question": "q", "contexts": ["a"], "answer": "b"}, follow_redirects=False)
        assert r.status_code == 307 and r.headers["location"] == "/v1/check"
        assert client.get("/v1/stats").headers["cache-control"] == "no-store"
        assert "no-store" not in client.get("/dashboard").headers.get("cache-control", "")
