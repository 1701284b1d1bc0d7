"""Stored rosters (private drafts, edit token + version) and their immutable shares."""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, Union

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import object_session
from sqlmodel import Session

from app.api.v1.bodies import require_json_body
from app.api.v1.books import roster_update_routes
from app.api.v1.carnets import UtcDatetime, carnet_routes
from app.api.v1.deps import (
    AUTH_PROBLEMS,
    NO_STORE,
    PRIVATE,
    TOO_HEAVY,
    VERSION_PATTERN,
    EditableRoster,
    IfMatchDep,
    Rosters,
    frozen_answers,
    frozen_at,
    headed,
    parse_version,
)
from app.api.v1.history import history_routes
from app.deps import ReadSessionDep
from app.hooks import counted
from app.http_cache import immutable_headers, not_modified
from app.problems import ApiError, Problem
from app.roster_service import RosterService, StaleVersion, check
from app.store import rosters as store
from app.store.models import Roster
from app.store.retention import viewed_share
from app.systems.base import AnySystem, RosterSummary
from app.urls import public_base

# AUTH_PROBLEMS, VERSION_PATTERN and parse_version live in app/api/v1/deps.py; named here
# too for api/v1/campaigns.py, which imports them from this module.
__all__ = ["AUTH_PROBLEMS", "VERSION_PATTERN", "parse_version", "rosters_router"]


class ShareExports(BaseModel):
    bbcode: str = Field(description="URL of the BBCode export (phpBB-style forums).")
    markdown: str
    text: str
    json_: str = Field(alias="json", serialization_alias="json")
    tts_json: str = Field(description="URL of the Tabletop Simulator JSON (docs/tts.md).")
    tts_text: str = Field(description="URL of the Tabletop Simulator text to paste.")


class ShareCreated(BaseModel):
    code: str
    url: str = Field(description="The public share page.")
    exports: ShareExports


def share_links(base: str, code: str) -> ShareCreated:
    url = f"{base}/s/{code}"
    return ShareCreated(
        code=code,
        url=url,
        exports=ShareExports(
            bbcode=f"{url}.bbcode",
            markdown=f"{url}.md",
            text=f"{url}.txt",
            json=f"{url}.json",
            tts_json=f"{url}.tts.json",
            tts_text=f"{url}.tts.txt",
        ),
    )


@dataclass(frozen=True)
class RosterTypes:
    """The rosters' models for the systems an app serves (the document is a union of their
    roster models, discriminated by `system`)."""

    document: Any
    out: type[BaseModel]
    created: type[BaseModel]
    share: type[BaseModel]


def roster_types(systems: dict[str, AnySystem]) -> RosterTypes:
    models: list[Any] = [s.roster_model for s in systems.values()]
    document_type: Any = Annotated[Union[tuple(models)], Field(discriminator="system")]  # noqa: UP007
    validation_type: Any = Union[tuple(s.validate_response_model for s in systems.values())]  # noqa: UP007

    class RosterOut(BaseModel):
        id: str
        version: int
        roster: document_type
        validation: validation_type

    class RosterCreated(RosterOut):
        edit_token: str = Field(description="Shown once; only its hash is stored.")
        edit_url: str = Field(
            description="Opens the roster in the browser editor (hands a user over to the pages)."
        )

    class ShareOut(BaseModel):
        code: str
        system: str
        catalogue_version: str = Field(description="The catalogue the snapshot was built with.")
        created_at: UtcDatetime
        roster: document_type
        validation: validation_type
        summary: RosterSummary

    return RosterTypes(document_type, RosterOut, RosterCreated, ShareOut)


def document_and_validation(
    systems: Mapping[str, AnySystem], roster: Roster, document: BaseModel
) -> dict[str, Any]:
    """The roster's document and its validation, as every answer holding a roster gives
    them. The validation counts what every total counts: not the fighters its ledger says
    are dead or retired (api-v1.md « Campaigns »); the document keeps them."""
    session = object_session(roster)
    kept = counted(session, roster, document) if isinstance(session, Session) else document
    result, _summary = check(systems[roster.system], kept)
    return {
        "roster": document.model_dump(mode="json"),
        "validation": result.model_dump(mode="json"),
    }


def roster_out(
    systems: Mapping[str, AnySystem], roster: Roster, document: BaseModel
) -> dict[str, Any]:
    """A roster as the API answers it (its document, version and validation)."""
    return {
        "id": roster.id,
        "version": roster.version,
        **document_and_validation(systems, roster, document),
    }


def created(
    request: Request, service: RosterService, response: Response, document: BaseModel
) -> dict[str, Any]:
    """Stores the document; the answer of create_roster (and of add_carnet_roster)."""
    roster, token = service.create(document)
    location = f"/api/v1/rosters/{roster.id}"
    headed(response, version=roster.version, location=location, cache=NO_STORE)  # the token
    edit_url = f"{public_base(request)}/r/{roster.id}/modifier?t={token}"
    out = roster_out(service.systems, roster, document)
    return {**out, "edit_token": token, "edit_url": edit_url}


