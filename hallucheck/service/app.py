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
from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import Response

import hallucheck
from hallucheck.service import dashboard, routes_check, routes_guard, routes_store, routes_stream
from hallucheck.service.context import ServiceContext
from hallucheck.service.deps import get_context
from hallucheck.service.errors import install_error_handlers
from hallucheck.service.gate import AuthMiddleware
from hallucheck.service.headers import SecurityHeadersMiddleware
from hallucheck.service.limits import BodyLimitMiddleware
from hallucheck.service.metrics import CONTENT_TYPE_LATEST
from hallucheck.service.request_metrics import RequestMetricsMiddleware
from hallucheck.service.schemas import Health
from hallucheck.service.settings import Settings

__all__ = ["create_app"]

log = logging.getLogger("hallucheck.service")

ops = APIRouter(tags=["operations"])


@ops.get("/healthz", response_model=Health, summary="Liveness and configuration")
async def healthz(ctx: ServiceContext = Depends(get_context)) -> Health:
    return Health(status="ok", version=hallucheck.__version__, store=ctx.store.backend,
                  schema_version=ctx.store.version, detectors=ctx.checker.detector_names,
                  policy=ctx.checker.policy.name, auth=ctx.auth_enabled)


@ops.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(ctx: ServiceContext = Depends(get_context)) -> Response:
    return Response(ctx.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def _routers() -> list[APIRouter]:
    return [routes_check.router, routes_stream.router, routes_guard.router, routes_store.router, ops, dashboard.router]


async def _retention_loop(ctx: ServiceContext) -> None:
    days = ctx.settings.retention_days
    if not days:
        return
    while True:
        try:
            removed = await to_thread.run_sync(ctx.store.purge, days)
            if removed:
                log.info("retention: removed %d checks older than %s days", removed, days)
        except Exception:  # a failed purge must not stop the server; it retries
            log.exception("retention purge failed")
        await asyncio.sleep(ctx.settings.retention_interval_s)


def create_app(settings: Settings | None = None, *, context: ServiceContext | None = None) -> FastAPI:
    """A ready app: store migrated and Checker built now, so a bad configuration fails at start."""
    settings = settings or Settings.from_env()
    ctx = context or ServiceContext.build(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx.thread_limiter = CapacityLimiter(max(1, settings.workers))
        task = asyncio.create_task(_retention_loop(ctx))
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
    for router in _routers():
        app.include_router(router)

    # Outermost last: metrics and headers see every answer; CORS answers preflights; the gate
    # authenticates before the body limit reads (or times) a single byte of the body.
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes,
                       stream_paths=(routes_stream.STREAM_PATH,), body_timeout_s=settings.body_timeout_s,
                       on_slow_client=ctx.metrics.refused.labels("slow_client").inc)
    app.add_middleware(AuthMiddleware, ctx=ctx)
    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST"], allow_headers=["Authorization", "X-API-Key", "Content-Type"])
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestMetricsMiddleware, metrics=ctx.metrics)
    return app
