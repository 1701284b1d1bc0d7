"""Reading and writing a list's kept versions (issue 30, « Every save kept »;
docs/history.md). A version is written in the transaction of the save that made it (the
roster's compare-and-swap), so that a list and its history never disagree.

Bounds, where versions enter: a save that only changed counts, made within
COALESCE_SECONDS of the list's previous such save, is merged into that version (its
version number and document become the new ones, its summary says both changes as one:
« Jaffa 2 → 4 »); a list keeps the versions among its last HISTORY_SAVES saves (older ones
are deleted by the save that passes the bound); `caserne prune` removes versions older than
its `--history-days`, but those among a list's last HISTORY_KEPT saves, and the versions of
a list that is gone (not in the trash either: a list deleted from the pages comes back from
there with its versions; app/store/trash.py).
"""

import functools
import zlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, NamedTuple

from sqlalchemy import (
    DateTime,
    Delete,
    Insert,
    Integer,
    LargeBinary,
    Select,
    String,
    Update,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    not_,
    or_,
    select,
    tuple_,
    update,
)
from sqlmodel import Session

from app.db import count_bytes
from app.store import no_row_has, table_of
from app.store.compressed import LEVEL
from app.store.listed import list_kept
from app.store.models import JsonDocument, Roster, RosterVersion, as_utc

# A list keeps the versions among its last HISTORY_SAVES saves.
HISTORY_SAVES = 100
# Count changes this close to the list's previous count change merge into its version.
COALESCE_SECONDS = 300
# `caserne prune` never removes the versions among a list's last HISTORY_KEPT saves.
HISTORY_KEPT = 10

_VERSIONS = table_of(RosterVersion)


@dataclass(frozen=True)
class Kept:
    """A version to keep with a save: what changed (`summary`), the counts it changed when
    it changed nothing else (`counts`: place → [label, before, after]), the list's points,
    where the save came from, and the document as the JSON text stored."""

    summary: list[str]
    counts: dict[str, list[Any]] | None
    points: int | None
    origin: str
    document_json: str


def count_lines(counts: dict[str, list[Any]]) -> list[str]:
    """« Jaffa 2 → 3 », one line per entry whose count changed, in the list's order."""
    ordered = sorted(counts.items(), key=lambda item: int(item[0]) if item[0].isdigit() else 0)
    return [f"{label} {before} → {after}" for _key, (label, before, after) in ordered]


def merged_counts(
    earlier: dict[str, list[Any]], later: dict[str, list[Any]]
) -> dict[str, list[Any]]:
    """Two count changes as one: each entry from its first count to its last (an entry back
    at its first count is no change)."""
    out = {key: list(value) for key, value in earlier.items()}
    for key, (label, before, after) in later.items():
        first = out[key][1] if key in out else before
        out[key] = [label, first, after]
    return {key: value for key, value in out.items() if value[1] != value[2]}


def keep(*, session: Session, roster_id: str, version: int, kept: Kept, stamp: datetime) -> None:
    """Writes `kept` as version `version` of the list, in the caller's transaction (the
    caller commits): merged into the previous version when both changed counts only within
    COALESCE_SECONDS, and the versions past the list's last HISTORY_SAVES saves deleted."""
    document = count_bytes(zlib.compress(kept.document_json.encode(), LEVEL))
    values = {
        "b_roster_id": roster_id,
        "b_version": version,
        "b_saved_at": stamp,
        "b_document": document,
        "b_points": kept.points,
        "b_summary": kept.summary,
        "b_counts": kept.counts,
        "b_origin": kept.origin,
    }
    if kept.counts is not None:
        prior = session.execute(
            _PRIOR_COUNTS, {"b_roster_id": roster_id, "b_version": version - 1}
        ).first()
        if prior is not None and prior[0] is not None:
            recent = as_utc(stamp) - as_utc(prior[1]) < timedelta(seconds=COALESCE_SECONDS)
            if recent:
                counts = merged_counts(prior[0], kept.counts)
                summary = count_lines(counts) or ["Nombres revenus à ceux d'avant"]
                merged = {**values, "b_counts": counts, "b_summary": summary}
                session.execute(_MERGE, {**merged, "b_prior": version - 1})
                return
    session.execute(_INSERT, values)
    if version > HISTORY_SAVES:
        session.execute(_TRIM, {"b_roster_id": roster_id, "b_oldest": version - HISTORY_SAVES})


def _params() -> dict[str, Any]:
    return {
        "roster_id": bindparam("b_roster_id", type_=String),
        "version": bindparam("b_version", type_=Integer),
        "saved_at": bindparam("b_saved_at", type_=DateTime(timezone=True)),
        # Compressed by `keep` from the JSON text the save has already (no second dump).
        "document": bindparam("b_document", type_=LargeBinary),
        "points": bindparam("b_points", type_=Integer),
        "summary": bindparam("b_summary", type_=JsonDocument),
        "counts": bindparam("b_counts", type_=JsonDocument),
        "origin": bindparam("b_origin", type_=String),
    }


