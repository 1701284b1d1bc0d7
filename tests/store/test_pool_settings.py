"""PostgreSQL's pool comes from the settings (issue 29: 10 + 10 connections a process let 4–5
processes exhaust a default server's 100): DATABASE_POOL_SIZE and DATABASE_MAX_OVERFLOW size
it, bounded where they enter; SQLite keeps its one connection per thread."""

import pytest
from pydantic import ValidationError
from sqlalchemy.pool import QueuePool

from app.db import make_engine
from app.settings import Settings
from tests.conftest import DATABASE_URL, ON_POSTGRES

POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def test_the_pool_is_sized_by_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    monkeypatch.setenv("DATABASE_MAX_OVERFLOW", "2")
    settings = Settings()
    # No connection is opened: the engine only holds the pool's sizes.
    engine = make_engine(
        POSTGRES,
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_max_overflow,
    )
    try:
        assert isinstance(engine.pool, QueuePool)
        assert engine.pool.size() == 3
        assert engine.pool._max_overflow == 2
    finally:
        engine.dispose()


def test_the_defaults_are_ten_and_ten() -> None:
    engine = make_engine(POSTGRES)
    try:
        assert isinstance(engine.pool, QueuePool)
        assert (engine.pool.size(), engine.pool._max_overflow) == (10, 10)
    finally:
        engine.dispose()


def test_sqlite_keeps_a_connection_per_thread(tmp_path: object) -> None:
    engine = make_engine(f"sqlite:///{tmp_path}/pool.sqlite3", pool_size=3, max_overflow=2)
    try:
        assert isinstance(engine.pool, QueuePool)
        assert (engine.pool.size(), engine.pool._max_overflow) == (40, 0)
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("name", "value"),
    [("DATABASE_POOL_SIZE", "0"), ("DATABASE_POOL_SIZE", "201"), ("DATABASE_MAX_OVERFLOW", "-1")],
)
def test_out_of_range_sizes_are_refused(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


def test_prepared_statements_can_be_turned_off() -> None:
    """DATABASE_PREPARE_THRESHOLD=0 for PgBouncer in transaction mode: psycopg then never
    prepares (its `prepare_threshold` None), on a real connection."""
    if not ON_POSTGRES:
        pytest.skip("a PostgreSQL connection's own setting")
    for threshold, expected in ((0, None), (5, 5)):
        engine = make_engine(DATABASE_URL, prepare_threshold=threshold)
        try:
            with engine.connect() as connection:
                raw = connection.connection.dbapi_connection
                assert raw is not None
                assert raw.prepare_threshold == expected  # type: ignore[attr-defined]
        finally:
            engine.dispose()
