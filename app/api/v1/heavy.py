"""Heavy calculations in worker processes (HEAVY_PROCESSES > 0).

A validation of a large roster holds the GIL for tens to hundreds of milliseconds: in a
thread (the default, HEAVY_PROCESSES=0) it still slows every other request of the serving
process, `/healthz` included. In a `ProcessPoolExecutor` worker it costs the serving
process only the copy of the body and of the answer. The workers compute with the
registered systems (app/systems/registry.py), loaded once in each worker.
"""

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from fastapi.exceptions import RequestValidationError

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


def job(system_id: str, name: str, body: bytes) -> tuple[bytes | None, list[dict[str, Any]], Any]:
    """In a worker: (the answer's JSON, [], None), or (None, the validation errors, the
    parsed body) — plain data, which crosses the process boundary (pydantic's errors hold
    exceptions that need not)."""
    from app.api.v1.systems import _computed

    model, compute = _calculation(system_id, name)
    try:
        return _computed(body, model, compute), [], None
    except RequestValidationError as invalid:
        errors = [
            {
                "type": str(e.get("type", "")),
                "loc": tuple(e.get("loc", ())),
                "msg": str(e.get("msg", "")),
            }
            for e in invalid.errors()
        ]
        return None, errors, invalid.body


async def computed(executor: ProcessPoolExecutor, system_id: str, name: str, body: bytes) -> bytes:
    """`name` of `system_id` on `body` in a worker; RequestValidationError as in a thread."""
    loop = asyncio.get_running_loop()
    answer, errors, document = await loop.run_in_executor(executor, job, system_id, name, body)
    if answer is None:
        raise RequestValidationError(errors, body=document)
    return answer