@functools.cache
def _statements() -> tuple[Select[Any], Insert, Update, Delete]:
    table = _VERSIONS
    roster_id = bindparam("b_roster_id", type_=String)
    prior = select(table.c.counts, table.c.saved_at).where(
        table.c.roster_id == roster_id, table.c.version == bindparam("b_version", type_=Integer)
    )
    params = _params()
    merge = (
        update(table)
        .where(
            table.c.roster_id == roster_id, table.c.version == bindparam("b_prior", type_=Integer)
        )
        .values({k: v for k, v in params.items() if k != "roster_id"})
    )
    trim = delete(table).where(
        table.c.roster_id == roster_id,
        table.c.version <= bindparam("b_oldest", type_=Integer),
    )
    return prior, insert(table).values(params), merge, trim


_PRIOR_COUNTS, _INSERT, _MERGE, _TRIM = _statements()


class Listed(NamedTuple):
    """A version as the history lists it (its document is not read)."""

    version: int
    saved_at: datetime
    points: int | None
    summary: list[str]
    origin: str


def listed(
    *, session: Session, roster_id: str, offset: int = 0, limit: int = HISTORY_SAVES
) -> tuple[list[Listed], int]:
    """A page of the list's versions, newest first, and how many it keeps: two queries, no
    document read."""
    table = _VERSIONS
    query = (
        select(table.c.version, table.c.saved_at, table.c.points, table.c.summary, table.c.origin)
        .where(table.c.roster_id == roster_id)
        .order_by(table.c.version.desc())
        .offset(offset)
        .limit(limit)
    )
    total = session.execute(
        select(func.count()).select_from(table).where(table.c.roster_id == roster_id)
    ).scalar_one()
    return [Listed(*row) for row in session.execute(query).all()], int(total)


def get_version(*, session: Session, roster_id: str, version: int) -> RosterVersion | None:
    """One kept version, its document included; None when the list keeps no such version."""
    if no_row_has(roster_id) or not 0 < version < 2**31:
        return None
    return session.get(RosterVersion, (roster_id, version))


# --- `caserne prune` (docs/history.md) ------------------------------------------------------

DEFAULT_HISTORY_DAYS = 365
PRUNE_BATCH = 500


@dataclass(frozen=True)
class VersionsReport:
    """What `caserne prune` found of the kept versions (dry run) or removed (`applied`)."""

    days: int
    cutoff: date
    applied: bool
    versions: int  # every kept version before the run
    removable: int
    removable_bytes: int  # what their documents weigh as stored
    removed: int  # 0 on a dry run

    def lines(self) -> list[str]:
        verb = "removed" if self.applied else "would remove"
        count = self.removed if self.applied else self.removable
        return [
            f"caserne prune: {self.versions} list versions; saved before "
            f"{self.cutoff.isoformat()} ({self.days} days), not among their list's last "
            f"{HISTORY_KEPT} saves nor its newest, or of a deleted list: {self.removable}",
            f"  their documents as stored: {self.removable_bytes} bytes",
            f"{verb}: {count} list versions"
            + ("" if self.applied else " (dry run: nothing removed; --apply removes)"),
        ]


def _removable(cutoff: date) -> Any:
    """Versions saved before `cutoff`, older than their list's last HISTORY_KEPT saves and
    than its newest kept version; and every version of a list that is gone (neither a list
    nor waiting in the trash to be restored)."""
    table, newer = _VERSIONS, _VERSIONS.alias("newer")
    rosters = table_of(Roster)
    current = select(rosters.c.version).where(rosters.c.id == table.c.roster_id)
    newest = select(func.max(newer.c.version)).where(newer.c.roster_id == table.c.roster_id)
    since = datetime.combine(cutoff, time(0), tzinfo=UTC)
    old = and_(
        table.c.saved_at < since,
        table.c.version <= current.scalar_subquery() - HISTORY_KEPT,
        table.c.version < newest.scalar_subquery(),
    )
    return or_(old, not_(list_kept(table.c.roster_id)))


def prune_versions(
    *, session: Session, days: int = DEFAULT_HISTORY_DAYS, apply: bool = False, on: date
) -> VersionsReport:
    """The report of the versions the policy removes on `on`; with `apply`, removes them,
    PRUNE_BATCH a transaction."""
    cutoff = on - timedelta(days=days)
    table = _VERSIONS
    removable = _removable(cutoff)
    counts = session.execute(
        select(
            func.count(),
            func.sum(case((removable, 1), else_=0)),
            func.sum(case((removable, func.length(table.c.document)), else_=0)),
        ).select_from(table)
    ).one()
    removed = 0
    if apply:
        batch = (
            select(table.c.roster_id, table.c.version)
            .where(removable)
            .order_by(table.c.roster_id, table.c.version)
            .limit(PRUNE_BATCH)
        )
        while keys := [tuple(row) for row in session.execute(batch).all()]:
            session.execute(
                delete(table).where(tuple_(table.c.roster_id, table.c.version).in_(keys))
            )
            session.commit()
            removed += len(keys)
    session.commit()
    found = [int(figure or 0) for figure in counts]
    return VersionsReport(days, cutoff, apply, found[0], found[1], found[2], removed)
