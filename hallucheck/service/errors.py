"""Every error the API returns is ``{"error": {"code", "message"}}`` with a 4xx status for bad
input; a 500 means a bug in hallucheck, never something a client sent."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from hallucheck.errors import HallucheckError, InputError

__all__ = ["ApiError", "error_response", "install_error_handlers"]

log = logging.getLogger("hallucheck.service")

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    503: "unavailable",
}


class ApiError(HallucheckError):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(status: int, code: str, message: str, *, details: Any = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def _clean(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # pydantic error dicts may hold exception objects in ctx/input: keep what serializes.
    out = []
    for e in errors[:20]:
        out.append({"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))})
    return out


def _where(err: dict[str, Any]) -> str:
    loc = [str(p) for p in err.get("loc", ()) if p != "body"]
    return ".".join(loc) or "body"


_TOO_DEEP = ("the request body nests too deeply: the JSON parser's depth limit was reached "
             "(metadata may nest at most 32 levels)")


def _too_deep(exc: BaseException) -> bool:
    """Whether ``exc`` comes from Python's recursion limit (the JSON parser recurses once per
    level of nesting, so a body nested about a thousand levels deep ends there)."""
    seen: BaseException | None = exc
    for _ in range(8):  # a short cause chain: FastAPI wraps the parser's error once
        if seen is None:
            return False
        if isinstance(seen, RecursionError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "malformed_json", "the request body is not valid JSON", details=_clean(errors))
        first = errors[0] if errors else {}
        msg = f"{_where(first)}: {first.get('msg', 'invalid value')}" if first else "invalid request"
        return error_response(422, "invalid_request", msg, details=_clean(errors))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and _too_deep(exc):
            # FastAPI answers any body its JSON parser could not read with a bare 400; a body
            # nested past the parser's depth is well-formed JSON that is too deep, like metadata
            # nested past 32 levels, so it gets the same 422.
            return error_response(422, "invalid_request", _TOO_DEEP)
        if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):
            # the parser's other failures (invalid UTF-8, an integer of 4,300+ digits): malformed
            # like any body that is not JSON
            return error_response(400, "malformed_json", "the request body is not valid JSON")
        code = _CODES.get(exc.status_code, "error")
        return error_response(exc.status_code, code, str(exc.detail), headers=getattr(exc, "headers", None))

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message, headers=exc.headers)

    @app.exception_handler(RecursionError)
    async def _deep(_: Request, exc: RecursionError) -> JSONResponse:
        return error_response(422, "invalid_request", _TOO_DEEP)

    @app.exception_handler(InputError)
    async def _input(_: Request, exc: InputError) -> JSONResponse:
        return error_response(422, "invalid_case", str(exc))

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "internal error; the server log has the details")
