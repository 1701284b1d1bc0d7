"""The in-memory rate limit storage across event loops (two test clients of one app, or an
app restarted in one process): the counts carry over, and nothing the old loop held (a lock,
the storage's expiry task) can make the new loop wait.

Found in CI: a second TestClient on the same app hung forever (no CPU) in
tests/web/test_library.py, waiting on a lock the first client's loop held when it closed.
"""

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any

from limits import parse

from app.security.ratelimit import Limits, RateLimits

NONE = Limits(
    create="", share="", write="", key="", failed_auth="", failed_auth_roster="", stored=""
)


async def _ok(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover (not called)
    raise AssertionError


def in_a_loop_of_its_own(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Runs a coroutine with asyncio.run in a thread of its own (a browser test may have left
    a loop running in this worker's main thread); its result, or its exception raised."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "the event loop hung"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def test_a_new_loop_keeps_the_counts_and_never_waits_on_the_old_ones_locks() -> None:
    limits = RateLimits(_ok, storage="memory://", limits=NONE)
    item = parse("3/minute")

    async def first_loop() -> bool:
        limits._bind_to_running_loop()
        allowed = await limits.limiter.hit(item, "caserne", "create", "client")
        # The old loop ends while something of its own holds the key's lock (the storage's
        # expiry task does, across an await, when the loop is closed under it).
        for lock in list(limits.storage.locks.values()):  # type: ignore[attr-defined]
            await lock.acquire()
        return allowed

    async def second_loop() -> list[bool]:
        limits._bind_to_running_loop()
        hits = [
            await asyncio.wait_for(limits.limiter.hit(item, "caserne", "create", "client"), 2)
            for _ in range(3)
        ]
        return hits

    assert in_a_loop_of_its_own(first_loop()) is True
    # 3/minute: the first loop's hit counts, so the third in the second loop is refused.
    assert in_a_loop_of_its_own(second_loop()) == [True, True, False]
