"""What may be done to an army book, for the JSON API and the pages alike: create, read
with its edit token (or its carnet's key), replace, delete, publish; and what a list drawn
from books would get from their newer published versions (api-v1.md « Army books »).

Its refusals derive from Refusal, so app/refusals.py answers them at every edge.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.book_units import (
    Drawn,
    Newer,
    Origin,
    Update,
    Updates,
    drawn_units,
    item_index,
    origins_by_entry,
    published_unit,
    restored_items,
    unit_items,
    update_of,
    with_items,
    with_unit,
)
from app.carnet_service import key_refusal
from app.roster_service import (
    Refusal,
    StaleVersion,
    StoredRosterInvalid,
    TokenMissing,
    TokenRefused,
    check,
    encoded,
)
from app.store import books as store
from app.store import carnets as carnet_store
from app.store.models import Book, BookShare, Carnet, as_utc
from app.store.rosters import token_matches
from app.systems.base import AnySystem
from app.systems.books import (
    BookDocument,
    BookValidation,
    validate_book,
)

__all__ = [
    "BOOK_MAX_BYTES",
    "BookService",
    "Newer",
    "NoSuchBook",
    "NoSuchBookShare",
    "Origin",
    "UnknownSystem",
    "Update",
    "Updates",
]

# What one book may weigh as UTF-8 JSON: 200 custom No Limits units weigh about 200 kB.
BOOK_MAX_BYTES = 512 * 1024
SNAPSHOT_MAX_BYTES = 2 * 1024 * 1024


class NoSuchBook(Refusal):
    pass


class NoSuchBookShare(Refusal):
    pass


class NotYourBook(Refusal):
    """A book page names a book this browser's carnet does not hold (or of another system)."""


class UnknownSystem(Refusal):
    def __init__(self, system: str) -> None:
        self.system = system
        super().__init__(f"unknown game system {system!r}")


def published_content(system: AnySystem, document: BookDocument) -> store.Published:
    """What a published version of `document` freezes (its units as the system checks them
    today), and its etag; TooLarge past SNAPSHOT_MAX_BYTES."""
    content = {
        "system": system.id,
        "catalogue_version": system.catalogue_version,
        "name": document.name,
        "army": document.army,
        "description": document.description,
        "units": [unit.model_dump(mode="json") for unit in document.units],
        "validation": validate_book(system, document).model_dump(mode="json"),
    }
    etag = hashlib.sha256(encoded(content, "book", SNAPSHOT_MAX_BYTES)).hexdigest()[:32]
    return store.Published(system.id, content, etag)


