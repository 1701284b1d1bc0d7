"""« Mes listes »: the lists this browser holds (open, rename, duplicate, delete, copy the
edit link), and the new-list form that stores a list only once it has been asked for."""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlencode

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.carnet_service import CarnetError, CarnetFull, CarnetService, parse_cookie
from app.dates import french_datetime
from app.db import SessionDep
from app.deps import Rosters
from app.roster_service import RosterError, RosterService, StoredRosterInvalid, card
from app.store import campaigns as campaign_store
from app.store import carnets as carnet_store
from app.store import rosters as store
from app.store.models import Carnet, Roster, as_utc
from app.store.rosters import new_token
from app.systems.base import AnySystem, Budget, Total
from app.systems.inputs import is_digits
from app.urls import public_base
from app.web.access import CARNET_COOKIE
from app.web.deps import (
    BrowserCarnet,
    EditableRoster,
    FormDep,
    browser,
    drop_carnet,
    join,
    my_lists,
    switch_to,
)
from app.web.forms import count_bounds, field_errors, int_or_raw, with_form
from app.web.qr import qr_svg
from app.web.render import html_error, render
from app.web.toolkit import create_and_open, empty_document, redirect, service_of

# A message shown once on the next view of « Mes listes » (after a rename, a copy, a delete).
FLASH = "caserne_library_flash"
UNNAMED = "Liste sans nom"

STALE = "Cette liste ne correspond plus au catalogue : ouvrez-la pour la corriger."
BAD_NAME = "Nom refusé : 100 caractères au plus, sans caractère invalide."
REVOKED = (
    "La clé de ce carnet a été changée : ce lien, ou ce navigateur, n'ouvre plus rien. "
    "Ouvrez le nouveau lien du carnet, donné par « Mes listes » sur un appareil qui l'a gardé."
)
FULL = "Ce carnet est plein : supprimez des listes avant d'en ajouter."
# What « Oublier ce carnet sur cet appareil » clears (a shared computer left clean).
FORGET = b'"cache", "cookies", "storage"'
# A key the rotation's confirmation drew (`new_token()`: 32 bytes, URL-safe base64).
NEW_KEY = re.compile(r"[A-Za-z0-9_-]{43}")


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


def set_flash(response: Response, kind: str, text: str) -> None:
    response.set_cookie(
        FLASH, quote(f"{kind}:{text}"), max_age=60, httponly=True, samesite="lax", path="/listes"
    )


def read_flash(request: Request) -> dict[str, str] | None:
    raw = request.cookies.get(FLASH)
    if not raw:
        return None
    kind, _, text = unquote(raw).partition(":")
    return {"kind": kind if kind in ("ok", "error") else "ok", "text": text[:300]}


def catalogue_armies(system: AnySystem) -> list[tuple[str, str]]:
    """The armies (or factions) the system's catalogue lists, as (id, name)."""
    catalogue = system.catalogue()
    groups: Sequence[Any] = (
        getattr(catalogue, "armies", None) or getattr(catalogue, "factions", None) or []
    )
    return [(str(group.id), str(group.name)) for group in groups]


def stores_army(system: AnySystem) -> bool:
    """Whether the system's roster document keeps an army (No Limits: `extras.army`)."""
    extras = system.roster_model.model_fields.get("extras")
    model = extras.annotation if extras is not None else None
    return isinstance(model, type) and issubclass(model, BaseModel) and "army" in model.model_fields


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


