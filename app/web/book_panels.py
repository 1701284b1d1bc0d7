"""The editor's army book panels: « Mettre à jour » (`/r/{id}/livres`), its « Annuler »
(`/r/{id}/livres/annuler`) and « Ajouter » from one of this browser's books
(`/r/{id}/livres/ajouter`). What they show is drawn by app/web/editor_view.py."""

import json

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

from app.book_service import BookService
from app.db import SessionDep
from app.deps import Rosters
from app.systems.inputs import is_digits
from app.web.book_picks import add_unit_of_book
from app.web.deps import EditableRoster, FormDep
from app.web.editor_view import editor
from app.web.forms import bounded_json
from app.web.render import html_error
from app.web.toolkit import editable_book, roster_session, systems_of

router = APIRouter(include_in_schema=False)


def plural(count: int, word: str) -> str:
    return f"{word}{'s' if count > 1 else ''}"


@router.post("/r/{roster_id}/livres")
def update_from_books(
    roster: EditableRoster, request: Request, rosters: Rosters, form: FormDep
) -> Response:
    """« Mettre à jour »: one unit (`path`) or all of them take their book's newest
    published version; the page then offers « Annuler » (the units as they were)."""
    systems = systems_of(request)
    system = systems[roster.system]
    version = str(form.get("version", ""))
    path = str(form.get("path", ""))[:40]
    if not is_digits(version):
        return html_error(request, 422, "Version de la liste manquante.")
    books = BookService(roster_session(roster), systems)
    current = rosters.document(roster)
    paths = [path] if path else None
    previous = books.previous_items(system, current, paths)
    applied = books.apply(system, current, paths)
    try:
        document = system.roster_model.model_validate(applied)
    except ValidationError:
        return html_error(request, 422, "Cette mise à jour ne tient plus dans la liste.")
    roster = rosters.replace(roster, int(version[:9]), document)
    count = len(previous)
    message = {
        "kind": "ok",
        "text": f"{count} {plural(count, 'unité')} {plural(count, 'mise')} à jour depuis le livre.",
        "undo_books": json.dumps(previous, ensure_ascii=False),
        "focus": "#undo-books",
    }
    return editor(request, roster, roster.document, parsed=document, message=message)


@router.post("/r/{roster_id}/livres/ajouter")
def add_from_book(
    roster: EditableRoster, request: Request, session: SessionDep, form: FormDep
) -> Response:
    """The editor's « Ajouter » from one of this browser's books: the unit copied in
    with its origin, as the book's page does (the book published first if changed)."""
    book_id, _, unit_id = str(form.get("book-unit", ""))[:130].partition("/")
    book = editable_book(request, session, book_id, roster.system)
    return add_unit_of_book(request, session, form, book, unit_id, roster)


@router.post("/r/{roster_id}/livres/annuler")
def undo_book_updates(
    roster: EditableRoster, request: Request, rosters: Rosters, form: FormDep
) -> Response:
    """« Annuler » after « Mettre à jour »: the units as they were before it."""
    systems = systems_of(request)
    system = systems[roster.system]
    version = str(form.get("version", ""))
    previous = bounded_json(str(form.get("undo-books") or ""))
    if not is_digits(version) or not isinstance(previous, dict):
        return html_error(request, 422, "Rien à annuler.")
    books = BookService(roster_session(roster), systems)
    restored, count = books.restored(system, rosters.document(roster), previous)
    try:
        document = system.roster_model.model_validate(restored)
    except ValidationError:
        return html_error(request, 422, "Ces unités ne tiennent plus dans la liste.")
    roster = rosters.replace(roster, int(version[:9]), document)
    message = {
        "kind": "ok",
        "text": f"Mise à jour annulée : {count} {plural(count, 'unité')} comme avant.",
    }
    return editor(request, roster, roster.document, parsed=document, message=message)
