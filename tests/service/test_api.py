"""The HTTP API against a real uvicorn process on 127.0.0.1, over real HTTP."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

SOURCE = "Paris is the capital of France. It has about two million inhabitants."


def case(answer: str, **kw: Any) -> dict[str, Any]:
    return {"question": "Tell me about Paris.", "contexts": [SOURCE], "answer": answer, **kw}


FLAGGED = case("Paris is the capital of France [1]. It was FABRICATED by the kings of the old empire [1].")
CLEAN = case("Paris is the capital of France [1].")
INVALID_CITE = case("Paris is the capital of France [1]. It has about two million inhabitants today [9].")


def test_check_stores_and_returns_report(server):
    r = httpx.post(server.url + "/v1/check", json=FLAGGED)
    assert r.status_code == 200, r.text
    body = r.json()
    rep = body["report"]
    assert rep["risk_level"] == "high" and rep["hallucinated"] is True
    marker = [s for s in rep["spans"] if s["detector"] == "test_marker"]
    assert marker and FLAGGED["answer"][marker[0]["start"]:marker[0]["end"]] == "FABRICATED"
    assert body["timings_ms"]["check_ms"] > 0
    stored = httpx.get(f"{server.url}/v1/checks/{body['id']}")
    assert stored.status_code == 200
    got = stored.json()
    assert got["case"]["answer"] == FLAGGED["answer"]
    assert got["report"]["spans"] == rep["spans"]
    assert "check_ms" in got["timings"] and "test_marker_ms" in got["timings"]
    assert got["labels"] and "fabrication" in got["labels"] and "test_marker" in got["flagged_by"]


def _now() -> str:
    return datetime.now(UTC).replace(tzinfo=None).isoformat()


def metric(text: str, line_start: str) -> float:
    for line in text.splitlines():
        if line.startswith(line_start + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_batch_list_filters_and_stats(server):
    t0 = _now()
    r = httpx.post(server.url + "/v1/check/batch", json={"cases": [FLAGGED, CLEAN, INVALID_CITE]})
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert len(results) == 3 and len({x["id"] for x in results}) == 3
    levels = [x["report"]["risk_level"] for x in results]

    everything = httpx.get(server.url + "/v1/checks", params={"since": t0}).json()
    assert everything["total"] == 3
    assert [i["id"] for i in everything["items"]] == [x["id"] for x in reversed(results)]
    high = httpx.get(server.url + "/v1/checks", params={"risk_level": "high", "since": t0}).json()
    assert high["total"] == levels.count("high")
    fab = httpx.get(server.url + "/v1/checks", params={"label": "fabrication", "since": t0}).json()
    assert [i["id"] for i in fab["items"]] == [results[0]["id"]]
    by_det = httpx.get(server.url + "/v1/checks", params={"detector": "test_marker", "since": t0}).json()
    assert [i["id"] for i in by_det["items"]] == [results[0]["id"]]
    inv = httpx.get(server.url + "/v1/checks", params={"label": "invalid_citation", "since": t0}).json()
    assert results[2]["id"] in [i["id"] for i in inv["items"]]
    future = httpx.get(server.url + "/v1/checks", params={"since": "2999-01-01T00:00:00Z"}).json()
    assert future["total"] == 0
    past = httpx.get(server.url + "/v1/checks", params={"until": "2000-01-01T00:00:00"}).json()
    assert past["total"] == 0
    page = httpx.get(server.url + "/v1/checks", params={"limit": 2, "offset": 2, "since": t0}).json()
    assert len(page["items"]) == 1

    stats = httpx.get(server.url + "/v1/stats", params={"since": t0}).json()
    assert stats["checks"] == 3
    risks = [x["report"]["risk_score"] for x in results]
    assert stats["avg_risk"] == pytest.approx(sum(risks) / 3, abs=1e-6)
    assert stats["high_risk_share"] == pytest.approx(levels.count("high") / 3)
    invalid = [bool(x["report"]["citations"] and x["report"]["citations"]["invalid"]) for x in results]
    assert invalid[2] is True
    assert stats["invalid_citation_rate"] == pytest.approx(sum(invalid) / 3)
    trend = httpx.get(server.url + "/v1/stats/trend", params={"bucket": "minute", "since": t0}).json()
    assert sum(p["checks"] for p in trend["points"]) == 3


def test_health_metrics_openapi_dashboard(server):
    h = httpx.get(server.url + "/healthz").json()
    assert h["status"] == "ok" and h["detectors"] == ["citations", "lexicon", "test_marker"] and h["auth"] is False
    before = httpx.get(server.url + "/metrics").text
    httpx.post(server.url + "/v1/check", json=INVALID_CITE)
    m = httpx.get(server.url + "/metrics")
    assert m.status_code == 200 and m.headers["content-type"].startswith("text/plain")
    text = m.text
    assert 'hallucheck_checks_total{decision=' in text
    for name in ("hallucheck_invalid_citations_total", 'hallucheck_detector_seconds_count{detector="citations"}',
                 "hallucheck_checks_stored_total", "hallucheck_checks_with_invalid_citations_total"):
        assert metric(text, name) == metric(before, name) + 1, name
    assert "hallucheck_llm_calls_total 0.0" in text
    assert 'hallucheck_llm_tokens_total{kind="prompt"} 0.0' in text
    spec = httpx.get(server.url + "/openapi.json").json()
    assert {"/v1/check", "/v1/check/batch", "/v1/checks", "/v1/checks/{check_id}", "/v1/stats"} <= set(spec["paths"])
    assert httpx.get(server.url + "/docs").status_code == 200
    page = httpx.get(server.url + "/dashboard")
    assert page.status_code == 200 and "dashboard.js" in page.text
    assert httpx.get(server.url + "/static/dashboard.js").status_code == 200


def _is_error(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"]
    return body["error"]


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        (b"{not json", 400),
        (b"", 400),
        (b"[1, 2, 3]", 422),
        (b"null", 422),
        (json.dumps({"question": "q", "contexts": ["a"], "answer": 5}).encode(), 422),
        (json.dumps({"question": "q", "contexts": "x", "answer": "a", "surprise": 1}).encode(), 422),
        (json.dumps({"question": "q", "contexts": [], "answer": "a"}).encode(), 422),
        (json.dumps({"question": "q", "contexts": [{"id": 1}], "answer": "a"}).encode(), 422),
        (json.dumps({"question": "q", "contexts": ["a"], "answer": "a", "task": "poetry"}).encode(), 422),
        (json.dumps({"question": ["q"], "contexts": ["a"], "answer": "a"}).encode(), 422),
        (b'{"question": "q", "contexts": ["a"], "answer": "\\ud800"}', 422),
        ("{\"answer\": \"" + "\u00e9" * 10 + b"\"}".decode("latin-1"), 422),
    ],
)
def test_bad_input_gets_4xx_json(server, payload, status):
    data = payload if isinstance(payload, bytes) else payload.encode("latin-1")
    r = httpx.post(server.url + "/v1/check", content=data, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500, r.text
    _is_error(r, status if r.status_code == status else r.status_code)


def test_bad_batches_and_queries(server):
    _is_error(httpx.post(server.url + "/v1/check/batch", json={"cases": []}), 422)
    _is_error(httpx.post(server.url + "/v1/check/batch", json={"cases": [CLEAN], "extra": 1}), 422)
    _is_error(httpx.post(server.url + "/v1/check/batch", json=[CLEAN]), 422)
    bad = dict(CLEAN, contexts=[])
    before = httpx.get(server.url + "/v1/checks").json()["total"]
    err = _is_error(httpx.post(server.url + "/v1/check/batch", json={"cases": [CLEAN, bad]}), 422)
    assert "cases[1]" in err["message"]
    assert httpx.get(server.url + "/v1/checks").json()["total"] == before  # nothing of a refused batch stored
    _is_error(httpx.get(server.url + "/v1/checks", params={"risk_level": "purple"}), 422)
    _is_error(httpx.get(server.url + "/v1/checks", params={"label": "nope"}), 422)
    _is_error(httpx.get(server.url + "/v1/checks", params={"since": "yesterday"}), 422)
    _is_error(httpx.get(server.url + "/v1/checks", params={"limit": "-1"}), 422)
    _is_error(httpx.get(server.url + "/v1/checks/0123456789abcdef"), 404)
    _is_error(httpx.get(server.url + "/v1/checks/..%2f..%2fetc"), 404)
    _is_error(httpx.get(server.url + "/nowhere"), 404)
    _is_error(httpx.delete(server.url + "/v1/check"), 405)
    _is_error(httpx.get(server.url + "/static/../app.py"), 404)


def test_size_limits(server_factory):
    srv = server_factory(HALLUCHECK_MAX_BODY_BYTES="20000", HALLUCHECK_MAX_ANSWER_CHARS="500",
                         HALLUCHECK_MAX_BATCH_CASES="2")
    huge = case("x" * 50_000)
    err = _is_error(httpx.post(srv.url + "/v1/check", json=huge), 413)
    assert "limit" in err["message"]

    def chunks():  # no Content-Length: the limit must hold on the streamed body too
        yield b'{"question": "q", "contexts": ["a"], "answer": "'
        for _ in range(100):
            yield b"y" * 1000
        yield b'"}'

    _is_error(httpx.post(srv.url + "/v1/check", content=chunks(), headers={"content-type": "application/json"}), 413)
    err = _is_error(httpx.post(srv.url + "/v1/check", json=case("z" * 600)), 422)
    assert err["code"] == "case_too_large"
    err = _is_error(httpx.post(srv.url + "/v1/check/batch", json={"cases": [CLEAN] * 3}), 413)
    assert err["code"] == "batch_too_large"
    assert httpx.post(srv.url + "/v1/check", json=CLEAN).status_code == 200
    assert httpx.get(srv.url + "/v1/checks").json()["total"] == 1  # refused requests stored nothing


def test_api_keys_isolation_and_rate_limit(server_factory):
    key_a, key_b = "hc_aaaa1111_secret-a-0123456789", "hc_bbbb2222_secret-b-0123456789"
    srv = server_factory(HALLUCHECK_API_KEYS=f"{key_a},{key_b}", HALLUCHECK_RATE_PER_SECOND="0.01",
                         HALLUCHECK_RATE_BURST="5")
    assert httpx.get(srv.url + "/healthz").json()["auth"] is True
    _is_error(httpx.post(srv.url + "/v1/check", json=CLEAN), 401)
    _is_error(httpx.post(srv.url + "/v1/check", json=CLEAN, headers={"Authorization": "Bearer hc_aaaa1111_wrong"}), 401)
    _is_error(httpx.get(srv.url + "/v1/checks"), 401)
    a = {"Authorization": f"Bearer {key_a}"}
    b = {"X-API-Key": key_b}
    id_a = httpx.post(srv.url + "/v1/check", json=FLAGGED, headers=a).json()["id"]
    id_b = httpx.post(srv.url + "/v1/check", json=CLEAN, headers=b).json()["id"]
    seen_a = httpx.get(srv.url + "/v1/checks", headers=a).json()
    seen_b = httpx.get(srv.url + "/v1/checks", headers=b).json()
    assert [i["id"] for i in seen_a["items"]] == [id_a]
    assert [i["id"] for i in seen_b["items"]] == [id_b]
    _is_error(httpx.get(f"{srv.url}/v1/checks/{id_a}", headers=b), 404)
    assert httpx.get(f"{srv.url}/v1/stats", headers=b).json()["checks"] == 1
    # key A has used 3 of its 5 tokens; a burst of 5 more must hit 429 with Retry-After
    codes = [httpx.get(srv.url + "/v1/stats", headers=a).status_code for _ in range(5)]
    assert 429 in codes
    r = httpx.get(srv.url + "/v1/stats", headers=a)
    err = _is_error(r, 429)
    assert err["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
    # the other key has its own bucket
    assert httpx.get(srv.url + "/v1/stats", headers=b).status_code == 200
    # the metrics and health endpoints stay open for scrapers and probes
    assert httpx.get(srv.url + "/metrics").status_code == 200


def test_cors_off_by_default(server, server_factory):
    r = httpx.options(server.url + "/v1/check", headers={"Origin": "http://evil.example",
                                                      "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in r.headers
    on = server_factory(HALLUCHECK_CORS_ORIGINS="http://app.example")
    r = httpx.options(on.url + "/v1/check", headers={"Origin": "http://app.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert r.headers.get("access-control-allow-origin") == "http://app.example"


def test_reports_are_compact_unless_include_asks(server):
    r = httpx.post(server.url + "/v1/check", json=FLAGGED)
    assert r.status_code == 200, r.text
    findings = r.json()["report"]["findings"]
    assert findings and all(f["details"] == {} and f["spans"] == [] for f in findings)
    full = httpx.post(server.url + "/v1/check?include=details,finding_spans", json=FLAGGED).json()["report"]
    assert any(f["details"] for f in full["findings"]) and any(f["spans"] for f in full["findings"])
    batch = httpx.post(server.url + "/v1/check/batch?include=all", json={"cases": [FLAGGED, CLEAN]})
    assert batch.status_code == 200 and any(f["details"] for f in batch.json()["results"][0]["report"]["findings"])
    bad = httpx.post(server.url + "/v1/check?include=tokens", json=FLAGGED)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_include"
