"""Server CPU of one editor save, for each system (issue 19).

For each system, stores a list of N entries (its first example's entries repeated) in a
carnet, reads its editor page as its owner and sends count changes the way the page does
(the whole form, the HTMX headers, the version of the last answer), in-process
(TestClient, SQLite file): a count change posts the counts and the version to
/r/{id}/nombres, as static/caserne.js does, or with --whole the whole form to /r/{id}, as
every other change does. Prints the CPU milliseconds of one save: the server's (the
thread CPU time of the app's call, the route run inline on that thread) and the whole
process's (time.process_time: the test client's own work too), both steadier than wall
time on a busy machine, the wall median and the load average. With --profile (needs
`pip install pyinstrument`, not a project dependency) prints the profile of the saves.
Prints figures; it is not a test.

    .venv/bin/python bench/editor_bench.py [--saves 40] [--system infinity] [--profile]
"""

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi.testclient import TestClient
from http_bench import FormFields  # bench/ is on the path: this script's folder

from app.cli import migrate
from app.main import create_app, settle_heap
from app.settings import Settings

SIZES = {"dcsystem": 50, "infinity": 45, "nolimits": 50, "bastos": 50, "necrowarzone": 50}
COUNT_FIELD = re.compile(r"entry-\d+-count")
WHOLE_FORM = False  # --whole: the whole form's save (any other change: a name, an option)
VERSION = re.compile(r'name="version"[^>]*value="(\d+)"|value="(\d+)"[^>]*name="version"')


def long_list(systems: Any, system_id: str, size: int) -> dict[str, Any]:
    """The system's first example, its entries repeated up to `size` entries."""
    example = systems[system_id].example_rosters()[0]
    document = dict(example.document)
    entries = list(document["entries"])
    document["entries"] = [dict(entries[i % len(entries)]) for i in range(size)]
    document["points_limit"] = 100000
    return document


def seed(
    client: TestClient, app: Any, system_id: str, size: int
) -> tuple[str, dict[str, str], list[tuple[str, str]]]:
    carnet = client.post("/api/v1/carnets").json()
    made = client.post(
        f"/api/v1/carnets/{carnet['id']}/rosters",
        json=long_list(app.state.systems, system_id, size),
        headers={"Authorization": f"Bearer {carnet['key']}"},
    )
    if made.status_code != 201:
        sys.exit(f"{system_id}: could not store the list: {made.status_code} {made.text[:300]}")
    path = f"/r/{made.json()['id']}"
    cookie = f"caserne_carnet={carnet['id']}.{carnet['key']}"
    page = client.get(path, headers={"Cookie": cookie})
    parser = FormFields("editor")
    parser.feed(page.text)
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": cookie,
        "Sec-Fetch-Site": "same-origin",
        "HX-Request": "true",
        "HX-Target": "editor",
        "HX-Trigger": "entry-0-count",
    }
    return path, headers, parser.fields


@contextmanager
def inline_routes() -> Iterator[None]:
    """Everything the app sends to the thread pool (sync routes, sync dependencies such as
    the editable list's lookup, the session's closing) runs on the event loop's thread
    instead, so that one thread does all of a request's server work (one profiler, one
    thread clock sees it). The trips to the pool and back are not counted: under uvicorn
    they cost more (http_bench.py's `counts` scenario)."""
    import anyio.to_thread

    pooled = anyio.to_thread.run_sync

    async def inline(func: Any, *args: Any, **_options: Any) -> Any:
        return func(*args)

    anyio.to_thread.run_sync = inline  # type: ignore[assignment]
    try:
        yield
    finally:
        anyio.to_thread.run_sync = pooled


class Timed:
    """The app, with the thread CPU time spent in its calls added up in `cpu`."""

    def __init__(self, app: Any) -> None:
        self.app, self.cpu = app, 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        start = time.thread_time()
        try:
            await self.app(scope, receive, send)
        finally:
            self.cpu += time.thread_time() - start


