"""The carnet in one file through the API (api-v1.md « Import, history and the carnet
file »; docs/carnet-file.md): export a carnet, import such a file into a carnet as new lists
and books, and the file's JSON Schema."""

from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.api.v1.bodies import require_json_body
from app.api.v1.books import BookTypes
from app.api.v1.carnets import KEY_PROBLEMS
from app.api.v1.deps import TOO_HEAVY, CarnetDep, told
from app.api.v1.typed_file import typed_file
from app.carnet_file.export import export_carnet
from app.carnet_file.models import schema
from app.carnet_file.restore import restore_carnet
from app.carnet_file.state import Restored
from app.db import SessionDep
from app.store.models import utcnow
from app.systems.base import AnySystem


class Made(BaseModel):
    id: str
    name: str


class SkippedOut(BaseModel):
    path: str = Field(description="Where in the file, e.g. rosters[3].")
    code: str = Field(description="Why, a stable code (docs/carnet-file.md).")
    detail: str


class CarnetImported(BaseModel):
    """What import_carnet brought in, and what it skipped."""

    rosters: list[Made] = Field(description="The new lists, in the file's order.")
    books: list[Made]
    campaigns: list[Made] = Field(description="The new campaigns (this carnet organises them).")
    battles: int = Field(description="Battle lines brought in with the gangs.")
    skipped: list[SkippedOut] = Field(description="What did not come in, and why.")


class SchemaResponse(JSONResponse):
    media_type = "application/schema+json"


class CarnetFileSchema(BaseModel):
    """The carnet file's JSON Schema (docs/carnet-file.schema.json): a JSON Schema, draft
    2020-12, whose other keywords (`properties`, `$defs`, …) are JSON Schema's own."""

    model_config = ConfigDict(populate_by_name=True)

    schema_: Literal["https://json-schema.org/draft/2020-12/schema"] = Field(alias="$schema")
    id_: str = Field(alias="$id", description="The format version's URI.")
    title: str
    type: Literal["object"]


def import_out(done: Restored) -> dict[str, Any]:
    return {
        "rosters": [{"id": i, "name": n} for i, n in done.rosters],
        "books": [{"id": i, "name": n} for i, n in done.books],
        "campaigns": [{"id": i, "name": n} for i, n in done.campaigns],
        "battles": done.battles,
        "skipped": [vars(s) for s in done.skipped],
    }


def file_name() -> str:
    return f"carnet-caserne-{utcnow().date().isoformat()}.json"


def carnet_file_router(systems: dict[str, AnySystem], books: BookTypes) -> APIRouter:
    """The file's routes; its documents, units and ledger lines typed by the systems served
    (app/api/v1/typed_file.py), read as the format reads them."""
    router = APIRouter(
        prefix="/api/v1", tags=["carnets"], dependencies=[Depends(require_json_body)]
    )
    carnet_file: Any = typed_file(systems, books)

    @router.get(
        "/carnets/{carnet_id}/export",
        response_model=carnet_file,
        responses={**KEY_PROBLEMS, 413: TOO_HEAVY},
        summary="The whole carnet as one file (key needed; docs/carnet-file.md)",
        operation_id="export_carnet",
    )
    def export(carnet: CarnetDep, request: Request, session: SessionDep) -> Any:
        # The file as the format writes it (its model's JSON): the document's type is what
        # it holds, not a second validation of lists kept as they were stored.
        file = export_carnet(session, request.app.state.systems, carnet)
        headers = {
            "Cache-Control": "private, no-store",
            "Content-Disposition": f'attachment; filename="{file_name()}"',
        }
        return JSONResponse(file.model_dump(mode="json"), headers=headers)

    @router.post(
        "/carnets/{carnet_id}/import",
        response_model=CarnetImported,
        responses={
            **KEY_PROBLEMS,
            **told(
                (409, "The carnet would hold too many lists: nothing stored."),
                (422, "Not a carnet file, or of a newer format_version: nothing stored."),
            ),
            413: TOO_HEAVY,
        },
        summary="Bring a carnet file in as new lists, books and campaigns (nothing overwritten)",
        operation_id="import_carnet",
    )
    def import_file(
        carnet: CarnetDep, file: carnet_file, request: Request, session: SessionDep
    ) -> Any:
        done = restore_carnet(session, request.app.state.systems, carnet, file)
        return import_out(done)

    @router.get(
        "/schemas/carnet-export",
        tags=["schemas"],
        response_class=SchemaResponse,
        responses={200: {"model": CarnetFileSchema}},
        summary="The carnet file's JSON Schema (docs/carnet-file.schema.json)",
        operation_id="carnet_export_schema",
    )
    def carnet_schema() -> Response:
        return SchemaResponse(schema(), headers={"Cache-Control": "public, max-age=86400"})

    return router
