"""What the API and the pages do alike with a roster document: check it, snapshot it."""

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.store import rosters as store
from app.store.models import Share
from app.systems.base import GameSystem, RosterResult, RosterSummary


def check(system: GameSystem, document: BaseModel) -> tuple[RosterResult[Any, Any], RosterSummary]:
    result = system.validate(document)
    return result, system.summarize(document, result)


def parse_stored(system: GameSystem, document: dict[str, Any]) -> BaseModel | ValidationError:
    """A stored document under today's catalogue (a unit may have left it since)."""
    try:
        return system.roster_model.model_validate(document)
    except ValidationError as exc:
        return exc


def snapshot(system: GameSystem, document: BaseModel) -> dict[str, Any]:
    result, summary = check(system, document)
    return {
        "system": system.id,
        "catalogue_version": system.catalogue_version,
        "roster": document.model_dump(mode="json"),
        "validation": result.model_dump(mode="json"),
        "summary": summary.model_dump(mode="json"),
    }


def share_roster(
    *, session: Session, system: GameSystem, roster_id: str | None, document: BaseModel
) -> Share:
    """An immutable snapshot pinned to the catalogue version it was built with."""
    frozen = snapshot(system, document)
    canonical = json.dumps(frozen, sort_keys=True, ensure_ascii=False).encode()
    return store.create_share(
        session=session,
        roster_id=roster_id,
        system=system.id,
        catalogue_version=system.catalogue_version,
        snapshot=frozen,
        etag=hashlib.sha256(canonical).hexdigest()[:32],
    )
