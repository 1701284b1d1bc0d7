"""create_app(): routers, static files, templates, error handlers."""

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields

from fastapi import FastAPI
from sqlalchemy import Engine
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from app import openapi, problems, refusals
from app.api.v1 import api_routers, heavy
from app.campaigns import tallies as campaign_tallies
from app.catalogues import load_books, load_play_sheets, load_systems
from app.db import make_engine, session_factory
from app.middleware import (
    GZIP_LEVEL,
    GZIP_MINIMUM_BYTES,
    BodyLimit,
    LedgerViewsInTurn,
    redact_access_log,
)
from app.security.csrf import CsrfGuard, install_template_globals
from app.security.headers import SecurityHeaders
from app.security.hosts import CanonicalHost
from app.security.ratelimit import Limits, RateLimits
from app.settings import ROOT, Settings, get_settings
from app.systems import registry
from app.systems.base import AnySystem
from app.systems.memo import EntryMemo
from app.systems.spec import SystemSpec
from app.web import pages, site
from app.web.assets import HashedStaticFiles
from app.web.deps import CarnetCookies
from app.web.render import add_system_templates, html_error, templates


@asynccontextmanager
async def _stop_heavy_pool(app: FastAPI) -> AsyncIterator[None]:
    """The heavy calculations' worker processes end with the app (uvicorn's shutdown, a
    test client's exit): none outlives it."""
    try:
        yield
    finally:
        pool = getattr(app.state, "heavy_pool", None)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
            # Unstarted until its first job: an app served again (a test client entered
            # twice) still has its pool.
            app.state.heavy_pool = heavy.pool(app.state.settings.heavy_processes)
            app.state.heavy_queue = heavy.queue_of(app.state.settings)


def settle_heap() -> None:
    """Once the served app is built: what start-up made (catalogues, engines, their models,
    the OpenAPI document: ~190,000 objects) lives as long as the process, so the cyclic
    garbage collector stops walking it (`gc.freeze`). Its full collections walked all of
    it every few requests: 12.6 of No Limits' 48.5 cpu ms per editor save (issue 19,
    bench/editor_bench.py). Garbage made later is collected as before."""
    gc.collect()
    gc.freeze()


def middleware(settings: Settings) -> list[Middleware]:
    """The middleware in request order: the first one listed sees a request first (and its
    answer last); see app/security/."""
    limits = Limits(
        **{kind.name: getattr(settings, f"rate_limit_{kind.name}") for kind in fields(Limits)}
    )
    return [
        # HTML, CSS, JS and JSON over 500 bytes leave gzip-compressed (level 4: most of
        # level 9's gain for a fraction of its CPU), security headers included; an answer
        # a heavy worker compressed already (Content-Encoding set) passes through.
        Middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=GZIP_LEVEL),
        Middleware(SecurityHeaders),
        Middleware(
            CanonicalHost, public_url=settings.public_url, allowed_hosts=settings.allowed_host_list
        ),
        Middleware(
            BodyLimit, max_bytes=settings.max_body_bytes, max_query_bytes=settings.max_query_bytes
        ),
        Middleware(CsrfGuard),
        Middleware(
            RateLimits,
            storage=settings.rate_limit_storage,
            key_prefix=settings.rate_limit_key_prefix,
            limits=limits,
        ),
        Middleware(CarnetCookies),
        Middleware(LedgerViewsInTurn),
    ]


def database(settings: Settings, url: str) -> Engine:
    """An engine on `url`, its pool sized by the settings (DATABASE_POOL_SIZE, ...)."""
    return make_engine(
        url,
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_max_overflow,
        prepare_threshold=settings.database_prepare_threshold,
    )


def create_app(
    settings: Settings | None = None,
    *,
    engine: Engine | None = None,
    systems: dict[str, AnySystem] | None = None,
    specs: tuple[SystemSpec, ...] | None = None,
) -> FastAPI:
    """The app; tests pass their own engine and the systems they already loaded."""
    settings = settings or get_settings()
    specs = specs if specs is not None else registry.SPECS
    systems = systems if systems is not None else load_systems(specs=specs)
    app = FastAPI(
        middleware=middleware(settings),
        title="Caserne",
        version="1.0.0",
        summary="Army builder and points calculator for skirmish wargames.",
        docs_url=None,  # served below from static/swagger-ui (no CDN: works offline)
        redoc_url=None,
        lifespan=_stop_heavy_pool,
    )
    app.state.settings = settings
    EntryMemo.enabled = settings.engine_memo  # per process: every engine's memory
    app.state.systems = systems
    app.state.sheets = load_play_sheets(specs)
    # What the play sheet and the mode partie need of each system (app/systems/play_traits.py).
    app.state.play_traits = {spec.id: spec.play for spec in specs if spec.play is not None}
    app.state.example_books = load_books(systems, specs)
    app.state.engine = engine or database(settings, settings.database_url)
    app.state.session_factory = session_factory(app.state.engine)
    # The public reads' database (DATABASE_READ_URL), when there is one: app/deps.py.
    app.state.read_engine = (
        database(settings, settings.database_read_url) if settings.database_read_url else None
    )
    app.state.read_session_factory = (
        None if app.state.read_engine is None else session_factory(app.state.read_engine)
    )
    app.state.heavy_pool = heavy.pool(settings.heavy_processes)
    app.state.heavy_queue = heavy.queue_of(settings)
    problems.install(app, html_error)
    refusals.install(app, html_error)
    campaign_tallies.install()  # a gang's dead leave its totals, its tallies (app/hooks.py)
    install_template_globals(templates.env)
    for spec in specs:
        if spec.templates_dir is not None:
            add_system_templates(spec.id, spec.templates_dir)

    app.include_router(site.router)  # first, as before: they are tried first
    app.state.pages = pages.system_pages(systems, specs)
    share_router, editor_routers, page_routers = pages.routers(app.state.pages)
    (calculations, *calculator), stored, request_bodies = api_routers(systems, specs)
    app.include_router(calculations)  # every calculator POST at once (not documented)
    # Hottest first: FastAPI tries routes in turn, 3-10 µs each (issues 19, 29). The share
    # page (every forum visitor), the editor's saves (not in the OpenAPI document), the
    # calculator API. No two routes match the same path and method (tests/web/test_routes.py).
    for router in (share_router, *editor_routers, *calculator, *stored, *page_routers):
        app.include_router(router)
    app.mount("/static", HashedStaticFiles(directory=ROOT / "static"), name="static")
    openapi.install(app, request_bodies)
    redact_access_log()
    return app
