"""What a campaign's standings and a gang's pages read, each in one query whatever the
campaign's history (issue 29): the gangs with their versions and latest shares, the
campaign's lines as plain rows, a gang's page of the lines others recorded against it, and
the versions a computed view is remembered by (app/campaigns/views.py)."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import String, bindparam, func, tuple_
from sqlalchemy import select as core_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.store import no_row_has, table_of
from app.store.campaigns import _MIRRORED, Mirrored
from app.store.models import Battle, Campaign, CampaignGang, Roster, Share

_SHARES = table_of(Share)


def shared_gang(*, session: Session, code: str) -> Roster | None:
    """The roster a share froze, when both exist: one query, no snapshot read (a gang's
    public page answers 304 with it)."""
    if no_row_has(code):
        return None
    query = (
        select(Roster).join(Share, col(Share.roster_id) == col(Roster.id)).where(Share.code == code)
    )
    return session.exec(query).first()


class GangVersion(NamedTuple):
    """A gang of a campaign as its standings' version names it."""

    id: str
    version: int
    name: str
    share: str | None  # the code of its latest share (its page's link), if any


def gang_versions(*, session: Session, campaign_id: str) -> list[GangVersion]:
    """The campaign's gangs in the order they joined, each with its version and its latest
    share: one query (the latest share an index lookup per gang, as `latest_share` finds
    it: ix_share_roster_id_created_at), no document read."""
    latest = (
        select(_SHARES.c.code)
        .where(_SHARES.c.roster_id == col(CampaignGang.roster_id))
        .order_by(_SHARES.c.created_at.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = (
        select(col(Roster.id), col(Roster.version), col(Roster.name), latest)
        .join(CampaignGang, col(CampaignGang.roster_id) == col(Roster.id))
        .where(CampaignGang.campaign_id == campaign_id)
        .order_by(col(CampaignGang.joined_at), col(Roster.id))
    )
    return [GangVersion(*row) for row in session.exec(query).all()]


def gang_documents(*, session: Session, ids: Iterable[str]) -> dict[str, Any]:
    """Roster id → its document as stored, in one query."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    query = select(Roster.id, Roster.document).where(col(Roster.id).in_(wanted))
    return dict(session.exec(query).all())


class LedgerRow(NamedTuple):
    """What the standings read of a gang's line to know what it did to its fighters (no
    notes, score or share: plain columns)."""

    roster_id: str
    number: int
    result: str
    points: int | None
    corrects: int | None
    campaign_id: str | None
    opponent_roster_id: str | None
    verdict: str | None
    voided_at: datetime | None
    confirms_id: int | None
    fighters: list[Any]
    recruits: Sequence[Any] = ()  # not read: the standings count no recruit


_BATTLES = table_of(Battle)
_WITH_FIGHTERS = [getattr(Battle, name) for name in LedgerRow._fields[:-1]]
# Plain columns, read without the ORM (2,000 lines: 7 ms through it, issue 29).
_RESULTS = (
    core_select(
        _BATTLES.c.roster_id,
        _BATTLES.c.number,
        _BATTLES.c.result,
        _BATTLES.c.points,
        _BATTLES.c.corrects,
        _BATTLES.c.opponent_roster_id,
        _BATTLES.c.verdict,
        _BATTLES.c.voided_at.is_not(None),
        _BATTLES.c.confirms_id,
    )
    .where(_BATTLES.c.campaign_id == bindparam("b_campaign_id", type_=String))
    .order_by(_BATTLES.c.roster_id, _BATTLES.c.number)
)


class ResultRow(NamedTuple):
    """A line of a campaign without its fighters: what changes after it is written (its
    verdict, its void) and what the standings count of it."""

    roster_id: str
    number: int
    result: str
    points: int | None
    corrects: int | None
    opponent_roster_id: str | None
    verdict: str | None
    voided: bool
    confirms_id: int | None


def campaign_results(*, session: Session, campaign_id: str) -> list[ResultRow]:
    """Every line naming the campaign, by recorder then number, without its fighters."""
    rows = session.execute(_RESULTS, {"b_campaign_id": campaign_id}).all()
    return [ResultRow(*row) for row in rows]


def campaign_lines(
    *, session: Session, campaign_id: str, roster_ids: Iterable[str]
) -> list[LedgerRow]:
    """The lines of these gangs naming the campaign, with their fighters, by recorder then
    number."""
    wanted = sorted(set(roster_ids))
    if not wanted:
        return []
    query = (
        select(*_WITH_FIGHTERS)
        .where(Battle.campaign_id == campaign_id, col(Battle.roster_id).in_(wanted))
        .order_by(col(Battle.roster_id), col(Battle.number))
    )
    return [LedgerRow(*row) for row in session.exec(query).all()]


def page_versions(*, session: Session, roster_id: str) -> list[tuple[str, int, int, int]]:
    """For each campaign the roster joined: its version, its number of gangs and the sum
    of their versions. One query. Together they change whenever a line or a name a gang's
    page shows may have: a join or a line's verdict or void bumps the campaign's version, a
    gang's write (a line, a rename) its own (versions only grow, so the sum does, unless a
    gang was deleted: then the count falls)."""
    mine = aliased(CampaignGang)
    theirs = aliased(CampaignGang)
    query = (
        select(
            col(Campaign.id),
            col(Campaign.version),
            func.count(col(Roster.id)),
            func.sum(col(Roster.version)),
        )
        .join(mine, col(mine.campaign_id) == col(Campaign.id))
        .join(theirs, col(theirs.campaign_id) == col(Campaign.id))
        .join(Roster, col(Roster.id) == col(theirs.roster_id))
        .where(col(mine.roster_id) == roster_id)
        .group_by(col(Campaign.id), col(Campaign.version))
        .order_by(col(Campaign.id))
    )
    return [(c, int(v), int(n), int(s or 0)) for c, v, n, s in session.exec(query).all()]


def _against(roster_id: str, until: datetime | None) -> list[Any]:
    """Lines other gangs recorded against this one (up to `until`, when given)."""
    where: list[Any] = [Battle.opponent_roster_id == roster_id, Battle.roster_id != roster_id]
    if until is not None:
        where.append(col(Battle.created_at) <= until)
    return where


def _shown_against(roster_id: str, leave_out: Iterable[int], until: datetime | None) -> list[Any]:
    """Those a gang's page shows as lines: no correction, no line recording again one of
    this gang's, none of `leave_out` (the lines its own lines record again)."""
    where: list[Any] = [
        *_against(roster_id, until),
        col(Battle.corrects).is_(None),
        col(Battle.confirms_id).is_(None),
    ]
    left = sorted(set(leave_out))
    if left:
        where.append(col(Battle.id).not_in(left))
    return where


