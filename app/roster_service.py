"""What may be done to a stored roster, for the JSON API and the pages alike: authorize,
create, replace, append an entry, delete, share.

Rules live here once; each edge maps the domain errors below to its own answer
(problem+json for programs, a French page for people).
"""

import hashlib
import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.hooks import DocumentT, counted, may_leave_out
from app.roster_history import book_version, changes, points_of
from app.store import carnets as carnet_store
from app.store import rosters as store
from app.store.history import Kept
from app.store.models import Roster, Share, as_utc
from app.systems.base import AnySystem, RosterResult, RosterSummary

__all__ = [
    "NoSuchRoster",
    "Refusal",
    "RosterService",
    "StaleVersion",
    "StoredRosterInvalid",
    "TokenMissing",
    "TokenRefused",
    "TooLarge",
    "UnstorableText",
    "WrongSystem",
    "card",
    "check",
    "frozen_share",
    "snapshot",
]

# What one roster and one share may weigh, as UTF-8 JSON. A 200-entry list of custom No
# Limits units weighs about 200 kB; its share (document, validation, summary) about 5 times
# that. Bigger ones are refused rather than stored (storage amplification).
ROSTER_MAX_BYTES = 512 * 1024
SNAPSHOT_MAX_BYTES = 4 * 1024 * 1024

# A write retried this many times when another writer got in first (append only: a
# replacement must be based on what its author read, so it is refused instead).
APPEND_ATTEMPTS = 3


class Refusal(Exception):
    """A request that cannot be carried out, and why: the base of every refusal (rosters,
    carnets, books, campaigns); app/refusals.py says how each edge answers each kind."""


class NoSuchRoster(Refusal):
    pass


class TokenMissing(Refusal):
    """No edit token came with the request: drafts are private."""


class TokenRefused(Refusal):
    """An edit token came, and it is not this roster's."""


class WrongSystem(Refusal):
    def __init__(self, system: str) -> None:
        self.system = system
        super().__init__(f"this roster is a {system!r} roster")


class TooLarge(Refusal):
    def __init__(self, what: str, size: int, limit: int) -> None:
        self.what, self.size, self.limit = what, size, limit
        super().__init__(f"{what} weighs {size} bytes, more than {limit}")


class UnstorableText(Refusal):
    """Text that cannot be stored: a lone surrogate (not UTF-8, from a crafted form) or a
    U+0000, which PostgreSQL refuses in a JSON document (an army book's unit definition is
    kept as sent, even invalid, so no model pattern stands in the way)."""


class StaleVersion(Refusal):
    """Another writer got in first: the roster is at version `current` now."""

    def __init__(self, current: int, expected: int | None = None) -> None:
        self.current = current
        self.expected = expected  # the version the writer sent, when the refusal says it
        super().__init__(f"current version is {current}")


class StoredRosterInvalid(Refusal):
    """The stored document no longer parses under today's catalogue (a unit left it)."""

    def __init__(self, error: ValidationError) -> None:
        self.error = error
        super().__init__(str(error))


# The last document each thread checked, with its result: a save stores the list's card and
# the editor then shows the same parsed document, validated once (a strong reference to one
# document per thread; parsed documents are not changed once made).
_last_checked = threading.local()


def check(system: AnySystem, document: BaseModel) -> tuple[RosterResult[Any, Any], RosterSummary]:
    last = getattr(_last_checked, "value", None)
    if last is not None and last[0] is document and last[1] is system:
        return last[2]  # type: ignore[no-any-return]
    result = system.validate(document)
    checked = result, system.summarize(document, result)
    _last_checked.value = (document, system, checked)
    return checked


# A library card shows a system without points by its first totals (figures, Rep...).
HEADLINE_TOTALS = 2


def card(system: AnySystem, document: BaseModel | None) -> dict[str, Any]:
    """What « Mes listes » shows of a list, stored with it at each save so that a library
    view reads it instead of validating every list: points first (the format a list is
    built to), or the first totals of a system without points; the validity; the catalogue
    version it was computed with. `document` None: the stored list no longer parses."""
    if document is None:
        return {"catalogue_version": system.catalogue_version, "valid": False, "stale": True}
    result, summary = check(system, document)
    budgets = sorted(summary.budgets, key=lambda budget: budget.id != "points")
    return {
        "catalogue_version": system.catalogue_version,
        "valid": result.valid,
        "budgets": [budget.model_dump(mode="json") for budget in budgets],
        "totals": []
        if budgets
        else [t.model_dump(mode="json") for t in summary.totals[:HEADLINE_TOTALS]],
    }


# json.dumps writes U+0000 as \u0000; an even run of backslashes before it is text.
ESCAPED_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def encoded(value: Any, what: str, limit: int) -> bytes:
    """`value` as the canonical UTF-8 JSON that is stored, within `limit` bytes (keys
    sorted: a share's etag is its hash)."""
    return checked_json(json.dumps(value, sort_keys=True, ensure_ascii=False), what, limit)[1]


