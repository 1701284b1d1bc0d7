"""Where `POST /api/v1/systems/<id>/validate`'s CPU goes with a new body each request (issue
19), in-process, per system: the list of http_bench.py's `validate` scenario for DCSystem
(50 entries, a third of them custom fighters), the first example repeated to 50 entries
(Infinity 45) for the others, its name changed at every call (every entry remembered by
the engine, as after an editor's save). Medians of CPU milliseconds per call
(time.process_time) for:

* `parse`: the body into the roster model (`model_validate_json`, the route's own call);
* `engine`: `validate` of the parsed roster;
* `write`: the answer's bytes as the route writes them (app/systems/result_json.py);
* `whole`: the same bytes from pydantic's `to_json` of the whole result, for comparison;
* `route` and `healthz`: the app called as an ASGI application for that body and for
  `GET /healthz` (middleware, routing, the answer memory's lookup; no HTTP server), and
  their ratio: what the route alone allows http_bench.py's ratio to be at most.

Prints figures; it is not a test.

    .venv/bin/python bench/validate_bench.py [--calls 2000] [--system dcsystem]
"""

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from editor_bench import SIZES, long_list  # bench/ is on the path: this script's folder
from engine_bench import median_ms
from http_bench import validate_roster

from app.main import create_app, settle_heap
from app.settings import Settings
from app.systems.result_json import result_json

Scope = dict[str, Any]


async def median_ms_async(calls: int, call: Callable[[int], Awaitable[object]]) -> float:
    times = []
    for i in range(calls):
        start = time.process_time()
        await call(i)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def asgi_call(app: Any, method: str, path: str, body: bytes = b"") -> Awaitable[int]:
    """One request to the app as uvicorn would make it; returns the status."""
    headers = [(b"host", b"127.0.0.1:8000")]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    messages = iter([{"type": "http.request", "body": body, "more_body": False}])
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        return next(messages, {"type": "http.disconnect"})

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    async def call() -> int:
        await app(scope, receive, send)
        return status[0]

    return call()


def document_of(systems: Any, system_id: str) -> dict[str, Any]:
    if system_id == "dcsystem":
        return validate_roster()
    return long_list(systems, system_id, SIZES[system_id])


def measure(app: Any, system_id: str, calls: int) -> dict[str, float]:
    system = app.state.systems[system_id]
    document = document_of(app.state.systems, system_id)
    # Two sets of new bodies: the stages' and the route's (its answer memory never answers).
    bodies = [
        json.dumps({**document, "name": f"Bench validate {i}"}).encode()
        for i in range(2 * calls + 1)
    ]
    model = system.roster_model
    rosters = [model.model_validate_json(body) for body in bodies[:calls]]
    system.validate(rosters[0])  # the engine remembers the list's entries
    results = [system.validate(roster) for roster in rosters]
    result_json(results[0])
    figures = {
        "parse": median_ms(calls, lambda i: model.model_validate_json(bodies[i])),
        "engine": median_ms(calls, lambda i: system.validate(rosters[i])),
        "write": median_ms(calls, lambda i: result_json(results[i])),
        "whole": median_ms(calls, lambda i: results[i].__pydantic_serializer__.to_json(results[i])),
    }
    path = f"/api/v1/systems/{system_id}/validate"

    async def routes() -> None:
        async with app.router.lifespan_context(app):
            if await asgi_call(app, "POST", path, bodies[calls]) != 200:
                raise SystemExit(f"{path} did not answer 200")
            figures["route"] = await median_ms_async(
                calls, lambda i: asgi_call(app, "POST", path, bodies[calls + 1 + i])
            )
            figures["healthz"] = await median_ms_async(
                calls, lambda i: asgi_call(app, "GET", "/healthz")
            )

    asyncio.run(routes())
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--system", choices=sorted(SIZES), action="append")
    args = parser.parse_args()
    if not 10 <= args.calls <= 100_000:
        parser.error("--calls: between 10 and 100000")
    app = create_app(Settings(database_url="sqlite://", rate_limit_write=""))
    settle_heap()
    columns = ("parse", "engine", "write", "whole", "route", "healthz")
    print(f"{'system':<13} {'entries':>7} " + " ".join(f"{c:>7}" for c in columns) + "   ratio")
    for system_id in args.system or list(SIZES):
        figures = measure(app, system_id, args.calls)
        size = len(document_of(app.state.systems, system_id)["entries"])
        row = " ".join(f"{figures[c]:>7.3f}" for c in columns)
        print(f"{system_id:<13} {size:>7} {row}   {figures['healthz'] / figures['route']:.2f}")
    load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"cpu ms per call (median of {args.calls}), load average {load}")


if __name__ == "__main__":
    main()