# A line against the gang, and how many the query finds in all (before its LIMIT).
_COUNTED: list[Any] = [*_MIRRORED, func.count().over()]


def newest_against(
    *,
    session: Session,
    roster_id: str,
    limit: int,
    leave_out: Iterable[int] = (),
    until: datetime | None = None,
) -> tuple[list[Mirrored], int]:
    """The newest `limit` lines other gangs recorded against this one that its page shows
    as lines, newest first, and how many there are in all (one query: a window count)."""
    query = (
        select(*_COUNTED)
        .where(*_shown_against(roster_id, leave_out, until))
        .order_by(col(Battle.created_at).desc(), col(Battle.id).desc())
        .limit(limit)
    )
    rows = session.exec(query).all()
    return [Mirrored(*row[:-1]) for row in rows], int(rows[0][-1]) if rows else 0


def corrections_against(
    *,
    session: Session,
    roster_id: str,
    lines: Iterable[tuple[str, int]],
    until: datetime | None = None,
) -> list[Mirrored]:
    """The corrections of these (recorder, number) lines recorded against this gang, oldest
    first (a correction names the gang its line named)."""
    wanted = sorted(set(lines))
    if not wanted:
        return []
    query = (
        select(*_MIRRORED)
        .where(*_against(roster_id, until))
        .where(tuple_(col(Battle.roster_id), col(Battle.corrects)).in_(wanted))
        .order_by(col(Battle.created_at), col(Battle.id))
    )
    return [Mirrored(*row) for row in session.exec(query).all()]
