"""pytest-alembic fixtures: a database of its own (SQLite file, or a new PostgreSQL schema)."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from app.db import make_engine
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema


@pytest.fixture
def alembic_engine(tmp_path: Path) -> Iterator[Engine]:
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_migrations")
        engine = make_engine(url)
        yield engine
        engine.dispose()
        drop_schema(DATABASE_URL, schema)
    else:
        engine = make_engine(f"sqlite:///{tmp_path / 'migrations.sqlite3'}")
        yield engine
        engine.dispose()


@pytest.fixture
def alembic_config() -> dict[str, Any]:
    return {"file": "alembic.ini", "attributes": {"configure_logger": False}}
