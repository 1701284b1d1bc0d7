"""A unit of an army book into a list, from the book's pages and the editor's book panel:
the book published if it changed, the unit handed to its system's pages (`add_book_unit`)."""

from fastapi import Request, Response
from sqlmodel import Session
from starlette.datastructures import FormData

from app.book_service import BookService
from app.store.models import Book, Roster
from app.web.editor_form import BookPick
from app.web.render import html_error
from app.web.system_pages import pages_of


def add_unit_of_book(
    request: Request,
    session: Session,
    form: FormData,
    book: Book,
    unit_id: str,
    chosen: Roster | None,
) -> Response:
    """The book's unit `unit_id` into a list (`chosen`, or a new one), copied with its origin:
    the book's published version (published now if the book changed since) and the unit's id;
    a 404 page when the book has no such unit."""
    books = BookService(session, request.app.state.systems)
    unit = next((u for u in books.document(book).units if u.id == unit_id), None)
    if unit is None:
        return html_error(request, 404, "Cette unité n'est pas dans le livre.")
    share, _new = books.publish(book)
    return pages_of(request)[book.system].add_book_unit(
        request, session, form, BookPick(unit, share.code, chosen)
    )
