"""The player's army books in the browser: « Mes livres d'armée » (`/livres`), a book's
page (`/livres/{id}`: its units with the system's own cost and issues, publish), and the
creators' « Ajouter au livre » (`POST /{system}/createur/livre`). A book opens in the
browser whose carnet owns it."""

import re
import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError
from sqlmodel import Session

from app.book_service import BookService, NoSuchBookShare
from app.db import SessionDep
from app.exports.books import present
from app.store.models import Book
from app.systems.base import AnySystem
from app.systems.books import BOOK_MAX_UNITS, BookDocument, is_optioned
from app.urls import public_base
from app.web.deps import ChosenRoster, FormDep, browser_carnet, my_lists, writing_carnet
from app.web.render import html_error, render
from app.web.rosters import redirect

if TYPE_CHECKING:
    from app.web.system_pages import SystemPages

__all__ = ["add_unit_to_book", "router", "unit_id_for"]

NOT_YOURS = "Ce livre d'armée n'est pas dans le carnet de ce navigateur."


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
    carnet = browser_carnet(request, session)
    book = BookService(session, request.app.state.systems).store_get(book_id)
    if carnet is None or book is None or book.carnet_id != carnet.id:
        return None
    return book


def add_unit_to_book(
    request: Request, session: Session, system: AnySystem, book_id: str, name: str, definition: Any
) -> Response:
    """The creator's unit appended to the browser's book (kept even when invalid)."""
    book = my_book(request, session, book_id[:64])
    if book is None or book.system != system.id:
        return html_error(request, 404, NOT_YOURS)
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    if len(document.units) >= BOOK_MAX_UNITS:
        return html_error(request, 409, f"Un livre tient au plus {BOOK_MAX_UNITS} unités.")
    if is_optioned(system) and isinstance(definition, dict) and "unit" in definition:
        definition = definition["unit"]
    unit_name = (name or "Unité").strip()[:80] or "Unité"
    unit_id = unit_id_for(unit_name, {unit.id for unit in document.units})
    if is_optioned(system) and isinstance(definition, dict):
        definition = {**definition, "id": unit_id}
    raw = document.model_dump(mode="json")
    raw["units"].append({"id": unit_id, "name": unit_name, "text": "", "definition": definition})
    try:
        updated = BookDocument.model_validate(raw)
    except ValidationError:
        return html_error(request, 422, "Cette unité ne peut pas entrer dans le livre.")
    books.replace(book, book.version, updated)
    return redirect(request, f"/livres/{book.id}#unit-{unit_id}")


