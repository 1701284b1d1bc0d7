"""The import of a list for programs (api-v1.md « Import, history and the carnet file »):
`POST /api/v1/imports` reads a pasted text or a file's content into a roster document and
says what each line became; nothing is stored (the caller posts `document` to
`POST /api/v1/rosters`, or to a carnet, once it agrees)."""

from typing import Annotated, Any, Literal, Union

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.v1.bodies import require_json_body
from app.db import SessionDep
from app.imports.checks import MAX_CHOICES, MAX_TEXT_BYTES, ImportRefused, choices_of
from app.imports.reading import Imported
from app.imports.service import import_list
from app.problems import ApiError, FieldError, Problem
from app.systems.base import AnySystem
from app.urls import public_base


class ImportBody(BaseModel):
    """What to read: a text (a pasted list, or a file's content) and, when known, its system."""

    model_config = ConfigDict(extra="forbid")

    system: str | None = Field(
        None, max_length=40, description="The system's id; null: found from the text."
    )
    text: str = Field(
        # Characters, a bound for the model; the import's own, in bytes, says 413 below it.
        max_length=2 * MAX_TEXT_BYTES,
        description=f"The list as text: at most {MAX_TEXT_BYTES // 1024} KiB (UTF-8), "
        "10,000 lines, 8,000 characters a line.",
    )
    choices: dict[str, str] = Field(
        default_factory=dict,
        max_length=MAX_CHOICES,
        description="For a line « non reconnu » (`unknown`), the candidate `id` chosen, by the "
        'line\'s index from 0: `{"4": "jaffa"}`. An extension of api-v1.md.',
    )


class ImportCandidate(BaseModel):
    id: str = Field(description="What `choices` sends back to choose it.")
    name: str


class ImportLine(BaseModel):
    text: str = Field(description="The input line, as read (control characters as spaces).")
    status: Literal["matched", "custom", "share", "ignored", "unknown"]
    entry: int | None = Field(description="Index in `document.entries` of the entry it made.")
    candidates: list[ImportCandidate] = Field(
        description="For an `unknown` line: the closest catalogue names, closest first."
    )
    note: str = Field("", description="What the player should know of this line (French).")


def _line(line: Any) -> ImportLine:
    return ImportLine(
        text=line.text,
        status=line.status,
        entry=line.entry,
        candidates=[ImportCandidate(id=c.id, name=c.name) for c in line.candidates],
        note=line.note,
    )


def import_out(imported: Imported) -> dict[str, Any]:
    return {
        "system": imported.system.id,
        "format": imported.shape,
        "share": imported.share,
        "document": imported.document.model_dump(mode="json"),
        "validation": imported.result.model_dump(mode="json"),
        "lines": [_line(line) for line in imported.lines],
        "lost": imported.lost,
    }


def imports_router(systems: dict[str, AnySystem]) -> APIRouter:
    router = APIRouter(prefix="/api/v1", tags=["import"], dependencies=[Depends(require_json_body)])
    models: list[Any] = [s.roster_model for s in systems.values()]
    document_type: Any = Annotated[Union[tuple(models)], Field(discriminator="system")]  # noqa: UP007
    validation_type: Any = Union[tuple(s.validate_response_model for s in systems.values())]  # noqa: UP007

    class ImportOut(BaseModel):
        system: str
        format: Literal["json", "share", "bbcode", "markdown", "text", "typed"] = Field(
            description="What the text was: a JSON export, a share link of this site, an "
            "export in BBCode, Markdown or text, or lines typed by hand. An extension."
        )
        share: str | None = Field(description="The share's code, when taken from one.")
        document: document_type
        validation: validation_type
        lines: list[ImportLine] = Field(description="Every input line, in order.")
        lost: list[str] = Field(
            description="What the text could not carry (French), for the list as a whole."
        )

    @router.post(
        "/imports",
        response_model=ImportOut,
        responses={
            413: {"model": Problem, "description": "The text is over a bound of the import."},
            422: {"model": Problem, "description": "The text cannot be read as a list."},
        },
        summary="Read a list from a text or a file (nothing is stored)",
        operation_id="import_roster_text",
    )
    def read(body: ImportBody, request: Request, session: SessionDep) -> Any:
        try:
            imported = import_list(
                session,
                systems,
                public_base(request),
                body.text,
                body.system,
                choices_of(body.choices),
            )
        except ImportRefused as refused:
            loc: list[str | int] = list(refused.loc)
            raise ApiError(
                refused.status,
                refused.detail,
                errors=[FieldError(loc=loc, msg=refused.detail, code=refused.code)],
            ) from None
        return import_out(imported)

    return router
