"""The browser's carnet, for the pages: which carnet its cookie opens, the lists it holds,
the roster a page edits — as FastAPI dependencies (`BrowserCarnet`, `MyLists`,
`EditableRoster`), like full-stack-fastapi-template's `CurrentUser`.

Everything here touches the database: the dependencies are plain `def` (FastAPI runs them
in its thread pool, never on the event loop). A cookie to set or remove is queued on the
request and written by `CarnetCookies` on whatever response goes out (a page, a redirect,
a refusal), so no handler passes a response around.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request, Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.carnet_service import CarnetError, CarnetService, cookie_value, parse_cookie
from app.db import SessionDep, opened
from app.roster_service import NoSuchRoster, Refusal, RosterService
from app.security.cookies import (
    CARNET_COOKIE,
    NotInBrowser,
    forget_carnet,
    forget_legacy,
    keep_carnet,
    legacy_tokens,
)
from app.security.headers import keep_private
from app.store import carnets as carnet_store
from app.store.models import Carnet, Roster
from app.web.form_body import posted_form

STATE = "caserne_browser"
# The list this request found never shared (`editable_at_once`): `editor_view.share_state`.
UNSHARED = "caserne_unshared"
COOKIES_STATE = "caserne_set_cookies"
CLEAR_STATE = "caserne_clear_site_data"
# Said with the removal of a carnet cookie that no longer opens anything: the browser (and
# the service worker, static/sw.js) forgets the pages it kept (issue 25, item 4).
CLEAR_CACHE = b'"cache"'


@dataclass
class Browser:
    """What this browser holds, resolved once per request."""

    carnet: Carnet | None
    key: str | None = None  # the carnet's key, as the cookie holds it (shown in its link)
    revoked: bool = False
    moved: list[str] = field(default_factory=list)  # old cookies' lists put in the carnet


def queue_cookies(request: Request, response: Response) -> None:
    """The Set-Cookie headers of `response`, written on the response that goes out."""
    pending: list[bytes] = request.scope.setdefault("state", {}).setdefault(COOKIES_STATE, [])
    pending += [value for name, value in response.raw_headers if name == b"set-cookie"]


def browser(request: Request, session: Session) -> Browser:
    """The carnet this browser's cookie opens; on a first visit after carnets, the lists
    of its old per-roster cookies are verified, put in the carnet, and the cookies removed."""
    state = request.scope.setdefault("state", {})
    found: Browser | None = state.get(STATE)
    if found is not None:
        return found
    service = CarnetService(session)
    sent = request.cookies.get(CARNET_COOKIE)
    found = Browser(carnet=None, revoked=sent is not None)
    parsed = parse_cookie(sent)
    if parsed is not None:
        try:
            found = Browser(carnet=service.open(*parsed), key=parsed[1])
        except CarnetError:
            found = Browser(carnet=None, revoked=True)
    if found.revoked:
        clear_cache(request)  # it opens nothing, ever again: what it showed is forgotten
    state[STATE] = found
    old = legacy_tokens(request)
    if old:
        rosters = RosterService(session, request.app.state.systems)
        valid = []
        for roster_id, token in old.items():
            try:
                rosters.authorize(roster_id, token)
            except Refusal:
                continue
            valid.append(roster_id)
        cleanup = Response()
        for roster_id in old:
            forget_legacy(cleanup, roster_id)
        queue_cookies(request, cleanup)
        if valid:
            found.moved = valid
            join(request, session, *valid)
    held: Browser = state[STATE]
    return held


def browser_carnet(request: Request, session: Session) -> Carnet | None:
    return browser(request, session).carnet


def writing_carnet(request: Request, session: Session) -> Carnet:
    """The browser's carnet, made now (and its cookie set) when it has none yet: a carnet
    is made on the first save, with no sign-up."""
    held = browser(request, session)
    if held.carnet is None:
        carnet, key = CarnetService(session).create()
        switch_to(request, carnet, key)
        return carnet
    return held.carnet


def switch_to(request: Request, carnet: Carnet, key: str) -> None:
    """From this response on, the browser holds `carnet`."""
    state = request.scope.setdefault("state", {})
    held = state.get(STATE)
    moved = held.moved if isinstance(held, Browser) else []
    state[STATE] = Browser(carnet=carnet, key=key, moved=moved)
    response = Response()
    keep_carnet(request, response, cookie_value(carnet, key))
    queue_cookies(request, response)


def clear_cache(request: Request, clear: bytes = CLEAR_CACHE) -> None:
    """The answer says `Clear-Site-Data` (`clear`): the browser and its service worker forget
    the pages they kept (a revoked carnet cookie, a carnet forgotten on this device)."""
    state = request.scope.setdefault("state", {})
    if len(clear) > len(state.get(CLEAR_STATE) or b""):
        state[CLEAR_STATE] = clear


def drop_carnet(request: Request, clear: bytes = CLEAR_CACHE) -> None:
    """The browser forgets its carnet cookie (one that no longer opens anything) and what it
    kept of the carnet's pages (`Clear-Site-Data`, `clear`)."""
    clear_cache(request, clear)
    response = Response()
    forget_carnet(response)
    queue_cookies(request, response)


