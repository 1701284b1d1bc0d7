"""Issue 19: the OpenAPI document is built when the served app is made (`app.asgi`, what
uvicorn imports), not by the first request: the first visitor of the API docs waits for
nothing."""

import importlib
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import app.openapi
from app.settings import get_settings


def test_the_served_app_answers_openapi_from_the_document_built_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'startup.sqlite3'}")
    get_settings.cache_clear()
    monkeypatch.delitem(sys.modules, "app.asgi", raising=False)
    try:
        served = importlib.import_module("app.asgi").app
    finally:
        get_settings.cache_clear()
    built = served.openapi_schema
    assert built is not None
    assert built["info"]["title"] == "Caserne"

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the OpenAPI document was built again for a request")

    monkeypatch.setattr(app.openapi, "get_openapi", never)
    client = TestClient(served)
    start = time.perf_counter()
    answer = client.get("/openapi.json")
    elapsed = time.perf_counter() - start
    assert answer.status_code == 200
    assert answer.json() == built
    assert served.openapi_schema is built
    # Serializing the kept document (~180 kB) only; building it took seconds.
    assert elapsed < 1.0, elapsed
    served.state.engine.dispose()
