"""A heavy calculation runs off the event loop (issue 10, finding 6); a light one stays."""

import asyncio
import gzip
import json
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy import Engine
from sqlmodel import Session

from app.api.v1.systems import OFFLOAD_BYTES
from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem

VALIDATE = "/api/v1/systems/nolimits/validate"


def on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def spied(
    engine: Engine,
    session: Session,
    systems: dict[str, GameSystem],
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[TestClient, list[bool]]]:
    """A client whose No Limits validations record whether they ran on the event loop."""
    calls: list[bool] = []
    system = systems["nolimits"]
    original: Callable[[Any], BaseModel] = system.validate

    def validate(document: Any) -> BaseModel:
        calls.append(on_event_loop())
        return original(document)

    monkeypatch.setattr(system, "validate", validate)
    app = create_app(
        Settings(database_url="sqlite://", heavy_processes=0), engine=engine, systems=systems
    )
    app.state.session_factory = lambda: nullcontext(session)
    with TestClient(app) as client:
        yield client, calls


def roster(units: int) -> bytes:
    weapon = {"name": "Lame lourde", "melee": True, "CU": 4, "CdA": 1, "FO": 1, "DG": 1}
    unit = {
        "profile": {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2},
        "weapons": [weapon] * 10,
    }
    entries = [{"custom": unit, "count": 1} for _ in range(units)]
    return json.dumps({"system": "nolimits", "name": "x", "entries": entries}).encode()


