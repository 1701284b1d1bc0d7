"""Who may act through the API: a roster's edit token or its carnet's key, a carnet's key,
both sent as `Authorization: Bearer ...` — as Annotated dependencies (`EditableRoster`,
`CarnetDep`). Refusals rise as the services' exceptions; app/refusals.py answers them.
Plain `def`: FastAPI runs them in its thread pool, never on the event loop."""

from typing import Annotated

from fastapi import Depends, Header, Request

from app.carnet_service import CarnetService
from app.db import SessionDep
from app.deps import Carnets, Rosters
from app.roster_service import RosterService
from app.store.models import Carnet, Roster


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


Authorization = Annotated[str | None, Header(description="Bearer <edit token or carnet key>")]


def _roster(
    roster_id: str, request: Request, session: SessionDep, authorization: Authorization = None
) -> Roster:
    service = RosterService(session, request.app.state.systems)
    return service.authorize(roster_id, bearer(authorization))


def _carnet(carnet_id: str, session: SessionDep, authorization: Authorization = None) -> Carnet:
    return CarnetService(session).open(carnet_id, bearer(authorization))


EditableRoster = Annotated[Roster, Depends(_roster)]
CarnetDep = Annotated[Carnet, Depends(_carnet)]

__all__ = ["CarnetDep", "Carnets", "EditableRoster", "Rosters", "bearer"]
