"""A roster's kept versions through the API (api-v1.md « Import, history and the carnet
file »; docs/history.md): list them, read one, restore one as a new version."""

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, Field, create_model

from app.api.v1.carnets import UtcDatetime
from app.api.v1.deps import (
    AUTH_PROBLEMS,
    IF_MATCH_PROBLEMS,
    EditableRoster,
    IfMatchDep,
    Rosters,
    told,
)
from app.history_service import RosterHistory
from app.roster_service import StaleVersion, check

VERSION_PROBLEMS = {
    **AUTH_PROBLEMS,
    **told(
        (404, "No such roster, or a version it no longer keeps (docs/history.md)."),
        (409, "The kept document no longer matches the catalogue."),
    ),
}
PRIVATE = "private, no-store"


class VersionItem(BaseModel):
    version: int = Field(description="The roster's version this save made.")
    saved_at: UtcDatetime
    points: int | None = Field(description="The list's points total (null: no points).")
    summary: list[str] = Field(description="What the save changed, in French, for people.")
    origin: str = Field(
        description="Where the save came from: page, api, campaign, file, or upgrade (kept "
        "before the history existed)."
    )


class VersionsOut(BaseModel):
    versions: list[VersionItem] = Field(description="Newest first.")


AnyVersion = Path(ge=1, le=2**31 - 1, description="A version number the history lists.")


def history_routes(
    router: APIRouter,
    document_type: Any,
    out_model: type[BaseModel],
    roster_out: Callable[[Any, BaseModel], dict[str, Any]],
) -> None:
    """The history routes, on the rosters' router (their document and answer types)."""
    validation_type: Any = out_model.model_fields["validation"].annotation
    version_out = create_model(
        "RosterVersionOut",
        version=(int, ...),
        saved_at=(UtcDatetime, ...),
        document=(document_type, ...),
        validation=(validation_type, ...),
    )
    _read_routes(router, version_out)
    _restore_route(router, out_model, roster_out)


def _read_routes(router: APIRouter, version_out: type[BaseModel]) -> None:
    """List the kept versions, read one."""

    @router.get(
        "/rosters/{roster_id}/versions",
        response_model=VersionsOut,
        responses=AUTH_PROBLEMS,
        summary="The roster's kept versions, newest first (docs/history.md)",
        operation_id="list_roster_versions",
    )
    def list_versions(roster: EditableRoster, rosters: Rosters, response: Response) -> Any:
        response.headers["Cache-Control"] = PRIVATE
        listed, _total = RosterHistory(rosters).versions(roster)
        return {"versions": [row._asdict() for row in listed]}

    @router.get(
        "/rosters/{roster_id}/versions/{version}",
        response_model=version_out,
        responses=VERSION_PROBLEMS,
        summary="One kept version: its document as that save left it, validated today",
        operation_id="get_roster_version",
    )
    def get_version(
        roster: EditableRoster, rosters: Rosters, response: Response, version: int = AnyVersion
    ) -> Any:
        response.headers["Cache-Control"] = PRIVATE
        history = RosterHistory(rosters)
        kept = history.version(roster, version)
        document = history.document(roster, kept)
        result, _summary = check(rosters.system(roster), document)
        return {
            "version": kept.version,
            "saved_at": kept.saved_at,
            "document": document.model_dump(mode="json"),
            "validation": result.model_dump(mode="json"),
        }


def _restore_route(
    router: APIRouter,
    out_model: type[BaseModel],
    roster_out: Callable[[Any, BaseModel], dict[str, Any]],
) -> None:
    """Restore a kept version (If-Match: the current version)."""

    @router.post(
        "/rosters/{roster_id}/versions/{version}/restore",
        response_model=out_model,
        responses={**VERSION_PROBLEMS, **IF_MATCH_PROBLEMS},
        summary="Restore a kept version: a new version whose document is that one's",
        operation_id="restore_roster_version",
    )
    def restore_version(
        if_match: IfMatchDep,
        roster: EditableRoster,
        rosters: Rosters,
        response: Response,
        version: int = AnyVersion,
    ) -> Any:
        expected = if_match.version(roster.version)
        try:
            roster, document = RosterHistory(rosters).restore(roster, expected, version)
        except StaleVersion as stale:
            # Said by app/refusals.py's table, with the version this writer sent.
            raise StaleVersion(stale.current, expected) from None
        response.headers["ETag"] = f'"{roster.version}"'
        return roster_out(roster, document)