@dataclass
class BookService:
    session: Session
    systems: Mapping[str, AnySystem]

    def system(self, system_id: str) -> AnySystem:
        if system_id not in self.systems:
            raise UnknownSystem(system_id)
        return self.systems[system_id]

    # -- drafts ---------------------------------------------------------------------------

    def get(self, book_id: str) -> Book:
        book = store.get_book(session=self.session, book_id=book_id)
        if book is None or book.system not in self.systems:
            raise NoSuchBook(book_id)
        return book

    def store_get(self, book_id: str) -> Book | None:
        """The book, or None (the pages answer their own 404)."""
        book = store.get_book(session=self.session, book_id=book_id)
        return book if book is not None and book.system in self.systems else None

    def last_publication(self, book: Book) -> BookShare | None:
        return store.latest_book_share(session=self.session, book_id=book.id)

    def authorize(self, book_id: str, token: str | None) -> Book:
        """The book, when `token` is its edit token or the key of the carnet owning it."""
        book = self.get(book_id)
        if token is None:
            raise TokenMissing(book_id)
        if token_matches(book, token):
            return book
        if book.carnet_id is not None:
            carnet = carnet_store.get_carnet(session=self.session, carnet_id=book.carnet_id)
            if carnet is not None and carnet_store.key_matches(carnet, token):
                return book
        raise TokenRefused(book_id)

    def carnet_of_key(self, key: str) -> Carnet:
        """The carnet whose key this is (a key's hash is unique); KeyRefused otherwise."""
        carnet = carnet_store.carnet_of_key(session=self.session, key=key)
        if carnet is None:
            raise key_refusal(self.session, key)
        return carnet

    def document(self, book: Book) -> BookDocument:
        try:
            return BookDocument.model_validate(book.document)
        except ValidationError as exc:
            raise StoredRosterInvalid(exc) from None

    def validation(self, document: BookDocument) -> BookValidation:
        return validate_book(self.system(document.system), document)

    def create(self, document: BookDocument, carnet: Carnet | None) -> tuple[Book, str]:
        self.system(document.system)
        stored = document.model_dump(mode="json")
        encoded(stored, "book", BOOK_MAX_BYTES)
        return store.create_book(
            session=self.session,
            system=document.system,
            name=document.name,
            document=stored,
            carnet_id=carnet.id if carnet is not None else None,
        )

    def replace(self, book: Book, expected_version: int, document: BookDocument) -> Book:
        if document.system != book.system:
            raise UnknownSystem(document.system)
        stored = document.model_dump(mode="json")
        encoded(stored, "book", BOOK_MAX_BYTES)
        try:
            return store.update_book(
                session=self.session,
                book=book,
                expected_version=expected_version,
                name=document.name,
                document=stored,
            )
        except store.StaleVersion as stale:
            raise StaleVersion(stale.current) from None

    def delete(self, book: Book) -> None:
        store.delete_book(session=self.session, book=book)

    def of_carnet(self, carnet: Carnet) -> list[Book]:
        return store.books_of_carnet(session=self.session, carnet_id=carnet.id)

    # -- published versions ---------------------------------------------------------------

    def publish(self, book: Book) -> tuple[BookShare, bool]:
        """Freezes the book as it is; an unchanged book answers its last version (False)."""
        document = self.document(book)
        published = published_content(self.system(book.system), document)
        last = store.latest_book_share(session=self.session, book_id=book.id)
        if last is not None and last.etag == published.etag:
            return last, False
        share = store.create_book_share(
            session=self.session, book_id=book.id, version=book.version, published=published
        )
        return share, True

    def share(self, code: str) -> BookShare:
        share = store.get_book_share(session=self.session, code=code)
        if share is None or share.system not in self.systems:
            raise NoSuchBookShare(code)
        return share

    def entry_origins(self, system: AnySystem, document: dict[str, Any]) -> dict[int, Origin]:
        """Each drawn entry's origin, by the entry's index (Infinity: the entries of a
        drawn trooper). Codes that name no published version are left out."""
        drawn = drawn_units(system, document)
        found: dict[str, Origin] = {}
        for code in sorted({d.book for d in drawn})[:200]:
            share = store.get_book_share(session=self.session, code=code)
            if share is not None:
                found[code] = Origin(code, str(share.snapshot.get("name", "")), share.version)
        by_path = {d.path: found[d.book] for d in drawn if d.book in found}
        return origins_by_entry(system, document, by_path)

    def newer_books(self, system: AnySystem, document: dict[str, Any]) -> list[Newer]:
        """The books a list draws from that have a newer published version, once each."""
        out: dict[str, Newer] = {}
        for _drawn, used, newest in self._newer(system, document):
            if used.code not in out:
                name = str(newest.snapshot.get("name", ""))
                out[used.code] = Newer(name, used.code, newest.code, newest.version)
        return list(out.values())

    def latest_code(self, share: BookShare) -> str:
        latest = store.latest_book_share(session=self.session, book_id=share.book_id)
        return latest.code if latest is not None else share.code

    def share_body(self, share: BookShare) -> dict[str, Any]:
        """api-v1.md: GET /api/v1/book-shares/{code}."""
        snapshot = share.snapshot
        return {
            "code": share.code,
            "book": share.book_id,
            "version": share.version,
            "system": share.system,
            "name": snapshot["name"],
            "army": snapshot["army"],
            "description": snapshot["description"],
            "units": snapshot["units"],
            "validation": snapshot["validation"],
            # RFC 3339 in UTC written with `Z`, as pydantic writes the API's date-times (the
            # /a/{code}.json export and get_book_share then agree to the character).
            "created_at": as_utc(share.created_at).isoformat().replace("+00:00", "Z"),
            "latest": self.latest_code(share),
        }

    # -- lists drawn from books -----------------------------------------------------------

    def _newer(
        self, system: AnySystem, document: dict[str, Any]
    ) -> list[tuple[Drawn, BookShare, BookShare]]:
        """Each drawn unit whose book has a newer published version: (it, used, latest)."""
        found = []
        shares: dict[str, BookShare | None] = {}
        latest: dict[str, BookShare | None] = {}
        for drawn in drawn_units(system, document):
            if drawn.book not in shares:
                shares[drawn.book] = store.get_book_share(session=self.session, code=drawn.book)
            used = shares[drawn.book]
            if used is None:
                continue
            if used.book_id not in latest:
                latest[used.book_id] = store.latest_book_share(
                    session=self.session, book_id=used.book_id
                )
            newest = latest[used.book_id]
            if newest is not None and newest.code != used.code:
                found.append((drawn, used, newest))
        return found

    def _applied(
        self,
        system: AnySystem,
        document: dict[str, Any],
        newer: Sequence[tuple[Drawn, BookShare, BookShare]],
        paths: set[str] | None,
    ) -> dict[str, Any]:
        """The roster document with the newer units copied in (only `paths`, if given)."""
        items = unit_items(system, document)
        for drawn, _used, newest in newer:
            if paths is not None and drawn.path not in paths:
                continue
            index = item_index(drawn.path)
            found = published_unit(newest.snapshot, drawn.unit)
            if found is None:  # withdrawn: the unit stays, as the player's own
                items[index] = {k: v for k, v in items[index].items() if k != "source"}
            else:
                items[index] = with_unit(system, items[index], found[0], newest.code)
        return with_items(system, document, items)

    def updates(self, system: AnySystem, roster_document: BaseModel) -> Updates:
        """What the list would get from its books' newest published versions."""
        document = roster_document.model_dump(mode="json")
        newer = self._newer(system, document)
        result, _ = check(system, roster_document)
        out = [
            update_of(system, drawn, used.snapshot, newest.code, newest.snapshot)
            for drawn, used, newest in newer
        ]
        points_after = result.points
        if newer:
            applied = self._applied(system, document, newer, None)
            try:
                parsed = system.roster_model.model_validate(applied)
                points_after = check(system, parsed)[0].points
            except ValidationError:
                points_after = result.points
        return Updates(updates=out, points_before=result.points, points_after=points_after)

    def previous_items(
        self, system: AnySystem, roster_document: BaseModel, paths: Sequence[str] | None
    ) -> dict[str, Any]:
        """What `apply` would replace, by path: the way back (« Annuler »)."""
        document = roster_document.model_dump(mode="json")
        items = unit_items(system, document)
        out = {}
        for drawn, _used, _newest in self._newer(system, document):
            if paths is None or drawn.path in paths:
                out[drawn.path] = items[item_index(drawn.path)]
        return out

    def restored(
        self, system: AnySystem, roster_document: BaseModel, previous: Mapping[str, Any]
    ) -> tuple[dict[str, Any], int]:
        """The roster document with `previous` items put back at their paths (the entries,
        or Infinity's troopers, as they were before « Mettre à jour »), and how many."""
        return restored_items(system, roster_document.model_dump(mode="json"), previous)

    def unit_names(self, found: Updates) -> dict[str, str]:
        """Each update's unit name as its newest version (or, withdrawn, its last) says."""
        snapshots: dict[str, Mapping[str, Any]] = {}
        names = {}
        for update in found.updates:
            for code in (update.latest, update.book):
                if code not in snapshots:
                    share = store.get_book_share(session=self.session, code=code)
                    snapshots[code] = share.snapshot if share is not None else {}
            unit = published_unit(snapshots[update.latest], update.unit) or published_unit(
                snapshots[update.book], update.unit
            )
            names[update.path] = str(unit[0].get("name") or update.unit) if unit else update.unit
        return names

    def apply(
        self, system: AnySystem, roster_document: BaseModel, paths: Sequence[str] | None
    ) -> dict[str, Any]:
        """The roster document with the updates at `paths` (all when None) applied."""
        document = roster_document.model_dump(mode="json")
        newer = self._newer(system, document)
        return self._applied(system, document, newer, set(paths) if paths is not None else None)