def router(systems: Mapping[str, AnySystem], pages: Mapping[str, "SystemPages[Any]"]) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/livres")
    def mine(request: Request, session: SessionDep) -> Response:
        carnet = browser_carnet(request, session)
        books = BookService(session, request.app.state.systems)
        held = books.of_carnet(carnet) if carnet is not None else []
        examples = request.app.state.example_books
        context = {"books": held, "systems": systems, "examples": examples}
        response = render(request, "book/mine.html", context)
        response.headers["Cache-Control"] = "private, no-store"
        return response

    @router.post("/livres")
    def create(request: Request, session: SessionDep, form: FormDep) -> Response:
        system_id = str(form.get("system", ""))[:32]
        name = str(form.get("name", "")).strip()[:100]
        army = str(form.get("army", "")).strip()[:100]
        if system_id not in systems or not name:
            context = {
                "books": [],
                "systems": systems,
                "error": "Choisissez un système et donnez un nom au livre.",
            }
            return render(request, "book/mine.html", context, status=422)
        try:
            document = BookDocument(system=system_id, name=name, army=army)
        except ValidationError:
            context = {"books": [], "systems": systems, "error": "Ce nom ne peut pas être gardé."}
            return render(request, "book/mine.html", context, status=422)
        carnet = writing_carnet(request, session)
        book, _token = BookService(session, request.app.state.systems).create(document, carnet)
        return redirect(request, f"/livres/{book.id}")

    @router.get("/livres/{book_id}")
    def page(book_id: str, request: Request, session: SessionDep) -> Response:
        book = my_book(request, session, book_id[:64])
        if book is None:
            return html_error(request, 404, NOT_YOURS)
        books = BookService(session, request.app.state.systems)
        document = books.document(book)
        validation = books.validation(document)
        checks = {unit.id: unit for unit in validation.units}
        system = systems[book.system]
        last = books.last_publication(book)
        context: dict[str, Any] = {
            "book": book,
            "document": document,
            "units": [(unit, checks[unit.id]) for unit in document.units],
            "system": system,
            "valid": validation.valid,
            "last": last,
            "my_rosters": my_lists(request, session, book.system),
            "optioned": is_optioned(system),
        }
        response = render(request, "book/edit.html", context)
        response.headers["Cache-Control"] = "private, no-store"
        return response

    @router.post("/livres/{book_id}/publier")
    def publish(book_id: str, request: Request, session: SessionDep) -> Response:
        book = my_book(request, session, book_id[:64])
        if book is None:
            return html_error(request, 404, NOT_YOURS)
        share, _new = BookService(session, request.app.state.systems).publish(book)
        return redirect(request, f"/a/{share.code}")

    @router.post("/livres/{book_id}/unites/{unit_id}/ajouter")
    def add_to_list(
        book_id: str,
        unit_id: str,
        request: Request,
        session: SessionDep,
        form: FormDep,
        chosen: ChosenRoster,
    ) -> Response:
        """The unit into a list (the one chosen, or a new one), copied with its origin: the
        book's published version (published now if the book changed since) and its id."""
        book = my_book(request, session, book_id[:64])
        if book is None:
            return html_error(request, 404, NOT_YOURS)
        books = BookService(session, request.app.state.systems)
        unit = next((u for u in books.document(book).units if u.id == unit_id), None)
        if unit is None:
            return html_error(request, 404, "Cette unité n'est pas dans le livre.")
        share, _new = books.publish(book)
        return pages[book.system].add_book_unit(request, session, form, unit, share.code, chosen)

    @router.post("/a/{code}/dupliquer")
    def duplicate(code: str, request: Request, session: SessionDep) -> Response:
        """A published book copied into this browser's carnet, to change as one's own."""
        books = BookService(session, request.app.state.systems)
        try:
            share = books.share(code[:16])
        except NoSuchBookShare:
            return html_error(request, 404, "Ce livre publié n'existe pas.")
        body = books.share_body(share)
        document = BookDocument.model_validate(
            {
                "system": share.system,
                "name": f"{body['name']} (copie)"[:100],
                "army": body["army"],
                "description": body["description"],
                "units": body["units"],
            }
        )
        book, _token = books.create(document, writing_carnet(request, session))
        return redirect(request, f"/livres/{book.id}")

    @router.get("/livres/exemples/{system_id}")
    def example(system_id: str, request: Request) -> Response:
        """Caserne's own example book of a system (data/systems/<id>/book.toml), shown as a
        published book is, marked as Caserne's, to duplicate into one's carnet."""
        found = request.app.state.example_books.get(system_id)
        if found is None or system_id not in systems:
            return html_error(request, 404, "Ce livre d'exemple n'existe pas.")
        body = {
            **found.document.model_dump(mode="json"),
            "code": "",
            "latest": "",
            "version": 1,
            "validation": found.validation.model_dump(mode="json"),
        }
        context = {
            "b": present(systems[system_id], body),
            "url": f"{public_base(request)}/livres/exemples/{system_id}",
            "example": system_id,
        }
        return render(request, "book/page.html", context)

    @router.post("/livres/exemples/{system_id}/dupliquer")
    def duplicate_example(system_id: str, request: Request, session: SessionDep) -> Response:
        found = request.app.state.example_books.get(system_id[:32])
        if found is None:
            return html_error(request, 404, "Ce livre d'exemple n'existe pas.")
        name = f"{found.document.name} (copie)"[:100]
        document = found.document.model_copy(update={"name": name})
        books = BookService(session, request.app.state.systems)
        book, _token = books.create(document, writing_carnet(request, session))
        return redirect(request, f"/livres/{book.id}")

    @router.post("/livres/{book_id}/unites/{unit_id}/retirer")
    def remove_unit(book_id: str, unit_id: str, request: Request, session: SessionDep) -> Response:
        book = my_book(request, session, book_id[:64])
        if book is None:
            return html_error(request, 404, NOT_YOURS)
        books = BookService(session, request.app.state.systems)
        document = books.document(book)
        kept = [unit for unit in document.units if unit.id != unit_id]
        books.replace(book, book.version, document.model_copy(update={"units": kept}))
        return redirect(request, f"/livres/{book.id}")

    return router
