"""Test fixtures. The database is SQLite in memory by default; with DATABASE_URL set to a
PostgreSQL URL (as .ci/run does), every test runs in a transaction that is rolled back, in a
schema of its own created by the Alembic migrations."""

import os
import secrets
from collections.abc import Iterator
from contextlib import nullcontext

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlmodel import Session

from app.catalogues import load_systems
from app.cli import migrate
from app.db import make_engine
from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem

DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = DATABASE_URL.startswith("postgresql")


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


@pytest.fixture
def engine(postgres_engine: Engine | None) -> Iterator[Engine]:
    """SQLite: a new in-memory database, migrated. PostgreSQL: the session's schema."""
    if postgres_engine is not None:
        yield postgres_engine
        return
    engine = make_engine("sqlite://")
    with engine.begin() as connection:
        from alembic.config import Config

        from alembic import command
        from app.settings import ROOT

        config = Config(str(ROOT / "alembic.ini"))
        config.attributes["connection"] = connection
        config.attributes["configure_logger"] = False
        command.upgrade(config, "head")
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


@pytest.fixture
def app(engine: Engine, session: Session, systems: dict[str, GameSystem]) -> FastAPI:
    app = create_app(Settings(database_url="sqlite://"), engine=engine, systems=systems)
    app.state.session_factory = lambda: nullcontext(session)
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="session")
def dcsystem(systems: dict[str, GameSystem]) -> GameSystem:
    return systems["dcsystem"]
