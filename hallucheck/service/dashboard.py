"""The dashboard: one static page (HTML + vanilla JS + CSS, no CDN, no build step) that reads
the same JSON API as any client, so it shows exactly what the API would return."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from hallucheck.service.errors import ApiError

__all__ = ["CSP", "PAGE_HEADERS", "STATIC_FILES", "router"]

router = APIRouter(include_in_schema=False)

STATIC_FILES = {"dashboard.js": "text/javascript", "dashboard.css": "text/css"}

# The page loads only its own script and stylesheet and reads only this server's API: anything
# injected into it (a stored answer is user text) can neither run inline script, load from
# elsewhere, send data out, nor be framed by another site.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _read(name: str) -> str:
    return resources.files("hallucheck.service").joinpath("static", name).read_text("utf-8")


@router.get("/")
async def root() -> RedirectResponse:
    return RedirectResponse("/dashboard")


@router.get("/dashboard")
async def page() -> HTMLResponse:
    return HTMLResponse(_read("index.html"), headers=PAGE_HEADERS)


@router.get("/static/{name}")
async def static(name: str) -> Response:
    media = STATIC_FILES.get(name)
    if media is None:
        raise ApiError(404, "not_found", "no such file")
    return Response(_read(name), media_type=media, headers=PAGE_HEADERS)