def stored_json(value: Any, what: str, limit: int) -> str:
    """`value` as the JSON text a roster is stored as (keys in the document's order, as
    json.dumps writes it), within `limit` bytes: the database is given this text, not
    the document to serialize a second time (issue 19: a save's CPU)."""
    return checked_json(json.dumps(value, ensure_ascii=False), what, limit)[0]


def checked_json(text: str, what: str, limit: int) -> tuple[str, bytes]:
    """`text` and its UTF-8 bytes; UnstorableText when it holds what no database stores
    (a lone surrogate, U+0000), TooLarge past `limit` bytes."""
    try:
        data = text.encode()
    except UnicodeEncodeError:
        raise UnstorableText(what) from None
    if "\\u0000" in text and ESCAPED_NUL.search(text):
        raise UnstorableText(what)
    if len(data) > limit:
        raise TooLarge(what, len(data), limit)
    return text, data


def snapshot(system: AnySystem, document: BaseModel) -> dict[str, Any]:
    """What a share freezes: the document, its validation and its summary."""
    result, summary = check(system, document)
    return {
        "system": system.id,
        "catalogue_version": system.catalogue_version,
        "roster": document.model_dump(mode="json"),
        "validation": result.model_dump(mode="json"),
        "summary": summary.model_dump(mode="json"),
    }


def frozen_share(
    system: AnySystem, content: dict[str, Any], limit: int | None = None
) -> store.Frozen:
    """A share of `content` (a `snapshot`, and what a feature adds to it) built with
    `system`'s catalogue; its etag, the hash of its canonical JSON. TooLarge past `limit`
    (SNAPSHOT_MAX_BYTES unless said)."""
    bound = SNAPSHOT_MAX_BYTES if limit is None else limit
    etag = hashlib.sha256(encoded(content, "share", bound)).hexdigest()[:32]
    return store.Frozen(system.id, system.catalogue_version, content, etag)


def entries_changed(
    document: dict[str, Any], change: Callable[[list[Any]], list[Any]]
) -> dict[str, Any]:
    return {**document, "entries": change(list(document.get("entries", [])))}


