"""The player's army books in the browser: « Mes livres d'armée » (`/livres`), a book's
page (`/livres/{id}`: its units with the system's own cost and issues, publish), and the
creators' « Ajouter au livre » (`POST /{system}/createur/livre`). A book opens in the
browser whose carnet owns it."""

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

from app.book_service import BookService, NoSuchBookShare
from app.db import SessionDep
from app.exports.books import present_unpublished
from app.systems.books import BookDocument, units_in_entries
from app.urls import public_base
from app.web.book_edits import removed_units
from app.web.book_picks import add_unit_of_book
from app.web.deps import ChosenRoster, FormDep, browser_carnet, my_lists, writing_carnet
from app.web.flash import read_flash, shown_once
from app.web.render import html_error, render
from app.web.system_pages import pages_of
from app.web.toolkit import EditableBook, redirect, systems_of

router = APIRouter(include_in_schema=False)


@router.get("/livres")
def mine(request: Request, session: SessionDep) -> Response:
    carnet = browser_carnet(request, session)
    books = BookService(session, request.app.state.systems)
    held = books.of_carnet(carnet) if carnet is not None else []
    examples = request.app.state.example_books
    context = {
        "books": held,
        "systems": systems_of(request),
        "examples": examples,
        "message": read_flash(request),
    }
    response = render(request, "book/mine.html", context)
    response.headers["Cache-Control"] = "private, no-store"
    return shown_once(request, response, "/livres")


@router.post("/livres")
def create(request: Request, session: SessionDep, form: FormDep) -> Response:
    system_id = str(form.get("system", ""))[:32]
    name = str(form.get("name", "")).strip()[:100]
    army = str(form.get("army", "")).strip()[:100]
    systems = systems_of(request)
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
def page(book: EditableBook, request: Request, session: SessionDep) -> Response:
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    validation = books.validation(document)
    checks = {unit.id: unit for unit in validation.units}
    system = systems_of(request)[book.system]
    pages = pages_of(request)
    last = books.last_publication(book)
    shown = present_unpublished(system, document, validation, book.version)
    my_rosters = my_lists(request, session, book.system)
    # « Ajouter à la liste » comes back here (`retour`), saying to which list.
    added = request.query_params.get("liste", "")[:32] if request.query_params.get("ajoute") else ""
    added_to = next((r for r in my_rosters if r.id == added), None)
    context: dict[str, Any] = {
        "book": book,
        "document": document,
        # Each unit's profile and breakdown, as its published page will show them.
        "presented": {u.id: u for u in shown.units},
        "units": [(unit, checks[unit.id]) for unit in document.units],
        "system": system,
        "valid": validation.valid,
        "last": last,
        "my_rosters": my_rosters,
        "added_to": added_to,
        "message": read_flash(request),
        "removed": removed_units(session, book),
        "asking_delete": request.query_params.get("supprimer") == "1",
        "optioned": not units_in_entries(system),
        # The units its creator can show as they are (« Modifier »): see SystemPages.reopened.
        "reopenable": {
            unit.id
            for unit in document.units
            if book.system in pages
            and pages[book.system].reopened({"custom": unit.definition, "name": unit.name})
            is not None
        },
    }
    response = render(request, "book/edit.html", context)
    response.headers["Cache-Control"] = "private, no-store"
    return shown_once(request, response, "/livres")


@router.post("/livres/{book_id}/publier")
def publish(book: EditableBook, request: Request, session: SessionDep) -> Response:
    share, _new = BookService(session, request.app.state.systems).publish(book)
    return redirect(request, f"/a/{share.code}")


@router.post("/livres/{book_id}/unites/{unit_id}/ajouter")
def add_to_list(
    book: EditableBook,
    unit_id: str,
    request: Request,
    session: SessionDep,
    form: FormDep,
    chosen: ChosenRoster,
) -> Response:
    """The unit into a list (the one chosen, or a new one), copied with its origin: the
    book's published version (published now if the book changed since) and its id."""
    return add_unit_of_book(request, session, form, book, unit_id, chosen)


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
    systems = systems_of(request)
    if found is None or system_id not in systems:
        return html_error(request, 404, "Ce livre d'exemple n'existe pas.")
    context = {
        "b": present_unpublished(systems[system_id], found.document, found.validation, 1),
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