def saves(
    client: TestClient,
    path: str,
    headers: dict[str, str],
    fields: list[tuple[str, str]],
    n: int,
    before_each: Any = None,
) -> tuple[float, list[float]]:
    """`n` count changes on row 0 (1 <-> 2), each based on the last answer's version (kept
    in `fields` for the next call); `before_each()` before each, when given
    (history_bench.py ages the list's versions)."""
    version = dict(fields)["version"]
    kept = [(k, v) for k, v in fields if k not in ("version", "entry-0-count")]
    if WHOLE_FORM:  # as static/caserne.js sends it while the page shows what was drawn
        target = path
        kept = [(k, v) for k, v in kept if k != "shown"] + [("shown", "1")]
    else:  # what static/caserne.js sends for a count change: the counts and the version
        target = f"{path}/nombres"
        kept = [(k, v) for k, v in kept if k == "csrf" or COUNT_FIELD.fullmatch(k)]
    cpu = 0.0
    walls = []
    for i in range(n):
        if before_each is not None:
            before_each()
        body = urlencode([*kept, ("entry-0-count", str(1 + i % 2)), ("version", version)])
        start_cpu, start = time.process_time(), time.perf_counter()
        answer = client.post(target, content=body, headers=headers)
        walls.append(time.perf_counter() - start)
        cpu += time.process_time() - start_cpu
        if answer.status_code != 200:
            sys.exit(f"{path}: save {i} answered {answer.status_code}: {answer.text[:300]}")
        match = VERSION.search(answer.text)
        if match is None:
            sys.exit(f"{path}: no version in the answer")
        version = match.group(1) or match.group(2)
    fields[:] = [*kept, ("version", version)]
    return cpu / n, walls


def profile(
    client: TestClient, path: str, headers: dict[str, str], fields: list[tuple[str, str]], n: int
) -> None:
    """pyinstrument's profile of `n` saves, server side: the route's thread-pool call runs
    inline on the event loop's thread, and the profiler samples that thread during each
    request."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005, async_mode="disabled")
    inner = client.app

    async def profiled(scope: Any, receive: Any, send: Any) -> None:
        profiler.start()
        try:
            await inner(scope, receive, send)  # type: ignore[operator]
        finally:
            profiler.stop()

    with inline_routes():
        saves(TestClient(profiled), path, headers, fields, n)
    print(profiler.output_text(unicode=True, color=False, flat=True, flat_time="total"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--system", choices=sorted(SIZES), action="append")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--whole", action="store_true", help="send the whole form, as any change but a count"
    )
    args = parser.parse_args()
    global WHOLE_FORM
    WHOLE_FORM = args.whole
    chosen = args.system or list(SIZES)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        migrate(url)
        settings = Settings(database_url=url, rate_limit_create="", rate_limit_write="")
        app = create_app(settings)
        app.openapi()  # as app/asgi.py serves it
        settle_heap()
        with TestClient(app) as client:
            for system_id in chosen:
                path, headers, fields = seed(client, app, system_id, SIZES[system_id])
                saves(client, path, headers, fields, 3)  # warm-up: caches, first renders
                if args.profile:
                    profile(client, path, headers, fields, args.saves)
                timed = Timed(app)
                with inline_routes():
                    cpu, walls = saves(TestClient(timed), path, headers, fields, args.saves)
                load = " ".join(f"{figure:.2f}" for figure in os.getloadavg())
                print(
                    f"{system_id:<13} {SIZES[system_id]} entries: "
                    f"server {timed.cpu / args.saves * 1000:5.1f} cpu ms/save "
                    f"(process {cpu * 1000:5.1f}), wall median "
                    f"{statistics.median(walls) * 1000:6.1f} ms ({args.saves} saves), "
                    f"load average {load}"
                )
        app.state.engine.dispose()


if __name__ == "__main__":
    main()
