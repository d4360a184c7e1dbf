"""Streamed completions: an OpenAI-compatible server sending chunks, stopping it early, the
one-piece fallback of the other backends, the cache, and FakeLLM's stream."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hallucheck.llm.anthropic import AnthropicClient
from hallucheck.llm.base import LLMError
from hallucheck.llm.fake import FakeLLM
from hallucheck.llm.http import LLMHTTPError
from hallucheck.llm.openai import OpenAIClient
from hallucheck.llm.streaming import CompletionStream, can_stream


class StreamServer:
    """Answers every POST with ``pieces`` as server-sent chunks, ``gap`` seconds apart, and counts
    how many it could send before the client hung up."""

    def __init__(self, pieces: list[str], gap: float = 0.0, status: int = 200, style: str = "openai") -> None:
        self.pieces, self.gap, self.status, self.style = pieces, gap, status, style
        self.sent = 0
        self.finished = threading.Event()
        self.requests: list[Any] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                server.requests.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                try:
                    if server.status != 200:
                        self.send_response(server.status)
                        self.end_headers()
                        self.wfile.write(b'{"error": "bad request"}')
                        return
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    for event in server._events():
                        self.wfile.write(event.encode())
                        self.wfile.flush()
                        if "[DONE]" not in event and "message_stop" not in event and '"delta": {}' not in event:
                            server.sent += 1
                            time.sleep(server.gap)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    server.finished.set()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _events(self) -> Iterator[str]:
        """The reply as server-sent events, in the wire format of ``style``."""
        if self.style == "anthropic":
            start = {"type": "message_start", "message": {"model": "claude-test", "usage": {"input_tokens": 9, "output_tokens": 1}}}
            yield f"event: message_start\ndata: {json.dumps(start)}\n\n"
            for piece in self.pieces:
                delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
                yield f"event: content_block_delta\ndata: {json.dumps(delta)}\n\n"
            end = {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 21}}
            yield f"event: message_delta\ndata: {json.dumps(end)}\n\nevent: message_stop\ndata: {{\"type\": \"message_stop\"}}\n\n"
            return
        for piece in self.pieces:
            chunk = {"model": "m-1", "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
            yield f"data: {json.dumps(chunk)}\n\n"
        end = {"model": "m-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        usage = {"model": "m-1", "choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 34}}
        yield f"data: {json.dumps(end)}\n\ndata: {json.dumps(usage)}\n\ndata: [DONE]\n\n"


@pytest.fixture
def stream_server() -> Iterator[Any]:
    made: list[StreamServer] = []

    def make(*args: Any, **kw: Any) -> StreamServer:
        made.append(StreamServer(*args, **kw))
        return made[-1]

    yield make
    for s in made:
        s.close()


def test_pieces_as_they_come_then_the_usage(stream_server: Any) -> None:
    srv = stream_server(["The plant ", "opened ", "in 2011."])
    client = OpenAIClient("m-1", base_url=srv.url)
    stream = client.stream("When did it open?", max_tokens=20)
    assert list(stream) == ["The plant ", "opened ", "in 2011."]
    done = stream.completion
    assert done.text == "The plant opened in 2011." and done.prompt_tokens == 12 and done.completion_tokens == 34
    assert done.raw["finish_reason"] == "stop" and done.raw["stopped"] is False and stream.finished
    body = srv.requests[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True} and body["max_tokens"] == 20


def test_closing_stops_the_server_writing(stream_server: Any) -> None:
    srv = stream_server([f"word{i} " for i in range(200)], gap=0.01)
    stream = OpenAIClient("m-1", base_url=srv.url).stream("go")
    got = [next(stream) for _ in range(3)]
    stream.close()
    assert srv.finished.wait(10)
    assert got == ["word0 ", "word1 ", "word2 "]
    assert srv.sent < 200  # the dropped connection ended the generation
    assert stream.stopped and stream.completion.raw["stopped"] is True and stream.completion.text == "".join(got)
    assert list(stream) == []


def test_an_error_status_is_an_llm_error(stream_server: Any) -> None:
    srv = stream_server(["x"], status=400)
    with pytest.raises(LLMHTTPError, match="HTTP 400"):
        list(OpenAIClient("m-1", base_url=srv.url).stream("go"))


def test_no_server_is_an_llm_error() -> None:
    with pytest.raises(LLMError, match="connection failed"):
        list(OpenAIClient("m-1", base_url="http://127.0.0.1:9/v1", timeout=2).stream("go"))


def test_anthropic_streams_its_content_deltas(stream_server: Any) -> None:
    srv = stream_server(["The plant ", "opened in 2011."], style="anthropic")
    stream = AnthropicClient("claude-test", base_url=srv.url.removesuffix("/v1"), api_key="k").stream("When?")
    assert list(stream) == ["The plant ", "opened in 2011."]
    done = stream.completion
    assert done.text == "The plant opened in 2011." and done.prompt_tokens == 9 and done.completion_tokens == 21
    assert done.raw["stop_reason"] == "end_turn" and srv.requests[0]["stream"] is True


def test_closing_an_anthropic_stream_stops_the_server(stream_server: Any) -> None:
    srv = stream_server([f"w{i} " for i in range(200)], gap=0.01, style="anthropic")
    stream = AnthropicClient("claude-test", base_url=srv.url.removesuffix("/v1"), api_key="k").stream("go")
    assert next(stream) == "w0 "
    stream.close()
    assert srv.finished.wait(10) and srv.sent < 200


def test_backends_without_streaming_give_one_piece() -> None:
    from hallucheck.llm.base import Completion
    from hallucheck.llm.client import BaseClient

    class Whole(BaseClient):
        backend = "whole"

        def _complete(self, messages: Any, settings: Any) -> Completion:
            return Completion(text="The plant opened in 2011.", prompt_tokens=9, completion_tokens=6)

    client = Whole("w")
    assert can_stream(client)
    stream = client.stream("When?")
    assert list(stream) == ["The plant opened in 2011."]
    assert stream.completion.prompt_tokens == 9 and stream.completion.completion_tokens == 6


def test_a_finished_stream_is_cached_a_stopped_one_is_not(stream_server: Any, tmp_path: Path) -> None:
    srv = stream_server(["One. ", "Two."])
    client = OpenAIClient("m-1", base_url=srv.url, cache=tmp_path / "c.db")
    stopped = client.stream("q")
    next(stopped)
    stopped.close()
    assert list(client.stream("q")) == ["One. ", "Two."]  # not served from the cut-short answer
    assert len(srv.requests) == 2
    again = client.stream("q")
    assert list(again) == ["One. Two."] and len(srv.requests) == 2  # from the cache, in one piece


def test_fake_llm_streams_and_records_the_stop() -> None:
    llm = FakeLLM(["The plant opened in 2011. It employs 400 people."], stream_piece=5)
    with llm.stream("q") as stream:
        assert next(stream) == "The p"
        assert next(stream) == "lant "
    call = llm.calls[0]
    assert call.streamed == "The plant " and call.stopped
    full = llm.stream("q")
    assert "".join(full) == "The plant opened in 2011. It employs 400 people."
    assert not llm.calls[1].stopped and full.completion.completion_tokens == 9
    assert isinstance(full, CompletionStream)


def test_a_stream_ends_within_its_timeout(stream_server: Any) -> None:
    srv = stream_server([f"w{i} " for i in range(100)], gap=0.2)  # 20 s of trickle
    t0 = time.monotonic()
    with pytest.raises(LLMError, match="timed out"):
        list(OpenAIClient("m-1", base_url=srv.url, timeout=1.0).stream("go"))
    assert time.monotonic() - t0 < 5


def test_a_stream_over_the_size_cap_is_refused(stream_server: Any) -> None:
    srv = stream_server(["x" * 500] * 50)
    with pytest.raises(LLMHTTPError, match="max_response_bytes"):
        list(OpenAIClient("m-1", base_url=srv.url, max_response_bytes=5000).stream("go"))


def test_the_guard_stops_a_real_http_stream(stream_server: Any) -> None:
    from scripted_checker import ScriptedChecker

    from hallucheck.prevent.guard import Guard

    words = "Click Forgot password [source:FAQ-1]. The link is CRIT valid forever. " + "Then it goes on. " * 60
    pieces = [words[i : i + 6] for i in range(0, len(words), 6)]
    srv = stream_server(pieces, gap=0.01)
    guard = Guard(OpenAIClient("m-1", base_url=srv.url), ScriptedChecker(), stop_early=True, max_attempts=0)
    result = guard.answer("How do I reset my password?", [{"id": "FAQ-1", "text": "Click Forgot password."}])
    assert srv.finished.wait(10)
    assert result.stopped_early
    assert result.attempts[0].answer == "Click Forgot password [source:FAQ-1]. The link is CRIT valid forever."
    assert srv.sent < len(pieces) // 2  # the server stopped writing soon after the rejected sentence


def test_a_stream_event_nested_past_the_parser_is_an_llm_error(stream_server: Any) -> None:
    srv = stream_server(["x"])
    srv._events = lambda: iter(["data: " + "[" * 100_000 + "]" * 100_000 + "\n\n"])  # type: ignore[method-assign]
    with pytest.raises(LLMError, match="not usable JSON"):
        list(OpenAIClient("m-1", base_url=srv.url, max_response_bytes=10**6).stream("go"))
