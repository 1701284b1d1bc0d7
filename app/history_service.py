"""A list's kept versions (issue 30, « Every save kept »; docs/history.md), for the JSON API
and the pages alike: list them, open one, restore one (a new save: nothing is lost), compare
two. Every save keeps its version through RosterService.replace; the store bounds them
(app/store/history.py)."""

from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from app.roster_history import Change, changes
from app.roster_service import RosterError, RosterService, StoredRosterInvalid
from app.store import history as store
from app.store.models import Roster, RosterVersion

__all__ = ["NoSuchVersion", "RosterHistory"]


class NoSuchVersion(RosterError):
    """The list keeps no such version (never saved, or no longer kept: docs/history.md)."""


@dataclass
class RosterHistory:
    rosters: RosterService

    def versions(
        self, roster: Roster, offset: int = 0, limit: int = store.HISTORY_SAVES
    ) -> tuple[list[store.Listed], int]:
        """A page of the list's kept versions, newest first, and how many it keeps."""
        return store.listed(
            session=self.rosters.session, roster_id=roster.id, offset=offset, limit=limit
        )

    def version(self, roster: Roster, version: int) -> RosterVersion:
        """One kept version (its document as that save left it); NoSuchVersion otherwise."""
        found = store.get_version(
            session=self.rosters.session, roster_id=roster.id, version=version
        )
        if found is None:
            raise NoSuchVersion(f"{roster.id} v{version}")
        return found

    def document(self, roster: Roster, kept: RosterVersion) -> BaseModel:
        """A kept version's document, parsed under today's catalogue."""
        model: type[BaseModel] = self.rosters.system(roster).roster_model
        try:
            return model.model_validate(kept.document)
        except ValidationError as exc:
            raise StoredRosterInvalid(exc) from None

    def restore(
        self, roster: Roster, expected_version: int, version: int
    ) -> tuple[Roster, BaseModel]:
        """A new save whose document is version `version`'s: nothing is lost (the versions
        since stay kept); the roster and that document. NoSuchVersion, StaleVersion,
        StoredRosterInvalid refuse it."""
        document = self.document(roster, self.version(roster, version))
        heading = f"Version {version} rétablie"
        return self.rosters.replace(roster, expected_version, document, heading=heading), document

    def compare(self, roster: Roster, older: RosterVersion, newer: RosterVersion) -> Change:
        """What changed from one kept version to another, in the summary's words."""
        system = self.rosters.system(roster)
        return changes(system, older.document, newer.document, names=None)
