"""Dependencies every edge shares: the roster and carnet services of this request (one
session), and the public reads' session. The API's (app/api/v1/deps.py) and the pages'
(app/web/deps.py) say who may act.

Public reads (DATABASE_READ_URL): a route that only shows what anyone may see (a share, a
published book, a campaign's standings, a public gang page, a catalogue) takes
`ReadSessionDep` instead of `SessionDep`. Its session reads from the read database when
the settings name one and the request carries none of a browser's secrets (a carnet cookie,
an old per-roster cookie, an `Authorization` header): a request that may get an owner's
variant, or that comes from someone who has just written, reads from the primary. Without
a read URL it is the primary's session itself (one session, nothing more opened). Writes a
public route makes (a share's view, docs/retention.md) go to `primary_of(session)`; rows
that never change once made (shares, published book versions) are asked of the primary
when the read database has not seen them yet (app/db.py `on_primary`).
"""

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import Session

from app.carnet_service import CarnetService
from app.db import PRIMARY, SessionDep, opened
from app.roster_service import RosterService
from app.security.cookies import holds_access_cookie


# Plain constructors, no I/O: `async def` so that FastAPI calls them on the event loop
# instead of sending each to the thread pool and back (issue 19: a hop costs a save CPU).
async def roster_service(request: Request, session: SessionDep) -> RosterService:
    """The request's roster service; what it saves is kept as made by the API or a page."""
    origin = "api" if request.url.path.startswith("/api/") else "page"
    return RosterService(session, request.app.state.systems, origin)


async def carnet_service(session: SessionDep) -> CarnetService:
    return CarnetService(session)


Rosters = Annotated[RosterService, Depends(roster_service)]
Carnets = Annotated[CarnetService, Depends(carnet_service)]


def reads_elsewhere(request: Request) -> bool:
    """Whether this request's public reads go to the read database: there is one, and the
    request carries no secret (no owner's variant, no writer reading back its write)."""
    return (
        request.app.state.read_session_factory is not None
        and "authorization" not in request.headers
        and not holds_access_cookie(request.cookies)
    )


async def get_read_session(request: Request, session: SessionDep) -> AsyncIterator[Session]:
    """The public reads' session: on the read database (its primary in `info`), or the
    primary's session itself (module docstring)."""
    if not reads_elsewhere(request):
        yield session
        return
    async with opened(request.app.state.read_session_factory()) as read:
        read.info[PRIMARY] = session
        yield read


@contextmanager
def public_session(request: Request) -> Iterator[Session]:
    """`get_read_session` for a plain route that opens its session itself (the share page)."""
    with request.app.state.session_factory() as session:
        if not reads_elsewhere(request):
            yield session
            return
        with request.app.state.read_session_factory() as read:
            read.info[PRIMARY] = session
            yield read


ReadSessionDep = Annotated[Session, Depends(get_read_session)]
