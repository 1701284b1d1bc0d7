"""Issue 25, item 9: concurrent key rotations with one key, each in its own session and
thread (as two workers would): exactly one is accepted, and the key it hands out is the one
that opens the carnet; the others are refused (KeyRefused: the API's 403). On SQLite and on
PostgreSQL (where 20 at once were 4 x accepted, handing out 4 keys of which one worked)."""

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from app.carnet_service import CarnetError, CarnetService
from app.cli import migrate
from app.db import make_engine
from tests.conftest import DATABASE_URL, ON_POSTGRES, create_schema, drop_schema

ROTATIONS = 20


@pytest.fixture
def shared_engine(tmp_path: Path) -> Iterator[Engine]:
    """A database the threads' sessions really share (not the rolled-back transaction)."""
    if ON_POSTGRES:
        schema, url = create_schema(DATABASE_URL, "caserne_rotations")
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()
        drop_schema(DATABASE_URL, schema)
    else:
        url = f"sqlite:///{tmp_path / 'rotations.sqlite3'}"
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()


def test_concurrent_rotations_with_one_key_accept_one(shared_engine: Engine) -> None:
    with Session(shared_engine) as session:
        carnet, key = CarnetService(session).create()
        carnet_id = carnet.id
    barrier = threading.Barrier(ROTATIONS)
    accepted: list[str] = []
    refused: list[str] = []
    lock = threading.Lock()

    def rotate() -> None:
        with Session(shared_engine) as session:
            service = CarnetService(session)
            opened = service.open(carnet_id, key)  # every request holds the current key
            barrier.wait(timeout=30)
            try:
                new = service.rotate(opened)
            except CarnetError as error:
                with lock:
                    refused.append(type(error).__name__)
                return
            with lock:
                accepted.append(new)

    threads = [threading.Thread(target=rotate) for _ in range(ROTATIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(accepted) == 1, accepted
    assert refused == ["KeyRefused"] * (ROTATIONS - 1)
    with Session(shared_engine) as session:
        service = CarnetService(session)
        assert service.open(carnet_id, accepted[0]).id == carnet_id
        with pytest.raises(CarnetError):
            service.open(carnet_id, key)