def test_a_heavy_validation_runs_in_a_worker_thread(spied: tuple[TestClient, list[bool]]) -> None:
    client, calls = spied
    body = roster(200)
    assert len(body) > OFFLOAD_BYTES
    response = client.post(VALIDATE, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert calls == [False]


def test_a_light_validation_stays_on_the_loop(spied: tuple[TestClient, list[bool]]) -> None:
    client, calls = spied
    response = client.post(
        VALIDATE, content=roster(1), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 200
    assert calls == [True]


def test_a_heavy_invalid_body_is_the_same_422(spied: tuple[TestClient, list[bool]]) -> None:
    client, _calls = spied
    body = roster(200).replace(b'"CdA": 1', b'"CdA": 0', 1)
    response = client.post(VALIDATE, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"][:3] == ["body", "entries", 0]


@pytest.fixture
def pooled(
    engine: Engine, session: Session, systems: dict[str, GameSystem]
) -> Iterator[TestClient]:
    """An app computing heavy bodies in one worker process (HEAVY_PROCESSES=1)."""
    app = create_app(
        Settings(database_url="sqlite://", heavy_processes=1), engine=engine, systems=systems
    )
    app.state.session_factory = lambda: nullcontext(session)
    with TestClient(app) as client:
        yield client


def test_heavy_bodies_in_a_worker_process_answer_the_same(
    pooled: TestClient,
    spied: tuple[TestClient, list[bool]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 13: in a thread a heavy validation still holds the serving process's GIL;
    with HEAVY_PROCESSES it runs in another process, with the same answers."""
    client, _calls = spied
    json_type = {"Content-Type": "application/json"}
    body = roster(200)
    in_thread = client.post(VALIDATE, content=body, headers=json_type)
    in_process = pooled.post(VALIDATE, content=body, headers=json_type)
    assert in_process.status_code == in_thread.status_code == 200
    assert in_process.json() == in_thread.json()
    invalid = roster(200).replace(b'"CdA": 1', b'"CdA": 0', 1)
    refused = pooled.post(VALIDATE, content=invalid, headers=json_type)
    assert refused.status_code == 422
    assert refused.json() == client.post(VALIDATE, content=invalid, headers=json_type).json()
    # The serving process does not compute it: its own engine is never called.
    calls: list[bool] = []
    system: Any = pooled.app.state.systems["nolimits"]  # type: ignore[attr-defined]
    monkeypatch.setattr(system, "validate", lambda document: calls.append(True))
    assert pooled.post(VALIDATE, content=body, headers=json_type).status_code == 200
    assert calls == []


def test_the_pool_is_the_default_and_ends_with_the_app(
    engine: Engine, session: Session, systems: dict[str, GameSystem]
) -> None:
    """HEAVY_PROCESSES defaults to 1 (bench/abuse_bench.py's stall: /healthz p99 103 ms in a
    thread, 10 ms with one worker process); the worker is spawned at the first heavy body
    and stopped when the app stops, and a restarted app has a pool again."""
    assert Settings(database_url="sqlite://").heavy_processes == 1
    app = create_app(Settings(database_url="sqlite://"), engine=engine, systems=systems)
    app.state.session_factory = lambda: nullcontext(session)
    json_type = {"Content-Type": "application/json"}
    with TestClient(app) as client:
        pool = app.state.heavy_pool
        assert client.post(VALIDATE, content=roster(200), headers=json_type).status_code == 200
        workers = list(pool._processes.values())
        assert len(workers) == 1 and workers[0].is_alive()
    assert not workers[0].is_alive()
    assert app.state.heavy_pool is not pool
    with TestClient(app) as client:
        assert client.post(VALIDATE, content=roster(200), headers=json_type).status_code == 200


@pytest.mark.parametrize("processes", [0, 1])
def test_a_deeply_nested_heavy_body_is_a_422_in_a_thread_and_in_a_process(
    engine: Engine, session: Session, systems: dict[str, GameSystem], processes: int
) -> None:
    """100,000 nested arrays (200 kB, so offloaded): pydantic refuses them, and the
    problem's echo of the body (json.loads) hit Python's recursion limit: a 500."""
    app = create_app(
        Settings(database_url="sqlite://", heavy_processes=processes),
        engine=engine,
        systems=systems,
    )
    body = '{"system": "nolimits", "name": "x", "entries": ' + "[" * 100_000 + "]" * 100_000 + "}"
    assert len(body) > OFFLOAD_BYTES
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post(VALIDATE, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text[:200]
    assert answer.headers["content-type"] == "application/problem+json"


def raw_answer(client: TestClient, body: bytes, encoding: str) -> tuple[int, list[Any], bytes]:
    """Status, headers (sorted) and the bytes on the wire, not decoded."""
    headers = {"Content-Type": "application/json", "Accept-Encoding": encoding}
    with client.stream("POST", VALIDATE, content=body, headers=headers) as answer:
        raw = b"".join(answer.iter_raw())
        return answer.status_code, sorted(answer.headers.multi_items()), raw


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
def test_a_heavy_answer_from_a_worker_is_the_threads_byte_for_byte(
    pooled: TestClient, spied: tuple[TestClient, list[bool]], encoding: str
) -> None:
    """Issue 19: a worker answers bytes (the result, or the 422 problem) and compresses them
    itself when the client accepts gzip; status, headers and bytes are those the thread
    and GZipMiddleware give."""
    client, _calls = spied
    valid = roster(200)
    invalid = valid.replace(b'"CdA": 1', b'"CdA": 0', 1)
    for body, status in ((valid, 200), (invalid, 422)):
        in_thread = raw_answer(client, body, encoding)
        in_process = raw_answer(pooled, body, encoding)
        assert in_process == in_thread
        assert in_process[0] == status
        headers = dict(in_process[1])
        assert headers["content-length"] == str(len(in_process[2]))
        assert headers["content-type"] == (
            "application/json" if status == 200 else "application/problem+json"
        )
        # The 422 problem (301 bytes) is under GZipMiddleware's 500: sent as it is.
        compressed = encoding == "gzip" and status == 200
        assert headers.get("content-encoding") == ("gzip" if compressed else None)
        assert headers.get("vary") == ("Accept-Encoding" if status == 200 else None)
        if compressed:
            assert gzip.decompress(in_process[2]) == raw_answer(client, body, "identity")[2]


def test_a_heavy_answer_is_the_light_routes_own_bytes(
    pooled: TestClient, systems: dict[str, GameSystem]
) -> None:
    """A heavy body answers what the engine's model serializes to, as a light one does."""
    system: Any = systems["nolimits"]
    for units in (1, 200):
        body = roster(units)
        expected = system.validate(system.roster_model.model_validate_json(body))
        status, _headers, raw = raw_answer(pooled, body, "identity")
        assert (status, raw) == (200, expected.model_dump_json().encode())
