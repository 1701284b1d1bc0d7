"""A gang's fighters as its ledger leaves them, for every page and route that counts a list.

Ledger lines name fighters by the entry's stable `id` (app/systems/inputs.py ENTRY_ID), so
that reordering or removing entries after a battle keeps each fighter's history: a line is
read against the document as it is now, its fighters placed where their entries stand
today. A fighter whose entry was removed stays in the ledger (history, XP gained, fighters
lost) and is counted nowhere else.

`install()` (app start-up) tells the roster core, through app/hooks.py, that the fighters a
ledger says are dead or retired leave every total: the core, the editor, the share, the API
and the mode partie count a list through `hooks.counted` and never read a ledger."""

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlmodel import Session

from app import hooks
from app.campaigns import ledger
from app.campaigns.ledger import FighterOutcome, Line, StatChange
from app.store import campaigns as store
from app.store.campaign_reads import LedgerRow, OwnLine
from app.store.models import Battle, Roster

DocumentT = TypeVar("DocumentT", bound=BaseModel)


def positions(document: Mapping[str, Any]) -> dict[str, int]:
    """Stable id → where the entry stands in the document now."""
    where: dict[str, int] = {}
    for index, entry in enumerate(document.get("entries", [])):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            where.setdefault(entry["id"], index)
    return where


def with_ids(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document with a stable id on every entry that has none (a copy of the top level
    and of the entries that change)."""
    taken = set(positions(document))
    entries = []
    for entry in document.get("entries", []):
        if isinstance(entry, dict) and not isinstance(entry.get("id"), str):
            fresh = secrets.token_hex(4)
            while fresh in taken:
                fresh = secrets.token_hex(4)
            taken.add(fresh)
            entry = {**entry, "id": fresh}
        entries.append(entry)
    return {**document, "entries": entries}


# A stored line as a ledger reads it: a Battle, or the standings' plain row of a line with
# its fighters (app/store/campaign_reads.py).
StoredLine = Battle | LedgerRow | OwnLine


def as_line(row: StoredLine, where: dict[str, int], size: int) -> Line:
    """A stored line with its fighters at their entries' places today. A fighter whose
    entry is gone gets a place of its own past the end (`where` grows; ledger functions
    leave those places out of the list); a line stored before entries had ids keeps its
    index (migration 0005 gave ids to every stored line)."""
    fighters = []
    for f in row.fighters:
        fighter_id = f.get("id")
        if fighter_id is None:
            index = int(f["entry"])
        else:
            index = where.setdefault(str(fighter_id), size + len(where))
        fighters.append(
            FighterOutcome(
                entry=index,
                xp=f.get("xp", 0),
                changes=tuple(
                    StatChange(c["stat"], c["by"], c["cause"]) for c in f.get("changes", [])
                ),
                rep=f.get("rep"),
                state=f.get("state"),
                count=f.get("count") if isinstance(f.get("count"), int) else None,
            )
        )
    return Line(
        battle=row.number,
        result=row.result,
        fighters=tuple(fighters),
        points=row.points,
        corrects=row.corrects,
        campaign=row.campaign_id,
        opponent_roster=row.opponent_roster_id,
        recruits=len(row.recruits),
        counted=counts(row.verdict, row.voided_at is not None, row.confirms_id),
        voided=row.voided_at is not None,
    )


def counts(verdict: str | None, voided: bool, confirms_id: int | None) -> bool:
    """Whether a line counts in the standings: not voided by the organiser, not disputed by
    the gang it names, and no line recording again the other gang's (that one counts)."""
    return not voided and verdict != "disputed" and confirms_id is None


def lines_of(rows: Sequence[StoredLine], document: Mapping[str, Any]) -> list[Line]:
    where, size = positions(document), len(document.get("entries", []))
    return [as_line(row, where, max(size, 1_000_000)) for row in rows]


def fighter_states(rows: Sequence[StoredLine], document: Mapping[str, Any]) -> list[str]:
    """Each entry's state (by its place in `document`) after the ledger `rows`."""
    size = len(document.get("entries", []))
    return ledger.states_after(lines_of(rows, document), size)


def counted(
    session: Session, roster: Roster, document: DocumentT, rows: Sequence[Battle] | None = None
) -> DocumentT:
    """What every total counts: the document without the fighters its ledger says are dead
    or retired (api-v1.md « Campaigns »); the document itself when none is. `rows`: the
    ledger when the caller read it already."""
    rows = store.ledger(session=session, roster_id=roster.id) if rows is None else rows
    if not rows:
        return document
    dumped = document.model_dump(mode="json")
    return without_gone(document, fighter_states(rows, dumped), dumped)


def without_gone(
    document: DocumentT, states: Sequence[str], dumped: dict[str, Any] | None = None
) -> DocumentT:
    """The document without the entries whose `states` are dead or retired (itself when
    none is); `dumped`: its JSON, when the caller has it."""
    if not any(state in ledger.GONE for state in states):
        return document
    dumped = document.model_dump(mode="json") if dumped is None else dumped
    return type(document).model_validate(ledger.active_document(dumped, states))


def has_fighter_ids(document: Mapping[str, Any]) -> bool:
    """Whether any entry has a stable id: only a list that recorded a battle has (its ledger
    lines name fighters by these ids), so a list without one has no fighter dead or retired
    and its totals count every entry, without reading a ledger."""
    return any(isinstance(e, dict) and "id" in e for e in document.get("entries", []))


def gone(rows: Sequence[Battle], document: Mapping[str, Any]) -> list[str | None]:
    """Each entry's state when its ledger `rows` say it is dead or retired, else None (what
    the editor shows)."""
    states = fighter_states(rows, document) if rows else []
    size = len(document.get("entries", []))
    return [s if s in ledger.GONE else None for s in states][:size] + [None] * (size - len(states))


def left_out(
    session: Session, roster: Roster, document: BaseModel | Mapping[str, Any]
) -> list[str | None]:
    """Each entry's state when the roster's ledger says it is dead or retired, else None
    (no line: nothing, without looking at the document)."""
    rows = store.ledger(session=session, roster_id=roster.id)
    if not rows:
        return []
    dumped = document.model_dump(mode="json") if isinstance(document, BaseModel) else document
    return gone(rows, dumped)


# What the totals of a gang leave out: its dead and retired fighters (api-v1.md « Campaigns »).
TOTALS = hooks.TotalsHook(left_out=left_out, may_leave=has_fighter_ids)


def install() -> None:
    """At app start-up: the campaign feature's say on every list's totals."""
    hooks.register_totals(TOTALS)
