"""Army books for third-party tools: api-v1.md « Army books » (create, read, replace with
If-Match, delete, publish, read a published version) and the updates a roster drawn from
books would get. Refusals rise as the services' exceptions; app/refusals.py answers them."""

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.api.v1.bodies import require_json_body
from app.api.v1.carnets import UtcDatetime
from app.api.v1.deps import (
    BODY_PROBLEMS,
    IF_MATCH_PROBLEMS,
    NO_STORE,
    PRIVATE,
    TOO_HEAVY,
    Authorization,
    EditableRoster,
    IfMatchDep,
    Rosters,
    bearer,
    headed,
    told,
)
from app.api.v1.typed import typed_books
from app.book_service import BookService
from app.book_units import Updates
from app.db import SessionDep
from app.deps import ReadSessionDep
from app.http_cache import not_modified
from app.problems import Problem
from app.roster_service import WrongSystem
from app.store.models import Book
from app.systems.base import AnySystem
from app.systems.books import BookDocument, BookValidation
from app.urls import public_base

__all__ = ["BookTypes", "book_types", "books_router", "roster_update_routes"]

BOOK_PROBLEMS = told(
    (401, "No edit token (or carnet key)."),
    (403, "Wrong edit token (or carnet key)."),
    (404, "No such book."),
)
# A published version never changes, but its `latest` does: caches keep it this long.
LATEST_MAX_AGE = 60


class BookExports(BaseModel):
    bbcode: str
    markdown: str
    text: str
    json_: str = Field(alias="json", serialization_alias="json")


class BookPublished(BaseModel):
    code: str
    url: str = Field(description="The published page, /a/{code}.")
    version: int = Field(description="The book's version this publication froze.")
    exports: BookExports


class BookShareOut(BaseModel):
    """A published version as stored (its units as they were): what get_book_share answers,
    documented per system by `typed_books` (app/api/v1/typed.py)."""

    code: str
    book: str = Field(description="The book's id.")
    version: int
    system: str
    name: str
    army: str
    description: str
    units: list[dict[str, Any]]
    validation: BookValidation
    created_at: UtcDatetime
    latest: str = Field(description="The code of the book's newest published version.")


@dataclass(frozen=True)
class BookTypes:
    """The books' models for the systems an app serves (each a union discriminated by
    `system`): the body of create_book and replace_book, their answers, a published version,
    and each system's book unit (a carnet file's published units)."""

    document: Any
    out: type[BaseModel]
    created: type[BaseModel]
    share: Any
    units: tuple[Any, ...]


def book_types(systems: dict[str, AnySystem]) -> BookTypes:
    typed = typed_books(systems, BookShareOut)
    document_type: Any = typed.document

    class BookOut(BaseModel):
        id: str
        version: int
        book: document_type
        validation: BookValidation

    class BookCreated(BookOut):
        edit_token: str = Field(description="Shown once; only its hash is stored.")

    return BookTypes(document_type, BookOut, BookCreated, typed.share, typed.units)


class ApplyUpdates(BaseModel):
    model_config = {"extra": "forbid"}

    paths: list[Annotated[str, Field(max_length=40)]] | None = Field(
        None, max_length=200, description="The `path`s to update; none: all of them."
    )


def book_service(request: Request, session: SessionDep) -> BookService:
    return BookService(session, request.app.state.systems)


Books = Annotated[BookService, Depends(book_service)]


def book_reader(request: Request, session: ReadSessionDep) -> BookService:
    return BookService(session, request.app.state.systems)


# The public reads' (app/deps.py): on the read database when there is one.
PublicBooks = Annotated[BookService, Depends(book_reader)]


def _book(book_id: str, books: Books, authorization: Authorization = None) -> Book:
    return books.authorize(book_id, bearer(authorization))


EditableBook = Annotated[Book, Depends(_book)]


def published_links(base: str, code: str, version: int) -> BookPublished:
    url = f"{base}/a/{code}"
    return BookPublished(
        code=code,
        url=url,
        version=version,
        exports=BookExports(
            bbcode=f"{url}.bbcode", markdown=f"{url}.md", text=f"{url}.txt", json=f"{url}.json"
        ),
    )


def book_out(book: Book, document: BookDocument, books: BookService) -> dict[str, Any]:
    """A book as the API answers it (its document, version and validation)."""
    return {
        "id": book.id,
        "version": book.version,
        "book": document.model_dump(mode="json"),
        "validation": books.validation(document).model_dump(mode="json"),
    }


def answered(body: dict[str, Any], headers: dict[str, str], status: int = 200) -> Response:
    """A book answer as stored: a unit a page kept although its system refuses it is read
    back as it is, reported by `validation` (the document's types are what the API takes)."""
    return JSONResponse(body, status_code=status, headers=headers)


def plain(body: BaseModel) -> BookDocument:
    """A typed book body as the services keep it: the units' definitions as they were sent."""
    fields = dict(body)
    units = [dict(unit) for unit in fields["units"]]
    return BookDocument.model_validate({**fields, "units": units})


def books_router(types: BookTypes) -> APIRouter:
    """The books' routes, typed by `types` (book_types: the carnet file's router shares
    them, so that the document holds each system's book once)."""
    router = APIRouter(prefix="/api/v1", tags=["books"], dependencies=[Depends(require_json_body)])
    _book_routes(router, types)
    _replace_routes(router, types)
    _publication_routes(router, types)
    return router


