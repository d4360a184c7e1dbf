"""The FastAPI app factory: ``create_app(settings)``.

Routers, one per area, are mounted here: checks (routes_check), the store and monitoring
figures (routes_store), the dashboard, and health/metrics below. A guard router (prevention and
repair, POST /v1/guard) plugs in the same way: add its module to ``_routers``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from anyio import CapacityLimiter, to_thread
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DatabaseError, ProgrammingError

import hallucheck
from hallucheck.service import dashboard, routes_check, routes_guard, routes_store, routes_stream
from hallucheck.service.context import ServiceContext
from hallucheck.service.deps import get_context
from hallucheck.service.errors import error_response, install_error_handlers
from hallucheck.service.gate import AuthMiddleware
from hallucheck.service.headers import SecurityHeadersMiddleware
from hallucheck.service.limits import BodyLimitMiddleware
from hallucheck.service.media import JsonBodyMiddleware
from hallucheck.service.metrics import CONTENT_TYPE_LATEST
from hallucheck.service.request_metrics import RequestMetricsMiddleware
from hallucheck.service.retention import retention_loop
from hallucheck.service.schemas import Health
from hallucheck.service.settings import Settings
from hallucheck.service.store import store_problem

__all__ = ["create_app", "warn_if_open"]

log = logging.getLogger("hallucheck.service")

ops = APIRouter(tags=["operations"])


@ops.get("/healthz", response_model=Health, summary="Liveness, the store's state and the configuration",
         responses={503: {"model": Health, "description": "the store cannot be read or written"}})
async def healthz(ctx: ServiceContext = Depends(get_context)) -> Response:
    problems = await to_thread.run_sync(ctx.health)
    health = Health(status="failing" if problems else "ok", version=hallucheck.__version__, store=ctx.store.backend,
                    schema_version=ctx.store.version, detectors=ctx.checker.detector_names,
                    policy=ctx.checker.policy.name, auth=ctx.auth_enabled, problems=problems)
    return JSONResponse(health.model_dump(mode="json"), status_code=503 if problems else 200,
                        headers={"Cache-Control": "no-store"})


@ops.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(ctx: ServiceContext = Depends(get_context)) -> Response:
    return Response(ctx.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def _routers() -> list[APIRouter]:
    return [routes_check.router, routes_stream.router, routes_guard.router, routes_store.router, ops, dashboard.router]


def warn_if_open(ctx: ServiceContext) -> str | None:
    """The warning logged on every start while requests need no API key."""
    if ctx.auth_enabled:
        return None
    why = "HALLUCHECK_AUTH=off" if ctx.settings.auth is False else "no API key is configured"
    return (f"AUTHENTICATION IS OFF ({why}): every /v1 request is served without a key and can read every "
            "stored check; create a key with 'hallucheck keys create' or set HALLUCHECK_API_KEYS_FILE")


def create_app(settings: Settings | None = None, *, context: ServiceContext | None = None) -> FastAPI:
    """A ready app: store migrated and Checker built now, so a bad configuration fails at start."""
    settings = settings or Settings.from_env()
    ctx = context or ServiceContext.build(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx.thread_limiter = CapacityLimiter(max(1, settings.workers))
        warning = warn_if_open(ctx)
        if warning:
            log.warning(warning)
        task = asyncio.create_task(retention_loop(ctx.store, settings.retention_days, settings.retention_interval_s))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            ctx.close()

    # The API description is public only when asked for, or by default while keys are off.
    docs = settings.api_docs if settings.api_docs is not None else not ctx.auth_enabled
    app = FastAPI(
        title="hallucheck",
        version=hallucheck.__version__,
        description="Find hallucinations in RAG answers: grounded or not, which spans, why.",
        lifespan=lifespan,
        openapi_url="/openapi.json" if docs else None,
        docs_url="/docs" if docs else None,
        redoc_url="/redoc" if docs else None,
    )
    app.state.ctx = ctx
    install_error_handlers(app)

    @app.exception_handler(DatabaseError)
    async def _store_failed(request: Request, exc: DatabaseError) -> Response:
        if isinstance(exc, ProgrammingError):  # a query hallucheck got wrong: a bug, 500
            log.exception("unhandled error on %s %s", request.method, request.url.path)
            return error_response(500, "internal", "internal error; the server log has the details")
        # the store itself failed (damaged file, full disk, database gone): say so, name the file
        log.error("store %s failed on %s %s: %s", ctx.store.where, request.method, request.url.path,
                  store_problem(exc))
        return error_response(503, "store_unavailable", "the store cannot be read right now; retry later",
                              headers={"Retry-After": "5"})
    for router in _routers():
        app.include_router(router)

    # Outermost last: metrics and headers see every answer; CORS answers preflights; the gate
    # authenticates before the body limit reads (or times) a single byte of the body.
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes,
                       stream_paths=(routes_stream.STREAM_PATH,), body_timeout_s=settings.body_timeout_s,
                       on_slow_client=ctx.metrics.refused.labels("slow_client").inc)
    app.add_middleware(JsonBodyMiddleware, own_types=(routes_stream.STREAM_PATH,))
    app.add_middleware(AuthMiddleware, ctx=ctx)
    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware  # lazy: already loaded by this module's imports; kept where it is used

        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST"], allow_headers=["Authorization", "X-API-Key", "Content-Type"])
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestMetricsMiddleware, metrics=ctx.metrics)
    return app
