"""A club's campaign: the page that creates one, its standings (the organiser's page adds
the join link and the battles to void) and the page where a player's list joins it."""

import json
from collections.abc import Hashable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.campaigns import views
from app.campaigns.ledger import LedgerError, Losses
from app.campaigns.models import CampaignIn
from app.campaigns.report import RESULTS, french_day
from app.campaigns.service import CampaignFull, CampaignService, JoinRefused
from app.http_cache import Entries, Memo, build, memory, not_modified, versioned_headers
from app.refusals import page_text
from app.roster_service import Refusal, WrongSystem
from app.store import campaign_reads
from app.store import campaigns as campaign_store
from app.store.models import Campaign
from app.urls import public_base
from app.web.campaigns.deps import (
    BAD_PAGE,
    Campaigns,
    JoinableCampaign,
    OrganisedCampaign,
    PublicCampaigns,
    ShownCampaign,
    is_organiser,
    page_number,
)
from app.web.deps import FormDep, editable, my_lists, writing_carnet
from app.web.forms import field_errors
from app.web.render import html_error, render

router = APIRouter(include_in_schema=False)

# The campaign's battles the organiser's page lists at once (newest first).
PAGE_LINES = 50
CAMPAIGN_LABELS = {"system": "Système", "name": "Nom", "notes": "Règles de la campagne"}


