"""The page toolkit: what the roster, book, library and system pages share, and the only
page helpers a system's own pages import (a system's pages subclass `SystemPages`, in
app/web/system_pages.py, which stands on this module too).

Nothing here imports another page module: the page modules import this one, never the
other way round (scripts/structure.py shows no cycle).
"""

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import Depends, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import ValidationError
from sqlalchemy.orm import object_session
from sqlmodel import Session
from starlette.datastructures import FormData

from app.book_service import BookService, NotYourBook
from app.carnet_service import CarnetService
from app.db import SessionDep
from app.roster_service import RosterService
from app.store import rosters as roster_store
from app.store.models import Book, Roster
from app.systems.base import AnySystem
from app.systems.books import BOOK_MAX_UNITS, BookDocument, book_definition
from app.web.deps import browser_carnet, join, writing_carnet
from app.web.forms import int_or_raw
from app.web.render import html_error, is_htmx

__all__ = [
    "UNKNOWN_SYSTEM",
    "EditableBook",
    "add_entry_to_roster",
    "add_unit_to_book",
    "added_to",
    "by_id",
    "create_and_open",
    "editable_book",
    "empty_document",
    "my_book",
    "redirect",
    "roster_session",
    "service_of",
    "unit_id_for",
]

UNKNOWN_SYSTEM = "Système de jeu inconnu."


class HasId(Protocol):
    @property
    def id(self) -> str: ...


HasIdT = TypeVar("HasIdT", bound=HasId)


def by_id(items: Iterable[HasIdT]) -> dict[str, HasIdT]:
    """A catalogue list by id, as templates look its items up."""
    return {item.id: item for item in items}


# --- lists ------------------------------------------------------------------------------


def roster_session(roster: Roster) -> Session:
    """The session a loaded roster belongs to (the editor reads its last share with it)."""
    session = object_session(roster)
    assert isinstance(session, Session)
    return session


