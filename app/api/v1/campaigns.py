"""A gang's ledger and a club's campaigns (api-v1.md « Campaigns »): thin edges over
app/campaigns/service.py, which answers the refusals as problem+json."""

import json
from typing import Annotated, Any, Literal, Union

from fastapi import APIRouter, Header, Path, Query, Request, Response
from pydantic import BaseModel, Field, create_model

from app.api.v1.deps import Authorization, EditableRoster, bearer
from app.api.v1.rosters import AUTH_PROBLEMS, VERSION_PATTERN, parse_version
from app.campaigns.models import (
    BattleIn,
    BattleList,
    CampaignCreated,
    CampaignIn,
    CampaignOut,
    Joined,
    JoinIn,
    LineRef,
    VerdictIn,
    VoidIn,
)
from app.campaigns.service import (
    CampaignFull,
    CampaignService,
    JoinRefused,
    LedgerError,
    NoSuchCampaign,
)
from app.carnet_service import KeyRefused
from app.db import SessionDep
from app.problems import ApiError, FieldError, Problem
from app.roster_service import StaleVersion, TokenMissing, check
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.models import Battle
from app.systems.base import AnySystem
from app.urls import public_base


def refused(error: LedgerError) -> ApiError:
    loc: list[str | int] = ["body", *error.path]
    return ApiError(422, str(error), errors=[FieldError(loc=loc, msg=str(error), code=error.code)])


