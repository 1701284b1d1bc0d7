"""A gang's ledger as api-v1's `list_battles` gives it (and the gang pages show it): this
gang's own lines, and those other gangs of a campaign recorded against it, their result
turned as their corrections say."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlmodel import Session

from app.campaigns import ledger
from app.campaigns.ledger import Line
from app.store import campaign_reads as reads
from app.store import campaigns as store
from app.store.campaign_reads import OwnLine
from app.store.models import Battle, Roster, as_utc

# A line of a gang's own ledger: as the ORM reads it, or as its pages read it (plain).
Own = Battle | OwnLine


class OwnerOf(Protocol):
    """The gang whose ledger a page shows: its id is all `ledger_page` needs of it."""

    @property
    def id(self) -> str: ...


@dataclass(frozen=True)
class Page:
    """A page of a gang's ledger as asked: its number (from 1) and its size in lines."""

    number: int
    size: int

    def pages(self, count: int) -> int:
        """How many pages `count` lines fill (at least one, maybe empty)."""
        return max(1, -(-count // self.size))

    def shown(self, count: int) -> int:
        """The page shown: the one asked, or the last when fewer lines are there."""
        return min(self.number, self.pages(count))


def battles(
    session: Session, roster: Roster, rows: Sequence[Battle], until: datetime | None, most: int
) -> list[dict[str, Any]]:
    """Oldest first. Bounded whatever others recorded: this gang's ledger `rows` (its own),
    one query for the latest `most` lines naming it with their corrections (up to `until`,
    when given), one for the recorders' names, one for the lines its own record again."""
    fixed = corrected_by(rows)
    theirs = store.mirrored(session=session, roster_id=roster.id, limit=most, until=until)
    named = [r.opponent_roster_id for r in rows if r.opponent_roster_id]
    recorders = store.names(session=session, roster_ids=[*named, *(r.roster_id for r in theirs)])
    confirmed = {row.confirms_id for row in rows if row.confirms_id is not None}
    same = store.lines_by_id(session=session, ids=confirmed)
    out = [
        (row.created_at, row.id or 0, own_line(row, roster.id, fixed, recorders, same))
        for row in rows
    ]
    out += against(theirs, recorders, confirmed)
    out.sort(key=lambda item: (as_utc(item[0]), item[1]))
    return [line for _when, _id, line in out]


def corrected_by(rows: Sequence[Own]) -> dict[int, int]:
    """Battle number → the number of the latest own line that corrects it."""
    return {row.corrects: row.number for row in rows if row.corrects is not None}


def own_line(
    row: Own,
    recorder: str,
    fixed: Mapping[int, int],
    recorders: Mapping[str, str],
    same: Mapping[int, Battle],
) -> dict[str, Any]:
    """A line of this gang's own ledger as `battles` gives it: a line naming a gang of the
    campaign and no opponent in words names that gang (`recorders`: id → name), a line
    recording again another gang's (`same`: id → that line) says which."""
    mine = line_out(row, recorder, fixed.get(row.number))
    if mine["opponent_roster"] and not mine["opponent"]:
        mine["opponent"] = recorders.get(mine["opponent_roster"], "")
    other = same.get(mine.pop("_confirms", None) or -1)
    if other is not None:
        mine["same_as"] = {"recorded_by": other.roster_id, "battle": other.number}
    return mine


def ledger_page(
    session: Session,
    roster: Roster | OwnerOf,
    rows: Sequence[Own],
    until: datetime | None,
    page: Page,
    known: Mapping[str, str] | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """One page of the gang page's ledger, newest first, and how many lines it has in all:
    its own `rows` (read already) and the lines others recorded against it (up to `until`,
    when given), as `battles` gives them. What is read past `rows` is bounded by the page,
    whatever the ledgers hold: the newest lines against it down to this page and their
    number, the corrections and names of the lines shown, the lines its own record again."""
    confirmed = {row.confirms_id for row in rows if row.confirms_id is not None}
    # Down to the page asked for: a page past the last finds them all (at most MAX_PAGE
    # pages' worth), and shows the last.
    theirs, against_it = reads.newest_against(
        session=session,
        roster_id=roster.id,
        limit=page.number * page.size,
        leave_out=confirmed,
        until=until,
    )
    count = len(rows) + against_it
    first = (page.shown(count) - 1) * page.size
    merged: list[tuple[datetime, int, Own | store.Mirrored]] = [
        *((as_utc(row.created_at), row.id or 0, row) for row in rows),
        *((as_utc(row.created_at), row.id, row) for row in theirs),
    ]
    merged.sort(key=lambda item: (item[0], item[1]), reverse=True)
    shown = [row for _when, _id, row in merged[first : first + page.size]]
    others = [row for row in shown if isinstance(row, store.Mirrored)]
    mine = [row for row in shown if not isinstance(row, store.Mirrored)]
    corrections = reads.corrections_against(
        session=session,
        roster_id=roster.id,
        lines=[(row.roster_id, row.number) for row in others],
        until=until,
    )
    named = [row.opponent_roster_id for row in mine if row.opponent_roster_id]
    wanted = {*named, *(r.roster_id for r in others)}
    recorders = {i: n for i, n in (known or {}).items() if i in wanted}
    recorders.update(store.names(session=session, roster_ids=wanted - set(recorders)))
    same = store.lines_by_id(session=session, ids={r.confirms_id for r in mine if r.confirms_id})
    fixed = corrected_by(rows)
    turned = {row_id: line for _when, row_id, line in against([*others, *corrections], recorders)}
    lines = [
        turned.get(row.id)
        if isinstance(row, store.Mirrored)
        else own_line(row, roster.id, fixed, recorders, same)
        for row in shown
    ]
    return [line for line in lines if line is not None], count


def against(
    theirs: Sequence[store.Mirrored],
    recorders: Mapping[str, str],
    confirmed: frozenset[int] | set[int] = frozenset(),
) -> list[tuple[datetime, int, dict[str, Any]]]:
    """The lines other gangs recorded against this one, as this gang reads them: their
    result turned (as their corrections leave it), their fighters not shown; a line this
    gang recorded again (`confirmed`) is shown once, as its own."""
    by_recorder: dict[str, list[Line]] = {}
    for row in theirs:
        by_recorder.setdefault(row.roster_id, []).append(
            Line(battle=row.number, result=row.result, points=row.points, corrects=row.corrects)
        )
    effective = {
        (recorder, line.battle): result
        for recorder, lines in by_recorder.items()
        for line, result, _points in ledger.effective(lines)
    }
    out = []
    for row in theirs:
        if row.corrects is not None or row.roster_id not in recorders or row.id in confirmed:
            continue
        line = {
            "battle": row.number,
            "date": row.date,
            "opponent": recorders[row.roster_id],
            "scenario": row.scenario,
            "result": ledger.OPPOSITE[effective.get((row.roster_id, row.number), row.result)],
            "points": None,
            "share": row.share_code,
            "fighters": [],
            "recruits": [],
            "notes": row.notes,
            "corrects": None,
            "corrected_by": None,
            "campaign": row.campaign_id,
            "opponent_roster": row.roster_id,
            "recorded_by": row.roster_id,
            "verdict": row.verdict or "pending",
            "voided": row.voided_at is not None,
            "same_as": None,
        }
        out.append((row.created_at, row.id or 0, line))
    return out


def line(session: Session, roster: Roster, row: Battle) -> dict[str, Any]:
    """One line of this gang's own ledger as `battles` gives it."""
    out = line_out(row, roster.id, None)
    out.pop("_confirms", None)
    if row.opponent_roster_id and not row.opponent:
        names = store.names(session=session, roster_ids=[row.opponent_roster_id])
        out["opponent"] = names.get(row.opponent_roster_id, "")
    return out


def line_out(row: Own, recorder: str, corrected_by: int | None) -> dict[str, Any]:
    """A line of this gang's own ledger (`_confirms`: the line of the other gang it
    recorded again, for `battles` to name)."""
    return {
        "battle": row.number,
        "date": row.date,
        "opponent": row.opponent,
        "scenario": row.scenario,
        "result": row.result,
        "points": row.points,
        "share": row.share_code,
        "fighters": [
            {
                "entry": f["entry"],
                "id": f.get("id"),
                "name": f.get("name", ""),
                "xp": f.get("xp", 0),
                "changes": f.get("changes", []),
                "rep": f.get("rep"),
                "state": f.get("state"),
            }
            for f in row.fighters
        ],
        "recruits": [str(r.get("name") or "Recrue") for r in row.recruits],
        "notes": row.notes,
        "corrects": row.corrects,
        "corrected_by": corrected_by,
        "campaign": row.campaign_id,
        "opponent_roster": row.opponent_roster_id,
        "recorded_by": recorder,
        "verdict": (row.verdict or "pending")
        if row.opponent_roster_id and row.corrects is None
        else None,
        "voided": row.voided_at is not None,
        "same_as": None,
        "_confirms": row.confirms_id,
    }
