"""Carnets for third-party tools (a club's bot, a tournament organiser): api-v1.md
« Carnets ». The key is sent as `Authorization: Bearer <key>`; refusals rise as the carnet
service's exceptions and app/refusals.py answers them (401, 403, 404, 409)."""

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import AfterValidator, BaseModel, Field

from app.api.v1.deps import (
    BODY_PROBLEMS,
    NO_STORE,
    PRIVATE,
    CarnetDep,
    Carnets,
    Rosters,
    headed,
    told,
)
from app.dates import as_utc
from app.problems import Problem
from app.roster_service import RosterService, TokenRefused
from app.store.models import Carnet
from app.urls import public_base

KEY_PROBLEMS = told(
    (401, "No carnet key."),
    (403, "Wrong carnet key (or one changed since)."),
    (404, "No such carnet."),
)


# A stored instant with its zone (SQLite gives naive datetimes, which are UTC here): every
# timestamp the API writes is RFC 3339 with `Z`, typed `date-time` (issue 28, item 7).
UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]


class CarnetCreated(BaseModel):
    id: str
    key: str = Field(description="Shown once; only its hash is stored. Opens every list.")
    url: str = Field(description="Opens this carnet in a browser, on any device.")


class CarnetKey(BaseModel):
    key: str = Field(description="The new key: the old key and the old link open nothing.")
    url: str


class CarnetRosterItem(BaseModel):
    id: str
    name: str
    system: str
    version: int
    updated_at: UtcDatetime


class CarnetCampaign(BaseModel):
    id: str
    name: str
    system: str


class CarnetOut(BaseModel):
    id: str
    rosters: list[CarnetRosterItem] = Field(description="Most recently changed first.")
    books: list[CarnetRosterItem] = Field(description="Army books, most recently changed first.")
    campaigns: list[CarnetCampaign] = Field(description="Campaigns (none yet).")


class EditToken(BaseModel):
    edit_token: str = Field(max_length=200, description="The roster's edit token.")


def carnet_url(request: Request, carnet: Carnet, key: str) -> str:
    return f"{public_base(request)}/carnet/{carnet.id}?t={key}"


Created = Callable[[Request, RosterService, Response, BaseModel], dict[str, Any]]


def carnet_routes(
    router: APIRouter, document_type: Any, roster_created: type[BaseModel], created: Created
) -> None:
    """The carnet routes, on the rosters' router (they share its roster document types),
    tagged « carnets » too; every route but the carnet's creation takes its key, and may
    answer KEY_PROBLEMS."""
    carnets = APIRouter(tags=["carnets"])
    keyed = APIRouter(responses=KEY_PROBLEMS)
    _carnet_routes(carnets, keyed)
    _roster_routes(keyed, document_type, roster_created, created)
    _key_routes(keyed)
    carnets.include_router(keyed)
    router.include_router(carnets)


def _carnet_routes(router: APIRouter, keyed: APIRouter) -> None:
    """Make a carnet, read what it holds (`keyed`: with its key)."""

    @router.post(
        "/carnets",
        status_code=201,
        response_model=CarnetCreated,
        summary="Make a carnet (no body): its id, its key (shown once), its link",
        operation_id="create_carnet",
    )
    def create_carnet(request: Request, carnets: Carnets, response: Response) -> Any:
        carnet, key = carnets.create()
        headed(response, location=f"/api/v1/carnets/{carnet.id}", cache=NO_STORE)  # the key
        return CarnetCreated(id=carnet.id, key=key, url=carnet_url(request, carnet, key))

    @keyed.get(
        "/carnets/{carnet_id}",
        response_model=CarnetOut,
        summary="What a carnet holds (key needed)",
        operation_id="get_carnet",
    )
    def get_carnet(carnet: CarnetDep, carnets: Carnets, response: Response) -> Any:
        headed(response, cache=PRIVATE)
        return carnets.listing(carnet)


def _roster_routes(
    router: APIRouter, document_type: Any, roster_created: type[BaseModel], created: Created
) -> None:
    """Store a roster in a carnet, put an existing one in it."""

    @router.post(
        "/carnets/{carnet_id}/rosters",
        status_code=201,
        response_model=roster_created,
        responses={
            409: {"model": Problem, "description": "The carnet is full."},
            **BODY_PROBLEMS,
        },
        summary="Store a roster in the carnet (as create_roster, and the carnet holds it)",
        operation_id="add_carnet_roster",
    )
    def add_carnet_roster(
        carnet: CarnetDep,
        document: document_type,
        request: Request,
        rosters: Rosters,
        carnets: Carnets,
        response: Response,
    ) -> Any:
        carnets.check_room(carnet)
        body = created(request, rosters, response, document)
        carnets.add(carnet, [body["id"]])
        return body

    @router.put(
        "/carnets/{carnet_id}/rosters/{roster_id}",
        response_model=CarnetRosterItem,
        responses=told(
            (403, "Wrong carnet key or wrong edit token."),
            (404, "No such carnet or roster."),
            (409, "The carnet is full."),
        ),
        summary="Put an existing roster in the carnet (its edit token in the body)",
        operation_id="adopt_carnet_roster",
    )
    def adopt_carnet_roster(
        carnet: CarnetDep, roster_id: str, body: EditToken, rosters: Rosters, carnets: Carnets
    ) -> Any:
        roster = rosters.get(roster_id)
        if not rosters.token_is_its_own(roster, body.edit_token):
            raise TokenRefused(roster_id)
        carnets.add(carnet, [roster.id])
        return CarnetRosterItem.model_validate(roster, from_attributes=True)


def _key_routes(router: APIRouter) -> None:
    """Take a roster out of a carnet; a carnet's new key."""

    @router.delete(
        "/carnets/{carnet_id}/rosters/{roster_id}",
        status_code=204,
        responses={404: {"model": Problem, "description": "Not in the carnet."}},
        summary="Take a roster out of the carnet (the roster stays; its edit token opens it)",
        operation_id="remove_carnet_roster",
    )
    def remove_carnet_roster(carnet: CarnetDep, roster_id: str, carnets: Carnets) -> Response:
        carnets.remove(carnet, roster_id)
        return Response(status_code=204)

    @router.post(
        "/carnets/{carnet_id}/key",
        response_model=CarnetKey,
        summary="A new key: from then on the old key and the old link open nothing",
        operation_id="rotate_carnet_key",
    )
    def rotate_carnet_key(
        carnet: CarnetDep, request: Request, carnets: Carnets, response: Response
    ) -> Any:
        key = carnets.rotate(carnet)
        headed(response, cache=NO_STORE)  # the new key
        return CarnetKey(key=key, url=carnet_url(request, carnet, key))
