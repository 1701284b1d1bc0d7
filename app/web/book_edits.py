"""What a player changes of an army book besides its units' definitions (issue 26): rename
it, delete it, take a unit out of it — each removal kept in the carnet's trash
(app/store/trash.py) and undone by « Annuler » or « Restaurer » / « Remettre »."""

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError

from app.book_service import BookService
from app.db import SessionDep
from app.store import trash
from app.store.models import Book
from app.systems.books import BookUnit
from app.web.deps import FormDep, browser_carnet
from app.web.flash import set_flash
from app.web.toolkit import EditableBook, my_book, redirect, unit_id_for

router = APIRouter(include_in_schema=False)

BAD_NAME = "Nom refusé : de 1 à 100 caractères, sans caractère invalide."
GONE = (
    "Ce livre n'est plus dans les éléments supprimés de ce carnet : il a été restauré "
    "ailleurs, ou supprimé il y a plus de 30 jours."
)
UNIT_GONE = "Cette unité n'est plus parmi les unités retirées du livre."
FULL = "Le livre est plein : retirez une unité avant d'en remettre une."


def back(
    request: Request, to: str, kind: str, text: str, undo: str = "", anchor: str = ""
) -> Response:
    """Back to a book page (or « Mes livres d'armée »), which says `text` once."""
    response = redirect(request, f"{to}{anchor}")
    set_flash(response, "/livres", kind, text, undo)
    return response


@router.post("/livres/{book_id}/renommer")
def rename(book: EditableBook, request: Request, session: SessionDep, form: FormDep) -> Response:
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    name = str(form.get("name", "")).strip()
    army = str(form.get("army", document.army)).strip()
    try:
        renamed = document.model_validate({**document.model_dump(), "name": name, "army": army})
    except ValidationError:
        return back(request, f"/livres/{book.id}", "error", BAD_NAME)
    books.replace(book, book.version, renamed)
    return back(request, f"/livres/{book.id}", "ok", f"Livre renommé : « {name} ».")


@router.post("/livres/{book_id}/supprimer")
def delete(book: EditableBook, request: Request, session: SessionDep, form: FormDep) -> Response:
    """Deletes the book once « Supprimer le livre » is confirmed (the page's own question);
    kept 30 days in the carnet's trash."""
    if form.get("confirm") != "oui":
        return redirect(request, f"/livres/{book.id}?supprimer=1#book-settings")
    name, book_id = book.name, book.id
    carnet = browser_carnet(request, session)
    assert carnet is not None  # EditableBook: this browser's carnet holds it
    trash.discard_book(session=session, book=book, carnet_id=carnet.id)
    undo = f"/livres/{book_id}/restaurer"
    return back(request, "/livres", "ok", f"Livre supprimé : « {name} ».", undo)


@router.post("/livres/{book_id}/restaurer")
def restore(book_id: str, request: Request, session: SessionDep) -> Response:
    """Brings a deleted book back (« Annuler », « Listes et livres supprimés »); a second
    click says it is back, and does nothing more."""
    carnet = browser_carnet(request, session)
    item = None
    if carnet is not None:
        item = trash.waiting(session=session, item_id=book_id, carnet_id=carnet.id, kind=trash.BOOK)
    if item is None or carnet is None:
        if my_book(request, session, book_id) is not None:
            return back(request, f"/livres/{book_id}", "ok", "Ce livre est déjà restauré.")
        return back(request, "/livres", "error", GONE)
    book = trash.restore_book(session=session, item=item, carnet_id=carnet.id)
    return back(request, f"/livres/{book.id}", "ok", f"Livre restauré : « {book.name} ».")


@router.post("/livres/{book_id}/unites/{unit_id}/retirer")
def remove_unit(
    book: EditableBook, unit_id: str, request: Request, session: SessionDep
) -> Response:
    """Takes a unit out of the book, kept (with its place) to be put back; a unit already
    gone (a second click) changes nothing, and leaves the first click's message."""
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    place = next((i for i, unit in enumerate(document.units) if unit.id == unit_id), None)
    if place is None:
        return redirect(request, f"/livres/{book.id}")
    unit = document.units[place]
    kept = [u for u in document.units if u.id != unit_id]
    books.replace(book, book.version, document.model_copy(update={"units": kept}))
    carnet = browser_carnet(request, session)
    assert carnet is not None  # EditableBook: this browser's carnet holds it
    item = trash.keep_unit(
        session=session,
        book=book,
        carnet_id=carnet.id,
        unit=unit.model_dump(mode="json"),
        position=place,
    )
    undo = f"/livres/{book.id}/unites/{item}/remettre"
    return back(request, f"/livres/{book.id}", "ok", f"« {unit.name} » retiré du livre.", undo)


@router.post("/livres/{book_id}/unites/{item_id}/remettre")
def put_back(book: EditableBook, item_id: str, request: Request, session: SessionDep) -> Response:
    """A unit taken out of the book back at its place (under a new id if another unit took
    its id since)."""
    to = f"/livres/{book.id}"
    item = trash.waiting(
        session=session, item_id=item_id, carnet_id=book.carnet_id or "", kind=trash.UNIT
    )
    if item is None or item.parent_id != book.id:
        return back(request, to, "error", UNIT_GONE)
    books = BookService(session, request.app.state.systems)
    document = books.document(book)
    unit = BookUnit.model_validate(item.rows["unit"])
    taken = {u.id for u in document.units}
    if unit.id in taken:
        unit = unit.model_copy(update={"id": unit_id_for(unit.name, taken)})
    units = list(document.units)
    units.insert(min(int(item.rows["position"]), len(units)), unit)
    try:
        changed = document.model_validate({**document.model_dump(), "units": units})
    except ValidationError:
        return back(request, to, "error", FULL)
    books.replace(book, book.version, changed)
    trash.forget(session=session, item=item)
    return back(
        request, to, "ok", f"« {unit.name} » remis dans le livre.", anchor=f"#unit-{unit.id}"
    )


def removed_units(session: SessionDep, book: Book) -> list[trash.TrashItem]:
    """The units taken out of this book in the last 30 days, newest first (20 at most)."""
    items, _found = trash.page(
        session=session,
        carnet_id=book.carnet_id or "",
        kinds=(trash.UNIT,),
        offset=0,
        limit=20,
        parent_id=book.id,
    )
    return items
