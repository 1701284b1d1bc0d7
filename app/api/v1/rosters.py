"""Stored rosters (private drafts, edit token + version) and their immutable shares."""

from typing import Annotated, Any, Union

from fastapi import APIRouter, Header, Request, Response
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.db import SessionDep
from app.problems import ApiError, Problem
from app.sharing import check, parse_stored, share_roster
from app.store import rosters as store
from app.store.models import Roster
from app.systems.base import GameSystem, RosterSummary
from app.urls import public_base

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


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def share_links(base: str, code: str) -> ShareCreated:
    url = f"{base}/s/{code}"
    return ShareCreated(
        code=code,
        url=url,
        exports=ShareExports(
            bbcode=f"{url}.bbcode", markdown=f"{url}.md", text=f"{url}.txt", json=f"{url}.json"
        ),
    )


def rosters_router(systems: dict[str, GameSystem]) -> APIRouter:
    router = APIRouter(prefix="/api/v1", tags=["rosters"])
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

    class ShareOut(BaseModel):
        code: str
        system: str
        catalogue_version: str = Field(description="The catalogue the snapshot was built with.")
        created_at: str
        roster: document_type
        validation: validation_type
        summary: RosterSummary

    def system_of(document: BaseModel) -> GameSystem:
        return systems[document.system]  # type: ignore[attr-defined]

    def roster_out(roster: Roster, document: BaseModel) -> dict[str, Any]:
        result, _summary = check(system_of(document), document)
        return {
            "id": roster.id,
            "version": roster.version,
            "roster": document.model_dump(mode="json"),
            "validation": result.model_dump(mode="json"),
        }

    def authorized(session: Session, roster_id: str, authorization: str | None) -> Roster:
        roster = store.get_roster(session=session, roster_id=roster_id)
        if roster is None:
            raise ApiError(404, "No such roster.")
        token = bearer(authorization)
        if token is None:
            raise ApiError(
                401,
                "This roster is a private draft: send 'Authorization: Bearer <edit_token>'.",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not store.token_matches(roster, token):
            raise ApiError(403, "Wrong edit token.")
        return roster

    def stored_document(roster: Roster) -> BaseModel:
        parsed = parse_stored(systems[roster.system], roster.document)
        if not isinstance(parsed, BaseModel):
            raise ApiError(409, f"The stored roster no longer matches the catalogue: {parsed}")
        return parsed

    @router.post(
        "/rosters",
        status_code=201,
        response_model=RosterCreated,
        responses={422: {"model": Problem}},
        summary="Store a roster (a private draft)",
    )
    def create(document: document_type, session: SessionDep, response: Response) -> Any:
        roster, token = store.create_roster(
            session=session,
            system=document.system,
            name=document.name,
            document=document.model_dump(mode="json"),
        )
        response.headers["ETag"] = f'"{roster.version}"'
        response.headers["Location"] = f"/api/v1/rosters/{roster.id}"
        return {**roster_out(roster, document), "edit_token": token}

    @router.get(
        "/rosters/{roster_id}",
        response_model=RosterOut,
        responses=AUTH_PROBLEMS,
        summary="Read a draft (edit token needed)",
    )
    def read(
        roster_id: str,
        session: SessionDep,
        response: Response,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        roster = authorized(session, roster_id, authorization)
        response.headers["ETag"] = f'"{roster.version}"'
        response.headers["Cache-Control"] = "private, no-store"
        return roster_out(roster, stored_document(roster))

    @router.put(
        "/rosters/{roster_id}",
        response_model=RosterOut,
        responses={
            **AUTH_PROBLEMS,
            409: {"model": Problem, "description": "Stale version: nothing changed."},
            422: {"model": Problem},
            428: {"model": Problem, "description": "If-Match missing."},
        },
        summary="Replace a draft (edit token and If-Match: <version>)",
    )
    def replace(
        roster_id: str,
        document: document_type,
        session: SessionDep,
        response: Response,
        authorization: Annotated[str | None, Header()] = None,
        if_match: Annotated[
            str,  # noqa: RUF013  (a missing If-Match is a 428, never null)
            Header(pattern=VERSION_PATTERN, description='The version read, e.g. "3".'),
        ] = None,  # type: ignore[assignment]
    ) -> Any:
        roster = authorized(session, roster_id, authorization)
        expected = parse_version(if_match)
        if document.system != roster.system:
            raise ApiError(422, f"This roster is a {roster.system!r} roster.", errors=[])
        try:
            roster = store.update_roster(
                session=session,
                roster=roster,
                expected_version=expected,
                name=document.name,
                document=document.model_dump(mode="json"),
            )
        except store.StaleVersion as stale:
            raise ApiError(
                409,
                f"Version {expected} is stale: the roster is at version {stale.current}.",
                headers={"ETag": f'"{stale.current}"'},
            ) from None
        response.headers["ETag"] = f'"{roster.version}"'
        return roster_out(roster, document)

    @router.delete(
        "/rosters/{roster_id}",
        status_code=204,
        responses=AUTH_PROBLEMS,
        summary="Delete a draft (its shares stay)",
    )
    def delete(
        roster_id: str,
        session: SessionDep,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        roster = authorized(session, roster_id, authorization)
        store.delete_roster(session=session, roster=roster)
        return Response(status_code=204)

    @router.post(
        "/rosters/{roster_id}/shares",
        status_code=201,
        response_model=ShareCreated,
        responses=AUTH_PROBLEMS,
        summary="Freeze the roster into a public share link",
    )
    def share(
        roster_id: str,
        request: Request,
        session: SessionDep,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Any:
        roster = authorized(session, roster_id, authorization)
        system = systems[roster.system]
        created = share_roster(
            session=session, system=system, roster_id=roster.id, document=stored_document(roster)
        )
        return share_links(public_base(request), created.code).model_dump(by_alias=True)

    @router.get(
        "/shares/{code}",
        response_model=ShareOut,
        tags=["shares"],
        responses={404: {"model": Problem}, 304: {"description": "Not modified."}},
        summary="A shared snapshot (public, immutable, cacheable)",
    )
    def read_share(code: str, request: Request, session: SessionDep) -> Any:
        shared = store.get_share(session=session, code=code)
        if shared is None:
            raise ApiError(404, "No such share.")
        headers = share_cache_headers(request, shared.etag)
        if not_modified(request, shared.etag):
            return Response(status_code=304, headers=headers)
        body = ShareOut(
            code=shared.code,
            system=shared.system,
            catalogue_version=shared.catalogue_version,
            created_at=shared.created_at.isoformat(),
            roster=shared.snapshot["roster"],
            validation=shared.snapshot["validation"],
            summary=shared.snapshot["summary"],
        )
        return Response(body.model_dump_json(), media_type="application/json", headers=headers)

    return router


# If-Match carries the version as an entity tag: 3, "3" or W/"3".
VERSION_PATTERN = r'^\s*(W/)?"?[0-9]{1,9}"?\s*$'


def parse_version(if_match: str | None) -> int:
    if if_match is None:
        raise ApiError(428, "Send 'If-Match: <version>' with the version you read.")
    return int(if_match.strip().removeprefix("W/").strip('"'))


def share_cache_headers(request: Request, etag: str) -> dict[str, str]:
    max_age = request.app.state.settings.share_max_age
    return {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={max_age}, immutable"}


def not_modified(request: Request, etag: str) -> bool:
    header = request.headers.get("if-none-match")
    if header is None:
        return False
    candidates = {part.strip().removeprefix("W/").strip('"') for part in header.split(",")}
    return etag in candidates or "*" in candidates
