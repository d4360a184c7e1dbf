"""/v1/check/stream over a real socket: a sentence's verdict arrives while the answer is still
being sent, and a body over the limit ends the stream with an error and stores nothing."""

from __future__ import annotations

import json
import socket
import time

import pytest

httpx = pytest.importorskip("httpx")

pytestmark = [pytest.mark.service, pytest.mark.slow]

SOURCE = "Paris is the capital of France. It has about two million inhabitants."
HEAD = {"question": "Tell me about Paris.", "contexts": [SOURCE]}


class ChunkedPost:
    """A POST whose body is sent piece by piece (chunked), reading the response in between."""

    def __init__(self, port: int, path: str, content_type: str = "application/x-ndjson") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
            "Transfer-Encoding: chunked\r\nAccept: application/x-ndjson\r\n\r\n".encode()
        )
        self.received = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    def end(self) -> None:
        self.sock.sendall(b"0\r\n\r\n")

    def wait_for(self, needle: bytes, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while needle not in self.received and time.monotonic() < deadline:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                got = self.sock.recv(65536)
            except TimeoutError:
                break
            if not got:
                break
            self.received += got
        return needle in self.received

    def events(self) -> list[dict]:
        body = self.received.split(b"\r\n\r\n", 1)[1]
        return [json.loads(line) for line in body.split(b"\r\n") if line.startswith(b"{")]

    def close(self) -> None:
        self.sock.close()


def _line(data: dict) -> bytes:
    return json.dumps(data).encode() + b"\n"


def test_verdict_arrives_before_the_answer_is_finished(server):
    post = ChunkedPost(server.port, "/v1/check/stream")
    try:
        post.send(_line(HEAD))
        post.send(_line({"text": "It was FABRICATED by old kings. "}))
        post.send(_line({"text": "Paris"}))  # the next sentence has begun: the first is complete
        assert post.wait_for(b'"event":"sentence"'), post.received
        assert b" 200 OK" in post.received.split(b"\r\n", 1)[0]
        first = post.events()[0]["data"]
        assert first["text"] == "It was FABRICATED by old kings." and first["decision"] == "reject"
        assert b'"event":"report"' not in post.received
        post.send(_line({"text": " is the capital of France."}))
        post.end()
        assert post.wait_for(b'"event":"report"')
        events = post.events()
        assert [e["event"] for e in events] == ["sentence", "sentence", "report"]
        stored = httpx.get(f"{server.url}/v1/checks/{events[-1]['data']['id']}").json()
        assert stored["case"]["answer"] == "It was FABRICATED by old kings. Paris is the capital of France."
    finally:
        post.close()


def test_a_client_that_goes_away_leaves_nothing_stored(server):
    before = httpx.get(server.url + "/v1/checks").json()["total"]
    post = ChunkedPost(server.port, "/v1/check/stream")
    post.send(_line(HEAD))
    post.send(_line({"text": "It was FABRICATED by old kings. Paris"}))
    assert post.wait_for(b'"event":"sentence"')
    post.close()
    time.sleep(0.5)
    assert httpx.get(server.url + "/v1/checks").json()["total"] == before


def test_body_over_the_limit_mid_stream(server_factory):
    srv = server_factory(HALLUCHECK_MAX_BODY_BYTES="3000")
    post = ChunkedPost(srv.port, "/v1/check/stream")
    try:
        post.send(_line(HEAD))
        post.send(_line({"text": "It was FABRICATED by old kings. Paris"}))
        assert post.wait_for(b'"event":"sentence"')
        for _ in range(40):
            post.send(_line({"text": " is large" * 10}))
        post.end()
        assert post.wait_for(b'"event":"error"')
        assert post.events()[-1]["data"]["error"]["code"] == "too_large"
    finally:
        post.close()
    assert httpx.get(srv.url + "/v1/checks").json()["total"] == 0


def test_time_spent_waiting_for_the_client_is_not_the_checks_deadline(server_factory):
    srv = server_factory(HALLUCHECK_REQUEST_TIMEOUT="1", HALLUCHECK_BODY_TIMEOUT="5")
    post = ChunkedPost(srv.port, "/v1/check/stream")
    try:
        post.send(_line(HEAD))
        for piece in ("Paris is the capital of France. ", "It has about two ", "million inhabitants."):
            post.send(_line({"text": piece}))
            time.sleep(1.5)  # a slow generator: longer than the check deadline, shorter than the body timeout
        post.end()
        assert post.wait_for(b'"event":"report"'), post.received
        assert [e["event"] for e in post.events()] == ["sentence", "sentence", "report"]
    finally:
        post.close()


def test_a_client_silent_past_the_body_timeout_is_dropped(server_factory):
    srv = server_factory(HALLUCHECK_BODY_TIMEOUT="1")
    post = ChunkedPost(srv.port, "/v1/check/stream")
    try:
        post.send(_line(HEAD))
        post.send(_line({"text": "It was FABRICATED by old kings. Paris"}))
        assert post.wait_for(b'"event":"sentence"')
        time.sleep(2.5)
        post.wait_for(b"never", timeout=2)
    finally:
        post.close()
    assert b'"event":"report"' not in post.received
    assert httpx.get(srv.url + "/v1/checks").json()["total"] == 0
