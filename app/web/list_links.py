"""How a list comes into a browser: made from the home page's form (`POST /listes`), from
an « Ajouter à une liste » (`POST /listes/ajouter`), by its edit link (`/r/{id}/modifier`)
or as a copy of a share (`/s/{code}/dupliquer`)."""

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from sqlmodel import Session
from starlette.datastructures import FormData

from app.db import SessionDep
from app.deps import Rosters
from app.roster_service import Refusal
from app.store import rosters as store
from app.store.models import Roster
from app.web.deps import ChosenRoster, FormDep, editable_or_none, join
from app.web.forms import with_form
from app.web.render import html_error, render
from app.web.system_pages import pages_of
from app.web.toolkit import (
    UNKNOWN_SYSTEM,
    add_entry_to_roster,
    create_and_open,
    empty_document,
    service_of,
    systems_of,
)

router = APIRouter(include_in_schema=False)

BAD_LINK = "Ce lien de modification n'est pas valable."


def create_from_form(request: Request, session: Session, form: FormData) -> Response:
    system = systems_of(request).get(str(form.get("system")))
    if system is None:
        return html_error(request, 422, UNKNOWN_SYSTEM)
    example_id = form.get("example")
    if example_id:
        example = next((e for e in system.example_rosters() if e.id == example_id), None)
        if example is None:
            return html_error(request, 404, "Exemple inconnu.")
        return create_and_open(request, session, system, dict(example.document))
    return create_and_open(request, session, system, empty_document(system))


# Forms are read on the event loop, the database and the engine work in a thread.
router.add_api_route("/listes", with_form(create_from_form), methods=["POST"])


def _renamed(form: FormData, names: dict[str, str]) -> FormData:
    return FormData([(names.get(key, key), value) for key, value in form.multi_items()])


@router.post("/listes/ajouter")
def add_from_form(
    request: Request, session: SessionDep, form: FormDep, chosen: ChosenRoster
) -> Response:
    system = systems_of(request).get(str(form.get("system")))
    if system is None:
        return html_error(request, 422, UNKNOWN_SYSTEM)
    unit = pages_of(request)[system.id].new_entry(_renamed(form, {"unit": "add-unit"}))
    if unit is None:
        return html_error(request, 422, "Aucun profil choisi.")
    return add_entry_to_roster(request, session, system, form, unit, chosen)


def claimed(request: Request, session: Session, roster: Roster) -> Response:
    try:
        join(request, session, roster.id)
    except Refusal:
        return html_error(request, 409, "Ce carnet est plein : supprimez des listes d'abord.")
    return RedirectResponse(f"/r/{roster.id}", status_code=303)


@router.get("/r/{roster_id}/modifier")
def claim(
    roster_id: str, t: str, request: Request, session: SessionDep, rosters: Rosters
) -> Response:
    """The edit link: the list joins this browser's carnet, then the token leaves the
    URL (the carnet's cookie opens the list from now on). Only a navigation the player
    made (typed, pasted, a bookmark: `Sec-Fetch-Site: none`) or one from Caserne's own
    pages joins at once; one from another site (or from a browser that does not say)
    is asked first, and only the form's POST joins (issue 25: a page on another site
    put the attacker's list in the visitor's carnet)."""
    try:
        roster = rosters.authorize(roster_id, t[:200])
    except Refusal:
        return html_error(request, 403, BAD_LINK)
    if editable_or_none(request, session, roster.id) is not None:
        return RedirectResponse(f"/r/{roster.id}", status_code=303)
    if request.headers.get("sec-fetch-site") in ("none", "same-origin"):
        return claimed(request, session, roster)
    context = {
        "roster": roster,
        "name": roster.name or "Liste sans nom",
        "system_name": systems_of(request)[roster.system].name,
        "key": t[:200],
    }
    response = render(request, "roster/claim.html", context)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def claim_posted(request: Request, session: Session, form: FormData) -> Response:
    roster_id = str(request.path_params["roster_id"])
    rosters = service_of(request, session)
    try:
        roster = rosters.authorize(roster_id, str(form.get("t") or "")[:200])
    except Refusal:
        return html_error(request, 403, BAD_LINK)
    return claimed(request, session, roster)


router.add_api_route("/r/{roster_id}/modifier", with_form(claim_posted), methods=["POST"])


@router.get("/s/{code}/dupliquer")
def confirm_duplicate(code: str, request: Request, session: SessionDep) -> Response:
    """The « Dupliquer » form with this browser's CSRF field: the share page is cached
    for everyone and cannot carry one, so a browser that sends neither Sec-Fetch-Site
    nor Origin is sent here by the CSRF guard (app/security/csrf.py)."""
    shared = store.get_share(session=session, code=code)
    if shared is None:
        return html_error(request, 404, "Ce lien de partage n'existe pas.")
    name = shared.snapshot["roster"].get("name") or "Liste"
    response = render(request, "share/duplicate.html", {"code": code, "name": name})
    response.headers["Cache-Control"] = "private, no-store"
    return response


@router.post("/s/{code}/dupliquer")
def duplicate(code: str, request: Request, session: SessionDep) -> Response:
    shared = store.get_share(session=session, code=code)
    if shared is None:
        return html_error(request, 404, "Ce lien de partage n'existe pas.")
    system = systems_of(request).get(shared.system)
    if system is None:
        return html_error(request, 404, "Ce système de jeu n'est plus proposé.")
    document = dict(shared.snapshot["roster"])
    document["name"] = f"{document.get('name') or 'Liste'} (copie)"[:100]
    return create_and_open(request, session, system, document)