def campaigns_router(systems: dict[str, AnySystem]) -> APIRouter:
    router = APIRouter(prefix="/api/v1", tags=["campaigns"])
    document_type: Any = Annotated[
        Union[tuple(s.roster_model for s in systems.values())],  # noqa: UP007
        Field(discriminator="system"),
    ]
    validation_type: Any = Union[tuple(s.validate_response_model for s in systems.values())]  # noqa: UP007

    class BattleRecorded(BaseModel):
        battle: int = Field(description="The line's number in the ledger, from 1.")
        share: str = Field(description="Code of the share of the state after it.")
        roster: document_type
        validation: validation_type = Field(
            description="Of the gang after it: its dead and retired fighters leave every total."
        )

    # The body of create_campaign, its system one of those served.
    system_ids: Any = Literal[tuple(systems)]
    campaign_body: Any = create_model(
        "CampaignIn",
        __base__=CampaignIn,
        system=(system_ids, Field(description="A game system id.")),
    )

    def service(request: Request, session: Any) -> CampaignService:
        return CampaignService(session, request.app.state.systems)

    @router.post(
        "/rosters/{roster_id}/battles",
        status_code=201,
        response_model=BattleRecorded,
        responses={
            **AUTH_PROBLEMS,
            409: {"model": Problem, "description": "Stale version: nothing recorded."},
            413: {"model": Problem, "description": "Too heavy: nothing recorded."},
            422: {"model": Problem},
            428: {"model": Problem, "description": "If-Match missing."},
        },
        summary="Record a battle in the gang's ledger (token and If-Match: <version>)",
        operation_id="record_battle",
    )
    def record_battle(
        roster: EditableRoster,
        body: BattleIn,
        request: Request,
        session: SessionDep,
        response: Response,
        if_match: Annotated[
            str,  # noqa: RUF013  (a missing If-Match is a 428, never null)
            Header(pattern=VERSION_PATTERN, description='The roster version read, e.g. "3".'),
        ] = None,  # type: ignore[assignment]
    ) -> Any:
        expected = parse_version(if_match, roster.version)
        campaigns = service(request, session)
        try:
            line, share = campaigns.record(roster, expected, body)
        except LedgerError as error:
            raise refused(error) from None
        except StaleVersion as stale:
            raise ApiError(
                409,
                f"Version {expected} is stale: the roster is at version {stale.current}; "
                "nothing was recorded.",
                headers={"ETag": f'"{stale.current}"'},
            ) from None
        system = systems[roster.system]
        document = system.roster_model.model_validate(roster.document)
        result, _summary = check(system, campaigns.active(roster, document))
        response.headers["ETag"] = f'"{roster.version}"'
        response.headers["Location"] = f"/api/v1/rosters/{roster.id}/battles"
        return {
            "battle": line.number,
            "share": share.code,
            "roster": document.model_dump(mode="json"),
            "validation": result.model_dump(mode="json"),
        }

    @router.get(
        "/rosters/{roster_id}/battles",
        response_model=BattleList,
        responses={**AUTH_PROBLEMS, 422: {"model": Problem}},
        summary="A gang's ledger, oldest first (edit token, or ?share=<its latest share>)",
        operation_id="list_battles",
    )
    def list_battles(
        roster_id: str,
        request: Request,
        session: SessionDep,
        response: Response,
        share: Annotated[str | None, Query(max_length=16)] = None,
        authorization: Authorization = None,
    ) -> Any:
        campaigns = service(request, session)
        token = bearer(authorization)
        if token is None and share is not None:
            roster = campaigns.rosters.get(roster_id)
            latest = roster_store.latest_share(session=session, roster_id=roster.id)
            if latest is None or latest.code != share:
                raise ApiError(403, "Not this roster's latest share.")
            response.headers["Cache-Control"] = "public, max-age=60"
        else:
            if token is None:
                raise TokenMissing(roster_id)
            roster = campaigns.rosters.authorize(roster_id, token)
            response.headers["Cache-Control"] = "private, no-store"
        # Plain JSON of plain values, as BattleList says (its validation of 1,000 lines
        # again took as long as reading them).
        body = json.dumps({"battles": campaigns.battles(roster)}, ensure_ascii=False)
        return Response(
            body.encode(),
            media_type="application/json",
            headers={"Cache-Control": response.headers["Cache-Control"]},
        )

    def line_ref(row: Battle) -> LineRef:
        return LineRef(
            recorded_by=row.roster_id,
            battle=row.number,
            verdict=row.verdict or "pending",
            voided=row.voided_at is not None,
        )

    @router.post(
        "/rosters/{roster_id}/battles/{recorded_by}/{battle}/verdict",
        response_model=LineRef,
        responses={
            **AUTH_PROBLEMS,
            422: {"model": Problem, "description": "No such line against this gang, or voided."},
        },
        summary="Confirm or dispute a line another gang recorded against this one (token)",
        operation_id="give_verdict",
    )
    def give_verdict(
        roster: EditableRoster,
        recorded_by: Annotated[str, Path(max_length=32)],
        battle: Annotated[int, Path(ge=1, le=1_000_000)],
        body: VerdictIn,
        request: Request,
        session: SessionDep,
    ) -> Any:
        try:
            row = service(request, session).verdict(roster, recorded_by, battle, body.verdict)
        except LedgerError as error:
            raise refused(error) from None
        return line_ref(row)

    @router.post(
        "/campaigns/{campaign_id}/voids",
        response_model=LineRef,
        responses={
            401: {"model": Problem, "description": "No campaign token."},
            403: {"model": Problem, "description": "Not this campaign's token."},
            404: {"model": Problem, "description": "No such campaign."},
            422: {"model": Problem, "description": "No such line in the campaign."},
        },
        summary="The organiser voids a line of the campaign (its edit token as Bearer)",
        operation_id="void_battle",
    )
    def void_battle(
        campaign_id: str,
        body: VoidIn,
        request: Request,
        session: SessionDep,
        authorization: Authorization = None,
    ) -> Any:
        campaigns = service(request, session)
        try:
            campaign = campaigns.get(campaign_id)
        except NoSuchCampaign:
            raise ApiError(404, "No such campaign.") from None
        token = bearer(authorization)
        if token is None:
            raise ApiError(401, "The campaign's edit token is needed.")
        if not campaign_store.token_matches(campaign, token):
            raise ApiError(403, "Not this campaign's edit token: nothing voided.")
        try:
            row = campaigns.void(campaign, body.recorded_by, body.battle)
        except LedgerError as error:
            raise refused(error) from None
        return line_ref(row)

    @router.post(
        "/campaigns",
        status_code=201,
        response_model=CampaignCreated,
        responses={
            403: {"model": Problem, "description": "Wrong carnet key."},
            422: {"model": Problem},
        },
        summary="Create a campaign (a carnet key as Bearer puts it in that carnet)",
        operation_id="create_campaign",
    )
    def create_campaign(
        body: campaign_body,
        request: Request,
        session: SessionDep,
        response: Response,
        authorization: Authorization = None,
    ) -> Any:
        campaigns = service(request, session)
        key = bearer(authorization)
        carnet = campaigns.carnet_by_key(key) if key is not None else None
        if key is not None and carnet is None:
            raise KeyRefused("")
        try:
            campaign, token, join = campaigns.create(body, carnet)
        except LedgerError as error:
            raise refused(error) from None
        base = public_base(request)
        response.headers["Location"] = f"/api/v1/campaigns/{campaign.id}"
        return CampaignCreated(
            id=campaign.id,
            edit_token=token,
            join_code=join,
            join_url=f"{base}/c/{campaign.id}/rejoindre?code={join}",
            url=f"{base}/c/{campaign.id}",
        )

    @router.post(
        "/campaigns/{campaign_id}/gangs",
        status_code=201,
        response_model=Joined,
        responses={
            403: {"model": Problem, "description": "Wrong join code or edit token."},
            404: {"model": Problem, "description": "No such campaign or roster."},
            409: {"model": Problem, "description": "The campaign is full."},
            422: {"model": Problem, "description": "A roster of another system."},
        },
        summary="A roster joins the campaign (its edit token and the join code)",
        operation_id="join_campaign",
    )
    def join_campaign(campaign_id: str, body: JoinIn, request: Request, session: SessionDep) -> Any:
        campaigns = service(request, session)
        try:
            campaign = campaigns.get(campaign_id)
            roster = campaigns.join(campaign, body.roster, body.edit_token, body.join_code)
        except NoSuchCampaign:
            raise ApiError(404, "No such campaign.") from None
        except JoinRefused:
            raise ApiError(403, "Wrong join code or edit token: nothing joined.") from None
        except CampaignFull:
            raise ApiError(409, "The campaign is full.") from None
        except LedgerError as error:
            raise refused(error) from None
        return Joined(roster=roster.id)

    @router.get(
        "/campaigns/{campaign_id}",
        response_model=CampaignOut,
        responses={404: {"model": Problem}},
        summary="A campaign and its standings (public)",
        operation_id="get_campaign",
    )
    def get_campaign(campaign_id: str, request: Request, session: SessionDep) -> Any:
        campaigns = service(request, session)
        try:
            campaign = campaigns.get(campaign_id)
        except NoSuchCampaign:
            raise ApiError(404, "No such campaign.") from None
        return campaigns.view(campaign)

    return router
