"""Test fixtures. The database is SQLite in memory by default; with DATABASE_URL set to a
PostgreSQL URL (as .ci/run does), every test runs in a transaction that is rolled back, in a
schema of its own created by the Alembic migrations.

Isolation, made cheap (issue 27): the suite runs in parallel workers (pytest-xdist,
scripts/test), each a process of its own with its own databases.
* SQLite: each worker migrates one in-memory database once (the template); each test gets
  a new in-memory database that is a copy of it (SQLite's backup API, ~1 ms against ~50 ms
  for running the migrations again).
* PostgreSQL: each worker migrates one schema of its own (named after the process); each
  test's work is one transaction rolled back at its end.
* The app: building one costs ~0.5 s (its routers), so each worker builds one per set of
  settings and hands it to every test reset: the test's engine and session, a new
  middleware stack (fresh rate-limit counters, CSRF and cookie state), the state it was
  built with, no dependency overrides.
"""

import os
import secrets

# The toy system (tests/toy) is registered for the whole session, before the registry is
# read: every per-system test runs it as it runs the five (docs/systems.md).
os.environ.setdefault("CASERNE_EXTRA_SYSTEMS", "tests.toy.spec")

import sqlite3
from collections.abc import Iterator
from contextlib import nullcontext
from typing import Any, NoReturn

import pytest
from alembic.config import Config
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlmodel import Session

from alembic import command
from app.catalogues import load_systems
from app.cli import migrate
from app.db import make_engine
from app.main import create_app
from app.settings import ROOT, Settings
from app.systems import registry
from app.systems.base import GameSystem
from app.systems.memo import EntryMemo

DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = DATABASE_URL.startswith("postgresql")

# Every registered system, in the registry's order: what each per-system test loops over
# (a new system gets them all), the toy included (CASERNE_EXTRA_SYSTEMS, set above).
SYSTEMS: tuple[str, ...] = tuple(spec.id for spec in registry.SPECS)


def schema_url(url: str, schema: str) -> str:
    """The same PostgreSQL database, with `schema` first on the search path."""
    return (
        make_url(url)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )


def create_schema(url: str, prefix: str) -> tuple[str, str]:
    schema = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    return schema, schema_url(url, schema)


def drop_schema(url: str, schema: str) -> None:
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def missing(reason: str, required_by: str) -> NoReturn:
    """A tool a test needs is missing: skipped with `reason`, or a failure when the
    environment variable `required_by` is 1 (CI: CASERNE_REQUIRE_BROWSER, ...)."""
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{reason} ({required_by}=1)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def systems() -> dict[str, GameSystem]:
    return load_systems()


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Engine | None]:
    if not ON_POSTGRES:
        yield None
        return
    schema, url = create_schema(DATABASE_URL, "caserne_test")
    migrate(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()
    drop_schema(DATABASE_URL, schema)


@pytest.fixture(scope="session")
def sqlite_template() -> Iterator[sqlite3.Connection | None]:
    """SQLite: one in-memory database migrated once for the worker, copied for each test."""
    if ON_POSTGRES:
        yield None
        return
    template = make_engine("sqlite://")
    with template.begin() as connection:
        config = Config(str(ROOT / "alembic.ini"))
        config.attributes["connection"] = connection
        config.attributes["configure_logger"] = False
        command.upgrade(config, "head")
    raw = template.raw_connection()
    yield raw.driver_connection
    raw.close()
    template.dispose()


@pytest.fixture
def engine(
    postgres_engine: Engine | None, sqlite_template: sqlite3.Connection | None
) -> Iterator[Engine]:
    """SQLite: a new in-memory database, a copy of the migrated template. PostgreSQL: the
    session's schema."""
    if postgres_engine is not None:
        yield postgres_engine
        return
    assert sqlite_template is not None
    engine = make_engine("sqlite://")
    raw = engine.raw_connection()  # the one connection of the in-memory database
    sqlite_template.backup(raw.driver_connection)
    raw.close()
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A session whose work is rolled back at the end of the test (savepoints inside)."""
    connection = engine.connect()
    transaction = connection.begin()
    session = Session(bind=connection, join_transaction_mode="create_savepoint")
    yield session
    session.close()
    transaction.rollback()
    connection.close()


class Built:
    """What create_app made of an app, for it to be handed to the next test as it was."""

    def __init__(self, app: FastAPI) -> None:
        self.routes = list(app.router.routes)
        self.middleware = list(app.user_middleware)
        self.handlers = dict(app.exception_handlers)
        self.state = dict(app.state._state)
        self.openapi = app.openapi_schema


class Apps:
    """The apps of a worker, one per set of settings, built once and reset for each test."""

    # What the test client's lifespan replaces on exit (a new pool): kept as it is.
    LIVE_STATE = frozenset({"heavy_pool", "heavy_queue"})

    def __init__(self, systems: dict[str, GameSystem]) -> None:
        self.systems = systems
        self.built: dict[str, tuple[FastAPI, Built]] = {}
        self.handed: set[str] = set()  # the apps given to the current test

    def get(self, engine: Engine, session: Session, **overrides: Any) -> FastAPI:
        """The app of `Settings(database_url="sqlite://", **overrides)` as create_app
        makes it, serving this test's `engine` and `session`."""
        key = repr(sorted(overrides.items()))
        if key not in self.built or key in self.handed:
            # Twice in one test: two apps, as two create_app calls made.
            if key in self.handed:
                key = f"{key} {len(self.built)}"
            self.handed.add(key)
            settings = Settings(database_url="sqlite://", **overrides)
            app = create_app(settings, engine=engine, systems=self.systems)
            self.built[key] = (app, Built(app))
        else:
            self.handed.add(key)
        app, built = self.built[key]
        # What a test may have added: routes, middleware, exception handlers, state.
        if app.router.routes != built.routes:
            app.router.routes[:] = built.routes
            app.openapi_schema = built.openapi  # none that names a test's own route
        app.user_middleware[:] = built.middleware
        app.exception_handlers.clear()
        app.exception_handlers.update(built.handlers)
        state = built.state
        for name in set(app.state._state) - set(state) - self.LIVE_STATE:
            delattr(app.state, name)
        for name, value in state.items():
            if name not in self.LIVE_STATE:
                setattr(app.state, name, value)
        # What create_app sets for the whole process.
        EntryMemo.enabled = app.state.settings.engine_memo
        app.middleware_stack = None  # rebuilt by the first request: fresh middleware state
        app.dependency_overrides.clear()
        app.state.engine = engine
        app.state.session_factory = lambda: nullcontext(session)
        return app


@pytest.fixture(scope="session")
def worker_apps(systems: dict[str, GameSystem]) -> Apps:
    return Apps(systems)


@pytest.fixture
def apps(worker_apps: Apps) -> Iterator[Apps]:
    """The worker's apps, for one test."""
    yield worker_apps
    worker_apps.handed.clear()


@pytest.fixture
def app(engine: Engine, session: Session, apps: Apps) -> FastAPI:
    return apps.get(engine, session)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="session")
def dcsystem(systems: dict[str, GameSystem]) -> GameSystem:
    return systems["dcsystem"]
