"""Dependencies every edge shares: the roster and carnet services of this request (one
session). The API's (app/api/v1/deps.py) and the pages' (app/web/deps.py) say who may act."""

from typing import Annotated

from fastapi import Depends, Request

from app.carnet_service import CarnetService
from app.db import SessionDep
from app.roster_service import RosterService


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
