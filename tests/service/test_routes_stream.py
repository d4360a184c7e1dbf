"""POST /v1/check/stream in-process: NDJSON and server-sent events, storage, limits and errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hallucheck.service.app import create_app
from hallucheck.service.settings import Settings
from hallucheck.text import split_sentences

SOURCE = "Paris is the capital of France. It has about two million inhabitants."
ANSWER = "Paris is the capital of France. It was FABRICATED by old kings! It has about two million inhabitants."
HEAD = {"question": "Tell me about Paris.", "contexts": [SOURCE]}
NDJSON = {"content-type": "application/x-ndjson"}


def _settings(tmp_path: Path, **kw: Any) -> Settings:
    import hc_test_plugin  # noqa: F401  (registers test_max and test_marker)

    base: dict[str, Any] = {
        "db_url": f"sqlite:///{tmp_path / 's.db'}", "detectors": ("test_marker",), "policy": "test_max",
        "plugins": ("hc_test_plugin",), "retention_days": None, "rate_per_second": 1000.0, "rate_burst": 1000,
        "warmup": (),
    }
    base.update(kw)
    return Settings(**base)


@pytest.fixture
def client(tmp_path: Path):
    with TestClient(create_app(_settings(tmp_path))) as c:
        yield c


def _ndjson_body(answer: str, size: int = 5, head: dict[str, Any] | None = None) -> bytes:
    lines = [json.dumps(head or HEAD)] + [json.dumps({"text": answer[i : i + size]}) for i in range(0, len(answer), size)]
    return ("\n".join(lines) + "\n").encode()


def _events(text: str) -> list[tuple[str, Any]]:
    return [(e["event"], e["data"]) for e in map(json.loads, text.splitlines())]


def _sse(text: str) -> list[tuple[str, Any]]:
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_ndjson_in_ndjson_out_and_stored_once(client: TestClient) -> None:
    r = client.post("/v1/check/stream", content=_ndjson_body(ANSWER), headers=NDJSON)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    events = _events(r.text)
    names = [n for n, _ in events]
    sentences = split_sentences(ANSWER)
    assert names == ["sentence"] * len(sentences) + ["report"]
    for (_, got), seg in zip(events, sentences, strict=False):
        assert (got["start"], got["end"], got["text"]) == (seg.start, seg.end, seg.text)
    flagged = events[1][1]
    assert flagged["decision"] == "reject" and flagged["labels"] == ["fabrication"]
    [span] = flagged["spans"]
    assert ANSWER[span["start"] : span["end"]] == "FABRICATED"
    assert events[0][1]["decision"] == "accept"

    final = events[-1][1]
    whole = client.post("/v1/check", json={**HEAD, "answer": ANSWER}).json()
    assert final["report"]["spans"] == whole["report"]["spans"]
    assert final["report"]["risk_score"] == whole["report"]["risk_score"]
    stored = client.get(f"/v1/checks/{final['id']}").json()
    assert stored["case"]["answer"] == ANSWER and stored["report"]["spans"] == final["report"]["spans"]
    listed = client.get("/v1/checks").json()
    assert listed["total"] == 2  # this stream once, and the /v1/check above


def test_server_sent_events_by_accept_header(client: TestClient) -> None:
    r = client.post("/v1/check/stream", content=_ndjson_body(ANSWER, 7),
                    headers={**NDJSON, "accept": "text/event-stream"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    events = _sse(r.text)
    assert [n for n, _ in events] == ["sentence", "sentence", "sentence", "report"]
    assert events[1][1]["labels"] == ["fabrication"] and events[-1][1]["report"]["risk_level"] == "high"


def test_whole_json_case_streams_its_sentences(client: TestClient) -> None:
    r = client.post("/v1/check/stream", json={**HEAD, "answer": ANSWER})
    events = _events(r.text)
    assert [n for n, _ in events] == ["sentence", "sentence", "sentence", "report"]
    timings = events[-1][1]["timings_ms"]
    assert {"check_ms", "sentences_ms", "stream_ms", "store_ms"} <= set(timings)
    r = client.post("/v1/check/stream", json=HEAD)  # a whole case needs its answer, as for /v1/check
    assert r.status_code == 422 and "answer" in r.json()["error"]["message"]


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85"])
def test_each_event_is_one_line_to_any_line_reader(client: TestClient, sep: str) -> None:
    # JSON keeps U+2028, U+2029 and NEL as they are inside strings, but Python's splitlines (and
    # older JavaScript) break lines there: the stream escapes them, and the text reads back the same.
    answer = f"Paris is{sep}the capital of France."
    for headers in ({}, {"accept": "text/event-stream"}):
        r = client.post("/v1/check/stream", json={**HEAD, "answer": answer}, headers=headers)
        assert r.status_code == 200 and sep not in r.text
        events = _sse(r.text) if headers else _events(r.text)
        assert events[-1][0] == "report" and events[-1][1]["report"] is not None
        sentences = [d for n, d in events if n == "sentence"]
        assert sentences and all(answer[d["start"] : d["end"]] == d["text"] for d in sentences)


def test_the_case_line_may_start_the_answer(client: TestClient) -> None:
    body = _ndjson_body(ANSWER[20:], head={**HEAD, "answer": ANSWER[:20]})
    events = _events(client.post("/v1/check/stream", content=body, headers=NDJSON).text)
    assert events[-1][1]["report"]["spans"][0]["start"] == ANSWER.index("FABRICATED")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"", 400, "malformed_json"),
        (b"{not json\n", 400, "malformed_json"),
        (b"[1, 2]\n", 422, "invalid_request"),
        (json.dumps({"question": "q", "contexts": []}).encode() + b"\n", 422, "invalid_case"),
        (json.dumps({**HEAD, "colour": "red"}).encode() + b"\n", 422, "invalid_request"),
        (json.dumps({**HEAD, "answer": "\ud800"}).encode() + b"\n", 422, "invalid_text"),
        (b'{"question": "q", "contexts": ["s"], "metadata": {"x": ' + b"[" * 300 + b"]" * 300 + b"}}\n", 422,
         "invalid_request"),
        (b'{"question": "q", "contexts": ["s"], "metadata": {"x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n", 422,
         "invalid_request"),
        (b'{"question": "q", "contexts": ["s"], "metadata": {"n": ' + b"9" * 5000 + b"}}\n", 400, "malformed_json"),
    ],
)
def test_a_bad_first_line_is_a_plain_4xx(client: TestClient, body: bytes, status: int, code: str) -> None:
    r = client.post("/v1/check/stream", content=body, headers=NDJSON)
    assert r.status_code == status and r.json()["error"]["code"] == code


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"{oops", "malformed_json"),
        (b'{"text": 3}', "invalid_request"),
        (b'{"text": "a", "more": 1}', "invalid_request"),
        (b'{"text": "\\ud800"}', "invalid_text"),
        (b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "invalid_request"),
    ],
)
def test_a_bad_later_line_ends_the_stream_with_an_error_and_stores_nothing(client: TestClient, line: bytes, code: str) -> None:
    body = json.dumps(HEAD).encode() + b'\n{"text": "Paris is the capital of France. It is"}\n' + line + b"\n"
    r = client.post("/v1/check/stream", content=body, headers=NDJSON)
    assert r.status_code == 200
    events = _events(r.text)
    assert [n for n, _ in events] == ["sentence", "error"]
    assert events[-1][1]["error"]["code"] == code
    assert client.get("/v1/checks").json()["total"] == 0


def test_limits_apply(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, max_answer_chars=60, max_body_bytes=4000))
    with TestClient(app) as c:
        r = c.post("/v1/check/stream", content=_ndjson_body(ANSWER), headers=NDJSON)
        events = _events(r.text)
        assert events[-1][0] == "error" and events[-1][1]["error"]["code"] == "invalid_case"
        assert "limit" in events[-1][1]["error"]["message"]
        big = _ndjson_body("x. " * 3000, 3)  # about 60 KB of small, valid lines
        chunked = (big[i : i + 500] for i in range(0, len(big), 500))  # no Content-Length: counted as read
        r = c.post("/v1/check/stream", content=chunked, headers=NDJSON)
        assert "content-length" not in r.request.headers
        # the test client hands the app the body in one piece: over the limit before the first event
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        r = c.post("/v1/check/stream", content=b"x" * 5000, headers={**NDJSON, "content-length": "5000"})
        assert r.status_code == 413
        r = c.post("/v1/check/stream", json={**HEAD, "answer": "y" * 100})
        assert r.status_code == 422 and r.json()["error"]["code"] == "case_too_large"
        r = c.post("/v1/check/stream", content=b"a", headers={"content-type": "text/plain"})
        assert r.status_code == 415
        assert c.get("/v1/checks").json()["total"] == 0


def test_keys_required_before_the_body_is_read(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, api_keys=("k-secret",)))
    with TestClient(app) as c:
        r = c.post("/v1/check/stream", content=b"{not json\n", headers=NDJSON)
        assert r.status_code == 401
        r = c.post("/v1/check/stream", content=_ndjson_body(ANSWER),
                   headers={**NDJSON, "authorization": "Bearer k-secret"})
        assert r.status_code == 200 and _events(r.text)[-1][0] == "report"


def test_rate_limited_like_check(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, rate_per_second=0.001, rate_burst=1))
    with TestClient(app) as c:
        assert c.post("/v1/check/stream", content=_ndjson_body(ANSWER), headers=NDJSON).status_code == 200
        r = c.post("/v1/check/stream", content=_ndjson_body(ANSWER), headers=NDJSON)
        assert r.status_code == 429 and "Retry-After" in r.headers


def test_a_sentence_check_over_the_deadline_ends_the_stream_unstored(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, detectors=("test_marker", "test_sleep"), request_timeout_s=0.5))
    with TestClient(app) as c:
        body = _ndjson_body("One sentence here. Two", head={**HEAD, "metadata": {"sleep": 2}})
        events = _events(c.post("/v1/check/stream", content=body, headers=NDJSON).text)
        assert [n for n, _ in events] == ["error"]
        assert events[0][1]["error"]["code"] == "timeout"
        assert c.get("/v1/checks").json()["total"] == 0
        assert 'hallucheck_requests_refused_total{reason="timeout"} 1.0' in c.get("/metrics").text


def test_many_tiny_lines_are_checked_together(client: TestClient) -> None:
    answer = "Paris is the capital of France. " * 40 + "It was FABRICATED by old kings."
    body = _ndjson_body(answer, size=1)  # one character a line: about 1,300 lines
    r = client.post("/v1/check/stream", content=body, headers=NDJSON)
    events = _events(r.text)
    assert [n for n, _ in events].count("sentence") == 41 and events[-1][0] == "report"
    assert events[-2][1]["labels"] == ["fabrication"]


def test_a_long_line_in_small_chunks_is_read_in_linear_time() -> None:
    import asyncio
    import time

    from hallucheck.service.routes_stream import _Body

    line = b'{"text": "' + b"x" * 1_900_000 + b'"}'
    body_bytes = b'{"question": "q"}\n' + line + b"\nlast"

    class Request:
        def stream(self):  # type: ignore[no-untyped-def]
            async def chunks():  # type: ignore[no-untyped-def]
                for i in range(0, len(body_bytes), 50):
                    yield body_bytes[i : i + 50]

            return chunks()

    async def read() -> list[bytes | None]:
        body = _Body(Request(), limit=2_000_000)  # type: ignore[arg-type]
        got = [await body.line(), await body.line()]
        return [*got, *body.ready_lines(), await body.line(), await body.line()]

    t0 = time.perf_counter()
    got = asyncio.run(read())
    assert time.perf_counter() - t0 < 5  # appending to and searching the whole line per chunk took 12 s
    assert got == [b'{"question": "q"}', line, b"last", None]