def new_form(
    request: Request,
    form: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> Response:
    systems = request.app.state.systems
    return render(
        request,
        "campaign/new.html",
        {"systems": systems, "form": form or {}, "errors": errors or {}},
        status=status,
    )


@router.get("/campagnes/nouvelle")
def new_campaign(request: Request) -> Response:
    chosen = str(request.query_params.get("systeme", ""))[:32]
    return new_form(request, {"system": chosen})


@router.post("/campagnes/nouvelle")
def create_campaign(request: Request, campaigns: Campaigns, form: FormDep) -> Response:
    """An organiser creates a campaign from the pages: it goes in this browser's carnet
    and the page gives the link players join by (its code is shown this once)."""
    # Bounded where it enters, past the model's own bounds so that they refuse it.
    shown = {k: str(form.get(k) or "")[:4001] for k in ("system", "name", "notes")}
    body = {k: v.strip() for k, v in shown.items()}
    try:
        parsed = CampaignIn.model_validate(body)
    except ValidationError as exc:
        return new_form(request, shown, field_errors(exc, labels=CAMPAIGN_LABELS), 422)
    if parsed.system not in campaigns.systems:
        return new_form(request, shown, {"system": "Système : choisissez-en un."}, 422)
    carnet = writing_carnet(request, campaigns.session)
    campaign, _token, join_code = campaigns.create(parsed, carnet)
    base = public_base(request)
    return render(
        request,
        "campaign/created.html",
        {
            "campaign": campaign,
            "system": campaigns.systems[campaign.system],
            "join_url": f"{base}/c/{campaign.id}/rejoindre?code={join_code}",
            "url": f"{base}/c/{campaign.id}",
        },
        status=201,
    )


def organiser_context(
    request: Request, campaigns: CampaignService, campaign: Campaign, view: dict[str, Any]
) -> dict[str, Any]:
    """The organiser's page adds the join link again, a new one on demand, and the
    campaign's battles (a page of PAGE_LINES) to void."""
    page = page_number(request) or 1
    lines, total = campaign_reads.recent_lines(
        session=campaigns.session,
        campaign_id=campaign.id,
        offset=(page - 1) * PAGE_LINES,
        limit=PAGE_LINES,
    )
    base = public_base(request)
    code = campaign.join_code
    return {
        "organiser": True,
        "join_url": f"{base}/c/{campaign.id}/rejoindre?code={code}" if code else "",
        "join_hash": campaign.join_hash,
        "lines": lines,
        "names": {g["roster"]: g["name"] for g in view["gangs"]},
        "page": page,
        "pages": max(1, -(-total // PAGE_LINES)),
        "results": RESULTS,
        "french_day": french_day,
    }


# What a process remembers of the campaigns' views (get_campaign's JSON) and rendered
# standings, by version, bounded in bytes (a 64-gang view weighs about 10 KB); and what
# each gang's lines did to its fighters, by gang version (views.py `standings`), bounded in
# gangs (each at most a ledger's 1,000 numbers).
VIEWS_BYTES = 8 * 1024 * 1024
PAGES_BYTES = 16 * 1024 * 1024
KNOWN_GANGS = 4096


def remembered_view(
    request: Request, campaigns: CampaignService, campaign: Campaign
) -> tuple[str, str]:
    """The campaign view's version and body (get_campaign's JSON), remembered per version."""
    return views.remembered_view(
        campaigns.session,
        campaign,
        memory(request, "campaign_views", lambda: Memo[str](VIEWS_BYTES)),
        memory(request, "campaign_losses", lambda: Entries[Hashable, Losses](KNOWN_GANGS)),
    )


def standings_pages(request: Request) -> Memo[bytes]:
    """The rendered public standings, by ETag."""
    return memory(request, "campaign_pages", lambda: Memo[bytes](PAGES_BYTES))


def campaign_view(
    request: Request,
    campaigns: CampaignService,
    campaign: Campaign,
    flash: str = "",
    error: str = "",
    status: int = 200,
) -> Response:
    """The standings. Everyone's page is named by its version (ETag, 304) and may be kept
    CAMPAIGN_MAX_AGE seconds; it varies on Cookie, since the organiser's browser gets its
    own page (private, never stored), as does any page saying something (`flash`, `error`)."""
    organiser = is_organiser(request, campaigns, campaign)
    version, body = remembered_view(request, campaigns, campaign)
    system = campaigns.systems[campaign.system]
    public = not organiser and not flash and not error and status == 200
    etag = f"{version}-{build()}-{system.catalogue_version}-html"
    headers = {**versioned_headers(request, etag), "Vary": "Cookie"}
    if public:
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        html = standings_pages(request).get(etag)
        if html is not None:
            return HTMLResponse(html, headers=headers)
    view = json.loads(body)
    context: dict[str, Any] = {
        "campaign": view,
        "system": system,
        "has_points": system.score_model is not None,
        "organiser": False,
        "flash": flash,
        "error": error,
    }
    if organiser:
        context.update(organiser_context(request, campaigns, campaign, view))
    if public:
        response = render(request, "campaign/campaign.html", context, headers=headers)
        standings_pages(request).put(etag, bytes(response.body))
        return response
    response = render(request, "campaign/campaign.html", context, status=status)
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Vary"] = "Cookie"
    return response


@router.get("/c/{campaign_id}")
def campaign_page(
    campaign: ShownCampaign, request: Request, campaigns: PublicCampaigns
) -> Response:
    flash = {
        "lien": "Nouveau lien d'invitation : l'ancien ne fait plus rejoindre.",
        "annulee": "Bataille annulée : elle reste affichée et ne compte plus.",
        "retablie": "Bataille rétablie : elle compte de nouveau.",
    }.get(str(request.query_params.get("ok", "")), "")
    if page_number(request) is None:
        return html_error(request, 422, BAD_PAGE)
    return campaign_view(request, campaigns, campaign, flash)


@router.post("/c/{campaign_id}/invitation")
def new_invitation(campaign: OrganisedCampaign, campaigns: Campaigns, form: FormDep) -> Response:
    """The organiser makes a new join link (the old one stops working); of a
    double-click, one click changes it (compare-and-swap on the code shown)."""
    expected = str(form.get("current") or "")[:64]
    campaign_store.new_join_code(
        session=campaigns.session, campaign=campaign, expected_hash=expected
    )
    return RedirectResponse(f"/c/{campaign.id}?ok=lien", status_code=303)


@router.post("/c/{campaign_id}/annuler")
def void_line(
    campaign: OrganisedCampaign, request: Request, campaigns: Campaigns, form: FormDep
) -> Response:
    """The organiser voids a battle of the campaign (it stays shown, counts nowhere)."""
    return voided(campaign, request, campaigns, form, undo=False)


@router.post("/c/{campaign_id}/retablir")
def unvoid_line(
    campaign: OrganisedCampaign, request: Request, campaigns: Campaigns, form: FormDep
) -> Response:
    """The organiser brings a voided battle back: it counts again (issue 26: every removal
    can be undone)."""
    return voided(campaign, request, campaigns, form, undo=True)


def voided(
    campaign: Campaign, request: Request, campaigns: CampaignService, form: FormData, undo: bool
) -> Response:
    number = str(form.get("battle") or "")[:7]
    try:
        if not number.isdecimal():
            raise LedgerError("no_such_battle", "Choisissez une bataille.", ["battle"])
        campaigns.void(campaign, str(form.get("recorded_by") or "")[:32], int(number), undo)
    except LedgerError as exc:
        return campaign_view(request, campaigns, campaign, error=str(exc), status=422)
    said = "retablie" if undo else "annulee"
    return RedirectResponse(f"/c/{campaign.id}?ok={said}", status_code=303)


def join_form(
    request: Request,
    campaigns: CampaignService,
    campaign: Campaign,
    code: str,
    said: tuple[str, int] = ("", 200),
) -> Response:
    """The join page: this browser's lists of the campaign's system; `said`: a refusal's
    sentence and status."""
    lists = my_lists(request, campaigns.session, campaign.system)
    error, status = said
    return render(
        request,
        "campaign/join.html",
        {"campaign": campaign, "lists": lists, "code": code, "error": error},
        status=status,
    )


@router.get("/c/{campaign_id}/rejoindre")
def join_page(campaign: JoinableCampaign, request: Request, campaigns: Campaigns) -> Response:
    return join_form(request, campaigns, campaign, str(request.query_params.get("code", ""))[:200])


@router.post("/c/{campaign_id}/rejoindre")
def join(
    campaign: JoinableCampaign, request: Request, campaigns: Campaigns, form: FormDep
) -> Response:
    code = str(form.get("code") or "")[:200]
    if not campaign_store.join_matches(campaign, code):
        return join_form(request, campaigns, campaign, code, said(JoinRefused(campaign.id)))
    try:
        roster = editable(request, campaigns.session, str(form.get("roster") or "")[:64])
    except Refusal:
        refused = ("Choisissez une de vos listes.", 422)
        return join_form(request, campaigns, campaign, code, refused)
    if roster.system != campaign.system:
        return join_form(request, campaigns, campaign, code, said(WrongSystem(campaign.system)))
    try:
        campaigns.join_held(campaign, roster)
    except CampaignFull as full:
        return join_form(request, campaigns, campaign, code, said(full))
    return RedirectResponse(f"/c/{campaign.id}", status_code=303)


def said(refusal: Refusal) -> tuple[str, int]:
    """A refusal as the join page says it (the refusal table's words and status)."""
    status, text = page_text(refusal)
    return text, status
