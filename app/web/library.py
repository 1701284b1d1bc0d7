"""« Mes listes »: the lists this browser holds (open, rename, duplicate, delete, copy the
edit link). The new-list form is app/web/new_list.py, the carnet's link and key
app/web/carnet_pages.py."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.carnet_service import CarnetFull, CarnetService
from app.dates import french_datetime
from app.db import SessionDep
from app.deps import Rosters
from app.roster_service import RosterError, RosterService, StoredRosterInvalid, card
from app.store import campaigns as campaign_store
from app.store import carnets as carnet_store
from app.store import rosters as store
from app.store import trash
from app.store.models import Carnet, Roster, as_utc
from app.systems.base import AnySystem, Budget, Total
from app.systems.inputs import is_digits
from app.urls import public_base
from app.web.deps import (
    EditableRoster,
    FormDep,
    browser,
    drop_carnet,
    join,
)
from app.web.flash import read_flash, set_flash, shown_once
from app.web.qr import qr_svg
from app.web.render import html_error, render
from app.web.toolkit import redirect, service_of, systems_of

UNNAMED = "Liste sans nom"

STALE = "Cette liste ne correspond plus au catalogue : ouvrez-la pour la corriger."
BAD_NAME = "Nom refusé : 100 caractères au plus, sans caractère invalide."
REVOKED = (
    "La clé de ce carnet a été changée : ce lien, ou ce navigateur, n'ouvre plus rien. "
    "Ouvrez le nouveau lien du carnet, donné par « Mes listes » sur un appareil qui l'a gardé."
)
FULL = "Ce carnet est plein : supprimez des listes avant d'en ajouter."
GONE_FROM_TRASH = (
    "Cette liste n'est plus dans les listes supprimées de ce carnet : elle a été restaurée "
    "ailleurs, ou supprimée il y a plus de 30 jours."
)


def carnet_link(request: Request, carnet: Carnet, key: str) -> str:
    """The link that opens this carnet on another device (its key travels in `t`, masked in
    logs and never sent as a referrer: app/security/tokens.py)."""
    return f"{public_base(request)}/carnet/{carnet.id}?t={key}"


@dataclass
class LibraryItem:
    """One list as « Mes listes » shows it, from its stored card (never recomputed here)."""

    roster: Roster
    name: str
    system_name: str
    changed: str
    changed_iso: str
    budgets: list[Budget] = field(default_factory=list)
    totals: list[Total] = field(default_factory=list)
    valid: bool | None = None
    problem: str = ""


def stored_card(service: RosterService, roster: Roster) -> dict[str, Any]:
    """The roster's card; one stored before carnets (or under another catalogue) is computed
    once and kept, so each list is validated at most once per catalogue version."""
    system = service.systems[roster.system]
    found = roster.card
    if isinstance(found, dict) and found.get("catalogue_version") == system.catalogue_version:
        return found
    try:
        document: BaseModel | None = service.document(roster)
    except StoredRosterInvalid:
        document = None
    fresh = card(system, document)
    store.store_card(session=service.session, roster_id=roster.id, card=fresh)
    return fresh


def library_item(service: RosterService, roster: Roster) -> LibraryItem:
    system = service.systems.get(roster.system)
    item = LibraryItem(
        roster=roster,
        name=roster.name or UNNAMED,
        system_name=system.name if system is not None else roster.system,
        changed=french_datetime(roster.updated_at),
        changed_iso=as_utc(roster.updated_at).isoformat(timespec="seconds"),
    )
    if system is None:
        item.problem = "Ce système de jeu n'est plus proposé."
        return item
    shown = stored_card(service, roster)
    item.valid = bool(shown.get("valid"))
    if shown.get("stale"):
        item.problem = STALE
        return item
    item.budgets = [Budget.model_validate(b) for b in shown.get("budgets", [])]
    item.totals = [Total.model_validate(t) for t in shown.get("totals", [])]
    return item


def no_store(response: Response) -> Response:
    """A page that holds the carnet's link: never kept by a cache."""
    response.headers["Cache-Control"] = "private, no-store"
    return response


# « Mes listes » shows a page of lists at a time (issue 26: 300 lists were 87 screens at
# 390 px and 68.8 KB on the wire), found by a piece of their name, a system, in an order.
PAGE_SIZE = 24
SORT_NAMES = {"recent": "Modifiées récemment", "ancien": "Modifiées il y a longtemps", "nom": "Nom"}


