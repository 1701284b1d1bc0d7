"""Stored rosters (private drafts, edit token + version) and their immutable shares."""

from typing import Annotated, Any, Union

from fastapi import APIRouter, Depends, Header, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import object_session
from sqlmodel import Session

from app.api.v1.carnets import NO_STORE, UtcDatetime, carnet_routes
from app.api.v1.deps import EditableRoster, Rosters
from app.api.v1.systems import require_json_body
from app.campaigns.states import counted
from app.db import SessionDep
from app.http_cache import immutable_headers, not_modified
from app.problems import ApiError, Problem
from app.roster_service import RosterService, StaleVersion, check
from app.store import rosters as store
from app.store.models import Roster
from app.store.retention import record_view
from app.systems.base import AnySystem, RosterSummary
from app.urls import public_base

TOO_HEAVY: dict[str, Any] = {"model": Problem, "description": "Too heavy: nothing stored."}
AUTH_PROBLEMS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "No edit token."},
    403: {"model": Problem, "description": "Wrong edit token."},
    404: {"model": Problem, "description": "No such roster."},
}


class ShareExports(BaseModel):
    bbcode: str = Field(description="URL of the BBCode export (phpBB-style forums).")
    markdown: str
    text: str
    json_: str = Field(alias="json", serialization_alias="json")


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
            bbcode=f"{url}.bbcode", markdown=f"{url}.md", text=f"{url}.txt", json=f"{url}.json"
        ),
    )