@dataclass
class RosterService:
    session: Session
    systems: Mapping[str, AnySystem]
    # Where its saves come from, as each kept version says: "page", "api", "file"...
    origin: str = "page"

    def system(self, roster: Roster) -> AnySystem:
        return self.systems[roster.system]

    def get(self, roster_id: str) -> Roster:
        """The roster of a system this app serves; NoSuchRoster otherwise."""
        roster = store.get_roster(session=self.session, roster_id=roster_id[:64])
        if roster is None or roster.system not in self.systems:
            raise NoSuchRoster(roster_id)
        return roster

    def token_is_its_own(self, roster: Roster, token: str | None) -> bool:
        """Whether `token` is the roster's edit token (not a carnet's key)."""
        return store.token_matches(roster, token)

    def authorize(self, roster_id: str, token: str | None) -> Roster:
        """The roster, when `token` is its edit token or the key of a carnet holding it."""
        roster = self.get(roster_id)
        if token is None:
            raise TokenMissing(roster_id)
        if not store.token_matches(roster, token) and not carnet_store.roster_in_carnet_with_key(
            session=self.session, roster_id=roster_id, key=token
        ):
            raise TokenRefused(roster_id)
        return roster

    def document(self, roster: Roster) -> BaseModel:
        """The stored document, parsed under today's catalogue."""
        model: type[BaseModel] = self.system(roster).roster_model
        try:
            return model.model_validate(roster.document)
        except ValidationError as exc:
            raise StoredRosterInvalid(exc) from None

    def counted(self, roster: Roster, document: DocumentT) -> DocumentT:
        """What every total counts of `document`: without the entries a feature takes out
        of them (app/hooks.py: a gang's dead and retired fighters)."""
        return counted(self.session, roster, document)

    def create(self, document: BaseModel, summary: str = "Liste créée") -> tuple[Roster, str]:
        """Stores a parsed document; returns the roster and its edit token (shown once).
        Its first kept version says `summary`."""
        stored = document.model_dump(mode="json")
        text = stored_json(stored, "roster", ROSTER_MAX_BYTES)
        made = card(self.systems[stored["system"]], document)
        return store.create_roster(
            session=self.session,
            system=stored["system"],
            name=stored.get("name", ""),
            document=stored,
            card=made,
            history=Kept([summary], None, points_of(made), self.origin, text),
        )

    def kept(
        self,
        roster: Roster,
        stored: dict[str, Any],
        text: str,
        checked: tuple[BaseModel, BaseModel, dict[str, Any]],
        heading: str | None = None,
    ) -> Kept | None:
        """The version a save of `stored` (as JSON `text`) keeps: what changed since the
        stored document, in a player's words; None for a save that changes nothing.
        `checked`: the document, what its totals count, and its card."""
        if heading is None and stored == roster.document:
            return None
        document, counted_as, made = checked
        system = self.system(roster)
        # The names the validation gives the new entries, when it validated them all (a
        # gang's dead leave what it validated: their names are then asked one by one).
        names = None
        if counted_as is document:
            names = [entry.name for entry in check(system, document)[0].entries]
        before = roster.document
        said = changes(system, before, stored, names=names, book=book_version(self.session))
        summary = said.lines if heading is None else [heading, *said.lines]
        counts = said.counts if heading is None else None
        return Kept(summary, counts, points_of(made), self.origin, text)

    def replace(
        self,
        roster: Roster,
        expected_version: int,
        document: BaseModel,
        counted_as: BaseModel | None = None,
        heading: str | None = None,
    ) -> Roster:
        """Compare-and-swap: StaleVersion when the roster moved on since `expected_version`.
        `counted_as`: what its totals count, when the caller knows it (else the features
        registered in app/hooks.py say: a gang's dead and retired fighters leave them).
        The save is kept as a version (none for a save that changes nothing), its summary
        headed by `heading` when given (« Version 3 rétablie »)."""
        stored = document.model_dump(mode="json")
        if stored["system"] != roster.system:
            raise WrongSystem(roster.system)
        text = stored_json(stored, "roster", ROSTER_MAX_BYTES)
        if counted_as is None:
            # A list none of whose entries may leave its totals (hooks: no fighter of a gang)
            # counts whole, without asking the features (a query each, issue 29).
            leaving = may_leave_out(stored)
            counted_as = counted(self.session, roster, document) if leaving else document
        # What leaves every total (a gang's dead) leaves the library's totals too.
        made = card(self.system(roster), counted_as)
        try:
            return store.update_roster(
                session=self.session,
                roster=roster,
                expected_version=expected_version,
                name=stored.get("name", ""),
                document=stored,
                document_json=text,
                card=made,
                history=self.kept(roster, stored, text, (document, counted_as, made), heading),
            )
        except store.StaleVersion as stale:
            raise StaleVersion(stale.current) from None

    def append_entry(self, roster: Roster, entry: dict[str, Any]) -> Roster:
        """Adds one entry, retrying when another writer got in first. ValidationError when
        the entry does not fit the system's document (nothing is stored then)."""
        return self.edit(roster, lambda document: entries_changed(document, lambda e: [*e, entry]))

    def replace_entry(self, roster: Roster, index: int, entry: dict[str, Any]) -> Roster:
        """Puts `entry` in place of the entry at `index` (the creator saving a row it
        reopened), retrying when another writer got in first. IndexError when the list has
        no such entry (any more); ValidationError when the entry does not fit the document."""

        def replaced(entries: list[Any]) -> list[Any]:
            if not 0 <= index < len(entries):
                raise IndexError(index)
            # The row keeps its stable id: the fighter's ledger follows him.
            old = entries[index]
            kept = {"id": old["id"]} if isinstance(old, dict) and "id" in old else {}
            return [*entries[:index], {**entry, **kept}, *entries[index + 1 :]]

        return self.edit(roster, lambda document: entries_changed(document, replaced))

    def edit(self, roster: Roster, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Roster:
        """The roster with `change` applied to its document as stored now (a copy: `change`
        returns the new document), validated: a write that lost the race is done again on
        what won it, APPEND_ATTEMPTS times at most. Every page that changes a list in one
        step (an add, a creator's row, a rename) goes through here; `change` may raise to
        refuse (ValidationError, IndexError...), and nothing is stored then."""
        model = self.system(roster).roster_model
        for attempt in range(APPEND_ATTEMPTS):
            document = change(dict(roster.document))
            try:
                return self.replace(roster, roster.version, model.model_validate(document))
            except StaleVersion:
                if attempt == APPEND_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def delete(self, roster: Roster) -> None:
        store.delete_roster(session=self.session, roster=roster)

    def shared(self, roster: Roster) -> tuple[store.LastShare, bool] | None:
        """The roster's last share and whether it still shows the list as stored (same
        document, same catalogue), or None when it was never shared. A list unchanged since
        is told without reading the snapshot."""
        last = store.latest_share(session=self.session, roster_id=roster.id)
        if last is None:
            return None
        if as_utc(roster.updated_at) <= as_utc(last.created_at):
            return last, True
        if last.catalogue_version != self.system(roster).catalogue_version:
            return last, False
        frozen = store.get_share(session=self.session, code=last.code)
        return last, frozen is not None and frozen.snapshot.get("roster") == roster.document

    def share(self, roster: Roster, document: BaseModel | None = None) -> tuple[Share, bool]:
        """An immutable snapshot pinned to the catalogue version it was built with, and
        whether it is new: an unchanged roster keeps its last share (same code)."""
        system = self.system(roster)
        made = frozen_share(
            system, snapshot(system, document if document is not None else self.document(roster))
        )
        existing = store.find_share(session=self.session, roster_id=roster.id, etag=made.etag)
        if existing is not None:
            return existing, False
        share = store.create_share(session=self.session, roster_id=roster.id, frozen=made)
        return share, True
