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
import re
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db import WRITTEN
from app.security.answers import refuse
from app.security.body import form_field, read_body, replay
from app.security.tokens import carries_secret
from app.web.access import COOKIE_PREFIX

log = logging.getLogger("caserne.ratelimit")


@dataclass(frozen=True)
class Route:
    """Requests a limit counts: a method, a path (a route's template, `{name}` standing for
    one segment), and maybe the `action` form field's value, when only it tells."""

    kind: str  # a field of Limits: "create", "share", "write", "key"
    method: str
    template: str
    action: str | None = None

    @property
    def path(self) -> re.Pattern[str]:
        return _compiled(self.template)


@lru_cache(maxsize=256)
def _compiled(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile(
        "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts if part)
    )


# Every unsafe route of the app that creates, stores, publishes or checks a secret, with the
# limit that counts it (README « Rate limits » shows this table; tests/security/
# test_route_limits.py walks the app's routes: one that is neither here nor in COMPUTE_ONLY
# fails it). A route may be counted by several limits. Counted before the route runs, so
# a refused or failed request counts too.
ROUTES: tuple[Route, ...] = (
    # New rosters, carnets, books and campaigns, and every copy of one.
    Route("create", "POST", "/api/v1/rosters"),
    Route("create", "POST", "/api/v1/carnets"),
    Route("create", "POST", "/api/v1/carnets/{carnet_id}/rosters"),
    Route("create", "POST", "/api/v1/books"),
    Route("create", "POST", "/api/v1/campaigns"),
    Route("create", "POST", "/listes"),  # the home page's « Nouvelle liste »
    Route("create", "POST", "/listes/nouvelle"),  # « Mes listes »' « Nouvelle liste »
    Route("create", "POST", "/listes/ajouter"),
    Route("create", "POST", "/listes/{roster_id}/dupliquer"),
    Route("create", "POST", "/{system}/createur/ajouter"),
    Route("create", "POST", "/s/{code}/dupliquer"),
    Route("create", "POST", "/livres"),
    Route("create", "POST", "/a/{code}/dupliquer"),
    Route("create", "POST", "/livres/exemples/{system}/dupliquer"),
    Route("create", "POST", "/campagnes/nouvelle"),
    Route(
        "create", "POST", "/r/{roster_id}/modifier"
    ),  # an edit link's « Ouvrir » (may make a carnet)
    # New shares (snapshots): of a list, of a book (« Publier »; adding a book's unit to a
    # list publishes the book's current state).
    Route("share", "POST", "/api/v1/rosters/{roster_id}/shares"),
    Route("share", "POST", "/r/{roster_id}", action="share"),
    Route("share", "POST", "/api/v1/books/{book_id}/shares"),
    Route("share", "POST", "/livres/{book_id}/publier"),
    Route("share", "POST", "/livres/{book_id}/unites/{unit_id}/ajouter"),
    # Writes to what exists: lists, books, carnets, campaigns, ledgers.
    Route("write", "PUT", "/api/v1/rosters/{roster_id}"),
    Route("write", "DELETE", "/api/v1/rosters/{roster_id}"),
    Route("write", "POST", "/api/v1/rosters/{roster_id}/updates"),
    Route("write", "POST", "/api/v1/rosters/{roster_id}/battles"),
    Route("write", "PUT", "/api/v1/books/{book_id}"),
    Route("write", "DELETE", "/api/v1/books/{book_id}"),
    Route("write", "PUT", "/api/v1/carnets/{carnet_id}/rosters/{roster_id}"),
    Route("write", "DELETE", "/api/v1/carnets/{carnet_id}/rosters/{roster_id}"),
    Route("write", "POST", "/api/v1/campaigns/{campaign_id}/gangs"),
    Route("write", "POST", "/r/{roster_id}"),
    Route("write", "POST", "/r/{roster_id}/nombres"),  # a count change (issue 19)
    Route("write", "POST", "/r/{roster_id}/livres"),
    Route("write", "POST", "/r/{roster_id}/livres/ajouter"),
    Route("write", "POST", "/r/{roster_id}/livres/annuler"),
    Route("write", "POST", "/r/{roster_id}/campagne"),  # a battle line
    Route("write", "POST", "/listes/{roster_id}/renommer"),
    Route("write", "POST", "/listes/{roster_id}/supprimer"),
    Route("write", "POST", "/livres/{book_id}/unites/{unit_id}/ajouter"),
    Route("write", "POST", "/livres/{book_id}/unites/{unit_id}/retirer"),
    Route("write", "POST", "/{system}/createur/livre"),  # « Enregistrer dans le livre »
    Route("write", "POST", "/carnet/{carnet_id}"),  # merge or switch carnets
    Route("write", "POST", "/c/{campaign_id}/rejoindre"),
    # Campaign verdicts and voids (issue 25.8, issue 26.5): each stores a line's state.
    Route("write", "POST", "/api/v1/rosters/{roster_id}/battles/{recorded_by}/{battle}/verdict"),
    Route("write", "POST", "/r/{roster_id}/campagne/verdict"),
    Route("write", "POST", "/api/v1/campaigns/{campaign_id}/voids"),
    Route("write", "POST", "/c/{campaign_id}/annuler"),
    Route("write", "POST", "/listes/carnet/oublier"),  # forgets the carnet on this device
    # A new secret: a carnet's key, a campaign's join link.
    Route("key", "POST", "/api/v1/carnets/{carnet_id}/key"),
    Route("key", "POST", "/listes/carnet/cle"),
    Route("key", "POST", "/c/{campaign_id}/invitation"),
)
# Unsafe routes that store nothing and check no secret: calculators and previews. Counted
# by no limit (their work is bounded by the body's size and the heavy pool).
COMPUTE_ONLY: tuple[Route, ...] = (
    Route("compute", "POST", "/api/v1/systems/{system}/{rest}"),  # cost, validate, odds...
    Route("compute", "POST", "/{system}/score"),
    Route("compute", "POST", "/{system}/createur"),  # the creator's live preview
    Route("compute", "POST", "/{system}/batiment"),
    Route("compute", "POST", "/{system}/chances"),
    Route("compute", "POST", "/{system}/tir"),
)
# Where a secret is checked (an edit token, a carnet's key, a campaign's join code or
# token); 401/403 there are failed checks, counted per client and per thing (the id).
CHECKED_PATHS = (
    re.compile(
        r"/(?:api/v1/rosters|api/v1/carnets|api/v1/books|api/v1/campaigns|r|carnet|c)"
        r"/(?P<id>[^/]+)(?:/.*)?"
    ),
    re.compile(r"/listes/(?P<id>[^/]+)/(?:renommer|dupliquer|supprimer)"),
    # Without an id: a carnet's key in the Authorization header (a campaign put in a
    # carnet) or the carnet's cookie (its key rotation).
    re.compile(r"/api/v1/campaigns|/listes/carnet/cle"),
)
FAILED = (401, 403)
UNSAFE = frozenset({"POST", "PUT", "DELETE", "PATCH"})


def presents_token(scope: Scope, roster_id: str) -> bool:
    """Whether a request carries a secret for what it names: an Authorization header, a
    secret query parameter (the edit link's `t`), the roster's edit cookie, or, for an
    unsafe method, its body (a carnet key in a form, a join code: such a request always
    stakes a secret, the empty one included)."""
    if scope.get("method") in UNSAFE:
        return True
    headers = dict(scope.get("headers") or [])
    if headers.get(b"authorization", b"").strip():
        return True
    if carries_secret(scope.get("query_string", b"")):
        return True
    cookie = headers.get(b"cookie", b"").decode("latin-1")
    return f"{COOKIE_PREFIX}{roster_id}=" in cookie


def checked_id(path: str) -> str | None:
    """The id of what a secret is checked for on `path` ("" for a route without one), or
    None when no secret is checked there."""
    for pattern in CHECKED_PATHS:
        found = pattern.fullmatch(path)
        if found is not None:
            return found.groupdict().get("id") or ""
    return None


def may_be_limited(method: str, path: str) -> bool:
    """Whether a request can get 429 (for the OpenAPI document)."""
    return checked_id(path) is not None or any(
        route.method == method and route.path.fullmatch(path) for route in ROUTES
    )


@dataclass(frozen=True)
class Limits:
    """The limits in force, in the `limits` notation ("30/minute;200/hour"; "" = none)."""

    create: str = "30/minute;200/hour"
    share: str = "30/minute;200/hour"
    write: str = "120/minute;2000/hour"
    key: str = "10/minute;30/hour"
    failed_auth: str = "20/minute;100/hour"
    failed_auth_roster: str = "30/minute;200/hour"
    # KiB of JSON documents stored (rosters, shares, books, ledgers), per client: what the
    # counted routes store, charged once each has answered (a copy of a 504 KB book is
    # ~490 KiB): 16 MiB a minute, 128 MiB an hour.
    stored: str = "16384/minute;131072/hour"


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
        routes = [r for r in ROUTES if r.method == method and r.path.fullmatch(path)]
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
        if self.loop is not None and not self.storage_uri.startswith("memory"):
            # Another event loop (a second test client): new connections for it.
            self.storage = open_storage(self.storage_uri)
            self.limiter = MovingWindowRateLimiter(self.storage)
            self.fixed = FixedWindowRateLimiter(self.storage)
        self.loop = loop

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
            "create": "roster creations",
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
