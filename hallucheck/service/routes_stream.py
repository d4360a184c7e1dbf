"""POST /v1/check/stream: check an answer sentence by sentence while it is still being sent.

A chat back end forwards the tokens it generates and learns about a bad sentence before the
answer is finished. The request body is either

- NDJSON (``Content-Type: application/x-ndjson``): the first line is the case without its answer
  (``question``, ``contexts``, ``task``, ...), every further line ``{"text": "..."}`` is the next
  piece of the answer; the end of the body ends the answer. The body is read as it arrives, so a
  sentence is checked as soon as the piece that completes it came in; or
- one JSON case (``application/json``, the body of /v1/check), checked the same way.

The response streams events: ``sentence`` (a SentenceCheck, offsets into the whole answer) for
each completed sentence, then ``report`` (the body /v1/check answers, once the check is stored),
or ``error`` (``{"error": {"code", "message"}}``: nothing is stored). With ``Accept:
text/event-stream`` they are server-sent events (``event: <name>`` / ``data: <json>``); otherwise
NDJSON lines ``{"event": <name>, "data": <json>}``. Authentication, rate limit and size limits are
those of /v1/check, and a failure found before the first event (bad key, malformed first line,
too large) is a plain JSON error with its 4xx status.

Each stretch of work is admitted and timed like a /v1/check request, and the whole request has
a budget of checking time (``stream_work_s``, HALLUCHECK_STREAM_WORK_BUDGET): an answer fed one
sentence per piece against large sources cannot keep a worker busy for many times the request
timeout. Once the budget is spent the stream ends with an ``error`` event
(``work_budget_exceeded``) and nothing is stored.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import ClientDisconnect

from hallucheck.errors import InputError
from hallucheck.jsonio import one_line
from hallucheck.service.context import Principal, ServiceContext
from hallucheck.service.cost import case_weight, text_weight
from hallucheck.service.deadline import Abandoned, Ticket, working_on
from hallucheck.service.deps import get_context, principal
from hallucheck.service.errors import ApiError
from hallucheck.service.routes_check import _case
from hallucheck.service.schemas import CheckRequest, CheckResponse, ErrorResponse
from hallucheck.service.store import build_record, new_id, utcnow
from hallucheck.service.work import admit, case_chars, run_in_worker
from hallucheck.streaming import CheckStream, SentenceCheck, stream_case
from hallucheck.types import Case

__all__ = ["STREAM_PATH", "router"]

T = TypeVar("T")
router = APIRouter(prefix="/v1", tags=["check"])
STREAM_PATH = "/v1/check/stream"

_NDJSON = ("application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines")
_PIECE = 512  # characters of a whole-JSON answer fed at a time, so its sentences stream out too
_ERRORS = {
    400: {"model": ErrorResponse}, 401: {"model": ErrorResponse}, 408: {"model": ErrorResponse},
    413: {"model": ErrorResponse}, 415: {"model": ErrorResponse}, 422: {"model": ErrorResponse},
    429: {"model": ErrorResponse},
}
_EVENTS_DOC = {
    "description": "events: sentence (SentenceCheck) per completed sentence, then report (as /v1/check) or error",
    "content": {"application/x-ndjson": {}, "text/event-stream": {}},
}


class _Body:
    """The request body read as it arrives, as lines, within the size limit.

    Bytes are appended in place and each byte is searched for a line end once, so a long line
    arriving in many small chunks costs its length, not its length times the chunks.
    """

    def __init__(self, request: Request, limit: int) -> None:
        self._chunks = request.stream()
        self._limit = limit
        self._size = 0
        self._rest = bytearray()
        self._scanned = 0  # no line end in self._rest before this
        self._done = False
        self.read = anyio.Event()  # set once the whole body was read

    async def _more(self) -> bool:
        if self._done:
            return False
        try:
            chunk = await self._chunks.__anext__()
        except StopAsyncIteration:
            self._done = True
            self.read.set()
            return False
        self._size += len(chunk)
        if self._size > self._limit:
            raise ApiError(413, "too_large", f"request body exceeds the limit of {self._limit} bytes")
        self._rest += chunk
        return True

    def _take(self, cut: int) -> bytes:
        line = bytes(self._rest[:cut])
        del self._rest[: cut + 1]
        self._scanned = 0
        return line

    async def line(self) -> bytes | None:
        """The next line (without its end), the last unterminated one at the end, None after it."""
        while True:
            cut = self._rest.find(b"\n", self._scanned)
            if cut >= 0:
                return self._take(cut)
            self._scanned = len(self._rest)
            if not await self._more():
                line = self._take(len(self._rest))
                return line if line.strip() else None

    def ready_lines(self) -> list[bytes]:
        """The complete lines already received, without waiting for more."""
        end = self._rest.rfind(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._rest)
            return []
        return self._take(end).split(b"\n")

    async def all(self) -> bytes:
        while await self._more():
            pass
        return bytes(self._rest)


def _json(raw: bytes, what: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ApiError(422, "invalid_request", f"{what} nests too deeply") from None
    except (UnicodeDecodeError, ValueError):  # ValueError: bad JSON, or an integer of 4,300+ digits
        raise ApiError(400, "malformed_json", f"{what} is not valid JSON") from None


def _request(data: Any, ctx: ServiceContext, *, answer_to_come: bool) -> Case:
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the case must be a JSON object")
    if answer_to_come:  # the answer follows in the next lines (the case line may start it)
        data.setdefault("answer", "")
    try:
        req = CheckRequest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "body"
        raise ApiError(422, "invalid_request", f"{where}: {err.get('msg', 'invalid value')}") from None
    return _case(req, ctx)


def _piece(raw: bytes, index: int) -> str:
    data = _json(raw, f"line {index}")
    if not isinstance(data, dict) or set(data) != {"text"} or not isinstance(data["text"], str):
        raise ApiError(422, "invalid_request", f'line {index}: expected {{"text": "..."}}')
    text: str = data["text"]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(422, "invalid_text", f"line {index}: the text contains invalid Unicode (a lone surrogate)") from None
    if "\x00" in text:
        raise ApiError(422, "invalid_text", f"line {index}: the text contains a NUL character (\\u0000), "
                       "which cannot be stored")
    return text


class _DuplexResponse(StreamingResponse):
    """A streamed response sent while the request body is still being read.

    Starlette's StreamingResponse watches for a client disconnect by reading the request's
    messages from the start, which would take body chunks away from the route. This one watches
    only once the body was read; before that, a disconnect ends the body read itself.
    """

    def __init__(self, content: AsyncIterator[bytes], body: _Body, **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._body = body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async with anyio.create_task_group() as tg:

            async def watch() -> None:
                await self._body.read.wait()
                await self.listen_for_disconnect(receive)
                tg.cancel_scope.cancel()

            tg.start_soon(watch)
            await self.stream_response(send)
            tg.cancel_scope.cancel()


class _Events:
    """Event framing: server-sent events or NDJSON lines."""

    def __init__(self, sse: bool) -> None:
        self.sse = sse
        self.media_type = "text/event-stream" if sse else "application/x-ndjson"

    def __call__(self, name: str, data: Any) -> bytes:
        body = one_line(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        if self.sse:
            return f"event: {name}\ndata: {body}\n\n".encode()
        return f'{{"event":{json.dumps(name, ensure_ascii=False)},"data":{body}}}\n'.encode()


@router.post("/check/stream", responses={200: _EVENTS_DOC, **_ERRORS},  # type: ignore[dict-item]
             summary="Check an answer sentence by sentence as it is sent; the final report is stored")
async def check_stream(request: Request, who: Principal = Depends(principal),
                       ctx: ServiceContext = Depends(get_context)) -> StreamingResponse:
    body = _Body(request, ctx.settings.max_body_bytes)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype in _NDJSON:
        first = await body.line()
        if first is None:
            raise ApiError(400, "malformed_json", "the body is empty: the first line must be the case")
        case = _request(_json(first, "line 1"), ctx, answer_to_come=True)
        pieces: AsyncIterator[str] = _lines(body, case.answer)
    elif ctype in ("application/json", ""):
        case = _request(_json(await body.all(), "the request body"), ctx, answer_to_come=False)
        pieces = _slices(case.answer)
    else:
        raise ApiError(415, "unsupported_media_type", "send application/x-ndjson (case line, then text lines) or application/json")
    stream = CheckStream(ctx.checker, stream_case(case.model_copy(update={"answer": ""})),
                         max_answer_chars=ctx.settings.max_answer_chars)
    events = _Events("text/event-stream" in request.headers.get("accept", ""))
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return _DuplexResponse(_run(ctx, who, stream, pieces, events), body, media_type=events.media_type, headers=headers)


async def _lines(body: _Body, first: str) -> AsyncIterator[str]:
    """The answer's pieces; lines that arrived together are joined, so that a client sending many
    tiny lines costs one step of work per network read, not one per line."""
    if first:
        yield first
    index = 1
    while True:
        raw = await body.line()
        if raw is None:
            return
        texts: list[str] = []
        bad: ApiError | None = None
        for line in [raw, *body.ready_lines()]:
            index += 1
            if line.strip():
                try:
                    texts.append(_piece(line, index))
                except ApiError as exc:  # the lines before it still count
                    bad = exc
                    break
        if texts:
            yield "".join(texts)
        if bad is not None:
            raise bad


async def _slices(answer: str) -> AsyncIterator[str]:
    for i in range(0, len(answer), _PIECE):
        yield answer[i : i + _PIECE]


async def _run(ctx: ServiceContext, who: Principal, stream: CheckStream, pieces: AsyncIterator[str],
               events: _Events) -> AsyncIterator[bytes]:
    t0 = time.perf_counter()
    sources = case_chars(stream.case)
    weight = case_weight(stream.case)
    budget = _Budget(ctx.settings.stream_work_s)
    try:
        async for text in pieces:
            for result in await _step(ctx, budget, sources + len(text), weight + text_weight(text), _feed, stream, text):
                yield events("sentence", result.model_dump(mode="json"))
        for result in await _step(ctx, budget, sources, weight, _flush, stream):
            yield events("sentence", result.model_dump(mode="json"))
        done = await _step(ctx, budget, sources + len(stream.text), weight + text_weight(stream.text),
                           _close_and_store, ctx, stream, who.key_id, t0)
    except ClientDisconnect:
        return  # the client went away before the answer ended: nothing to store, no one to tell
    except ApiError as exc:
        yield events("error", {"error": {"code": exc.code, "message": exc.message}})
        return
    except InputError as exc:
        yield events("error", {"error": {"code": "invalid_case", "message": str(exc)}})
        return
    yield events("report", done.model_dump(mode="json"))


class _Budget:
    """The checking time one streamed request may still spend (``stream_work_s`` in all)."""

    def __init__(self, seconds: float) -> None:
        self.total = seconds
        self.left = seconds

    def error(self) -> ApiError:
        return ApiError(413, "work_budget_exceeded",
                        f"the stream used up its {self.total:g} s of checking (HALLUCHECK_STREAM_WORK_BUDGET); "
                        "send the answer in larger pieces or check it with /v1/check; nothing was stored")


async def _step(ctx: ServiceContext, budget: _Budget, chars: int, weight: int, fn: Callable[..., T], *args: Any) -> T:
    """One stretch of check work of a stream, treated like a /v1/check request: admitted by its
    cost (weight x detectors) and run on the check workers within ``request_timeout_s`` and
    within what is left of the stream's work budget (503 ``overloaded`` / 504 ``timeout`` /
    ``work_budget_exceeded`` as error events). Waiting for the client's next piece holds no slot
    and counts against neither."""
    if budget.left <= 0:
        raise budget.error()
    limit = min(ctx.settings.request_timeout_s, budget.left)
    ticket = Ticket(time.monotonic() + limit)
    grant = await admit(ctx, chars, ticket, weight=weight)

    def work() -> T:
        with working_on(ticket):
            return fn(*args, ticket)

    started = time.monotonic()
    try:
        return await run_in_worker(ctx, grant, ticket, work)
    except ApiError as exc:
        if exc.code == "timeout" and limit < ctx.settings.request_timeout_s:
            raise budget.error() from None
        raise
    finally:
        budget.left -= time.monotonic() - started


def _feed(stream: CheckStream, text: str, ticket: Ticket) -> list[SentenceCheck]:
    return stream.feed(text)


def _flush(stream: CheckStream, ticket: Ticket) -> list[SentenceCheck]:
    return stream.flush()


def _close_and_store(ctx: ServiceContext, stream: CheckStream, key_id: str | None, t0: float,
                     ticket: Ticket) -> CheckResponse:
    t1 = time.perf_counter()
    stream.close()
    check_seconds = time.perf_counter() - t1
    if not ticket.commit():
        raise Abandoned
    return _store(ctx, stream, key_id, check_seconds, time.perf_counter() - t0)


def _store(ctx: ServiceContext, stream: CheckStream, key_id: str | None, seconds: float,
           stream_seconds: float) -> CheckResponse:
    """Store the final report once, like /v1/check does (a failed write keeps nothing).

    ``check_ms`` (and the latency metric) is the final check of the whole answer, as for
    /v1/check; ``sentences_ms`` the sentence checks; ``stream_ms`` the whole request, which
    includes the time the client took to send the answer."""
    report = stream.report
    assert report is not None
    case = stream.case.model_copy(update={"answer": stream.text})
    sentence_ms = sum(s.latency_ms for s in stream.sentences)
    timings = {"check_ms": seconds * 1000.0, "sentences_ms": sentence_ms, "stream_ms": stream_seconds * 1000.0,
               **{f"{k}_ms": v for k, v in report.timings_ms.items()}}
    created = utcnow()
    rec = build_record(case, report, api_key_id=key_id, timings=timings, created_at=created, check_id=new_id())
    t1 = time.perf_counter()
    try:
        ctx.writer.add([rec])
    except SQLAlchemyError:
        raise ApiError(503, "store_unavailable", "the check could not be stored; nothing was kept, retry later") from None
    timings["store_ms"] = (time.perf_counter() - t1) * 1000.0
    ctx.metrics.stored.inc(1)
    ctx.metrics.observe(report, seconds)
    return CheckResponse(id=rec.row.id, created_at=created.isoformat() + "Z", report=report, timings_ms=timings)