def join(request: Request, session: Session, *roster_ids: str) -> Carnet:
    """Puts the lists in this browser's carnet (made if needed)."""
    carnet = writing_carnet(request, session)
    CarnetService(session).add(carnet, roster_ids)
    return carnet


def my_lists(request: Request, session: Session, system: str | None = None) -> list[Roster]:
    """The lists of this browser's carnet, most recently changed first (documents not
    loaded: names and stored cards only). The page that shows them is kept by no cache."""
    keep_private(request.scope)
    carnet = browser_carnet(request, session)
    return [] if carnet is None else CarnetService(session).rosters(carnet, system)


def editable(request: Request, session: Session, roster_id: str) -> Roster:
    """The roster, when this browser's carnet holds it; NotInBrowser (or NoSuchRoster)
    otherwise."""
    found = editable_at_once(request, session, roster_id)
    if found is not None:
        return found
    rosters = RosterService(session, request.app.state.systems)
    roster = rosters.get(roster_id)
    carnet = browser_carnet(request, session)
    if carnet is None or not CarnetService(session).holds(carnet, roster.id):
        raise NotInBrowser(roster_id)
    return roster


def editable_at_once(request: Request, session: Session, roster_id: str) -> Roster | None:
    """`editable` in one query (the roster, the cookie's carnet, whether it holds the
    roster), when the browser is not resolved yet and sends a carnet cookie and no old
    per-roster cookie; the browser is then resolved as `browser` would have. None when
    this path does not apply (or there is no such roster): `editable` then asks as usual."""
    state = request.scope.setdefault("state", {})
    parsed = parse_cookie(request.cookies.get(CARNET_COOKIE))
    if STATE in state or parsed is None or legacy_tokens(request):
        return None
    row = carnet_store.roster_with_carnet(
        session=session, roster_id=roster_id[:64], carnet_id=parsed[0]
    )
    if row is None:
        return None
    roster, carnet, held, shared = row
    if not shared:
        state[UNSHARED] = roster.id  # its editor says nothing of shares, without a query
    if roster.system not in request.app.state.systems:
        raise NoSuchRoster(roster_id)
    if carnet is None or not carnet_store.key_matches(carnet, parsed[1]):
        state[STATE] = Browser(carnet=None, revoked=True)  # as CarnetService.open refuses
        clear_cache(request)
        raise NotInBrowser(roster_id)
    state[STATE] = Browser(carnet=carnet, key=parsed[1])
    if not held:
        raise NotInBrowser(roster_id)
    return roster


def editable_or_none(request: Request, session: Session, roster_id: str) -> Roster | None:
    try:
        return editable(request, session, roster_id)
    except Refusal:
        return None


# --- as dependencies ------------------------------------------------------------------------


def _browser_carnet(request: Request, session: SessionDep) -> Carnet | None:
    return browser_carnet(request, session)


def _my_lists(request: Request, session: SessionDep) -> list[Roster]:
    return my_lists(request, session)


def _editable_roster(roster_id: str, request: Request, session: SessionDep) -> Roster:
    return editable(request, session, roster_id)


BrowserCarnet = Annotated[Carnet | None, Depends(_browser_carnet)]
MyLists = Annotated[list[Roster], Depends(_my_lists)]
EditableRoster = Annotated[Roster, Depends(_editable_roster)]


class CarnetCookies:
    """Writes the cookies a request queued (carnet made, switched, old cookies removed) on
    its response, whatever answered it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                state = scope.get("state", {})
                pending = state.get(COOKIES_STATE)
                if pending:
                    message["headers"] = [
                        *message.get("headers", []),
                        *((b"set-cookie", value) for value in pending),
                    ]
                if state.get(CLEAR_STATE):
                    message["headers"] = [
                        *message.get("headers", []),
                        (b"clear-site-data", state[CLEAR_STATE]),
                    ]
            await send(message)

        await self.app(scope, receive, with_cookies)


async def read_form(request: Request) -> FormData:
    """The posted form, read on the event loop (I/O); the endpoint itself is a plain `def`."""
    return await posted_form(request)


FormDep = Annotated[FormData, Depends(read_form)]


def _chosen_roster(request: Request, session: SessionDep, form: FormDep) -> Roster | None:
    """The list an « Ajouter à la liste » form names (`roster`), which this browser must
    hold; None for « Nouvelle liste »."""
    chosen = str(form.get("roster") or "")[:64]
    return editable(request, session, chosen) if chosen else None


ChosenRoster = Annotated[Roster | None, Depends(_chosen_roster)]


PostHandler = Callable[[str, Request, FormData, Session], Response]


def plain_post(handler: PostHandler) -> Callable[[Request], Awaitable[Response]]:
    """A page's POST as a plain Starlette route (added with `router.add_route`, as the share
    page), without FastAPI's dependency machinery (0.6-0.8 ms of a count save's CPU in one
    process, issue 29): the form read (`read_form`), the request's session opened and
    closed as `SessionDep` does, and `handler(roster_id, request, form, session)` run in one
    trip to the thread pool. Refusals raised go to the app's handlers as from any route."""

    async def endpoint(request: Request) -> Response:
        form = await posted_form(request)
        roster_id = str(request.path_params["roster_id"])
        async with opened(request.app.state.session_factory()) as session:
            return await run_in_threadpool(handler, roster_id, request, form, session)

    return endpoint
