"""« Mes listes »: the lists this browser holds (open, rename, duplicate, delete, copy the
edit link), and the new-list form that stores a list only once it has been asked for."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.dates import french_datetime
from app.db import SessionDep
from app.roster_service import RosterError, RosterService, StoredRosterInvalid, check
from app.store.models import Roster, as_utc
from app.systems.base import AnySystem, Budget, Total
from app.urls import public_base
from app.web.access import cookie_name, remember, token_for
from app.web.forms import count_bounds, field_errors, int_or_raw, my_rosters
from app.web.render import html_error, render, templates
from app.web.rosters import create_and_open, editable, empty_document, redirect, services

# A message shown once on the next view of « Mes listes » (after a rename, a copy, a delete).
FLASH = "caserne_library_flash"
UNNAMED = "Liste sans nom"
HEADLINE_TOTALS = 2

NOT_HERE = "Cette liste n'est pas dans ce navigateur."
STALE = "Cette liste ne correspond plus au catalogue : ouvrez-la pour la corriger."
BAD_NAME = "Nom refusé : 100 caractères au plus, sans caractère invalide."


def edit_link(request: Request, roster_id: str) -> str | None:
    """The link that opens this list for editing on another device, when this browser holds
    its token (from the HttpOnly cookie: rendered server-side, never read by scripts)."""
    token = token_for(request, roster_id)
    return f"{public_base(request)}/r/{roster_id}/modifier?t={token}" if token else None


# The editor may offer the same copy field: {% set link = edit_link(request, roster.id) %}.
templates.env.globals["edit_link"] = edit_link


@dataclass
class LibraryItem:
    """One list as « Mes listes » shows it."""

    roster: Roster
    name: str
    system_name: str
    changed: str
    changed_iso: str
    link: str | None
    budgets: list[Budget] = field(default_factory=list)
    totals: list[Total] = field(default_factory=list)
    valid: bool | None = None
    problem: str = ""


def library_item(request: Request, service: RosterService, roster: Roster) -> LibraryItem:
    system = service.systems.get(roster.system)
    item = LibraryItem(
        roster=roster,
        name=roster.name or UNNAMED,
        system_name=system.name if system is not None else roster.system,
        changed=french_datetime(roster.updated_at),
        changed_iso=as_utc(roster.updated_at).isoformat(timespec="seconds"),
        link=edit_link(request, roster.id),
    )
    if system is None:
        item.problem = "Ce système de jeu n'est plus proposé."
        return item
    try:
        result, summary = check(system, service.document(roster))
    except StoredRosterInvalid:
        item.valid = False
        item.problem = STALE
        return item
    # Points first (the format a list is built to); a system without points shows its
    # first totals (figures, Rep...), not all of them: the list itself has the rest.
    item.budgets = sorted(summary.budgets, key=lambda budget: budget.id != "points")
    item.totals = [] if summary.budgets else summary.totals[:HEADLINE_TOTALS]
    item.valid = result.valid
    return item


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
        roster_service = services(request, session)
        items = [library_item(request, roster_service, r) for r in my_rosters(request, session)]
        context = {
            "items": items,
            "message": message,
            "confirm": confirm,
            "systems": list(systems.values()),
        }
        response = render(request, "roster/mine.html", context, status=status)
        # The page holds edit links: never kept by a cache.
        response.headers["Cache-Control"] = "private, no-store"
        return response

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
    async def rename(roster_id: str, request: Request, session: SessionDep) -> Response:
        roster = editable(request, session, roster_id)
        if roster is None:
            return html_error(request, 403, NOT_HERE)
        form = await request.form()
        name = str(form.get("name") or "").strip()
        roster_service = services(request, session)
        try:
            document = roster_service.document(roster).model_dump(mode="json")
            parsed = roster_service.system(roster).roster_model.model_validate(
                {**document, "name": name}
            )
            roster_service.replace(roster, roster.version, parsed)
        except StoredRosterInvalid:
            return refusal(
                request,
                session,
                STALE,
                422,
            )
        except ValidationError:
            return refusal(
                request,
                session,
                BAD_NAME,
                422,
            )
        except RosterError:
            return refusal(request, session, "La liste n'a pas pu être renommée : réessayez.", 409)
        return back(
            request, "ok", f"Liste renommée : « {name or UNNAMED} ».", f"#roster-{roster.id}"
        )

    @router.post("/listes/{roster_id}/dupliquer")
    def duplicate(roster_id: str, request: Request, session: SessionDep) -> Response:
        roster = editable(request, session, roster_id)
        if roster is None:
            return html_error(request, 403, NOT_HERE)
        roster_service = services(request, session)
        document = dict(roster.document)
        document["name"] = f"{roster.name or UNNAMED} (copie)"[:100]
        try:
            parsed = roster_service.system(roster).roster_model.model_validate(document)
            copy, token = roster_service.create(parsed)
        except ValidationError:
            return refusal(
                request,
                session,
                STALE,
                422,
            )
        except RosterError:
            return refusal(request, session, "La copie n'a pas pu être enregistrée.", 422)
        response = back(request, "ok", f"Copie créée : « {copy.name} ».", f"#roster-{copy.id}")
        remember(request, response, copy.id, token)
        return response

    @router.post("/listes/{roster_id}/supprimer")
    async def delete(roster_id: str, request: Request, session: SessionDep) -> Response:
        """Asks first (a page of its own, no script needed); deletes once confirmed."""
        roster = editable(request, session, roster_id)
        if roster is None:
            return html_error(request, 403, NOT_HERE)
        form = await request.form()
        roster_service = services(request, session)
        if form.get("confirm") != "oui":
            return library(request, session, confirm=library_item(request, roster_service, roster))
        name = roster.name or UNNAMED
        roster_service.delete(roster)
        response = back(request, "ok", f"Liste supprimée : « {name} ».")
        response.delete_cookie(cookie_name(roster_id), path="/", httponly=True, samesite="lax")
        return response

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

    @router.post("/listes/nouvelle")
    async def create(request: Request, session: SessionDep) -> Response:
        form = await request.form()
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

    return router
