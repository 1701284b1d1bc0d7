"""What the campaign pages depend on: the campaign service of this request, a campaign that
exists (NoSuchCampaign otherwise: app/refusals.py answers it), one its organiser opens, the
pages of a roster's system (its score form, its « Ajouter » list) and the page of a ledger
asked for."""

from typing import Annotated, Any

from fastapi import Depends, Request

from app.campaigns.service import CampaignService, NotOrganiser
from app.db import SessionDep
from app.deps import ReadSessionDep
from app.store import campaigns as campaign_store
from app.store.models import Campaign
from app.systems import registry
from app.systems.inputs import is_digits
from app.web.deps import browser_carnet
from app.web.system_pages import SystemPages


async def campaign_service(request: Request, session: SessionDep) -> CampaignService:
    return CampaignService(session, request.app.state.systems)


Campaigns = Annotated[CampaignService, Depends(campaign_service)]


async def campaign_reader(request: Request, session: ReadSessionDep) -> CampaignService:
    return CampaignService(session, request.app.state.systems)


# The campaign service of a public read (app/deps.py: the read database, unless the
# request carries a secret): standings, a public gang page, a gang's ledger, a report.
PublicCampaigns = Annotated[CampaignService, Depends(campaign_reader)]


def joinable(campaign_id: str, campaigns: Campaigns) -> Campaign:
    """The campaign of the path, of a system this app serves (NoSuchCampaign: 404)."""
    return campaigns.get(campaign_id)


JoinableCampaign = Annotated[Campaign, Depends(joinable)]


def shown(campaign_id: str, campaigns: PublicCampaigns) -> Campaign:
    """`joinable`, read as the public reads are."""
    return campaigns.get(campaign_id)


ShownCampaign = Annotated[Campaign, Depends(shown)]


def is_organiser(request: Request, campaigns: CampaignService, campaign: Campaign) -> bool:
    """Whether this browser's carnet is the one the campaign was created in."""
    carnet = browser_carnet(request, campaigns.session)
    return carnet is not None and campaign_store.is_organiser(
        session=campaigns.session, carnet_id=carnet.id, campaign_id=campaign.id
    )


def organised(request: Request, campaign: JoinableCampaign, campaigns: Campaigns) -> Campaign:
    """The campaign, when this browser's carnet is its organiser's (NotOrganiser: 403)."""
    if not is_organiser(request, campaigns, campaign):
        raise NotOrganiser(campaign.id)
    return campaign


OrganisedCampaign = Annotated[Campaign, Depends(organised)]


def system_page(request: Request, system_id: str) -> SystemPages[Any]:
    """The pages of a served system: its spec's, or the generic editor's fields alone."""
    spec = registry.registered(system_id)
    pages = spec.pages if spec is not None and spec.pages is not None else SystemPages
    return pages(request.app.state.systems[system_id])


# The pages of a ledger are numbered 1 to MAX_PAGE (2,000 lines at 20 a page on a gang's
# page, past what it may show: a ledger's 1,000 lines and the latest 1,000 against it).
MAX_PAGE = 100
BAD_PAGE = f"Page : un nombre entier de 1 à {MAX_PAGE}."


def page_number(request: Request) -> int | None:
    """The page asked for (`?page=`, 1 without it), or None when it is no whole number from
    1 to MAX_PAGE (the page then says BAD_PAGE, 422): bounded where it enters."""
    text = request.query_params.get("page")
    if text is None:
        return 1
    if not is_digits(text) or len(text) > 3 or not 1 <= int(text) <= MAX_PAGE:
        return None
    return int(text)
