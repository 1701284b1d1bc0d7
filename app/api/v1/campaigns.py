"""A gang's ledger and a club's campaigns (api-v1.md « Campaigns »): thin edges over
app/campaigns/service.py. Its refusals rise and app/refusals.py answers them as
problem+json.

`router` holds the routes whose types name no system; `campaigns_router(systems)` adds the
two whose body or answer is a union of the systems served (record_battle, create_campaign)."""

import json
from typing import Annotated, Any, Literal, Union, get_args

from fastapi import APIRouter, Depends, Header, Path, Query, Request, Response
from pydantic import BaseModel, Field, create_model

from app.api.v1.bodies import require_json_body
from app.api.v1.deps import (
    AUTH_PROBLEMS,
    PRIVATE,
    VERSION_PATTERN,
    Authorization,
    EditableRoster,
    bearer,
    headed,
    parse_version,
    told,
)
from app.api.v1.rosters import document_and_validation
from app.api.v1.typed import described
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
    recruits_field,
    score_field,
)
from app.campaigns.service import CampaignService, NotOrganiser, OrganiserTokenMissing
from app.carnet_service import key_refusal
from app.db import SessionDep
from app.http_cache import build, not_modified, versioned_headers
from app.problems import ApiError, Problem
from app.roster_service import NoSuchRoster, TokenMissing
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.models import Battle, Campaign
from app.systems.base import AnySystem
from app.urls import public_base
from app.web.campaigns.deps import PublicCampaigns
from app.web.campaigns.standings import remembered_view


async def campaign_service(request: Request, session: SessionDep) -> CampaignService:
    return CampaignService(session, request.app.state.systems)


Campaigns = Annotated[CampaignService, Depends(campaign_service)]


# The roster version a battle is recorded on (a missing If-Match is a 428, never null; the
# body is checked first: parse_version runs in the route).
IfMatch = Annotated[
    str,
    Header(pattern=VERSION_PATTERN, description='The roster version read, e.g. "3".'),
]


# A body is JSON (415 otherwise, as on every other route that reads one).
JSON_ONLY = [Depends(require_json_body)]
router = APIRouter(prefix="/api/v1", tags=["campaigns"], dependencies=JSON_ONLY)


def line_ref(row: Battle) -> LineRef:
    return LineRef(
        recorded_by=row.roster_id,
        battle=row.number,
        verdict=row.verdict or "pending",
        voided=row.voided_at is not None,
    )


def organised(campaigns: CampaignService, campaign_id: str, authorization: str | None) -> Campaign:
    """The campaign, when `authorization` carries its edit token (the organiser's)."""
    campaign = campaigns.get(campaign_id)
    token = bearer(authorization)
    if token is None:
        raise OrganiserTokenMissing(campaign_id)
    if not campaign_store.token_matches(campaign, token):
        raise NotOrganiser(campaign_id)
    return campaign


@router.get(
    "/rosters/{roster_id}/battles",
    response_model=BattleList,
    responses={**AUTH_PROBLEMS, 422: {"model": Problem}},
    summary="A gang's ledger, oldest first (edit token, or ?share=<its latest share>)",
    operation_id="list_battles",
)
def list_battles(
    roster_id: str,
    campaigns: PublicCampaigns,
    response: Response,
    share: Annotated[str | None, Query(max_length=16)] = None,
    authorization: Authorization = None,
) -> Any:
    token = bearer(authorization)
    if token is None and share is not None:
        roster = campaigns.rosters.get(roster_id)
        latest = roster_store.latest_share(session=campaigns.session, roster_id=roster.id)
        if latest is None or latest.code != share:
            raise ApiError(
                403,
                "Not this roster's latest share.",
                code="share_not_latest",
                loc=["query", "share"],
            )
        response.headers["Cache-Control"] = "public, max-age=60"
    else:
        if token is None:
            raise TokenMissing(roster_id)
        roster = campaigns.rosters.authorize(roster_id, token)
        headed(response, cache=PRIVATE)
    # Plain JSON of plain values, as BattleList says (its validation of 1,000 lines
    # again took as long as reading them).
    body = json.dumps({"battles": campaigns.battles(roster)}, ensure_ascii=False)
    return Response(
        body.encode(),
        media_type="application/json",
        headers={"Cache-Control": response.headers["Cache-Control"]},
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
    campaigns: Campaigns,
) -> Any:
    return line_ref(campaigns.verdict(roster, recorded_by, battle, body.verdict))


@router.post(
    "/campaigns/{campaign_id}/voids",
    response_model=LineRef,
    responses=told(
        (401, "No campaign token."),
        (403, "Not this campaign's token."),
        (404, "No such campaign."),
        (422, "No such line in the campaign."),
    ),
    summary="The organiser voids a line of the campaign (its edit token as Bearer)",
    operation_id="void_battle",
)
def void_battle(
    campaign_id: str, body: VoidIn, campaigns: Campaigns, authorization: Authorization = None
) -> Any:
    campaign = organised(campaigns, campaign_id, authorization)
    return line_ref(campaigns.void(campaign, body.recorded_by, body.battle))


@router.post(
    "/campaigns/{campaign_id}/gangs",
    status_code=201,
    response_model=Joined,
    responses=told(
        (403, "Wrong join code or edit token."),
        (404, "No such campaign or roster."),
        (409, "The campaign is full."),
        (422, "A roster of another system."),
    ),
    summary="A roster joins the campaign (its edit token and the join code)",
    operation_id="join_campaign",
)
def join_campaign(campaign_id: str, body: JoinIn, campaigns: Campaigns) -> Any:
    campaign = campaigns.get(campaign_id)
    try:
        roster = campaigns.join(campaign, body.roster, body.edit_token, body.join_code)
    except NoSuchRoster:
        # The roster is named in the body, not the path.
        raise ApiError(
            404, "No such roster.", code="roster_not_found", loc=["body", "roster"]
        ) from None
    return Joined(roster=roster.id)


