"""Rate limits where abuse is cheap: creating rosters and shares, writing, guessing tokens.

A pure ASGI middleware matching method + path, so no route changes. Counts live in the
`limits` library's storage: in memory (one process) by default, in Redis when
RATE_LIMIT_STORAGE names one (every worker then shares them). Each limit is per client
address (the ASGI client, which uvicorn takes from X-Forwarded-For for the proxies
FORWARDED_ALLOW_IPS trusts); failed token checks are also counted per roster, and only for
requests that present a token. A roster over its limit refuses wrong tokens, not the right
one. Over a limit: 429 with Retry-After, a problem+json body for programs, a French page for
people, and for an htmx request a message for the page's notice area (answers.py).
If the storage cannot be reached, requests pass (and a warning is logged): a limiter that
is down must not take the site with it.
"""

import asyncio
import logging
import math
import pickle
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db import WRITTEN
from app.security.answers import refuse
from app.security.body import form_field, read_body, replay
from app.security.routes import FAILED, checked_id, counted, presents_token

log = logging.getLogger("caserne.ratelimit")


@dataclass(frozen=True)
class Limits:
    """The limits in force, in the `limits` notation ("30/minute;200/hour"; "" = none): the
    settings' rate_limit_* (app/settings.py holds their defaults and what each counts)."""

    create: str
    share: str
    write: str
    key: str
    failed_auth: str
    failed_auth_roster: str
    stored: str  # KiB of JSON documents stored, charged once each counted route has answered


# Limits whose windows are fixed rather than moving: the byte budget is charged hundreds
# of units at a time, which a moving window keeps as one timestamp each.
FIXED_WINDOW = frozenset({"stored"})


def open_storage(uri: str) -> Storage:
    """An async `limits` storage: "memory://", or "redis://host:port/db" (redis-py)."""
    if uri.startswith(("redis://", "rediss://", "redis+unix://")):
        storage = storage_from_string(f"async+{uri}", implementation="redispy")
    elif uri.startswith("async+"):
        storage = storage_from_string(uri)
    else:
        storage = storage_from_string(f"async+{uri}")
    if not isinstance(storage, Storage):  # pragma: no cover (the prefix makes it async)
        raise ValueError(f"not an async storage: {uri!r}")
    return storage


