"""Apps with the settings a security test needs, on the test's own database."""

from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.types import ASGIApp

from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem

ClientFactory = Callable[..., TestClient]


@pytest.fixture
def make_client(
    engine: Engine, session: Session, systems: dict[str, GameSystem]
) -> Iterator[ClientFactory]:
    """TestClients of apps built with `Settings(**overrides)`; closed at the end."""
    opened: list[TestClient] = []

    def factory(
        base_url: str = "http://testserver",
        wrap: Callable[[ASGIApp], ASGIApp] | None = None,
        **overrides: Any,
    ) -> TestClient:
        settings = Settings(database_url="sqlite://", **overrides)
        app = create_app(settings, engine=engine, systems=systems)
        app.state.session_factory = lambda: nullcontext(session)
        served = wrap(app) if wrap is not None else app
        client = TestClient(served, base_url=base_url, follow_redirects=False)
        client.__enter__()
        opened.append(client)
        return client

    yield factory
    for client in opened:
        client.__exit__(None, None, None)
