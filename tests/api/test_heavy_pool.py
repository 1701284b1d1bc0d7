"""The heavy bodies' pool and queue (issue 25, item 7): a worker killed as the OOM killer
would (SIGKILL) broke the pool, and every heavy body was a 500 (BrokenProcessPool) until a
restart, /healthz saying ok; the queue was unbounded and shared (300 queued 0.9 MB
validations from one client made another's wait 71.8 s)."""

import asyncio
import os
import signal
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from sqlalchemy import Engine
from sqlmodel import Session

from app.api.v1.heavy import HeavyQueue, QueueFull
from app.main import create_app
from app.settings import Settings
from app.systems.base import GameSystem
from tests.api.test_heavy_offload import VALIDATE, roster

JSON = {"Content-Type": "application/json"}

T = TypeVar("T")


def in_own_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """asyncio.run in a thread of its own: a test in a process where another test left an
    event loop running (Playwright's sync API, under xdist) cannot call asyncio.run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def heavy_app(
    engine: Engine, session: Session, systems: dict[str, GameSystem], **settings: Any
) -> FastAPI:
    app = create_app(Settings(database_url="sqlite://", **settings), engine=engine, systems=systems)
    app.state.session_factory = lambda: nullcontext(session)
    return app


@pytest.fixture
def pooled(
    engine: Engine, session: Session, systems: dict[str, GameSystem]
) -> Iterator[tuple[FastAPI, TestClient]]:
    app = heavy_app(engine, session, systems, heavy_processes=1)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield app, client


def kill_workers(app: FastAPI) -> None:
    """SIGKILL to every worker of the app's pool, as the OOM killer sends it."""
    processes = list(app.state.heavy_pool._processes.values())
    assert processes
    for process in processes:
        os.kill(process.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(process.is_alive() for process in processes) and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_killed_worker_is_replaced_and_the_next_heavy_body_answered(
    pooled: tuple[FastAPI, TestClient],
) -> None:
    app, client = pooled
    body = roster(200)
    expected = client.post(VALIDATE, content=body, headers=JSON)
    assert expected.status_code == 200
    first_pool = app.state.heavy_pool
    kill_workers(app)
    # The request that meets the broken pool is tried again in a new one.
    again = client.post(VALIDATE, content=body, headers=JSON)
    assert again.status_code == 200, again.text[:300]
    assert again.json() == expected.json()
    assert app.state.heavy_pool is not first_pool
    # And so is every later one, on the new pool (not rebuilt again).
    second_pool = app.state.heavy_pool
    for _ in range(2):
        assert client.post(VALIDATE, content=body, headers=JSON).status_code == 200
    assert app.state.heavy_pool is second_pool
    # Killed again: replaced again.
    kill_workers(app)
    assert client.post(VALIDATE, content=body, headers=JSON).status_code == 200


def kill_self(*_args: Any) -> Any:
    """A job that kills the worker running it (pickled by name into the worker)."""
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_pool_that_breaks_again_at_once_is_a_503_with_retry_after(
    pooled: tuple[FastAPI, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body that kills every worker it meets: tried twice, then a 503 (not a 500); the
    next body is answered."""
    from app.api.v1 import heavy

    _app, client = pooled
    monkeypatch.setattr(heavy, "job", kill_self)
    refused = client.post(VALIDATE, content=roster(200), headers=JSON)
    assert refused.status_code == 503, refused.text[:300]
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["errors"][0]["code"] == "heavy_queue_full"
    monkeypatch.undo()
    assert client.post(VALIDATE, content=roster(200), headers=JSON).status_code == 200


class Slow:
    """The No Limits validation of this process, slowed, its bodies' names recorded in the
    order they are computed (HEAVY_PROCESSES=0: computed in a thread of this process)."""

    def __init__(self, system: Any, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
        self.order: list[str] = []
        self.started = threading.Event()
        original = system.validate

        def validate(document: Any) -> BaseModel:
            self.order.append(document.name)
            self.started.set()
            time.sleep(seconds)
            return original(document)  # type: ignore[no-any-return]

        monkeypatch.setattr(system, "validate", validate)


def named(name: str) -> bytes:
    return roster(200).replace(b'"name": "x"', f'"name": "{name}"'.encode(), 1)


async def post_all(app: FastAPI, sends: list[tuple[str, str]]) -> list[httpx.Response]:
    """Each (client address, body name) posted in this order, a little apart, at once."""
    clients = {
        address: httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(address, 1234)),
            base_url="http://testserver",
            timeout=60,
        )
        for address, _name in sends
    }

    async def post(index: int, address: str, name: str) -> httpx.Response:
        await asyncio.sleep(0.05 * index)
        return await clients[address].post(VALIDATE, content=named(name), headers=JSON)

    try:
        return list(await asyncio.gather(*(post(i, a, n) for i, (a, n) in enumerate(sends))))
    finally:
        for client in clients.values():
            await client.aclose()


def test_past_the_queue_a_heavy_body_is_a_503_with_retry_after(
    engine: Engine,
    session: Session,
    systems: dict[str, GameSystem],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HEAVY_QUEUE=2: one body computes, two wait, the fourth is refused at once (a 503
    problem with Retry-After) and nothing of it is computed; the others are answered."""
    slow = Slow(systems["nolimits"], monkeypatch, 0.5)  # before the app binds its routes
    app = heavy_app(engine, session, systems, heavy_processes=0, heavy_queue=2)
    sends = [("10.0.0.1", "a1"), ("10.0.0.2", "b1"), ("10.0.0.3", "c1"), ("10.0.0.4", "d1")]
    answers = in_own_loop(post_all(app, sends))
    assert [answer.status_code for answer in answers] == [200, 200, 200, 503]
    refused = answers[3]
    assert refused.headers["content-type"] == "application/problem+json"
    assert int(refused.headers["retry-after"]) >= 1
    assert refused.json()["errors"][0]["code"] == "heavy_queue_full"
    assert slow.order == ["a1", "b1", "c1"]
    assert app.state.heavy_queue.running == app.state.heavy_queue.queued == 0


def test_one_client_waits_its_share_and_another_goes_before_its_rest(
    engine: Engine,
    session: Session,
    systems: dict[str, GameSystem],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HEAVY_QUEUE_PER_CLIENT=2: a client's third waiting body is refused; another client's
    body, sent after them, is computed before the first client's last one."""
    slow = Slow(systems["nolimits"], monkeypatch, 0.4)
    app = heavy_app(
        engine, session, systems, heavy_processes=0, heavy_queue=8, heavy_queue_per_client=2
    )
    flood = [("10.0.0.1", f"a{n}") for n in range(1, 5)]
    answers = in_own_loop(post_all(app, [*flood, ("10.0.0.2", "b1")]))
    assert [answer.status_code for answer in answers] == [200, 200, 200, 503, 200]
    assert slow.order == ["a1", "a2", "b1", "a3"]


def test_the_queue_hands_slots_client_by_client() -> None:
    """HeavyQueue alone: slots handed in turn, refusals past the bounds, a cancelled waiter
    forgotten."""

    async def scenario() -> list[str]:
        queue = HeavyQueue(slots=1, bound=4, per_client=2)
        order: list[str] = []
        gate = asyncio.Event()

        async def body(client: str, name: str) -> None:
            async with queue.slot(client):
                order.append(name)
                await gate.wait()

        first = asyncio.create_task(body("a", "a1"))
        await asyncio.sleep(0)
        tasks = [asyncio.create_task(body(c, n)) for c, n in [("a", "a2"), ("a", "a3")]]
        await asyncio.sleep(0)
        with pytest.raises(QueueFull):  # a's share (2) is full
            async with queue.slot("a"):
                pass  # pragma: no cover
        late = asyncio.create_task(body("b", "b1"))
        gone = asyncio.create_task(body("c", "c1"))
        await asyncio.sleep(0)
        assert (queue.running, queue.queued) == (1, 4)
        with pytest.raises(QueueFull):  # the whole queue (4) is full
            async with queue.slot("d"):
                pass  # pragma: no cover
        gone.cancel()
        await asyncio.sleep(0)
        assert queue.queued == 3
        gate.set()
        await asyncio.gather(first, *tasks, late)
        assert (queue.running, queue.queued) == (0, 0)
        return order

    assert in_own_loop(scenario()) == ["a1", "a2", "b1", "a3"]
