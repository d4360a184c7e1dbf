"""A real HTTP server on 127.0.0.1 that speaks OpenAI chat completions and Anthropic messages,
answering from a per-test script (status, headers, body, delay), plus a tiny policy for tests."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hallucheck.policies.base import Verdict, decision_for, level_for

__all__ = ["Reply", "ChatServer", "openai_reply", "anthropic_reply", "MaxPolicy"]


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict -> JSON, str -> raw text
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    drip: float = 0.0  # > 0: send the body one byte at a time, this many seconds apart
    drip_headers: bool = False  # with drip: send the status line and headers a byte at a time too


def openai_reply(text: str, *, prompt_tokens: int = 11, completion_tokens: int = 7, model: str = "test-model",
                 **kw: Any) -> Reply:
    body = {"id": "cmpl-1", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}
    return Reply(body=body, **kw)


def anthropic_reply(text: str, *, input_tokens: int = 13, output_tokens: int = 5, **kw: Any) -> Reply:
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}}
    return Reply(body=body, **kw)


class ChatServer:
    """``push(reply, ...)`` scripts the next answers; ``default`` answers when the script is empty."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.default: Reply | None = None
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.dropped = 0  # dripped replies whose client hung up
        self.closing = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                with server._lock:
                    server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                            "json": body, "time": time.monotonic()})
                    reply = server.script.popleft() if server.script else server.default
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                if reply is None:
                    reply = Reply(500, {"error": "no scripted reply"})
                if reply.delay:
                    time.sleep(reply.delay)
                with server._lock:  # before answering, so the client cannot start the next call first
                    server.in_flight -= 1
                try:
                    data = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                    payload = data.encode("utf-8")
                    if reply.drip:
                        self._drip(reply, payload)
                        return
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def _drip(self, reply: Reply, payload: bytes) -> None:
                head = (f"HTTP/1.1 {reply.status} OK\r\ncontent-type: application/json\r\n"
                        f"content-length: {len(payload)}\r\n\r\n").encode()
                if not reply.drip_headers:
                    self.wfile.write(head)
                    self.wfile.flush()
                    head = b""
                for i in range(len(head) + len(payload)):
                    if server.closing.is_set():
                        return
                    byte = head[i:i + 1] if i < len(head) else payload[i - len(head):i - len(head) + 1]
                    try:
                        self.wfile.write(byte)
                        self.wfile.flush()
                    except OSError:
                        with server._lock:
                            server.dropped += 1
                        return  # the client hung up
                    time.sleep(reply.drip)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False  # type: ignore[attr-defined]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def push(self, *replies: Reply) -> ChatServer:
        self.script.extend(replies)
        return self

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


class MaxPolicy:
    """The highest detector risk decides (keeps these tests independent of the shipped policies)."""

    name = "max"

    def decide(self, analysis: Any, findings: list[Any]) -> Verdict:
        risk = max([f.risk for f in findings] or [0.0])
        level = level_for(risk)
        return Verdict(risk > 0.5, risk, level, decision_for(level))

    def escalate(self, analysis: Any, findings: list[Any], next_layer: int) -> bool:
        return True
