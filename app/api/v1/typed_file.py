"""The carnet file (app/carnet_file/models.py) as the OpenAPI document types it, for the
systems an app serves (issue 28's « no bare object » for issue 30's file): a list's
`document` is what create_roster takes, a book's what create_book takes, a published
version's units the systems' book units, a ledger line's score and recruits what
record_battle takes, its fighters as the ledger keeps them (RecordedFighter).

Typed for the document, read as the format reads them: a file carries lists and books of
any system, possibly of another server or of an older catalogue, and what cannot come in is
skipped and said (`unknown_system`, `invalid_document`, docs/carnet-file.md), never the
whole file refused. So documents, units, scores and recruits are `described` (bounded free
JSON, checked by the restore), fighters `checked` (the ledger reads them back). The file's
own JSON Schema (docs/carnet-file.schema.json) stays the format's, of no server's systems.
"""

from typing import Any, Union

from pydantic import Field, create_model

from app.api.v1.books import BookTypes
from app.api.v1.campaigns import battle_parts
from app.api.v1.typed import checked, described, system_union
from app.campaigns.models import RecordedFighter
from app.carnet_file.models import (
    MAX_BOOKS,
    MAX_LINES,
    MAX_PUBLISHED,
    CarnetFile,
    FileBook,
    FileGang,
    FileLine,
    FileRoster,
    PublishedVersion,
    SameBattle,
)
from app.carnet_service import CARNET_MAX_ROSTERS
from app.systems.base import AnySystem
from app.systems.books import BOOK_MAX_UNITS

__all__ = ["typed_file"]

SKIPPED = (
    " One of a system this server does not serve, or that its system refuses today, is "
    "skipped and said in the answer's `skipped` (docs/carnet-file.md): the file still comes in."
)


def _many(item: Any, most: int, description: str = "") -> Any:
    field: Any = Field(default_factory=list, max_length=most, description=description or None)
    return (list[item], field)


def typed_file(systems: dict[str, AnySystem], books: BookTypes) -> type[CarnetFile]:
    """CarnetFile with its free parts typed by `systems` (and `books`' models, the same the
    books' routes use)."""
    rosters = system_union([s.roster_model for s in systems.values()])
    roster: Any = create_model(
        "FileRoster",
        __base__=FileRoster,
        document=(
            described(rosters),
            Field(description=f"A roster document as create_roster takes it.{SKIPPED}"),
        ),
    )
    unit = described(Union[books.units])  # noqa: UP007
    version: Any = create_model(
        "PublishedVersion",
        __base__=PublishedVersion,
        units=_many(unit, BOOK_MAX_UNITS, "The units it showed: book units of its book's system."),
    )
    book: Any = create_model(
        "FileBook",
        __base__=FileBook,
        document=(
            described(books.document),
            Field(description=f"A book document as create_book takes it.{SKIPPED}"),
        ),
        published=_many(version, MAX_PUBLISHED, "Its published versions, oldest first."),
    )
    score, recruit = battle_parts(systems)
    # Named apart from the campaigns' SameBattle: two models of one name made FastAPI split
    # FileLine (and the file) into -Input and -Output, so that a program could not send
    # back as import_carnet's body the very object export_carnet answered.
    same: Any = create_model("FileSameBattle", __base__=SameBattle)
    line: Any = create_model(
        "FileLine",
        __base__=FileLine,
        same_as=(same | None, Field(None, description="The other gang's line it recorded again.")),
        score=(score, Field(None, description="The score body record_battle took.")),
        fighters=_many(checked(RecordedFighter), 200, "Its fighters, as the ledger keeps them."),
        recruits=_many(recruit, 200, "The entries it recruited, as they were stored."),
    )
    gang: Any = create_model("FileGang", __base__=FileGang, battles=_many(line, MAX_LINES))
    return create_model(
        "CarnetFile",
        __base__=CarnetFile,
        rosters=_many(roster, CARNET_MAX_ROSTERS),
        books=_many(book, MAX_BOOKS),
        gangs=_many(gang, CARNET_MAX_ROSTERS),
    )