class RateLimits:
    """429 once a client (or a roster's guessers) goes over a limit."""

    def __init__(
        self, app: ASGIApp, *, storage: str, limits: Limits, key_prefix: str = "caserne"
    ) -> None:
        self.app = app
        self.storage_uri = storage
        self.storage = open_storage(storage)
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.fixed = FixedWindowRateLimiter(self.storage)
        # A network storage's connections belong to the event loop that opened them.
        self.loop: asyncio.AbstractEventLoop | None = None
        self.prefix = key_prefix
        self.items: dict[str, list[RateLimitItem]] = {
            kind: parse_many(spec) if spec.strip() else [] for kind, spec in vars(limits).items()
        }
        self.storage_down_since: float | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, self._closing_at_shutdown(send))
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self._bind_to_running_loop()
        method: str = scope["method"]
        path: str = scope["path"]
        client = scope["client"][0] if scope.get("client") else "unknown"
        thing = checked_id(path)
        failed_keys: list[tuple[str, str]] = []
        locked = 0
        if thing is not None and presents_token(scope, thing):
            # Only a request that presents a secret can fail a check: a plain visit (no
            # token) is answered 401/403 and counted nowhere.
            failed_keys = [("failed_auth", client)]
            if thing:
                failed_keys.append(("failed_auth_roster", thing))
            wait = await self._exhausted(failed_keys[:1])
            if wait:  # this client guessed too often: refused before any check
                await self._refuse(scope, receive, send, wait, "failed_auth")
                return
            # Too many guesses on this roster, from anywhere: the right token still opens
            # it (slow the guessers, not the owner); a wrong one gets 429, not 401/403.
            locked = await self._exhausted(failed_keys[1:])
        routes = counted(method, path)
        if any(route.action for route in routes):
            body, messages = await read_body(receive)
            receive = replay(messages, receive)
            action = await form_field(scope, body, "action")
            routes = [r for r in routes if r.action is None or r.action == action]
        for route in routes:
            wait = await self._hit(route.kind, client)
            if wait:
                await self._refuse(scope, receive, send, wait, route.kind)
                return
        if routes:
            wait = await self._exhausted([("stored", client)])
            if wait:
                await self._refuse(scope, receive, send, wait, "stored")
                return
        written: list[int] = []
        reset = WRITTEN.set(written)
        try:
            await self._answer(scope, receive, send, failed_keys, locked)
        finally:
            WRITTEN.reset(reset)
            if written:
                await self._charge_stored(client, sum(written))

    async def _answer(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        failed_keys: list[tuple[str, str]],
        locked: int,
    ) -> None:
        """The app's answer; its 401/403 counted as failed checks when a secret was staked."""
        if not failed_keys:
            await self.app(scope, receive, send)
            return

        refused = False

        async def counting_failures(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] in FAILED:
                for kind, key in failed_keys:
                    await self._hit(kind, key)
                if locked:
                    refused = True
                    await self._refuse(scope, receive, send, locked, "failed_auth")
                    return
            if not refused:  # the body of a failed check on a locked roster is dropped
                await send(message)

        await self.app(scope, receive, counting_failures)

    async def _charge_stored(self, client: str, written: int) -> None:
        """Charges the KiB a request stored to its client's byte budget."""
        cost = math.ceil(written / 1024)
        for item in self.items["stored"]:
            await self._storage_call(self.fixed.hit(item, self.prefix, "stored", client, cost=cost))

    def _bind_to_running_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        if self.loop is not None:
            # Another event loop (a second test client, an app restarted in one process):
            # a network storage's connections, and the memory storage's asyncio locks and
            # expiry task, belong to the old loop; waiting on them from this one can hang.
            self.storage = self._storage_for_this_loop()
            self.limiter = MovingWindowRateLimiter(self.storage)
            self.fixed = FixedWindowRateLimiter(self.storage)
        self.loop = loop

    def _storage_for_this_loop(self) -> Storage:
        """A network storage opened again; the memory storage copied through its pickling
        protocol (`limits` keeps the counts and drops the locks and the expiry task, which
        it makes anew in the running loop), so the counts carry over."""
        if self.storage_uri.startswith("memory") or self.storage_uri.startswith("async+memory"):
            copied: Storage = pickle.loads(pickle.dumps(self.storage))
            return copied
        return open_storage(self.storage_uri)

    def _closing_at_shutdown(self, send: Send) -> Send:
        async def closing(message: Message) -> None:
            if message["type"] == "lifespan.shutdown.complete":
                await self.close()
            await send(message)

        return closing

    async def close(self) -> None:
        """Closes a network storage's connections (from the loop that opened them)."""
        if self.loop is not asyncio.get_running_loop():
            return
        client = getattr(getattr(self.storage, "bridge", None), "storage", None)
        if client is not None and hasattr(client, "aclose"):
            await client.aclose()
        self.loop = None

    async def _hit(self, kind: str, key: str) -> int:
        """Counts one request; the seconds to wait when that went over a limit, else 0."""
        for item in self.items[kind]:
            if not await self._storage_call(self.limiter.hit(item, self.prefix, kind, key)):
                return await self._retry_after(item, kind, key)
        return 0

    async def _exhausted(self, keys: Sequence[tuple[str, str]]) -> int:
        """The seconds to wait when one of these counters is already at its limit, else 0."""
        for kind, key in keys:
            limiter = self.fixed if kind in FIXED_WINDOW else self.limiter
            for item in self.items[kind]:
                if not await self._storage_call(limiter.test(item, self.prefix, kind, key)):
                    return await self._retry_after(item, kind, key)
        return 0

    async def _retry_after(self, item: RateLimitItem, kind: str, key: str) -> int:
        limiter = self.fixed if kind in FIXED_WINDOW else self.limiter
        try:
            stats = await limiter.get_window_stats(item, self.prefix, kind, key)
        except Exception:
            return item.get_expiry()
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def _storage_call(self, call: Awaitable[bool]) -> bool:
        """The storage's answer; True (let it pass) when the storage fails."""
        try:
            allowed = await call
        except Exception as exc:
            if self.storage_down_since is None:
                log.warning("rate limit storage unreachable, limits not enforced: %s", exc)
                self.storage_down_since = time.monotonic()
            return True
        if self.storage_down_since is not None:
            log.warning("rate limit storage reachable again, limits enforced")
            self.storage_down_since = None
        return allowed

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, wait: int, kind: str
    ) -> None:
        what = {
            "create": "creations (lists, carnets, books, campaigns and copies)",
            "share": "shares",
            "write": "writes",
            "key": "carnet key changes",
            "stored": "stored bytes",
            "failed_auth": "failed secret checks",
        }[kind]
        await refuse(
            scope,
            receive,
            send,
            status=429,
            code="rate_limited",
            detail=f"Too many {what} from this client: retry in {wait} s.",
            page_detail=f"Trop de requêtes d'un coup. Réessayez dans {_french_delay(wait)}.",
            headers={"Retry-After": str(wait)},
        )


def _french_delay(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} seconde{'s' if seconds > 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minutes"