@router.get(
    "/campaigns/{campaign_id}",
    response_model=CampaignOut,
    responses={
        304: {"description": "Not modified: If-None-Match names the standings' ETag."},
        404: {"model": Problem},
    },
    summary="A campaign and its standings (public; ETag, 304 when unchanged)",
    operation_id="get_campaign",
)
def get_campaign(campaign_id: str, request: Request, campaigns: PublicCampaigns) -> Any:
    campaign = campaigns.get(campaign_id)
    version, body = remembered_view(request, campaigns, campaign)
    system = campaigns.systems[campaign.system]
    headers = versioned_headers(request, f"{version}-{build()}-{system.catalogue_version}-json")
    if not_modified(request, headers["ETag"].strip('"')):
        return Response(status_code=304, headers=headers)
    return Response(body.encode(), media_type="application/json", headers=headers)


def record(
    roster: EditableRoster,
    if_match: str | None,
    body: BattleIn,
    campaigns: Campaigns,
    response: Response,
) -> dict[str, Any]:
    """record_battle: the line, its share, and the gang after it (its dead leave the totals)."""
    expected = parse_version(if_match, roster.version)
    line, share = campaigns.record(roster, expected, body)
    document = campaigns.systems[roster.system].roster_model.model_validate(roster.document)
    headed(response, version=roster.version, location=f"/api/v1/rosters/{roster.id}/battles")
    return {
        "battle": line.number,
        "share": share.code,
        **document_and_validation(campaigns.systems, roster, document),
    }


def create(
    body: CampaignIn,
    request: Request,
    campaigns: Campaigns,
    response: Response,
    authorization: str | None,
) -> CampaignCreated:
    """create_campaign: in the carnet whose key came as Bearer, if one did."""
    key = bearer(authorization)
    carnet = campaigns.carnet_by_key(key) if key is not None else None
    if key is not None and carnet is None:
        raise key_refusal(campaigns.session, key)
    campaign, token, join = campaigns.create(body, carnet)
    base = public_base(request)
    headed(response, location=f"/api/v1/campaigns/{campaign.id}")
    return CampaignCreated(
        id=campaign.id,
        edit_token=token,
        join_code=join,
        join_url=f"{base}/c/{campaign.id}/rejoindre?code={join}",
        url=f"{base}/c/{campaign.id}",
    )


def typed_models(systems: dict[str, AnySystem]) -> tuple[Any, Any, Any]:
    """record_battle's answer, create_campaign's body and record_battle's body, typed by
    the systems served."""
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

    score: Any
    recruit: Any
    score, recruit = battle_parts(systems)
    battle_body: Any = create_model(
        "BattleIn",
        __base__=BattleIn,
        score=(score, score_field()),
        recruits=(list[recruit], recruits_field()),
    )
    # The body of create_campaign, its system one of those served.
    system_ids: Any = Literal[tuple(systems)]
    campaign_body: Any = create_model(
        "CampaignIn",
        __base__=CampaignIn,
        system=(system_ids, Field(description="A game system id.")),
    )
    return BattleRecorded, campaign_body, battle_body


def battle_parts(systems: dict[str, AnySystem]) -> tuple[Any, Any]:
    """A battle line's score and one of its recruits, typed as the systems' own (a score
    body, a roster entry) for the document and read as bounded free JSON: the ledger checks
    them against the gang's system (record_battle); a carnet file keeps them as recorded."""
    scores = [s.score_model for s in systems.values() if s.score_model is not None]
    entries = [entry_model(s) for s in systems.values()]
    return described(Union[(*scores, None)]), described(Union[tuple(entries)])  # noqa: UP007


def entry_model(system: AnySystem) -> Any:
    """The system's roster entry (what a battle's recruit is)."""
    return get_args(system.roster_model.model_fields["entries"].annotation)[0]


def campaigns_router(systems: dict[str, AnySystem]) -> APIRouter:
    """The two routes whose types are unions of the systems served, then `router`'s."""
    typed = APIRouter(prefix="/api/v1", tags=["campaigns"], dependencies=JSON_ONLY)
    battle_recorded, body_model, battle_model = typed_models(systems)
    campaign_body: Any = body_model
    battle_body: Any = battle_model

    @typed.post(
        "/rosters/{roster_id}/battles",
        status_code=201,
        response_model=battle_recorded,
        responses={
            **AUTH_PROBLEMS,
            **told(
                (409, "Stale version: nothing recorded."),
                (413, "Too heavy: nothing recorded."),
                (428, "If-Match missing."),
            ),
            422: {"model": Problem},
        },
        summary="Record a battle in the gang's ledger (token and If-Match: <version>)",
        operation_id="record_battle",
    )
    def record_battle(
        roster: EditableRoster,
        body: battle_body,
        campaigns: Campaigns,
        response: Response,
        if_match: IfMatch = None,  # type: ignore[assignment]
    ) -> Any:
        plain = BattleIn.model_construct(body.model_fields_set, **dict(body))
        return record(roster, if_match, plain, campaigns, response)

    @typed.post(
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
        campaigns: Campaigns,
        response: Response,
        authorization: Authorization = None,
    ) -> Any:
        return create(body, request, campaigns, response, authorization)

    both = APIRouter()
    both.include_router(typed)
    both.include_router(router)
    return both
