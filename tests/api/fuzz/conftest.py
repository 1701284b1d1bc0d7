"""The OpenAPI fuzz's fixtures (probe.py): an app without rate limits, a roster stored and
a carnet made through the API, and the app's document loaded by schemathesis."""

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from tests.api.fuzz.probe import CARNET, CONFIG, NO_LIMITS, ROSTER, TOKEN
from tests.conftest import Apps


@pytest.fixture
def unlimited_app(engine: Engine, session: Session, apps: Apps) -> FastAPI:
    return apps.get(engine, session, **NO_LIMITS)


@pytest.fixture
def stored(unlimited_app: FastAPI) -> Iterator[dict[str, Any]]:
    """A roster stored through the API: its id and edit token."""
    with TestClient(unlimited_app) as client:
        created = client.post("/api/v1/rosters", json=ROSTER)
        assert created.status_code == 201
        TOKEN["token"] = created.json()["edit_token"]
        yield created.json()


@pytest.fixture
def carnet(unlimited_app: FastAPI) -> Iterator[dict[str, Any]]:
    """A carnet made through the API: its id and key (a rotation's case changes the key)."""
    with TestClient(unlimited_app) as client:
        created = client.post("/api/v1/carnets")
        assert created.status_code == 201
        CARNET.update(id=created.json()["id"], key=created.json()["key"])
        yield created.json()


@pytest.fixture
def api_schema(
    unlimited_app: FastAPI, stored: dict[str, Any], carnet: dict[str, Any]
) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", unlimited_app, config=CONFIG)
