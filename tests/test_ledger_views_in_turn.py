"""Issue 25, item 1: four public views of a long ledger at once held the GIL and stalled every
other request (a roster read's p99 183 ms with four 1,000-line views running,
bench/ledger_bench.py). LedgerViewsInTurn lets one ledger view run at a time per process
(the others wait on the event loop, holding no thread); other requests pass at once."""

import asyncio
import threading
from typing import Any

from app.middleware import LedgerViewsInTurn


class Slow:
    """An app that records how many requests it serves at once."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0
        self.paths: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.now += 1
        self.most = max(self.most, self.now)
        await asyncio.sleep(0.01)
        self.paths.append(scope["path"])
        self.now -= 1


def served_at_once(paths: list[str], method: str = "GET") -> tuple[int, list[str]]:
    inner = Slow()
    gated = LedgerViewsInTurn(inner)

    async def run() -> None:
        scopes = [{"type": "http", "method": method, "path": path} for path in paths]
        await asyncio.gather(*(gated(scope, None, None) for scope in scopes))

    # A loop of its own in a thread of its own: a browser test of the same worker may have
    # left one running in this thread (asyncio.run would refuse).
    worker = threading.Thread(target=asyncio.run, args=(run(),))
    worker.start()
    worker.join()
    return inner.most, inner.paths


def test_ledger_views_run_one_at_a_time_in_arrival_order() -> None:
    views = [f"/campagne/gang/code{n}" for n in range(4)] + ["/api/v1/rosters/r1/battles"]
    most, order = served_at_once(views)
    assert most == 1
    assert order == views


def test_other_requests_are_not_held() -> None:
    others = ["/api/v1/rosters/r1", "/s/abc", "/campagne/gang/x/y", "/api/v1/rosters/r1/shares"]
    assert served_at_once(others)[0] == len(others)
    # A write to the battles (recording a line) is no view: not held either.
    assert served_at_once(["/api/v1/rosters/r1/battles"] * 3, method="POST")[0] == 3


def test_each_event_loop_has_its_own_turn() -> None:
    """A test client (or a worker) runs a loop of its own: the gate is per loop, so a second
    loop neither waits on the first nor fails on a gate bound to it."""
    assert served_at_once(["/campagne/gang/a"] * 2)[0] == 1
    assert served_at_once(["/campagne/gang/a"] * 2)[0] == 1
