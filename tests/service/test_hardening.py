"""Settings, files and tiny-but-legal inputs at the edges of a real server process on loopback:
start-up refusals (exit 1, one line naming the variable, value and file), authentication that
fails closed, retention that cannot delete by accident, the store's real health, many tiny
contexts, a streamed check's work budget, NUL and non-finite values, media types, redirects,
caching and date filters."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import HERE, ROOT, TEST_DETECTORS, free_port

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

SOURCE = "Paris is the capital of France. It has about two million inhabitants."
CLEAN = {"question": "Tell me about Paris.", "contexts": [SOURCE], "answer": "Paris is the capital of France [1]."}


def error(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    return r.json()["error"]  # type: ignore[no-any-return]


def start_fails(tmp: Path, **env_overrides: str) -> tuple[int, str]:
    """Start ``python -m hallucheck.service`` expecting it to stop: (exit code, stderr)."""
    env = dict(os.environ)
    env.update({
        "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT), env.get("PYTHONPATH", "")]),
        "HALLUCHECK_PLUGINS": "hc_test_plugin", "HALLUCHECK_DB_URL": f"sqlite:///{tmp / 'checks.db'}",
        "HALLUCHECK_DETECTORS": TEST_DETECTORS, "HALLUCHECK_POLICY": "test_max", "HALLUCHECK_WARMUP": "off",
    })
    env.update(env_overrides)
    proc = subprocess.run([sys.executable, "-m", "hallucheck.service", "--port", str(free_port()),
                           "--log-level", "warning"], env=env, cwd=str(tmp), capture_output=True, timeout=120)
    return proc.returncode, proc.stderr.decode("utf-8", "replace")


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def fill(tmp: Path, n: int, days_old: float = 0.0) -> None:
    """``n`` checks in the SQLite store of ``tmp``, made by a server that then stopped."""
    from hallucheck.service.store import Store

    store = Store(f"sqlite:///{tmp / 'checks.db'}")
    with store.engine.begin() as conn:
        from sqlalchemy import text

        old = datetime.now(UTC).replace(tzinfo=None) - timedelta(days=days_old)
        for i in range(n):
            conn.execute(text(
                "INSERT INTO hc_checks (id, created_at, created_epoch, task, language, policy, hallucinated, "
                "risk_score, risk_level, decision, span_count, invalid_citations, uncited_sentences, "
                "citations_applied, llm_calls, llm_tokens, latency_ms, answer_preview, \"case\", report, timings) "
                "VALUES (:id, :at, :ep, 'qa', 'en', 'p', 0, 0.1, 'low', 'accept', 0, 0, 0, 0, 0, 0, 1.0, 'a', "
                "'{}', '{}', '{}')"), {"id": f"old{i}", "at": old, "ep": int(old.timestamp())})
    store.close()


def count(tmp: Path) -> int:
    with sqlite3.connect(tmp / "checks.db") as conn:
        return int(conn.execute("SELECT count(*) FROM hc_checks").fetchone()[0])


# ---- 1: retention cannot delete by accident ------------------------------------------------------

@pytest.mark.parametrize("days", ["-1", "1e-9", "nan", "inf"])
def test_nonsense_retention_stops_the_start_and_deletes_nothing(tmp_path, days):
    fill(tmp_path, 5)
    code, err = start_fails(tmp_path, HALLUCHECK_RETENTION_DAYS=days)
    assert code == 1
    assert "HALLUCHECK_RETENTION_DAYS" in one_line(err) and repr(days) in err
    assert count(tmp_path) == 5


def test_retention_deletes_only_what_is_older_than_the_window(server_factory, tmp_path):
    fill(tmp_path, 3, days_old=40)
    fill_recent = {**CLEAN}
    srv = server_factory(HALLUCHECK_RETENTION_DAYS="30")
    assert httpx.post(srv.url + "/v1/check", json=fill_recent).status_code == 200
    deadline = time.monotonic() + 10
    while count(tmp_path) != 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert count(tmp_path) == 1  # the three 40-day-old checks went, the new one stayed


# ---- 2: authentication fails closed ----------------------------------------------------------------

def test_a_key_source_that_yields_no_key_stops_the_start(tmp_path):
    empty = tmp_path / "keys.txt"
    empty.write_text("# keys go here\n\n")
    code, err = start_fails(tmp_path, HALLUCHECK_API_KEYS_FILE=str(empty))
    assert code == 1 and "HALLUCHECK_API_KEYS_FILE" in one_line(err) and str(empty) in err
    code, err = start_fails(tmp_path, HALLUCHECK_API_KEYS=" , ,")
    assert code == 1 and "HALLUCHECK_API_KEYS=" in one_line(err)


def test_running_without_keys_is_said_loudly_on_every_start(server_factory):
    srv = server_factory()
    time.sleep(0.5)
    assert "AUTHENTICATION IS OFF" in srv.log.read_text()
    assert httpx.get(srv.url + "/healthz").json()["auth"] is False


# ---- 7 and 10: start-up errors are one line, exit 1 ---------------------------------------------------

@pytest.mark.parametrize(("env", "words"), [
    ({"HALLUCHECK_WORKERS": "0"}, "HALLUCHECK_WORKERS='0'"),
    ({"HALLUCHECK_MAX_BODY_BYTES": "-1"}, "HALLUCHECK_MAX_BODY_BYTES='-1'"),
    ({"HALLUCHECK_RATE_PER_SECOND": "nan"}, "HALLUCHECK_RATE_PER_SECOND='nan'"),
    ({"HALLUCHECK_REQUEST_TIMEOUT": "inf"}, "HALLUCHECK_REQUEST_TIMEOUT='inf'"),
    ({"HALLUCHECK_MAX_BATCH_CASES": "lots"}, "HALLUCHECK_MAX_BATCH_CASES='lots'"),
    ({"HALLUCHECK_DB_URL": "mysql://root:hunter2@db/x"}, "HALLUCHECK_DB_URL"),
    ({"HALLUCHECK_PLUGINS": "nosuchmodule"}, "nosuchmodule"),
    ({"HALLUCHECK_POLICY": "nosuchpolicy"}, "HALLUCHECK_POLICY"),
    ({"HALLUCHECK_DETECTORS": "nosuchdetector"}, "HALLUCHECK_DETECTORS"),
])
def test_bad_configuration_is_one_line_and_exit_1(tmp_path, env, words):
    if "HALLUCHECK_PLUGINS" in env:
        env = {**env, "HALLUCHECK_DETECTORS": "citations", "HALLUCHECK_POLICY": "tiered"}
    code, err = start_fails(tmp_path, **env)
    line = one_line(err)
    assert code == 1, err
    assert words in line and "hunter2" not in line and "Traceback" not in err


def test_a_non_utf8_key_file_names_the_file(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_bytes(b"k1 sha256:\xff\xfe\n")
    code, err = start_fails(tmp_path, HALLUCHECK_API_KEYS_FILE=str(keys))
    assert code == 1 and str(keys) in one_line(err) and "UTF-8" in err


def test_a_file_that_is_not_a_database_names_the_file(tmp_path):
    db = tmp_path / "checks.db"
    db.write_bytes(b"this is not an SQLite file at all\n" * 200)
    code, err = start_fails(tmp_path)
    assert code == 1 and str(db) in one_line(err)


# ---- 10: health reports the store's real state -----------------------------------------------------

def _damage(db: Path) -> None:
    """Overwrite pages in the middle of the file (the first page, the header, stays)."""
    size = db.stat().st_size
    with db.open("r+b") as fh:
        for offset in range(4096 * 2, size - 4096, 4096 * 3):
            fh.seek(offset + 100)
            fh.write(os.urandom(2000))


def test_a_partly_damaged_store_is_never_reported_healthy(server_factory, tmp_path):
    srv = server_factory()
    body = {"cases": [{**CLEAN, "answer": f"Paris is the capital of France [1]. Case {i} " + "x" * 400}
                      for i in range(60)]}
    assert httpx.post(srv.url + "/v1/check/batch", json=body, timeout=60).status_code == 200
    srv.stop()
    with sqlite3.connect(tmp_path / "checks.db") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _damage(tmp_path / "checks.db")
    code, err = start_fails(tmp_path)
    assert code == 1, err
    assert str(tmp_path / "checks.db") in one_line(err)


def test_health_fails_when_the_store_breaks_under_a_running_server(server_factory, tmp_path):
    srv = server_factory()
    assert httpx.post(srv.url + "/v1/check", json=CLEAN).status_code == 200
    assert httpx.get(srv.url + "/healthz").status_code == 200
    with sqlite3.connect(tmp_path / "checks.db") as conn:
        conn.execute("DROP TABLE hc_check_tags")  # reads and writes of checks now fail
    deadline = time.monotonic() + 15
    r = httpx.get(srv.url + "/healthz")
    while r.status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.5)
        r = httpx.get(srv.url + "/healthz")
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["status"] == "failing" and any(str(tmp_path / "checks.db") in p for p in body["problems"])
    r = httpx.get(srv.url + "/v1/checks")  # a store that fails is the store's trouble (503), not a bug (500)
    assert error(r, 503)["code"] == "store_unavailable"
    assert str(tmp_path / "checks.db") in srv.log.read_text()  # the log names the file


# ---- 6: many tiny contexts -------------------------------------------------------------------------

def _vm_hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_400000_tiny_contexts_are_refused_quickly_and_cheaply(server_factory):
    srv = server_factory()
    body = json.dumps({"question": "q", "answer": "a", "contexts": ["x"] * 400_000})
    t0 = time.monotonic()
    r = httpx.post(srv.url + "/v1/check", content=body, headers={"content-type": "application/json"}, timeout=60)
    elapsed = time.monotonic() - t0
    assert error(r, 413)["code"] == "case_too_large" and "contexts" in r.json()["error"]["message"]
    assert elapsed < 5.0, elapsed
    assert _vm_hwm_mb(srv.proc.pid) < 1024
    # one over the configured limit, far below the ceiling: refused too, and the limit is named
    r = httpx.post(srv.url + "/v1/check", json={**CLEAN, "contexts": ["x"] * 1001})
    assert error(r, 413)["code"] == "case_too_large" and "HALLUCHECK_MAX_CONTEXTS" in r.json()["error"]["message"]
    sentences = " ".join(["Yes."] * 5001)
    r = httpx.post(srv.url + "/v1/check", json={**CLEAN, "answer": sentences})
    assert error(r, 413)["code"] == "case_too_large" and "sentences" in r.json()["error"]["message"]
    assert httpx.post(srv.url + "/v1/check", json={**CLEAN, "contexts": ["x"] * 1000}).status_code == 200


# ---- 14: a streamed check has a total work budget ---------------------------------------------------

def test_a_stream_of_many_pieces_ends_with_an_error_event_at_its_work_budget(server_factory):
    srv = server_factory(HALLUCHECK_DETECTORS="citations,test_marker,test_sleep", HALLUCHECK_STREAM_WORK_BUDGET="1.5")
    first = {"question": "q", "contexts": [SOURCE], "metadata": {"sleep": 0.3}}
    lines = [json.dumps(first)] + [json.dumps({"text": f"Paris has {i} bridges. "}) for i in range(40)]
    t0 = time.monotonic()
    r = httpx.post(srv.url + "/v1/check/stream", content="\n".join(lines).encode(),
                   headers={"content-type": "application/x-ndjson"}, timeout=120)
    elapsed = time.monotonic() - t0
    events = [json.loads(line) for line in r.text.splitlines() if line.strip()]
    assert events[-1]["event"] == "error", events[-1]
    assert events[-1]["data"]["error"]["code"] == "work_budget_exceeded"
    assert elapsed < 10.0, elapsed  # 40 pieces x 0.3 s would be 12 s or more
    assert httpx.get(srv.url + "/v1/checks").json()["total"] == 0  # nothing stored


# ---- 9: NUL characters and non-finite numbers -----------------------------------------------------------

@pytest.mark.parametrize("body", [
    {**CLEAN, "answer": "Paris is the capital\u0000 of France [1]."},
    {**CLEAN, "question": "Paris\u0000?"},
    {**CLEAN, "contexts": [{"id": "s\u00001", "text": SOURCE}]},
    {**CLEAN, "metadata": {"user\u0000": "x"}},
    {**CLEAN, "metadata": {"note": ["ok", "bad\u0000"]}},
])
def test_nul_anywhere_in_stored_text_is_422_before_the_store(server, body):
    r = httpx.post(server.url + "/v1/check", json=body)
    assert error(r, 422)["code"] == "invalid_text" and "NUL" in r.json()["error"]["message"]


def test_nul_in_a_streamed_piece_is_an_error_event(server):
    lines = [json.dumps({"question": "q", "contexts": [SOURCE]}), json.dumps({"text": "Paris\u0000 is big."})]
    r = httpx.post(server.url + "/v1/check/stream", content="\n".join(lines).encode(),
                   headers={"content-type": "application/x-ndjson"})
    events = [json.loads(line) for line in r.text.splitlines() if line.strip()]
    assert events[-1]["event"] == "error" and events[-1]["data"]["error"]["code"] == "invalid_text"


@pytest.mark.parametrize("raw", ['{"score": 1e309}', '{"score": NaN}', '{"x": [-Infinity]}'])
def test_non_finite_numbers_in_metadata_are_422_not_null(server, raw):
    body = json.dumps(CLEAN)[:-1] + f', "metadata": {raw}}}'
    r = httpx.post(server.url + "/v1/check", content=body, headers={"content-type": "application/json"})
    assert error(r, 422)["code"] == "invalid_request" and "finite" in r.json()["error"]["message"]


# ---- 11, 12, 13: filters, redirects, media types, framing, caching, rate-limit wording --------------------

@pytest.mark.parametrize("query", [
    "/v1/checks?since=9999-12-31T23:59:59-14:00",
    "/v1/checks?until=0001-01-01T00:00:00%2B14:00",
    "/v1/stats?since=9999-12-31T23:59:59-14:00",
    "/v1/stats/trend?bucket=day&since=0001-01-01T00:00:00%2B14:00",
])
def test_extreme_date_offsets_are_422(server, query):
    r = httpx.get(server.url + query)
    assert error(r, 422)["code"] == "invalid_request"


def test_trailing_slash_redirect_stays_on_this_server(server):
    r = httpx.post(server.url + "/v1/check/", json=CLEAN, headers={"Host": "evil.example"}, follow_redirects=False)
    assert r.status_code in (307, 308)
    location = r.headers["location"]
    assert "evil.example" not in location and location.startswith("/v1/check") and not location.startswith("//")


def test_a_wrong_content_type_is_415(server):
    r = httpx.post(server.url + "/v1/check", content=json.dumps(CLEAN), headers={"content-type": "text/plain"})
    assert error(r, 415)["code"] == "unsupported_media_type"
    r = httpx.post(server.url + "/v1/check/batch", data={"a": "b"})
    assert error(r, 415)["code"] == "unsupported_media_type"
    r = httpx.post(server.url + "/v1/check", content=json.dumps(CLEAN),
                   headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_a_malformed_content_length_gets_a_json_400(server):
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(b"POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 12abc\r\n\r\n{}")
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), data
    assert b"application/json" in head.lower()
    assert json.loads(payload)["error"]["code"] == "bad_request"


def test_answers_with_stored_data_are_not_cached(server):
    r = httpx.post(server.url + "/v1/check", json=CLEAN)
    assert r.headers["cache-control"] == "no-store"
    for path in ("/v1/checks", f"/v1/checks/{r.json()['id']}", "/v1/stats", "/v1/stats/trend", "/v1/checks/nope"):
        assert httpx.get(server.url + path).headers.get("cache-control") == "no-store", path


def test_the_retry_wait_in_the_message_is_the_retry_after_header(server_factory):
    srv = server_factory(HALLUCHECK_RATE_PER_SECOND="0.5", HALLUCHECK_RATE_BURST="1")
    assert httpx.get(srv.url + "/v1/stats").status_code == 200
    r = httpx.get(srv.url + "/v1/stats")
    err = error(r, 429)
    assert f"retry in {r.headers['retry-after']} s" in err["message"]


@pytest.mark.postgres
def test_on_postgresql_nul_is_422_and_never_fails_another_request(server_factory):
    from concurrent.futures import ThreadPoolExecutor

    from test_store import PG_URL, _reset_pg

    if not PG_URL:
        pytest.skip("HALLUCHECK_TEST_PG_URL is not set (source .ci/setup-postgres.sh to start a PostgreSQL)")
    _reset_pg(PG_URL)
    srv = server_factory(HALLUCHECK_DB_URL=PG_URL)
    bad = {**CLEAN, "answer": "Paris\u0000 is the capital of France [1]."}
    with ThreadPoolExecutor(16) as pool:
        futures = [pool.submit(httpx.post, srv.url + "/v1/check", json=bad if i % 4 == 0 else
                               {**CLEAN, "metadata": {"i": i}}, timeout=60) for i in range(120)]
        answers = [f.result() for f in futures]
    assert [r.status_code for r in answers[::4]] == [422] * 30
    assert all(r.json()["error"]["code"] == "invalid_text" for r in answers[::4])
    good = [r for i, r in enumerate(answers) if i % 4]
    assert [r.status_code for r in good] == [200] * 90
    assert httpx.get(srv.url + "/v1/checks").json()["total"] == 90


@pytest.fixture
def small_disk(tmp_path):
    """A 24 MiB filesystem of its own (tmpfs; needs the right to mount, else the test is skipped)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mnt)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {proc.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_full_disk_makes_health_fail_until_there_is_room_again(server_factory, small_disk):
    srv = server_factory(HALLUCHECK_DB_URL=f"sqlite:///{small_disk / 'checks.db'}")
    assert httpx.post(srv.url + "/v1/check", json=CLEAN).status_code == 200
    assert httpx.get(srv.url + "/healthz").status_code == 200
    st = os.statvfs(small_disk)
    filler = small_disk / "filler"
    with filler.open("wb") as fh:  # leave about 64 KiB
        fh.write(b"\0" * max(0, st.f_bavail * st.f_frsize - 64 * 1024))
    r = httpx.get(srv.url + "/healthz")
    deadline = time.monotonic() + 15
    while r.status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.5)
        r = httpx.get(srv.url + "/healthz")
    assert r.status_code == 503 and any("disk is full" in p for p in r.json()["problems"]), r.text
    big = {**CLEAN, "answer": "Paris is the capital of France [1]. " + "Paris is big. " * 3000}
    statuses = {httpx.post(srv.url + "/v1/check", json=big, timeout=60).status_code for _ in range(10)}
    assert statuses <= {200, 503}  # refused as unavailable once the disk is full, never a 500
    filler.unlink()
    deadline = time.monotonic() + 15
    while httpx.get(srv.url + "/healthz").status_code != 200 and time.monotonic() < deadline:
        assert httpx.post(srv.url + "/v1/check", json=CLEAN).status_code in (200, 503)
        time.sleep(0.5)
    assert httpx.get(srv.url + "/healthz").status_code == 200