@dataclass
class LibraryView:
    """What « Mes listes » is asked to show (query parameters, bounded where they enter)."""

    search: str = ""
    system: str = ""
    sort: str = "recent"
    page: int = 1

    def query(self, **changes: Any) -> str:
        """This view's query string with `changes` (the pager's links)."""
        values = {"q": self.search, "systeme": self.system, "tri": self.sort, "page": self.page}
        values |= changes
        kept = {k: v for k, v in values.items() if v not in ("", None, 1, "recent") or k == "page"}
        if kept.get("page") == 1:
            kept.pop("page")
        return "?" + urlencode(kept) if kept else ""


def library_view(request: Request, systems: Mapping[str, AnySystem]) -> LibraryView:
    """The view the query asks for, each parameter bounded."""
    params = request.query_params
    page = params.get("page", "1")
    system = params.get("systeme", "")
    sort = params.get("tri", "recent")
    return LibraryView(
        search=" ".join(params.get("q", "").split())[:100],
        system=system if system in systems else "",
        sort=sort if sort in SORT_NAMES else "recent",
        page=min(int(page[:6]), 100_000) if is_digits(page[:6]) and int(page[:6]) > 0 else 1,
    )


router = APIRouter(include_in_schema=False)


def shown_page(
    session: Session, carnet: Carnet | None, view: LibraryView
) -> tuple[list[Roster], int]:
    """The lists of the page `view` asks for, and how many the search finds; a page past
    the last (a bookmark, a list deleted) shows the last page (`view.page` set to it)."""
    if carnet is None:
        return [], 0

    def page() -> tuple[list[Roster], int]:
        return carnet_store.roster_page(
            session=session,
            carnet_id=carnet.id,
            system=view.system or None,
            search=view.search,
            sort=view.sort,
            offset=(view.page - 1) * PAGE_SIZE,
            limit=PAGE_SIZE,
        )

    rosters, found = page()
    if not rosters and view.page > 1 and found:
        view.page = -(-found // PAGE_SIZE)
        rosters, found = page()
    return rosters, found


def library(
    request: Request,
    session: Session,
    *,
    message: dict[str, str] | None = None,
    confirm: LibraryItem | None = None,
    status: int = 200,
) -> Response:
    held = browser(request, session)
    if held.revoked and held.carnet is None:
        drop_carnet(request)  # the next visit starts afresh
        return no_store(html_error(request, 403, REVOKED))
    roster_service = service_of(request, session)
    systems = systems_of(request)
    view = library_view(request, systems)
    rosters, found = shown_page(session, held.carnet, view)
    items = [library_item(roster_service, r) for r in rosters]
    context: dict[str, Any] = {
        "items": items,
        "view": view,
        "found": found,
        "pages": max(1, -(-found // PAGE_SIZE)),
        "sorts": SORT_NAMES,
        "message": message,
        "confirm": confirm,
        "systems": list(systems.values()),
        "carnet": None,
        "campaigns": [],
    }
    if held.carnet is not None:
        context["campaigns"] = campaign_store.listing(session=session, carnet_id=held.carnet.id)
        link = carnet_link(request, held.carnet, held.key or "")
        context["carnet"] = {
            "link": link,
            "qr": qr_svg(link, "QR code du lien de ce carnet"),
            "moved": len(held.moved),
        }
    return no_store(render(request, "roster/mine.html", context, status=status))


def back(request: Request, kind: str, text: str, anchor: str = "", undo: str = "") -> Response:
    response = redirect(request, f"/listes{anchor}")
    set_flash(response, "/listes", kind, text, undo)
    return response


def refusal(request: Request, session: Session, text: str, status: int) -> Response:
    """The library again, saying why an action was refused."""
    return library(request, session, message={"kind": "error", "text": text}, status=status)


@router.get("/listes")
def mine(request: Request, session: SessionDep) -> Response:
    response = library(request, session, message=read_flash(request))
    return shown_once(request, response, "/listes")


# What a refused rename or copy says (the first class the error is an instance of).
Refusals = tuple[tuple[type[Exception], str, int], ...]
RENAME_REFUSED: Refusals = (
    (StoredRosterInvalid, STALE, 422),
    (ValidationError, BAD_NAME, 422),
    (RosterError, "La liste n'a pas pu être renommée : réessayez.", 409),
)
COPY_REFUSED: Refusals = (
    (ValidationError, STALE, 422),
    (CarnetFull, FULL, 409),
    (RosterError, "La copie n'a pas pu être enregistrée.", 422),
)


def refused_as(request: Request, session: Session, error: Exception, said: Refusals) -> Response:
    """The library again, saying why a rename or a copy was refused."""
    text, status = next((text, status) for kind, text, status in said if isinstance(error, kind))
    return refusal(request, session, text, status)


@router.post("/listes/{roster_id}/renommer")
def rename(
    roster: EditableRoster,
    request: Request,
    session: SessionDep,
    form: FormDep,
    roster_service: Rosters,
) -> Response:
    name = str(form.get("name") or "").strip()
    try:
        roster_service.document(roster)
        roster_service.edit(roster, lambda document: {**document, "name": name})
    except (ValidationError, RosterError) as error:
        return refused_as(request, session, error, RENAME_REFUSED)
    return back(request, "ok", f"Liste renommée : « {name or UNNAMED} ».", f"#roster-{roster.id}")


@router.post("/listes/{roster_id}/dupliquer")
def duplicate(
    roster: EditableRoster, request: Request, session: SessionDep, roster_service: Rosters
) -> Response:
    document = dict(roster.document)
    document["name"] = f"{roster.name or UNNAMED} (copie)"[:100]
    try:
        parsed = roster_service.system(roster).roster_model.model_validate(document)
        copy, _token = roster_service.create(parsed)
        join(request, session, copy.id)
    except (ValidationError, RosterError) as error:
        return refused_as(request, session, error, COPY_REFUSED)
    return back(request, "ok", f"Copie créée : « {copy.name} ».", f"#roster-{copy.id}")


@router.post("/listes/{roster_id}/supprimer")
def delete(
    roster: EditableRoster,
    request: Request,
    session: SessionDep,
    form: FormDep,
    roster_service: Rosters,
) -> Response:
    """Asks first (a page of its own, no script needed); deletes once confirmed."""
    if form.get("confirm") != "oui":
        return library(request, session, confirm=library_item(roster_service, roster))
    name, roster_id = roster.name or UNNAMED, roster.id
    held = browser(request, session)
    assert held.carnet is not None  # EditableRoster: this browser's carnet holds it
    CarnetService(session).discard(held.carnet, roster)
    return back(
        request, "ok", f"Liste supprimée : « {name} ».", undo=f"/listes/{roster_id}/restaurer"
    )


@router.post("/listes/{roster_id}/restaurer")
def restore(roster_id: str, request: Request, session: SessionDep) -> Response:
    """Brings a deleted list back, whole (« Annuler », « Listes supprimées »); a second
    click says it is back, and does nothing more."""
    carnet = browser(request, session).carnet
    if carnet is None:
        return back(request, "error", GONE_FROM_TRASH)
    carnets = CarnetService(session)
    try:
        restored = carnets.restore(carnet, roster_id)
    except CarnetFull:
        return refusal(request, session, FULL, 409)
    if restored is None:
        if carnets.holds(carnet, roster_id):
            return back(request, "ok", "Cette liste est déjà restaurée.", f"#roster-{roster_id}")
        return back(request, "error", GONE_FROM_TRASH)
    name = restored.roster.name or UNNAMED
    return back(request, "ok", f"Liste restaurée : « {name} ».", f"#roster-{roster_id}")


TRASH_PAGE = 24
# What « Listes et livres supprimés » says of each kind (its label, « supprimé » agreed with
# it) and where « Restaurer » posts.
TRASH_KINDS = {
    trash.ROSTER: ("Liste", "supprimée", "/listes/{id}/restaurer"),
    trash.BOOK: ("Livre d'armée", "supprimé", "/livres/{id}/restaurer"),
}


@router.get("/listes/supprimees")
def deleted_lists(request: Request, session: SessionDep) -> Response:
    """The lists and army books this carnet deleted in the last TRASH_DAYS days, newest
    first, a page at a time, each with « Restaurer »."""
    carnet = browser(request, session).carnet
    systems = systems_of(request)
    page_number = library_view(request, systems).page
    items: list[trash.TrashItem] = []
    found = 0
    if carnet is not None:
        items, found = trash.page(
            session=session,
            carnet_id=carnet.id,
            kinds=tuple(TRASH_KINDS),
            offset=(page_number - 1) * TRASH_PAGE,
            limit=TRASH_PAGE,
        )
    context = {
        "items": [
            {
                "id": item.id,
                "kind": TRASH_KINDS[item.kind][0],
                "deleted_word": TRASH_KINDS[item.kind][1],
                "restore": TRASH_KINDS[item.kind][2].format(id=item.id),
                "name": item.name or UNNAMED,
                "system_name": systems[item.system].name if item.system in systems else item.system,
                "deleted": french_datetime(item.deleted_at),
                "deleted_iso": as_utc(item.deleted_at).isoformat(timespec="seconds"),
            }
            for item in items
        ],
        "found": found,
        "page": page_number,
        "pages": max(1, -(-found // TRASH_PAGE)),
        "days": trash.TRASH_DAYS,
    }
    return no_store(render(request, "roster/deleted.html", context))
