"""A gang's pages: its own (/r/{id}/campagne: « Après la bataille », the verdicts on lines
other gangs recorded against it), its public page by a share link, and the « Rapport de
bataille » BBCode of one line."""

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ValidationError

from app.campaigns import reading, views
from app.campaigns import states as fighters_of_ledger
from app.campaigns.ledger import GONE, LedgerError
from app.campaigns.models import BattleIn
from app.campaigns.report import RESULTS, STATES, battle_bbcode, fighter_text, french_day
from app.campaigns.service import CampaignService, traits_of
from app.http_cache import Memo, build, memory, not_modified, versioned_headers
from app.roster_service import NoSuchRoster, Refusal, StaleVersion, check
from app.store import campaign_reads
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.campaign_reads import OwnLine, SharedGang
from app.store.models import Roster, Share, as_utc
from app.systems.base import AnySystem
from app.urls import public_base
from app.web.campaigns.battle_form import (
    BATTLE_LABELS,
    STALE,
    STATE_LABELS,
    battle_from_form,
    battle_refusal,
    figure_rows,
)
from app.web.campaigns.deps import BAD_PAGE, Campaigns, PublicCampaigns, page_number, system_page
from app.web.deps import EditableRoster, FormDep
from app.web.forms import error_text, field_errors
from app.web.render import html_error, render

router = APIRouter(include_in_schema=False)

# Ledger lines a gang page shows at once (newest first; « Batailles plus anciennes » pages
# on): what a view reads and draws past the gang's own ledger is bounded by it.
PAGE_LINES = 20
# What a process remembers of gangs' public pages, by version: bounded in bytes.
PAGES_BYTES = 16 * 1024 * 1024
# A report names the opponent gang as it is now: caches keep it briefly.
REPORT_MAX_AGE = 60


def same_fighter(line_fighter: dict[str, Any], entry: dict[str, Any], index: int) -> bool:
    """A ledger line's fighter is this entry: by its stable id (the entry may have moved
    since), or by its index for a line stored without one."""
    if line_fighter.get("id") is not None:
        return bool(line_fighter["id"] == entry.get("id"))
    return bool(line_fighter["entry"] == index)


def as_shared(
    system: AnySystem, rows: Sequence[OwnLine], share: Share
) -> tuple[BaseModel, dict[str, Any], list[OwnLine], Any]:
    """The gang as `share` froze it: its document (parsed, and as stored), the ledger's
    lines up to it, and the time other gangs' lines are read until."""
    as_stored = share.snapshot["roster"]
    document = system.roster_model.model_validate(as_stored)
    pinned = (share.snapshot.get("ledger") or {}).get("battle")
    until = as_utc(share.created_at)
    if isinstance(pinned, int):
        kept = [row for row in rows if row.number <= pinned]
    else:
        kept = [row for row in rows if as_utc(row.created_at) <= until]
    return document, as_stored, kept, max([until, *(as_utc(row.created_at) for row in kept)])


