"""Caserne in the bench's own process: a fresh SQLite file with every table, rate limits
off, a TestClient on it (books_bench.py, campaign_bench.py, tts_bench.py)."""

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db import make_engine
from app.main import create_app
from app.settings import Settings


@contextmanager
def in_process_client(**options: Any) -> Iterator[TestClient]:
    """A TestClient on a new app and database, removed afterwards; `options` go to the
    TestClient (`follow_redirects=False`)."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        engine = make_engine(url)
        from sqlmodel import SQLModel

        SQLModel.metadata.create_all(engine)
        settings = Settings(
            database_url=url, rate_limit_create="", rate_limit_share="", rate_limit_write=""
        )
        app = create_app(settings=settings, engine=engine)
        with TestClient(app, **options) as client:
            yield client