def _book_routes(router: APIRouter, types: BookTypes) -> None:
    """Create a book (its document for the systems served), read it."""
    book_in: Any = types.document

    @router.post(
        "/books",
        status_code=201,
        response_model=types.created,
        responses={
            **told((403, "Wrong carnet key."), (404, "No such carnet.")),
            **BODY_PROBLEMS,
        },
        summary="Store an army book (a carnet key as Bearer puts it in that carnet)",
        operation_id="create_book",
    )
    def create_book(body: book_in, books: Books, authorization: Authorization = None) -> Any:
        document = plain(body)
        key = bearer(authorization)
        owner = books.carnet_of_key(key) if key is not None else None
        book, token = books.create(document, owner)
        headers = {
            "ETag": f'"{book.version}"',
            "Location": f"/api/v1/books/{book.id}",
            "Cache-Control": NO_STORE,  # the edit token
        }
        return answered({**book_out(book, document, books), "edit_token": token}, headers, 201)

    @router.get(
        "/books/{book_id}",
        response_model=types.out,
        responses=BOOK_PROBLEMS,
        summary="Read a book (edit token or its carnet's key)",
        operation_id="get_book",
    )
    def get_book(book: EditableBook, books: Books) -> Any:
        headers = {"ETag": f'"{book.version}"', "Cache-Control": "private, no-store"}
        return answered(book_out(book, books.document(book), books), headers)


def _replace_routes(router: APIRouter, types: BookTypes) -> None:
    """Replace a book (If-Match), delete it."""
    book_in: Any = types.document

    @router.put(
        "/books/{book_id}",
        response_model=types.out,
        responses={
            **BOOK_PROBLEMS,
            **IF_MATCH_PROBLEMS,
            **BODY_PROBLEMS,
        },
        summary="Replace a book (edit token and If-Match: <version>)",
        operation_id="replace_book",
    )
    def replace_book(if_match: IfMatchDep, book: EditableBook, body: book_in, books: Books) -> Any:
        document = plain(body)
        if document.system != book.system:
            raise WrongSystem(book.system)
        book = books.replace(book, if_match.version(book.version), document)
        return answered(book_out(book, document, books), {"ETag": f'"{book.version}"'})

    @router.delete(
        "/books/{book_id}",
        status_code=204,
        responses=BOOK_PROBLEMS,
        summary="Delete a book (its published versions stay)",
        operation_id="delete_book",
    )
    def delete_book(book: EditableBook, books: Books) -> Response:
        books.delete(book)
        return Response(status_code=204)


def _publication_routes(router: APIRouter, types: BookTypes) -> None:
    """Publish a book, read a published version."""

    @router.post(
        "/books/{book_id}/shares",
        status_code=201,
        response_model=BookPublished,
        responses={
            **BOOK_PROBLEMS,
            200: {"model": BookPublished, "description": "Unchanged since its last publication."},
            413: TOO_HEAVY,
        },
        summary="Publish the book: an immutable version at a short code",
        operation_id="publish_book",
    )
    def publish_book(book: EditableBook, request: Request, books: Books, response: Response) -> Any:
        share, new = books.publish(book)
        if not new:
            response.status_code = 200
        headed(response, location=f"/api/v1/book-shares/{share.code}")
        return published_links(public_base(request), share.code, share.version).model_dump(
            by_alias=True
        )

    @router.get(
        "/book-shares/{code}",
        response_model=types.share,
        responses={404: {"model": Problem}, 304: {"description": "Not modified."}},
        summary="A published version of a book (public; immutable but for `latest`)",
        operation_id="get_book_share",
    )
    def get_book_share(code: str, request: Request, books: PublicBooks) -> Any:
        share = books.share(code)
        body = books.share_body(share)
        etag = f"{share.etag}-{body['latest']}"
        headers = {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={LATEST_MAX_AGE}"}
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        payload = BookShareOut.model_validate(body).model_dump_json()
        return Response(payload, media_type="application/json", headers=headers)


def roster_update_routes(
    router: APIRouter, roster_out_model: type[BaseModel], roster_out: Any
) -> None:
    """GET and POST /api/v1/rosters/{id}/updates, on the rosters' router (their types)."""

    @router.get(
        "/rosters/{roster_id}/updates",
        response_model=Updates,
        responses=BOOK_PROBLEMS,
        summary="What the roster's units drawn from books would get from newer versions",
        operation_id="get_roster_updates",
    )
    def get_roster_updates(
        roster: EditableRoster, rosters: Rosters, books: Books, response: Response
    ) -> Any:
        headed(response, cache=PRIVATE)
        system = rosters.system(roster)
        return books.updates(system, rosters.document(roster))

    @router.post(
        "/rosters/{roster_id}/updates",
        response_model=roster_out_model,
        responses={
            **BOOK_PROBLEMS,
            **IF_MATCH_PROBLEMS,
            422: {"model": Problem},
        },
        summary="Apply the updates (all, or those at `paths`): the updated roster",
        operation_id="apply_roster_updates",
    )
    def apply_roster_updates(
        if_match: IfMatchDep,
        roster: EditableRoster,
        body: ApplyUpdates,
        rosters: Rosters,
        books: Books,
        response: Response,
    ) -> Any:
        expected = if_match.version(roster.version)
        system = rosters.system(roster)
        applied = books.apply(system, rosters.document(roster), body.paths)
        document = system.roster_model.model_validate(applied)
        roster = rosters.replace(roster, expected, document)
        headed(response, version=roster.version)
        return roster_out(roster, document)
