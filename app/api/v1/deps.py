"""Who may act through the API: a roster's edit token or its carnet's key, a carnet's key,
both sent as `Authorization: Bearer ...` — as Annotated dependencies (`EditableRoster`,
`CarnetDep`). Refusals rise as the services' exceptions; app/refusals.py answers them.
Plain `def`: FastAPI runs them in its thread pool, never on the event loop."""

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response

from app.carnet_service import CarnetService
from app.db import SessionDep
from app.deps import Carnets, Rosters
from app.problems import ApiError, Problem
from app.roster_service import RosterService
from app.store.models import Carnet, Roster


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


Authorization = Annotated[str | None, Header(description="Bearer <edit token or carnet key>")]


def _roster(
    roster_id: str, request: Request, session: SessionDep, authorization: Authorization = None
) -> Roster:
    service = RosterService(session, request.app.state.systems)
    return service.authorize(roster_id, bearer(authorization))


def _carnet(carnet_id: str, session: SessionDep, authorization: Authorization = None) -> Carnet:
    return CarnetService(session).open(carnet_id, bearer(authorization))


EditableRoster = Annotated[Roster, Depends(_roster)]
CarnetDep = Annotated[Carnet, Depends(_carnet)]


def told(*answers: tuple[int, str]) -> dict[int | str, dict[str, Any]]:
    """A route's problem answers for its OpenAPI `responses`: each status, what it means."""
    return {status: {"model": Problem, "description": text} for status, text in answers}


AUTH_PROBLEMS = told((401, "No edit token."), (403, "Wrong edit token."), (404, "No such roster."))
TOO_HEAVY: dict[str, Any] = {"model": Problem, "description": "Too heavy: nothing stored."}
# A document stored from the body (a roster, a book): too heavy to keep, or invalid.
BODY_PROBLEMS: dict[int | str, dict[str, Any]] = {413: TOO_HEAVY, 422: {"model": Problem}}
# A replacement under If-Match (books): the answers its version check gives.
IF_MATCH_PROBLEMS = told((409, "Stale version: nothing changed."), (428, "If-Match missing."))

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


# What caches may keep: nothing of an answer that carries a secret (an edit token, a carnet
# key); a private copy of one read with a secret.
NO_STORE = "no-store"
PRIVATE = "private, no-store"


def entity_tag(version: int) -> str:
    """A version as the ETag the API sends, the one If-Match takes back (VERSION_PATTERN)."""
    return f'"{version}"'


def headed(
    response: Response,
    *,
    version: int | None = None,
    location: str | None = None,
    cache: str | None = None,
) -> None:
    """Sets what an answer says beside its body: the version read or written (`ETag`), the
    path of what it created (`Location`), what caches may keep (`Cache-Control`)."""
    if version is not None:
        response.headers["ETag"] = entity_tag(version)
    if location is not None:
        response.headers["Location"] = location
    if cache is not None:
        response.headers["Cache-Control"] = cache


@dataclass(frozen=True)
class IfMatch:
    """The `If-Match` a writer sent (None: none). Read by `version()` in the route, once the
    resource and the body passed: a missing header is a 428, a weak tag a 412."""

    sent: str | None

    def version(self, current: int) -> int:
        """The version the writer read (`current` for `*`)."""
        return parse_version(self.sent, current)


def _if_match(
    # Typed `str`, not optional: the OpenAPI document says it is required (app/openapi.py);
    # its absence is a 428 (`IfMatch.version`), never a null.
    if_match: str = Header(
        None, pattern=VERSION_PATTERN, description='The version read, e.g. "3".'
    ),
) -> IfMatch:
    return IfMatch(if_match)


# The If-Match of every replace (rosters, books, a roster's book updates).
IfMatchDep = Annotated[IfMatch, Depends(_if_match)]

__all__ = [
    "AUTH_PROBLEMS",
    "NO_STORE",
    "PRIVATE",
    "VERSION_PATTERN",
    "CarnetDep",
    "Carnets",
    "EditableRoster",
    "IfMatch",
    "IfMatchDep",
    "Rosters",
    "bearer",
    "entity_tag",
    "headed",
    "parse_version",
]