def rosters_router(systems: dict[str, AnySystem]) -> APIRouter:
    router = APIRouter(
        prefix="/api/v1", tags=["rosters"], dependencies=[Depends(require_json_body)]
    )
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

    def roster_out(roster: Roster, document: BaseModel) -> dict[str, Any]:
        # The validation counts what every total counts: not the fighters its ledger says
        # are dead or retired (api-v1.md « Campaigns »); the document keeps them.
        session = object_session(roster)
        kept = counted(session, roster, document) if isinstance(session, Session) else document
        result, _summary = check(systems[roster.system], kept)
        return {
            "id": roster.id,
            "version": roster.version,
            "roster": document.model_dump(mode="json"),
            "validation": result.model_dump(mode="json"),
        }

    @router.post(
        "/rosters",
        status_code=201,
        response_model=RosterCreated,
        responses={422: {"model": Problem}, 413: TOO_HEAVY},
        summary="Store a roster (a private draft)",
        operation_id="create_roster",
    )
    def create(
        document: document_type, request: Request, service: Rosters, response: Response
    ) -> Any:
        return created(request, service, response, document)

    def created(
        request: Request, service: RosterService, response: Response, document: BaseModel
    ) -> dict[str, Any]:
        """Stores the document; the answer of create_roster (and of add_carnet_roster)."""
        roster, token = service.create(document)
        response.headers["ETag"] = f'"{roster.version}"'
        response.headers["Location"] = f"/api/v1/rosters/{roster.id}"
        response.headers["Cache-Control"] = NO_STORE  # the edit token
        edit_url = f"{public_base(request)}/r/{roster.id}/modifier?t={token}"
        return {**roster_out(roster, document), "edit_token": token, "edit_url": edit_url}

    @router.get(
        "/rosters/{roster_id}",
        response_model=RosterOut,
        responses=AUTH_PROBLEMS,
        summary="Read a draft (edit token needed)",
        operation_id="get_roster",
    )
    def read(roster: EditableRoster, service: Rosters, response: Response) -> Any:
        document = service.document(roster)
        response.headers["ETag"] = f'"{roster.version}"'
        response.headers["Cache-Control"] = "private, no-store"
        return roster_out(roster, document)

    @router.put(
        "/rosters/{roster_id}",
        response_model=RosterOut,
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
        roster: EditableRoster,
        document: document_type,
        service: Rosters,
        response: Response,
        if_match: Annotated[
            str,  # noqa: RUF013  (a missing If-Match is a 428, never null)
            Header(pattern=VERSION_PATTERN, description='The version read, e.g. "3".'),
        ] = None,  # type: ignore[assignment]
    ) -> Any:
        expected = parse_version(if_match, roster.version)
        try:
            roster = service.replace(roster, expected, document)
        except StaleVersion as stale:
            raise ApiError(
                409,
                f"Version {expected} is stale: the roster is at version {stale.current}.",
                headers={"ETag": f'"{stale.current}"'},
                code="version_stale",
                loc=["header", "if-match"],
            ) from None
        response.headers["ETag"] = f'"{roster.version}"'
        return roster_out(roster, document)

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

    @router.post(
        "/rosters/{roster_id}/shares",
        status_code=201,
        response_model=ShareCreated,
        responses={
            **AUTH_PROBLEMS,
            200: {"model": ShareCreated, "description": "Unchanged since its last share."},
            413: TOO_HEAVY,
        },
        summary="Freeze the roster into a public share link",
        operation_id="share_roster",
    )
    def share(
        roster: EditableRoster, request: Request, service: Rosters, response: Response
    ) -> Any:
        shared, new = service.share(roster)
        if not new:
            response.status_code = 200
        response.headers["Location"] = f"/api/v1/shares/{shared.code}"
        return share_links(public_base(request), shared.code).model_dump(by_alias=True)

    @router.get(
        "/shares/{code}",
        response_model=ShareOut,
        tags=["shares"],
        responses={
            404: {"model": Problem},
            410: {"model": Problem},
            304: {"description": "Not modified."},
        },
        summary="A shared snapshot (public, immutable, cacheable)",
        operation_id="get_share",
    )
    def read_share(code: str, request: Request, session: SessionDep) -> Any:
        record_view(session, code)  # at most one write a day (docs/retention.md)
        shared = store.get_share(session=session, code=code)
        if shared is None and store.share_gone(session=session, code=code):
            raise ApiError(410, "This share was removed.", code="share_gone", loc=["path", "code"])
        if shared is None:
            raise ApiError(404, "No such share.", code="share_not_found", loc=["path", "code"])
        headers = immutable_headers(request, shared.etag)
        if not_modified(request, shared.etag):
            return Response(status_code=304, headers=headers)
        body = ShareOut(
            code=shared.code,
            system=shared.system,
            catalogue_version=shared.catalogue_version,
            created_at=shared.created_at,
            roster=shared.snapshot["roster"],
            validation=shared.snapshot["validation"],
            summary=shared.snapshot["summary"],
        )
        return Response(body.model_dump_json(), media_type="application/json", headers=headers)

    carnet_routes(router, document_type, RosterCreated, created)
    from app.api.v1.books import roster_update_routes  # the books' module imports this one

    roster_update_routes(router, RosterOut, roster_out)
    return router


# If-Match carries the version as an entity tag: 3 or "3"; * means "whatever it is". A weak
# tag (W/"3") is read, to be refused with 412 rather than 422.
VERSION_PATTERN = r'^\s*((W/)?"?[0-9]{1,9}"?|\*)\s*$'


def parse_version(if_match: str | None, current: int) -> int:
    """The version the writer read; `*` (RFC 9110: any current version) is the current one."""
    if if_match is None:
        raise ApiError(
            428,
            "Send 'If-Match: <version>' with the version you read.",
            code="if_match_missing",
            loc=["header", "if-match"],
        )
    if if_match.strip() == "*":
        return current
    if if_match.strip().startswith("W/"):
        # RFC 9110 13.1.1: If-Match compares strongly, and a weak tag never matches.
        raise ApiError(
            412,
            "If-Match compares strongly: send the version as the ETag gave it, e.g. '\"3\"'.",
            code="if_match_weak",
            loc=["header", "if-match"],
        )
    return int(if_match.strip().removeprefix("W/").strip('"'))
