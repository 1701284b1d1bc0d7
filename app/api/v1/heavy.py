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
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from fastapi.exceptions import RequestValidationError
from starlette.responses import Response

from app.middleware import GZIP_MINIMUM_BYTES, gzipped
from app.problems import PROBLEM_TYPE, validation_problem

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
    from app.api.v1.systems import _computed

    model, compute = _calculation(system_id, name)
    try:
        status, answer = 200, _computed(body, model, compute)
    except RequestValidationError as invalid:
        status, answer = 422, bytes(validation_problem(invalid.errors(), invalid.body).body)
    if gzip and len(answer) >= GZIP_MINIMUM_BYTES:
        return status, gzipped(answer), True
    return status, answer, False


async def answered(
    executor: ProcessPoolExecutor, system_id: str, name: str, body: bytes, gzip: bool
) -> Response:
    """`name` of `system_id` on `body` in a worker: the answer a thread would give (a 422
    problem for an invalid body), compressed there when `gzip` (the client accepts it)."""
    loop = asyncio.get_running_loop()
    status, answer, compressed = await loop.run_in_executor(
        executor, job, system_id, name, body, gzip
    )
    media_type = "application/json" if status == 200 else PROBLEM_TYPE
    # GZipMiddleware lets an encoded answer pass; it would have added the Vary header.
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"} if compressed else None
    return Response(answer, status_code=status, media_type=media_type, headers=headers)
