"""Heavy calculations in worker processes (HEAVY_PROCESSES > 0).

A validation of a large roster holds the GIL for tens to hundreds of milliseconds: in a
thread (the default, HEAVY_PROCESSES=0) it still slows every other request of the serving
process, `/healthz` included. In a `ProcessPoolExecutor` worker it costs the serving
process only the copy of the body and of the answer's bytes: a worker answers bytes (the
result's JSON or the 422 problem, gzip-compressed there when the client accepts it), never
a parsed document. The workers compute with the registered systems
(app/systems/registry.py), loaded once in each worker.
"""

import asyncio
import logging
import math
import multiprocessing
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from typing import Any

from fastapi.exceptions import RequestValidationError
from starlette.responses import Response

from app.api.v1.bodies import computed
from app.middleware import GZIP_MINIMUM_BYTES, gzipped
from app.problems import PROBLEM_TYPE, ApiError, FieldError, validation_problem

logger = logging.getLogger("caserne.heavy")

# Filled in each worker process at its first job.
_systems: dict[str, Any] | None = None

# The calculations a worker knows: each system's own cost, validate and score.
OFFLOADED = ("cost", "validate", "score")


def pool(processes: int) -> ProcessPoolExecutor | None:
    """The pool, or None (heavy bodies then go to a thread). `spawn`: the serving process
    runs threads, which a fork would copy in an unknown state."""
    if processes <= 0:
        return None
    return ProcessPoolExecutor(
        max_workers=processes, mp_context=multiprocessing.get_context("spawn")
    )


def _calculation(system_id: str, name: str) -> tuple[Any, Any]:
    global _systems
    if _systems is None:
        from app.catalogues import load_systems

        _systems = load_systems()
    system = _systems[system_id]
    return {
        "cost": (system.unit_model, system.cost),
        "validate": (system.roster_model, system.validate),
        "score": (system.score_model, system.score),
    }[name]


def job(system_id: str, name: str, body: bytes, gzip: bool) -> tuple[int, bytes, bool]:
    """In a worker: the answer's status, its bytes (the result's JSON, or the 422 problem a
    thread would answer) and whether they are gzip-compressed, as GZipMiddleware would have
    done it (`gzip`: the client accepts it). Only bytes cross the process boundary: the
    serving process neither unpickles a parsed document (an invalid 0.9 MB body's echo)
    nor compresses a 4 MB answer (31 ms of CPU), it sends what it gets."""
    model, compute = _calculation(system_id, name)
    try:
        status, answer = 200, computed(body, model, compute)
    except RequestValidationError as invalid:
        status, answer = 422, bytes(validation_problem(invalid.errors(), invalid.body).body)
    if gzip and len(answer) >= GZIP_MINIMUM_BYTES:
        return status, gzipped(answer), True
    return status, answer, False


async def answered(state: Any, system_id: str, name: str, body: bytes, gzip: bool) -> Response:
    """`name` of `system_id` on `body` in a worker of `state.heavy_pool` (the app's state):
    the answer a thread would give (a 422 problem for an invalid body), compressed there
    when `gzip` (the client accepts it).

    A worker that died (the OOM killer's SIGKILL) breaks the whole pool: every later job
    failed with BrokenProcessPool, a 500, until a restart (issue 25, item 7). The broken
    pool is replaced by a new one and the body tried once more there; when that one breaks
    too (the body itself may be what kills a worker), a 503 with Retry-After."""
    loop = asyncio.get_running_loop()
    for _attempt in range(2):
        executor = state.heavy_pool
        try:
            status, answer, compressed = await loop.run_in_executor(
                executor, job, system_id, name, body, gzip
            )
            break
        except BrokenProcessPool:
            rebuild(state, executor)
    else:
        raise busy(1)
    media_type = "application/json" if status == 200 else PROBLEM_TYPE
    # GZipMiddleware lets an encoded answer pass; it would have added the Vary header.
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"} if compressed else None
    return Response(answer, status_code=status, media_type=media_type, headers=headers)


def rebuild(state: Any, broken: ProcessPoolExecutor) -> None:
    """A new pool in place of `broken`, once: the other jobs it failed find it replaced."""
    if state.heavy_pool is broken:
        logger.warning("a heavy worker process died: its pool is replaced")
        state.heavy_pool = pool(state.settings.heavy_processes)
        broken.shutdown(wait=False, cancel_futures=True)


class QueueFull(Exception):
    """No room for one more heavy body (all, or this client's share): a 503."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(retry_after)


class HeavyQueue:
    """Who computes a heavy body next, and how many may wait (issue 25, item 7: 300 queued
    0.9 MB validations from one client made another's wait 71.8 s and grew the process
    119 -> 385 MB). `slots` bodies compute at once (the worker processes, or the one thread
    of HEAVY_PROCESSES=0); at most `bound` more wait, at most `per_client` of them from one
    client address; past either, QueueFull (a 503 with Retry-After). A freed slot goes to
    the clients in turn (round robin), not in arrival order: another client's body waits
    for at most one body of each client ahead of it, however many those sent. Lives on the
    event loop: no lock."""

    def __init__(self, slots: int, bound: int, per_client: int) -> None:
        self.slots = max(slots, 1)
        self.bound = bound
        self.per_client = max(min(per_client, bound), 1) if bound else 0
        self.running = 0
        self.queued = 0
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._seconds = 0.3  # a moving mean of one body's time (the largest list's order)

    def retry_after(self) -> int:
        """Whole seconds until the bodies ahead are likely done (at least 1)."""
        ahead = (self.queued + self.running) / self.slots
        return max(1, math.ceil(ahead * self._seconds))

    @asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """Held while one body of `client` computes; QueueFull when it may not wait."""
        if self.running < self.slots and not self.queued:
            self.running += 1
        else:
            waiting = self._waiting.get(client)
            if self.queued >= self.bound or len(waiting or ()) >= self.per_client:
                raise QueueFull(self.retry_after())
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(client, deque()).append(waiter)
            self.queued += 1
            try:
                await waiter  # resolved by _release: the slot is handed over, running kept
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():
                    self._release()  # handed a slot just as it was cancelled: pass it on
                else:
                    self._forget(client, waiter)
                raise
        started = time.monotonic()
        try:
            yield
        finally:
            self._seconds += (time.monotonic() - started - self._seconds) / 8
            self._release()

    def _forget(self, client: str, waiter: asyncio.Future[None]) -> None:
        waiting = self._waiting.get(client)
        if waiting is not None and waiter in waiting:
            waiting.remove(waiter)
            self.queued -= 1
            if not waiting:
                del self._waiting[client]

    def _release(self) -> None:
        """The slot to the next client in turn, or free."""
        if not self._waiting:
            self.running -= 1
            return
        client, waiting = next(iter(self._waiting.items()))
        waiter = waiting.popleft()
        self.queued -= 1
        if waiting:
            self._waiting.move_to_end(client)  # its next body after the other clients'
        else:
            del self._waiting[client]
        waiter.set_result(None)


def queue_of(settings: Any) -> HeavyQueue:
    """The app's heavy queue: one slot per worker process (one thread with none)."""
    return HeavyQueue(
        settings.heavy_processes, settings.heavy_queue, settings.heavy_queue_per_client
    )


def busy(retry_after: int) -> ApiError:
    return ApiError(
        503,
        "Too many large bodies are waiting to be computed: retry after "
        f"{retry_after} s (Retry-After).",
        errors=[FieldError(loc=["body"], msg="heavy queue full", code="heavy_queue_full")],
        headers={"Retry-After": str(retry_after)},
    )
