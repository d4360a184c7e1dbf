"""The service under heavy and hostile clients, against real server processes on loopback:
cost admission and deadlines, slow clients, rate accounting of batches, forwarded addresses,
authentication before body checks, API docs, security headers, deeply nested metadata."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

SOURCE = "Paris is the capital of France. It has about two million inhabitants."
CLEAN = {"question": "Tell me about Paris.", "contexts": [SOURCE], "answer": "Paris is the capital of France [1]."}
SLOW_STACK = "citations,test_marker,test_sleep"


def sleeping(seconds: float, answer_chars: int = 0) -> dict[str, Any]:
    answer = "Paris is the capital of France [1]. " + "It is a large city. " * (answer_chars // 20)
    return {**CLEAN, "answer": answer, "metadata": {"sleep": seconds}}


def error(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    return r.json()["error"]  # type: ignore[no-any-return]


def stored(srv: Any) -> int:
    return int(httpx.get(srv.url + "/v1/checks").json()["total"])


# ---- deadlines and admission by cost ---------------------------------------------------------

def test_request_deadline_gives_504_and_stores_nothing(server_factory):
    srv = server_factory(HALLUCHECK_DETECTORS=SLOW_STACK, HALLUCHECK_REQUEST_TIMEOUT="1")
    t0 = time.monotonic()
    err = error(httpx.post(srv.url + "/v1/check", json=sleeping(3.0), timeout=30), 504)
    assert err["code"] == "timeout" and time.monotonic() - t0 < 2.5
    time.sleep(2.5)  # the worker finishes its detector meanwhile; it must not store
    assert stored(srv) == 0
    assert httpx.post(srv.url + "/v1/check", json=sleeping(0.1), timeout=30).status_code == 200
    assert stored(srv) == 1
    assert 'hallucheck_requests_refused_total{reason="timeout"} 1.0' in httpx.get(srv.url + "/metrics").text


def test_small_requests_stay_fast_beside_heavy_ones(server_factory):
    """Two workers: one heavy slot, one small. Heavy requests queue for theirs (and get 503 when
    the deadline passes first) while small ones go straight through."""
    srv = server_factory(HALLUCHECK_DETECTORS=SLOW_STACK, HALLUCHECK_WORKERS="2",
                         HALLUCHECK_SMALL_REQUEST_CHARS="400", HALLUCHECK_REQUEST_TIMEOUT="2")
    results: dict[str, httpx.Response] = {}

    def heavy(name: str, seconds: float) -> None:
        results[name] = httpx.post(srv.url + "/v1/check", json=sleeping(seconds, answer_chars=1000), timeout=30)

    first = threading.Thread(target=heavy, args=("first", 1.5))
    first.start()
    time.sleep(0.3)
    second = threading.Thread(target=heavy, args=("second", 0.1))
    second.start()
    time.sleep(0.2)
    t0 = time.monotonic()
    small = httpx.post(srv.url + "/v1/check", json=sleeping(0.0), timeout=30)
    small_s = time.monotonic() - t0
    first.join()
    second.join()
    assert small.status_code == 200 and small_s < 1.0, (small.status_code, small_s)
    assert results["first"].status_code == 200
    # the second heavy request waited for the one heavy slot: served after the first, or 503
    assert results["second"].status_code in (200, 503)
    if results["second"].status_code == 503:
        assert error(results["second"], 503)["code"] == "overloaded"
        assert int(results["second"].headers["retry-after"]) >= 1


def test_heavy_request_waits_and_gets_503_when_deadline_passes(server_factory):
    srv = server_factory(HALLUCHECK_DETECTORS=SLOW_STACK, HALLUCHECK_WORKERS="2",
                         HALLUCHECK_SMALL_REQUEST_CHARS="400", HALLUCHECK_REQUEST_TIMEOUT="1")
    answers: list[httpx.Response] = []
    blocker = threading.Thread(
        target=lambda: answers.append(httpx.post(srv.url + "/v1/check", json=sleeping(2.5, 1000), timeout=30)))
    blocker.start()
    time.sleep(0.3)
    r = httpx.post(srv.url + "/v1/check", json=sleeping(0.1, 1000), timeout=30)
    blocker.join()
    err = error(r, 503)
    assert err["code"] == "overloaded" and int(r.headers["retry-after"]) >= 1
    # the blocker passed its own deadline (504) but held the heavy slot until its worker ended
    assert error(answers[0], 504)["code"] == "timeout"
    time.sleep(2.5)
    assert stored(srv) == 0


# ---- slow clients --------------------------------------------------------------------------

def _dropped_after(port: int, first: bytes, drip: bytes, limit: float) -> tuple[float, bytes]:
    """Send ``first``, then ``drip`` one byte every 0.25 s; seconds until the server closed, and what it said."""
    s = socket.create_connection(("127.0.0.1", port), timeout=limit)
    t0 = time.monotonic()
    s.sendall(first)
    got = b""
    try:
        for b in drip:
            s.sendall(bytes([b]))
            s.settimeout(0.25)
            try:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
            except TimeoutError:
                pass
            if time.monotonic() - t0 > limit:
                break
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        s.close()
    return time.monotonic() - t0, got


def test_slow_headers_and_slow_bodies_are_dropped(server_factory):
    srv = server_factory(HALLUCHECK_HEADER_TIMEOUT="2", HALLUCHECK_BODY_TIMEOUT="2")
    seconds, _ = _dropped_after(srv.port, b"POST /v1/check HTTP/1.1\r\nHost: x\r\n", b"X-Slow: " + b"a" * 200, 10)
    assert seconds < 4.0, seconds
    body = json.dumps(CLEAN).encode()
    head = (b"POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    seconds, said = _dropped_after(srv.port, head, body, 10)
    assert seconds < 4.0, seconds
    assert b" 408 " in said.split(b"\r\n", 1)[0] and b"slow_client" in said
    assert 'hallucheck_requests_refused_total{reason="slow_client"} 2.0' in httpx.get(srv.url + "/metrics").text
    assert httpx.post(srv.url + "/v1/check", json=CLEAN).status_code == 200  # others are served


def test_default_slow_client_limits_add_up_to_under_30_s():
    from hallucheck.service.settings import Settings

    s = Settings.from_env({})
    assert s.header_timeout_s + s.body_timeout_s <= 30.0


# ---- rate accounting, forwarded addresses ------------------------------------------------------

def test_batches_of_41_to_100_cases_pass_with_default_limits(server_factory):
    srv = server_factory(HALLUCHECK_RATE_PER_SECOND="20", HALLUCHECK_RATE_BURST="40")
    r = httpx.post(srv.url + "/v1/check/batch", json={"cases": [CLEAN] * 60}, timeout=60)
    assert r.status_code == 200, r.text
    assert len(r.json()["results"]) == 60
    # the batch cost 60 tokens of a bucket of 40: the next request waits for the debt
    err = error(httpx.post(srv.url + "/v1/check", json=CLEAN), 429)
    assert err["code"] == "rate_limited"


def test_forwarded_for_is_ignored_unless_from_a_trusted_proxy(server_factory):
    srv = server_factory(HALLUCHECK_RATE_PER_SECOND="0.01", HALLUCHECK_RATE_BURST="3")
    codes = [httpx.get(srv.url + "/v1/stats", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
             for i in range(6)]
    assert 429 in codes  # one bucket: the client's real address
    proxied = server_factory(HALLUCHECK_RATE_PER_SECOND="0.01", HALLUCHECK_RATE_BURST="3",
                             HALLUCHECK_TRUSTED_PROXIES="127.0.0.1")
    codes = [httpx.get(proxied.url + "/v1/stats", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
             for i in range(6)]
    assert 429 not in codes  # behind a trusted proxy each forwarded client has its bucket


# ---- authentication first; API docs ------------------------------------------------------------

def test_keys_on_authenticate_before_body_checks_and_hide_docs(server_factory):
    key = "hc_cccc3333_secret-c-0123456789"
    srv = server_factory(HALLUCHECK_API_KEYS=key, HALLUCHECK_MAX_BODY_BYTES="1000")
    hdr = {"content-type": "application/json"}
    assert error(httpx.post(srv.url + "/v1/check", content=b"{not json", headers=hdr), 401)["code"] == "unauthorized"
    assert error(httpx.post(srv.url + "/v1/check", content=b"x" * 5000, headers=hdr), 401)["code"] == "unauthorized"
    assert error(httpx.post(srv.url + "/v1/check/batch", content=b"[]", headers=hdr), 401)
    r = httpx.post(srv.url + "/v1/check", content=b"x" * 5000, headers=hdr)
    assert r.headers.get("www-authenticate") == "Bearer"
    ok = {**hdr, "Authorization": f"Bearer {key}"}
    assert error(httpx.post(srv.url + "/v1/check", content=b"{not json", headers=ok), 400)
    assert error(httpx.post(srv.url + "/v1/check", content=b"x" * 5000, headers=ok), 413)
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert httpx.get(srv.url + path).status_code == 404, path
    shown = server_factory(HALLUCHECK_API_KEYS=key, HALLUCHECK_API_DOCS="on")
    assert httpx.get(shown.url + "/openapi.json").status_code == 200


# ---- headers, nesting ---------------------------------------------------------------------------

def test_dashboard_and_api_send_security_headers(server):
    for path in ("/dashboard", "/static/dashboard.js", "/static/dashboard.css"):
        h = httpx.get(server.url + path).headers
        csp = h.get("content-security-policy", "")
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert h.get("x-frame-options") == "DENY" and h.get("x-content-type-options") == "nosniff", path
    h = httpx.get(server.url + "/v1/checks").headers
    assert h.get("x-content-type-options") == "nosniff" and h.get("x-frame-options") == "DENY"


def test_dashboard_keeps_the_key_out_of_local_storage():
    from importlib import resources

    js = resources.files("hallucheck.service").joinpath("static", "dashboard.js").read_text("utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in js.splitlines())
    assert "sessionStorage.setItem(KEY_NAME" in code
    assert "localStorage.setItem" not in code and "localStorage.getItem" not in code


@pytest.mark.parametrize("depth", [40, 260, 300, 900, 1000, 5000, 100_000])
def test_deeply_nested_metadata_is_422(server, depth):
    """Past about 1,000 levels the JSON parser itself gives up (Python's recursion limit): the
    same 422 as metadata nested past its 32 levels, never the parser's bare 400."""
    meta = '{"a":' * depth + "1" + "}" * depth
    body = json.dumps({k: v for k, v in CLEAN.items()})[:-1] + ', "metadata": ' + meta + "}"
    r = httpx.post(server.url + "/v1/check", content=body.encode(), headers={"content-type": "application/json"})
    assert error(r, 422)["code"] == "invalid_request"


@pytest.mark.parametrize("path", ["/v1/check", "/v1/check/batch", "/v1/guard", "/v1/check/stream"])
def test_any_body_nested_past_the_parser_is_422_and_malformed_json_stays_400(server, path):
    deep = "[" * 50_000 + "]" * 50_000
    headers = {"content-type": "application/json"}
    r = httpx.post(server.url + path, content=('{"question": "q", "contexts": ' + deep + "}").encode(), headers=headers)
    assert error(r, 422)["code"] == "invalid_request", r.text
    assert "nests too deeply" in r.json()["error"]["message"]
    for malformed in (b'{"question": "q", "contexts": [', b'{"question": "\xff"}', b"{" + b'"a":' * 3 + b"}",
                      b'{"question": ' + b"1" * 5000 + b"}"):
        r = httpx.post(server.url + path, content=malformed, headers=headers)
        assert error(r, 400)["code"] == "malformed_json", (malformed, r.text)


def test_a_stream_that_goes_silent_is_dropped_and_stores_nothing(server_factory):
    from test_stream_server import ChunkedPost

    srv = server_factory(HALLUCHECK_BODY_TIMEOUT="2")
    post = ChunkedPost(srv.port, "/v1/check/stream")
    try:
        post.send(json.dumps({"question": "Tell me about Paris.", "contexts": [SOURCE]}).encode() + b"\n")
        post.send(json.dumps({"text": "Paris is the capital of France [1]. It has"}).encode() + b"\n")
        t0 = time.monotonic()
        assert post.wait_for(b"0\r\n\r\n", timeout=10), post.received  # the response ends, without a report
        assert time.monotonic() - t0 < 5.0
        assert b'"report"' not in post.received
    finally:
        post.close()
    assert stored(srv) == 0
    assert 'hallucheck_requests_refused_total{reason="slow_client"} 1.0' in httpx.get(srv.url + "/metrics").text
