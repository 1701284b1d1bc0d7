"""Dependencies every edge shares: the roster and carnet services of this request (one
session). The API's (app/api/v1/deps.py) and the pages' (app/web/deps.py) say who may act."""

from typing import Annotated

from fastapi import Depends, Request

from app.carnet_service import CarnetService
from app.db import SessionDep
from app.roster_service import RosterService


def roster_service(request: Request, session: SessionDep) -> RosterService:
    return RosterService(session, request.app.state.systems)


def carnet_service(session: SessionDep) -> CarnetService:
    return CarnetService(session)


Rosters = Annotated[RosterService, Depends(roster_service)]
Carnets = Annotated[CarnetService, Depends(carnet_service)]