def rosters_router(systems: dict[str, AnySystem]) -> APIRouter:
    router = APIRouter(
        prefix="/api/v1", tags=["rosters"], dependencies=[Depends(require_json_body)]
    )
    types = roster_types(systems)
    _draft_routes(router, types)
    _replace_routes(router, types)
    _share_routes(router, types)
    carnet_routes(router, types.document, types.created, created)
    roster_update_routes(router, types.out, partial(roster_out, systems))
    history_routes(router, types.document, types.out, partial(roster_out, systems))
    return router


def _draft_routes(router: APIRouter, types: RosterTypes) -> None:
    """Create and read a draft (the stored document's types)."""
    document_type: Any = types.document

    @router.post(
        "/rosters",
        status_code=201,
        response_model=types.created,
        responses={422: {"model": Problem}, 413: TOO_HEAVY},
        summary="Store a roster (a private draft)",
        operation_id="create_roster",
    )
    def create(
        document: document_type, request: Request, service: Rosters, response: Response
    ) -> Any:
        return created(request, service, response, document)

    @router.get(
        "/rosters/{roster_id}",
        response_model=types.out,
        responses=AUTH_PROBLEMS,
        summary="Read a draft (edit token needed)",
        operation_id="get_roster",
    )
    def read(roster: EditableRoster, service: Rosters, response: Response) -> Any:
        document = service.document(roster)
        headed(response, version=roster.version, cache=PRIVATE)
        return roster_out(service.systems, roster, document)


def _replace_routes(router: APIRouter, types: RosterTypes) -> None:
    """Replace a draft (If-Match), delete it."""
    document_type: Any = types.document

    @router.put(
        "/rosters/{roster_id}",
        response_model=types.out,
        responses={
            **AUTH_PROBLEMS,
            409: {"model": Problem, "description": "Stale version: nothing changed."},
            413: TOO_HEAVY,
            422: {
                "model": Problem,
                "description": "Invalid document, or a document of another system than the "
                "roster's: nothing changed.",
            },
            428: {"model": Problem, "description": "If-Match missing: nothing changed."},
        },
        summary="Replace a draft (edit token and If-Match: <version>)",
        operation_id="replace_roster",
    )
    def replace(
        if_match: IfMatchDep,
        roster: EditableRoster,
        document: document_type,
        service: Rosters,
        response: Response,
    ) -> Any:
        expected = if_match.version(roster.version)
        try:
            roster = service.replace(roster, expected, document)
        except StaleVersion as stale:
            # Said by app/refusals.py's table, with the version this writer sent.
            raise StaleVersion(stale.current, expected) from None
        headed(response, version=roster.version)
        return roster_out(service.systems, roster, document)

    @router.delete(
        "/rosters/{roster_id}",
        status_code=204,
        responses=AUTH_PROBLEMS,
        summary="Delete a draft (its shares stay)",
        operation_id="delete_roster",
    )
    def delete(roster: EditableRoster, service: Rosters) -> Response:
        service.delete(roster)
        return Response(status_code=204)


def _share_routes(router: APIRouter, types: RosterTypes) -> None:
    """Share a draft, read a share."""
    share_out: Any = types.share

    @router.post(
        "/rosters/{roster_id}/shares",
        status_code=201,
        response_model=ShareCreated,
        responses=frozen_answers(AUTH_PROBLEMS, ShareCreated, "share"),
        summary="Freeze the roster into a public share link",
        operation_id="share_roster",
    )
    def share(
        roster: EditableRoster, request: Request, service: Rosters, response: Response
    ) -> Any:
        shared, new = service.share(roster)
        frozen_at(response, new, f"/api/v1/shares/{shared.code}")
        return share_links(public_base(request), shared.code).model_dump(by_alias=True)

    @router.get(
        "/shares/{code}",
        response_model=types.share,
        tags=["shares"],
        responses={
            404: {"model": Problem},
            410: {"model": Problem},
            304: {"description": "Not modified."},
        },
        summary="A shared snapshot (public, immutable, cacheable)",
        operation_id="get_share",
    )
    def read_share(code: str, request: Request, session: ReadSessionDep) -> Any:
        shared = viewed_share(session, code)  # a view: at most one write a day, on the primary
        if shared is None and store.share_gone(session=session, code=code):
            raise ApiError(410, "This share was removed.", code="share_gone", loc=["path", "code"])
        if shared is None:
            raise ApiError(404, "No such share.", code="share_not_found", loc=["path", "code"])
        headers = immutable_headers(request, shared.etag)
        if not_modified(request, shared.etag):
            return Response(status_code=304, headers=headers)
        body = share_out(
            code=shared.code,
            system=shared.system,
            catalogue_version=shared.catalogue_version,
            created_at=shared.created_at,
            roster=shared.snapshot["roster"],
            validation=shared.snapshot["validation"],
            summary=shared.snapshot["summary"],
        )
        return Response(body.model_dump_json(), media_type="application/json", headers=headers)