def router(systems: Mapping[str, AnySystem]) -> APIRouter:
    router = APIRouter(include_in_schema=False)

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
        view = library_view(request, systems)
        rosters: list[Roster] = []
        found = 0
        if held.carnet is not None:
            rosters, found = carnet_store.roster_page(
                session=session,
                carnet_id=held.carnet.id,
                system=view.system or None,
                search=view.search,
                sort=view.sort,
                offset=(view.page - 1) * PAGE_SIZE,
                limit=PAGE_SIZE,
            )
        if held.carnet is not None and not rosters and view.page > 1 and found:
            # A page past the last (a bookmark, a list deleted): the last page.
            view.page = -(-found // PAGE_SIZE)
            rosters, found = carnet_store.roster_page(
                session=session,
                carnet_id=held.carnet.id,
                system=view.system or None,
                search=view.search,
                sort=view.sort,
                offset=(view.page - 1) * PAGE_SIZE,
                limit=PAGE_SIZE,
            )
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

    def back(request: Request, kind: str, text: str, anchor: str = "") -> Response:
        response = redirect(request, f"/listes{anchor}")
        set_flash(response, kind, text)
        return response

    def refusal(request: Request, session: Session, text: str, status: int) -> Response:
        """The library again, saying why an action was refused."""
        return library(request, session, message={"kind": "error", "text": text}, status=status)

    @router.get("/listes")
    def mine(request: Request, session: SessionDep) -> Response:
        response = library(request, session, message=read_flash(request))
        if FLASH in request.cookies:
            response.delete_cookie(FLASH, path="/listes")
        return response

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
        except StoredRosterInvalid:
            return refusal(request, session, STALE, 422)
        except ValidationError:
            return refusal(request, session, BAD_NAME, 422)
        except RosterError:
            return refusal(request, session, "La liste n'a pas pu être renommée : réessayez.", 409)
        return back(
            request, "ok", f"Liste renommée : « {name or UNNAMED} ».", f"#roster-{roster.id}"
        )

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
        except ValidationError:
            return refusal(request, session, STALE, 422)
        except CarnetFull:
            return refusal(request, session, FULL, 409)
        except RosterError:
            return refusal(request, session, "La copie n'a pas pu être enregistrée.", 422)
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
        name = roster.name or UNNAMED
        roster_service.delete(roster)
        return back(request, "ok", f"Liste supprimée : « {name} ».")

    # --- the carnet on another device --------------------------------------------------------

    def confirm_rotation(request: Request, carnet: Carnet | None) -> Response:
        """The page that asks before a key change; the new key is drawn now and travels in
        its form, so that a double-click (two POSTs, the first one's answer lost with its
        new cookie) changes the key once and leaves the browser holding it."""
        if carnet is None:
            return no_store(html_error(request, 403, "Ce navigateur n'a pas de carnet."))
        return no_store(render(request, "carnet/rotate.html", {"new_key": new_token()}))

    @router.get("/listes/carnet/cle")
    def ask_rotation(request: Request, carnet: BrowserCarnet) -> Response:
        return confirm_rotation(request, carnet)

    def rotate(request: Request, session: Session, form: FormData) -> Response:
        """A new key, once confirmed: the old link (and every browser still holding the old
        key) opens nothing any more; this browser keeps the carnet with the new key."""
        held = browser(request, session)
        key = str(form.get("cle") or "")
        if form.get("confirm") != "oui" or not NEW_KEY.fullmatch(key):
            return confirm_rotation(request, held.carnet)
        service = CarnetService(session)
        carnet = held.carnet
        if carnet is None:
            # The same confirmation posted twice: the first changed the key to this one.
            sent = parse_cookie(request.cookies.get(CARNET_COOKIE))
            try:
                carnet = service.open(sent[0], key) if sent else None
            except CarnetError:
                carnet = None
            if carnet is None:
                return no_store(html_error(request, 403, REVOKED))
        else:
            try:
                service.rotate(carnet, key)
            except CarnetError:
                # Changed at once by another request: this one's confirmation, posted twice
                # at the same moment, or another device's (then this browser is out).
                try:
                    carnet = service.open(carnet.id, key)
                except CarnetError:
                    drop_carnet(request)
                    return no_store(html_error(request, 403, REVOKED))
        switch_to(request, carnet, key)
        return back(
            request,
            "ok",
            "Nouvelle clé : l'ancien lien du carnet n'ouvre plus rien, ni les appareils qui "
            "l'avaient ouvert. Le nouveau lien est ci-dessous.",
            "#carnet",
        )

    router.add_api_route("/listes/carnet/cle", with_form(rotate), methods=["POST"])

    @router.get("/listes/carnet/oublier")
    def ask_forget(request: Request, session: SessionDep) -> Response:
        """« Oublier ce carnet sur cet appareil » (a shared computer): asks first, with the
        carnet's link to keep (the only way back to its lists afterwards)."""
        held = browser(request, session)
        link = carnet_link(request, held.carnet, held.key or "") if held.carnet else None
        return no_store(render(request, "carnet/forget.html", {"link": link, "done": False}))

    def forget(request: Request, session: Session, form: FormData) -> Response:
        """This browser forgets its carnet: the cookie, and with `Clear-Site-Data` every
        page, cookie and storage of the site it kept (the service worker's copies too)."""
        if form.get("confirm") != "oui":
            return ask_forget(request, session)
        drop_carnet(request, FORGET)
        return no_store(render(request, "carnet/forget.html", {"link": None, "done": True}))

    router.add_api_route("/listes/carnet/oublier", with_form(forget), methods=["POST"])

    @router.get("/carnet/{carnet_id}")
    def open_carnet(carnet_id: str, request: Request, session: SessionDep, t: str = "") -> Response:
        """The carnet link asks, and only its form (a POST, with the CSRF token) opens the
        carnet in this browser: a GET never switches a carnet (issue 25: a page on another
        site could send a browser to the attacker's link, whose carnet would then have
        received the lists the victim made next). A browser that holds its own carnet is
        asked whether to merge the two or to switch, with its own carnet's link shown."""
        try:
            opened = CarnetService(session).open(carnet_id[:64], t[:200] or None)
        except CarnetError:
            return no_store(html_error(request, 403, REVOKED))
        held = browser(request, session)
        if held.carnet is not None and held.carnet.id == opened.id:
            return back(request, "ok", "Ce carnet est déjà celui de ce navigateur.")
        context: dict[str, Any] = {
            "carnet_id": opened.id,
            "key": t,
            "theirs": len(CarnetService(session).rosters(opened)),
            "mine": None,
        }
        if held.carnet is not None:
            context["mine"] = len(my_lists(request, session))
            context["mine_link"] = carnet_link(request, held.carnet, held.key or "")
        return no_store(render(request, "carnet/open.html", context))

    def choose(request: Request, session: Session, form: FormData) -> Response:
        carnet_id = str(request.path_params["carnet_id"])[:64]
        key = str(form.get("t") or "")[:200]
        service = CarnetService(session)
        try:
            opened = service.open(carnet_id, key or None)
        except CarnetError:
            return no_store(html_error(request, 403, REVOKED))
        mine = browser(request, session).carnet
        choice = form.get("choix")
        if choice not in ("ouvrir", "fusionner", "changer"):
            return html_error(request, 422, "Choisissez : réunir les deux carnets, ou changer.")
        text = "Carnet ouvert dans ce navigateur."
        if mine is not None and mine.id != opened.id and choice == "ouvrir":
            # A browser that has its own carnet must say which (merge or switch).
            return html_error(request, 422, "Choisissez : réunir les deux carnets, ou changer.")
        if choice == "fusionner" and mine is not None and mine.id != opened.id:
            try:
                moved = service.merge(mine, opened)
            except CarnetFull:
                return html_error(request, 409, FULL)
            text = f"Carnets réunis : {moved} liste(s) de ce navigateur ajoutée(s)."
        switch_to(request, opened, key)
        return back(request, "ok", text)

    router.add_api_route("/carnet/{carnet_id}", with_form(choose), methods=["POST"])

    def new_form(
        request: Request,
        system: AnySystem | None,
        *,
        values: dict[str, Any] | None = None,
        errors: dict[str, str] | None = None,
        status: int = 200,
    ) -> Response:
        context: dict[str, Any] = {
            "system": system,
            "systems": list(systems.values()),
            "values": values or {},
            "errors": errors or {},
        }
        if system is not None:
            context |= {
                "armies": catalogue_armies(system),
                "army_text": stores_army(system),
                "limit_bounds": count_bounds(system.roster_model).get("points_limit"),
                "formats": sorted(
                    {
                        limit
                        for example in system.example_rosters()
                        if isinstance(limit := example.document.get("points_limit"), int)
                    }
                ),
            }
        return render(request, "roster/new.html", context, status=status)

    @router.get("/listes/nouvelle")
    def new_roster_form(request: Request, system: str = "") -> Response:
        """Choose the name, the format and the army; nothing is stored before « Créer »."""
        return new_form(request, systems.get(system))

    def create(request: Request, session: Session, form: FormData) -> Response:
        system = systems.get(str(form.get("system")))
        if system is None:
            return html_error(request, 422, "Système de jeu inconnu.")
        values = {key: str(form.get(key) or "").strip() for key in ("name", "points_limit", "army")}
        document = empty_document(system)
        document["name"] = values["name"]
        if system.has_points:
            document["points_limit"] = int_or_raw(values["points_limit"])
        armies = dict(catalogue_armies(system))
        # An army of the catalogue by its id, or the free text a No Limits list keeps.
        army = armies.get(values["army"], "") if armies else values["army"]
        if army and stores_army(system):
            document["extras"]["army"] = army
        elif army and not document["name"]:
            document["name"] = army  # the list is named after its army until renamed
        try:
            system.roster_model.model_validate(document)
        except ValidationError as exc:
            errors = field_errors(exc, bounds=count_bounds(system.roster_model))
            if "extras" in errors:
                errors.setdefault("army", errors["extras"])
            return new_form(request, system, values=values, errors=errors, status=422)
        return create_and_open(request, session, system, document)

    router.add_api_route("/listes/nouvelle", with_form(create), methods=["POST"])
    return router
