"""Reading and writing army books and their published versions. Keyword-only arguments,
one code path for both databases."""

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.db import on_primary
from app.store import deferred, no_row_has
from app.store.carnets import rows_changed
from app.store.models import Book, BookShare, utcnow
from app.store.rosters import StaleVersion, create_held, insert_at_free_code

__all__ = [
    "Published",
    "StaleVersion",
    "books_of_carnet",
    "create_book",
    "create_book_share",
    "delete_book",
    "find_book_share",
    "get_book",
    "get_book_share",
    "latest_book_share",
    "update_book",
]


def create_book(
    *, session: Session, system: str, name: str, document: dict[str, Any], carnet_id: str | None
) -> tuple[Book, str]:
    fields = {"system": system, "name": name, "document": document, "carnet_id": carnet_id}
    return create_held(session, Book, lambda _book: [], **fields)


def get_book(*, session: Session, book_id: str) -> Book | None:
    return None if no_row_has(book_id) else session.get(Book, book_id[:64])


def update_book(
    *, session: Session, book: Book, expected_version: int, name: str, document: dict[str, Any]
) -> Book:
    """Compare-and-swap on the version: a writer that read an older one gets StaleVersion."""
    result = session.execute(
        update(Book)
        .where(col(Book.id) == book.id, col(Book.version) == expected_version)
        .values(name=name, document=document, version=Book.version + 1, updated_at=utcnow())
    )
    if rows_changed(result) != 1:
        session.rollback()
        session.refresh(book)
        raise StaleVersion(book.version)
    session.commit()
    session.refresh(book)
    return book


def delete_book(*, session: Session, book: Book) -> None:
    session.delete(book)
    session.commit()


def books_of_carnet(*, session: Session, carnet_id: str) -> list[Book]:
    """The carnet's books, most recently changed first, documents not loaded."""
    query = (
        select(Book)
        .where(Book.carnet_id == carnet_id)
        .options(deferred(Book.document))
        .order_by(col(Book.updated_at).desc(), col(Book.id))
    )
    return list(session.exec(query).all())


class Published(NamedTuple):
    """What a published version holds but for its code, book, version and moment: the
    system, the snapshot and its etag (app/book_service.py `published_content` makes it)."""

    system: str
    snapshot: dict[str, Any]
    etag: str


def create_book_share(
    *,
    session: Session,
    book_id: str,
    version: int,
    published: Published,
    created_at: datetime | None = None,
    commit: bool = True,
) -> BookShare:
    """Freezes a published version under a fresh random code (retries on a collision).
    `created_at`, `commit`: as create_share's (a restored book's versions)."""

    def share(code: str) -> BookShare:
        moment = created_at or utcnow()
        fields = published._asdict()
        return BookShare(code=code, book_id=book_id, version=version, created_at=moment, **fields)

    return insert_at_free_code(session, share, commit=commit)


def get_book_share(*, session: Session, code: str) -> BookShare | None:
    """A published version; on a read session, asked of the primary when the read database
    has not seen it yet (a version never changes once made: app/db.py `on_primary`)."""
    if no_row_has(code):
        return None
    found = session.get(BookShare, code[:16])
    if found is None:
        found = on_primary(session, lambda p: p.get(BookShare, code[:16]))
    return found


def latest_book_share(*, session: Session, book_id: str) -> BookShare | None:
    """The book's newest published version (its snapshot loaded on first read)."""
    query = (
        select(BookShare)
        .where(BookShare.book_id == book_id)
        .options(deferred(BookShare.snapshot))
        .order_by(col(BookShare.created_at).desc(), col(BookShare.version).desc())
        .limit(1)
    )
    return session.exec(query).first()


def find_book_share(*, session: Session, book_id: str, etag: str) -> BookShare | None:
    query = select(BookShare).where(BookShare.book_id == book_id, BookShare.etag == etag).limit(1)
    return session.exec(query).first()
