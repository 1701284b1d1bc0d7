"""A gang's pages: its own (/r/{id}/campagne: « Après la bataille », the verdicts on lines
other gangs recorded against it), its public page by a share link, and the « Rapport de
bataille » BBCode of one line."""

import hashlib
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ValidationError

from app.campaigns.ledger import GONE, LedgerError
from app.campaigns.models import BattleIn
from app.campaigns.report import RESULTS, STATES, battle_bbcode, fighter_text, french_day
from app.campaigns.service import CampaignService, traits_of
from app.http_cache import not_modified
from app.roster_service import RosterError, StaleVersion, check
from app.store import campaigns as campaign_store
from app.store import rosters as roster_store
from app.store.models import Battle, Roster, Share, as_utc
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
from app.web.campaigns.deps import Campaigns, system_page
from app.web.deps import EditableRoster, FormDep, editable
from app.web.forms import error_text, field_errors
from app.web.render import html_error, render

router = APIRouter(include_in_schema=False)

# Ledger lines a gang page shows at once (newest first; « Plus anciennes » pages on).
PAGE_LINES = 50
# A report names the opponent gang as it is now: caches keep it briefly.
REPORT_MAX_AGE = 60


def page_number(request: Request) -> int:
    """The page of ledger lines asked for, bounded where it enters (from 1)."""
    text = str(request.query_params.get("page", "1"))[:4]
    return int(text) if text.isdecimal() and 0 < int(text) <= 100 else 1


def same_fighter(line_fighter: dict[str, Any], entry: dict[str, Any], index: int) -> bool:
    """A ledger line's fighter is this entry: by its stable id (the entry may have moved
    since), or by its index for a line stored without one."""
    if line_fighter.get("id") is not None:
        return bool(line_fighter["id"] == entry.get("id"))
    return bool(line_fighter["entry"] == index)


def as_shared(
    system: AnySystem, rows: Sequence[Battle], share: Share
) -> tuple[BaseModel, dict[str, Any], list[Battle], Any]:
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


def fighters_of(
    system: AnySystem,
    roster: Roster,
    document: BaseModel,
    states: Sequence[str],
    lines: Sequence[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Each fighter's numbers, state and own line (XP over time, changes with causes)."""
    whole = check(system, document)[0]
    entries = document.model_dump(mode="json")["entries"]
    traits = traits_of(system.id)
    # A catalogue fighter's numbers are the catalogue figure's (issue 26.7: « None » XP).
    samples = traits.figures(system)
    figure_count = figure_rows({"entries": entries}, traits.figures_apart)
    fighters = []
    for index, (entry, result) in enumerate(zip(entries, whole.entries, strict=True)):
        custom = entry.get("custom") or samples.get(str(entry.get("unit")), {}).get("custom") or {}
        history = [
            (line["battle"], fighter_text(f))
            for line in lines
            for f in line["fighters"]
            if line["recorded_by"] == roster.id and same_fighter(f, entry, index)
        ]
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
                "history": history,
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
    roster: Roster,
    *,
    owner: bool = True,
    page: int = 1,
    share: Share | None = None,
) -> dict[str, Any]:
    """The gang as its pages show it: each fighter's numbers and state, the ledger newest
    first (a page of PAGE_LINES). The ledger is read once; the opponents' list only for
    the owner's form. With `share`: the gang as that share froze it, as /s/{code} shows."""
    system = service.rosters.system(roster)
    rows = service.lines(roster)
    until = None
    if share is None:
        document, as_stored = service.rosters.document(roster), roster.document
    else:
        document, as_stored, rows, until = as_shared(system, rows, share)
    states = service.states(roster, rows, as_stored)
    active = check(system, service.active(roster, document, rows))[0]
    lines = service.battles(roster, rows, as_stored, until=until)
    opponents = (
        campaign_store.opponents(session=service.session, roster_id=roster.id) if owner else []
    )
    newest = list(reversed(lines))
    pages = max(1, -(-len(newest) // PAGE_LINES))
    page = min(page, pages)
    return {
        "campaigns": [
            {"id": c.id, "name": c.name, "gangs": [{"id": i, "name": n} for i, n in gangs]}
            for c, gangs in opponents
        ],
        "roster": roster,
        "gang_name": document.name if share is not None else roster.name,  # type: ignore[attr-defined]
        "system": system,
        "fighters": fighters_of(system, roster, document, states, lines),
        "derived": active.derived,
        "lines": newest[(page - 1) * PAGE_LINES : page * PAGE_LINES],
        "page": page,
        "pages": pages,
        "line_count": len(newest),
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
    context = gang_context(campaigns, roster, page=page_number(request))
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


def owns(request: Request, campaigns: CampaignService, roster_id: str) -> bool:
    """Whether this browser may edit the roster (its carnet holds it, or its token came)."""
    try:
        editable(request, campaigns.session, roster_id)
    except RosterError:
        return False
    return True


@router.get("/campagne/gang/{code}")
def public_gang(code: str, request: Request, campaigns: Campaigns) -> Response:
    shared = roster_store.get_share(session=campaigns.session, code=code[:16])
    if shared is None or shared.roster_id is None:
        return html_error(request, 404, "Ce lien ne mène à aucun gang.")
    try:
        roster = campaigns.rosters.get(shared.roster_id)
        owner = owns(request, campaigns, roster.id)
        page = page_number(request)
        context = gang_context(campaigns, roster, owner=owner, page=page, share=shared)
    except RosterError:
        return html_error(request, 404, "Ce gang n'existe plus.")
    context.update(error="", form={}, flash="", owner=owner, code=code)
    return render(request, "campaign/gang.html", context)


@router.get("/campagne/rapport/{code}.bbcode")
def report(code: str, request: Request, campaigns: Campaigns) -> Response:
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
