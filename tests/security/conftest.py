"""Apps with the settings a security test needs, on the test's own database."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.types import ASGIApp

from tests.conftest import Apps

ClientFactory = Callable[..., TestClient]


@pytest.fixture
def make_client(engine: Engine, session: Session, apps: Apps) -> Iterator[ClientFactory]:
    """TestClients of apps built with `Settings(**overrides)` (one per worker and set of
    settings, reset for the test: tests/conftest.py); closed at the end."""
    opened: list[TestClient] = []

    def factory(
        base_url: str = "http://testserver",
        wrap: Callable[[ASGIApp], ASGIApp] | None = None,
        **overrides: Any,
    ) -> TestClient:
        app = apps.get(engine, session, **overrides)
        served = wrap(app) if wrap is not None else app
        client = TestClient(served, base_url=base_url, follow_redirects=False)
        client.__enter__()
        opened.append(client)
        return client

    yield factory
    for client in opened:
        client.__exit__(None, None, None)
