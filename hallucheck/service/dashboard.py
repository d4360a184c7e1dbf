"""The dashboard: one static page (HTML + vanilla JS + CSS, no CDN, no build step) that reads
the same JSON API as any client, so it shows exactly what the API would return."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from hallucheck.service.errors import ApiError

__all__ = ["router", "STATIC_FILES"]

router = APIRouter(include_in_schema=False)

STATIC_FILES = {"dashboard.js": "text/javascript", "dashboard.css": "text/css"}


def _read(name: str) -> str:
    return resources.files("hallucheck.service").joinpath("static", name).read_text("utf-8")


@router.get("/")
async def root() -> RedirectResponse:
    return RedirectResponse("/dashboard")


@router.get("/dashboard")
async def page() -> HTMLResponse:
    return HTMLResponse(_read("index.html"), headers={"Cache-Control": "no-cache"})


@router.get("/static/{name}")
async def static(name: str) -> Response:
    media = STATIC_FILES.get(name)
    if media is None:
        raise ApiError(404, "not_found", "no such file")
    return Response(_read(name), media_type=media, headers={"Cache-Control": "no-cache"})
