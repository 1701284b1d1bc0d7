"""create_app(): routers, static files, templates, error handlers."""

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine

from app import openapi, problems
from app.api.v1.rosters import rosters_router
from app.api.v1.systems import systems_router
from app.catalogues import load_systems
from app.db import make_engine
from app.middleware import BodyLimit, redact_access_log
from app.settings import ROOT, Settings, get_settings
from app.systems.base import GameSystem
from app.web import pages
from app.web.render import html_error


def create_app(
    settings: Settings | None = None,
    *,
    engine: Engine | None = None,
    systems: dict[str, GameSystem] | None = None,
) -> FastAPI:
    """The app; tests pass their own engine and the systems they already loaded."""
    settings = settings or get_settings()
    systems = systems if systems is not None else load_systems()
    app = FastAPI(
        title="Caserne",
        version="1.0.0",
        summary="Army builder and points calculator for skirmish wargames.",
        docs_url="/api/docs",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.systems = systems
    app.state.engine = engine or make_engine(settings.database_url)
    problems.install(app, html_error)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.include_router(systems_router(systems))
    app.include_router(rosters_router(systems))
    app.include_router(pages.router(systems))
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    openapi.install(app)
    redact_access_log()
    return app