def redirect(request: Request, url: str) -> Response:
    """303 for a plain form post; HX-Redirect for HTMX, which would otherwise swap the page in."""
    if is_htmx(request):
        return Response(status_code=204, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def empty_document(system: AnySystem) -> dict[str, Any]:
    empty: dict[str, Any] = system.roster_model(system=system.id).model_dump(mode="json")
    return empty


def service_of(request: Request, session: Session) -> RosterService:
    """The roster service for code below the routes (routes get `Rosters`)."""
    return RosterService(session, request.app.state.systems)


def systems_of(request: Request) -> Mapping[str, AnySystem]:
    """The systems the app serves (app.state, set by create_app)."""
    systems: Mapping[str, AnySystem] = request.app.state.systems
    return systems


def create_and_open(
    request: Request, session: Session, system: AnySystem, document: dict[str, Any]
) -> Response:
    """Stores a new roster (only a document the system accepts) and opens its editor."""
    try:
        parsed = system.roster_model.model_validate(document)
    except ValidationError:
        return html_error(
            request, 422, "Cette liste ne correspond plus au catalogue : elle n'a pas été créée."
        )
    CarnetService(session).check_room(writing_carnet(request, session))  # before storing
    roster, _token = service_of(request, session).create(parsed)  # refusals: app/refusals.py
    join(request, session, roster.id)
    return redirect(request, f"/r/{roster.id}")


def add_entry_to_roster(
    request: Request,
    session: Session,
    system: AnySystem,
    form: FormData,
    entry: dict[str, Any],
    chosen: Roster | None,
) -> Response:
    """ "Add to a list" from the catalogue or the creator: to the list chosen (this
    browser's: `ChosenRoster`), or a new one."""
    count = int_or_raw(form.get("count"))
    if isinstance(count, int) and 1 <= count <= 100:
        entry = {**entry, "count": count}
    entry.setdefault("count", 1)
    if chosen is None or chosen.system != system.id:
        document = empty_document(system)
        document["entries"].append(entry)
        return create_and_open(request, session, system, document)
    try:
        service_of(request, session).append_entry(chosen, entry)
    except ValidationError:
        return html_error(request, 422, "Ce combattant n'existe pas dans le catalogue.")
    return added_to(request, system, form, chosen)


# An army book's page, where « Ajouter à la liste » comes back to say where the unit went.
BOOK_PAGE = re.compile(r"/livres/[a-z0-9]{1,32}")


def added_to(request: Request, system: AnySystem, form: FormData, roster: Roster) -> Response:
    """After an add to a list: back to the catalogue or the creator it came from, which
    says « Ajouté à « X » » and keeps adding to that list (`retour`: those pages and an army
    book's), or to the list's editor."""
    back = str(form.get("retour") or "")
    if back in (f"/{system.id}/catalogue", f"/{system.id}/createur") or BOOK_PAGE.fullmatch(back):
        return redirect(request, f"{back}?liste={roster.id}&ajoute=1")
    return redirect(request, f"/r/{roster.id}")


# --- army books -------------------------------------------------------------------------


def unit_id_for(name: str, taken: set[str]) -> str:
    """A stable ASCII snake_case id from a unit's name, unique among `taken`."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "_", ascii_name.lower()).strip("_")[:50] or "unite"
    if not base[0].isalnum():
        base = f"u{base}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    return candidate


def my_book(request: Request, session: Session, book_id: str) -> Book | None:
    """The army book `book_id` when this browser's carnet holds it, else None."""
    carnet = browser_carnet(request, session)
    book = BookService(session, request.app.state.systems).store_get(book_id[:64])
    if carnet is None or book is None or book.carnet_id != carnet.id:
        return None
    return book


def editable_book(request: Request, session: Session, book_id: str, system: str = "") -> Book:
    """The army book `book_id` of this browser's carnet (of `system` when given); refused
    with `NotYourBook` (app/refusals.py: a 404 page) otherwise."""
    book = my_book(request, session, book_id)
    if book is None or (system and book.system != system):
        raise NotYourBook(book_id[:64])
    return book


def _editable_book(book_id: str, request: Request, session: SessionDep) -> Book:
    return editable_book(request, session, book_id)


# The book a page at /livres/{book_id}/... changes: this browser's, or a 404 page.
EditableBook = Annotated[Book, Depends(_editable_book)]


def add_unit_to_book(
    request: Request,
    session: Session,
    system: AnySystem,
    book_id: str,
    name: str,
    definition: Any,
    unit_id: str = "",
) -> Response:
    """The creator's unit appended to the browser's book (kept even when invalid), or, with
    `unit_id` one of the book's units (« Modifier » on the book's page), saved over it: same
    id and text, so lists drawn from it see the change at the next publication."""
    book = editable_book(request, session, book_id, system.id)
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    replaced = next((i for i, unit in enumerate(document.units) if unit.id == unit_id), None)
    if unit_id and replaced is None:
        return html_error(request, 404, "Cette unité n'est plus dans le livre.")
    if replaced is None and len(document.units) >= BOOK_MAX_UNITS:
        return html_error(request, 409, f"Un livre tient au plus {BOOK_MAX_UNITS} unités.")
    unit_name = (name or "Unité").strip()[:80] or "Unité"
    if replaced is None:
        unit_id = unit_id_for(unit_name, {unit.id for unit in document.units})
    raw = document.model_dump(mode="json")
    definition = book_definition(system, definition, unit_id)
    unit = {"id": unit_id, "name": unit_name, "text": "", "definition": definition}
    if replaced is None:
        raw["units"].append(unit)
    else:
        raw["units"][replaced] = {**unit, "text": raw["units"][replaced].get("text", "")}
    try:
        updated = BookDocument.model_validate(raw)
    except ValidationError:
        return html_error(request, 422, "Cette unité ne peut pas entrer dans le livre.")
    books.replace(book, book.version, updated)
    return redirect(request, f"/livres/{book.id}#unit-{unit_id}")


# --- a share that is not there -------------------------------------------------------------
MISSING_SHARE = "Ce lien de partage n'existe pas."
GONE_SHARE = (
    "Ce partage a été supprimé : personne ne l'avait consulté depuis longtemps, "
    "ou sa liste a été supprimée."
)


def no_share_page(request: Request, session: Session, code: str) -> Response:
    """The page of a share code that opens nothing: 410 for a share `caserne prune` removed
    (docs/retention.md), 404 for a code that never was."""
    if roster_store.share_gone(session=session, code=code):
        return html_error(request, 410, GONE_SHARE)
    return html_error(request, 404, MISSING_SHARE)