def histories(rows: Sequence[OwnLine], entries: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """Each entry's own line in the ledger `rows`, in order: (battle, what happened) for
    each line naming it (by its stable id, or by its index for a line stored without one).
    One pass over the lines, whatever the number of fighters."""
    by_id: dict[str, list[int]] = {}
    for index, entry in enumerate(entries):
        if entry.get("id") is not None:
            by_id.setdefault(str(entry["id"]), []).append(index)
    out: list[list[Any]] = [[] for _ in entries]
    for row in rows:
        for fighter in row.fighters:
            if fighter.get("id") is not None:
                named = by_id.get(str(fighter["id"]), [])
            else:
                named = [fighter["entry"]] if 0 <= fighter["entry"] < len(entries) else []
            for index in named:
                out[index].append((row.number, fighter_text(fighter)))
    return out


def fighters_of(
    system: AnySystem,
    document: BaseModel,
    states: Sequence[str],
    rows: Sequence[OwnLine],
) -> list[dict[str, Any]]:
    """Each fighter's numbers, state and own line (XP over time, changes with causes) in
    the gang's own ledger `rows`."""
    whole = check(system, document)[0]
    entries = document.model_dump(mode="json")["entries"]
    traits = traits_of(system.id)
    # A catalogue fighter's numbers are the catalogue figure's (issue 26.7: « None » XP).
    samples = traits.figures(system)
    figure_count = figure_rows({"entries": entries}, traits.figures_apart)
    history = histories(rows, entries)
    fighters = []
    for index, (entry, result) in enumerate(zip(entries, whole.entries, strict=True)):
        custom = entry.get("custom") or samples.get(str(entry.get("unit")), {}).get("custom") or {}
        state = states[index] if index < len(states) else "active"
        fighters.append(
            {
                "index": index,
                "name": result.name,
                "rows": figure_count[index],
                "count": int(entry.get("count", 1) or 1),
                "xp": custom.get("xp"),
                "rep": custom.get("rep"),
                "stats": [custom.get(stat.name) for stat in traits.figure_stats],
                "actions": getattr(result.derived, "actions", None),
                "state": state,
                "gone": state in GONE,
                "history": history[index],
            }
        )
    return fighters


def traits_context(system: AnySystem) -> dict[str, Any]:
    """What the gang page shows of the system's campaign traits."""
    traits = traits_of(system.id)
    folder = f"systems/{system.id}/"
    score = traits.score_template if system.score_model is not None else None
    return {
        "has_xp": traits.has_xp,
        "has_rep": traits.has_rep,
        "figure_stats": traits.figure_stats,
        "columns": 2 + 2 * traits.has_xp + len(traits.figure_stats) + traits.has_rep,
        "has_score": score is not None,
        "score_template": folder + score if score else None,
        "totals_template": folder + traits.totals_template if traits.totals_template else None,
        # A figure's numbers can change after a battle (the system's traits say which).
        "raises_stats": traits.raises_stats,
    }


def gang_context(
    service: CampaignService,
    roster: Roster | SharedGang,
    *,
    owner: bool = True,
    page: int = 1,
    share: Share | None = None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The gang as its pages show it: each fighter's numbers, state and history, and a page
    of PAGE_LINES ledger lines, newest first. Its own ledger is read once; past it, what is
    read is bounded by the page (app/campaigns/reading.py `ledger_page`); the opponents'
    list only for the owner's form. With `share`: the gang as that share froze it, as
    /s/{code} shows. `names`: the names of gangs it may show, when the caller read them."""
    system = service.systems[roster.system]
    rows: Sequence[OwnLine] = campaign_reads.own_lines(session=service.session, roster_id=roster.id)
    until = None
    if share is None:
        assert isinstance(roster, Roster)  # the owner's page: the list as it is
        document, as_stored = service.rosters.document(roster), roster.document
    else:
        document, as_stored, rows, until = as_shared(system, rows, share)
    states = fighters_of_ledger.fighter_states(rows, as_stored)
    active = check(system, fighters_of_ledger.without_gone(document, states))[0]
    asked = reading.Page(page, PAGE_LINES)
    lines, count = reading.ledger_page(service.session, roster, rows, until, asked, names)
    opponents = (
        campaign_reads.opponents(session=service.session, roster_id=roster.id) if owner else []
    )
    return {
        "campaigns": [
            {"id": c.id, "name": c.name, "gangs": [{"id": i, "name": n} for i, n in gangs]}
            for c, gangs in opponents
        ],
        "roster": roster,
        "gang_name": document.name if share is not None else roster.name,  # type: ignore[attr-defined]
        "system": system,
        "fighters": fighters_of(system, document, states, rows),
        "derived": active.derived,
        "lines": lines,
        "page": asked.shown(count),
        "pages": asked.pages(count),
        "line_count": count,
        "results": RESULTS,
        "states": STATE_LABELS,
        "report_states": STATES,
        "french_day": french_day,
        "fighter_text": fighter_text,
        **traits_context(system),
    }


def gang_page(
    request: Request,
    campaigns: CampaignService,
    roster: Roster,
    error: str = "",
    status: int = 200,
    form: dict[str, Any] | None = None,
    flash: str = "",
    invalid: set[str] | None = None,
) -> Response:
    """The gang's own page, its form as sent (`form`) after a refusal."""
    context = gang_context(campaigns, roster, page=page_number(request) or 1)
    # The recruit's choice is the editor's « Ajouter » list (the system's add_unit).
    context.update(system_page(request, roster.system).context())
    context.update(
        error=error,
        form=form or {},
        flash=flash,
        owner=True,
        invalid=invalid or set(),
        add={"unit": (form or {}).get("add-unit", ""), "group": (form or {}).get("add-group")},
        doc=roster.document,
        errors={},
    )
    return render(request, "campaign/gang.html", context, status=status)


@router.get("/r/{roster_id}/campagne")
def after_battle(roster: EditableRoster, request: Request, campaigns: Campaigns) -> Response:
    if page_number(request) is None:
        return html_error(request, 422, BAD_PAGE)
    flash = {
        "confirmed": "Bataille confirmée.",
        "disputed": "Bataille contestée : elle ne compte plus au classement.",
    }.get(str(request.query_params.get("ok")), "Bataille enregistrée.")
    flash = flash if request.query_params.get("ok") else ""
    return gang_page(request, campaigns, roster, flash=flash)


def battle_body(
    request: Request, system: AnySystem, roster: Roster, form: Any
) -> dict[str, Any] | tuple[str, set[str]]:
    """The form as a record_battle body, or what to say of its score or recruit."""
    body = battle_from_form(form, figure_rows(roster.document, traits_of(system.id).figures_apart))
    page = system_page(request, system.id)
    if system.score_model is not None and form.get("scored"):
        # The system's score form, the same fields as its score page (E.3, No Limits'
        # victory points): the battle's points come from its score engine.
        score = page.score_from_form(form)
        try:
            system.score_model.model_validate(score)
        except ValidationError as exc:
            return "Score : " + error_text(exc, page.labels), set()
        body["score"] = score
    if form.get("recruit"):
        # A fighter recruited or bought: the unit chosen as the editor adds one.
        new = page.new_entry(form)
        if new is None:
            return "Recrue : choisissez-la dans la liste.", {"add-unit"}
        name = str(form.get("recruit-name") or "").strip()[:81]
        body["recruits"] = [{"count": 1, **new, **({"name": name} if name else {})}]
    return body


@router.post("/r/{roster_id}/campagne")
def record(
    roster: EditableRoster, request: Request, campaigns: Campaigns, form: FormDep
) -> Response:
    shown = {k: str(v)[:200] for k, v in form.items() if isinstance(v, str)}
    system = campaigns.rosters.system(roster)
    body = battle_body(request, system, roster, form)
    if isinstance(body, tuple):
        text, marked = body
        return gang_page(request, campaigns, roster, text, 422, shown, invalid=marked)
    names = [e.name for e in check(system, campaigns.rosters.document(roster))[0].entries]
    try:
        parsed = BattleIn.model_validate({k: v for k, v in body.items() if k != "_prefixes"})
        campaigns.record(roster, int(str(form.get("version") or 0)[:9] or 0), parsed)
    except ValidationError as exc:
        errors = field_errors(exc, labels=BATTLE_LABELS)
        items = [(key.split("."), text) for key, text in errors.items() if "." in key]
        items += [([key], text) for key, text in errors.items() if "." not in key]
        items = [(p, t) for p, t in items if p[0] != "fighters" or len(p) > 2]
        text, marked = battle_refusal(body, names, items)
        return gang_page(request, campaigns, roster, text, 422, shown, invalid=marked)
    except LedgerError as exc:
        text, marked = battle_refusal(body, names, [(exc.path, str(exc))])
        return gang_page(request, campaigns, roster, text, 422, shown, invalid=marked)
    except ValueError:  # a version that is no number
        return gang_page(request, campaigns, roster, STALE, 422, shown)
    except StaleVersion:
        campaigns.session.refresh(roster)
        return gang_page(request, campaigns, roster, STALE, 409, shown)
    return RedirectResponse(f"/r/{roster.id}/campagne?ok=1", status_code=303)


@router.post("/r/{roster_id}/campagne/verdict")
def give_verdict(
    roster: EditableRoster, request: Request, campaigns: Campaigns, form: FormDep
) -> Response:
    """The gang's owner confirms or disputes a line another gang recorded against it."""
    said = str(form.get("verdict") or "")
    number = str(form.get("battle") or "")[:7]
    if said not in ("confirmed", "disputed") or not number.isdecimal():
        return gang_page(request, campaigns, roster, "Choisissez Confirmer ou Contester.", 422)
    try:
        campaigns.verdict(roster, str(form.get("recorded_by") or "")[:32], int(number), said)
    except LedgerError as exc:
        return gang_page(request, campaigns, roster, str(exc), 422)
    return RedirectResponse(f"/r/{roster.id}/campagne?ok={said}", status_code=303)


@router.get("/campagne/gang/{code}")
def public_gang(code: str, request: Request, campaigns: PublicCampaigns) -> Response:
    """The gang as one of its shares froze it, for anyone (the owner's page is
    /r/{id}/campagne): named by its version (ETag, 304 after 2 statements), kept
    CAMPAIGN_MAX_AGE seconds, and remembered per version by the process."""
    page = page_number(request)
    if page is None:
        return html_error(request, 422, BAD_PAGE)
    page_of = campaign_reads.gang_page(session=campaigns.session, code=code[:16])
    if page_of is None or page_of.roster.system not in campaigns.systems:
        return missing_gang(request, campaigns, code)
    found = page_of.roster
    version = views.gang_page_version(page_of, code[:16])
    catalogue = campaigns.systems[found.system].catalogue_version
    etag = f"{version}-{build()}-{catalogue}-{page}"
    headers = versioned_headers(request, etag)
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    remembered = memory(request, "gang_pages", lambda: Memo[bytes](PAGES_BYTES))
    html = remembered.get(etag)
    if html is not None:
        return HTMLResponse(html, headers=headers)
    shared = roster_store.get_share(session=campaigns.session, code=code[:16])
    try:
        if shared is None:
            raise NoSuchRoster(found.id)  # removed since (caserne prune)
        context = gang_context(
            campaigns, found, owner=False, page=page, share=shared, names=page_of.names()
        )
    except Refusal:
        return missing_gang(request, campaigns, code)
    context.update(error="", form={}, flash="", owner=False, code=code)
    response = render(request, "campaign/gang.html", context, headers=headers)
    remembered.put(etag, bytes(response.body))
    return response


def missing_gang(request: Request, campaigns: CampaignService, code: str) -> Response:
    """The 404 of a gang's public page: no such share, or its gang is gone."""
    shared = roster_store.get_share(session=campaigns.session, code=code[:16])
    if shared is None or shared.roster_id is None:
        return html_error(request, 404, "Ce lien ne mène à aucun gang.")
    return html_error(request, 404, "Ce gang n'existe plus.")


@router.get("/campagne/rapport/{code}.bbcode")
def report(code: str, request: Request, campaigns: PublicCampaigns) -> Response:
    session = campaigns.session
    shared = roster_store.get_share(session=session, code=code[:16])
    roster = None
    if shared is not None and shared.roster_id is not None:
        roster = roster_store.get_roster(session=session, roster_id=shared.roster_id)
    if shared is None or roster is None or roster.system not in campaigns.systems:
        return html_error(request, 404, "Ce rapport n'existe pas.")
    row = campaign_store.line_by_share(session=session, roster_id=roster.id, code=code)
    if row is None:
        return html_error(request, 404, "Ce rapport n'existe pas.")
    line = campaigns.line(roster, row)
    url = f"{public_base(request)}/campagne/gang/{code}"
    # The gang as the line's share froze it, not the list as it is named since.
    name = str(shared.snapshot["roster"].get("name") or "")
    text = battle_bbcode(name or "Gang sans nom", line, url)
    # An opponent gang is named as it is now: the ETag follows the text itself.
    etag = hashlib.sha256(text.encode()).hexdigest()[:20]
    headers = {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={REPORT_MAX_AGE}"}
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    return Response(text, media_type="text/plain; charset=utf-8", headers=headers)
