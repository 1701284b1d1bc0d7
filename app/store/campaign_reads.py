"""What a campaign's standings and a gang's pages read, each in one query whatever the
campaign's history (issue 29): the gangs with their versions and latest shares, the
campaign's lines as plain rows, a gang's page of the lines others recorded against it, and
the versions a computed view is remembered by (app/campaigns/views.py)."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import func, or_, tuple_
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.store import no_row_has, table_of
from app.store.campaigns import _MIRRORED, Mirrored, campaigns_of
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


_WITH_FIGHTERS = [getattr(Battle, name) for name in LedgerRow._fields[:-1]]


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


def ledger_rows(*, session: Session, roster_id: str) -> list[LedgerRow]:
    """The roster's whole ledger as plain rows with their fighters, by number (what
    recording a line reads: no ORM object, no score, notes nor recruits)."""
    query = (
        select(*_WITH_FIGHTERS).where(Battle.roster_id == roster_id).order_by(col(Battle.number))
    )
    return [LedgerRow(*row) for row in session.exec(query).all()]


def page_versions(*, session: Session, roster_id: str) -> list[tuple[str, int, str, str]]:
    """For each campaign the roster joined: its counter there (app/store/tallies.py
    `touch`), and each gang of that campaign's id and name. One query, no document read."""
    mine = aliased(CampaignGang)
    theirs = aliased(CampaignGang)
    query = (
        select(col(mine.campaign_id), col(mine.version), col(Roster.id), col(Roster.name))
        .join(theirs, col(theirs.campaign_id) == col(mine.campaign_id))
        .join(Roster, col(Roster.id) == col(theirs.roster_id))
        .where(col(mine.roster_id) == roster_id)
        .order_by(col(mine.campaign_id), col(Roster.id))
    )
    return [(c, int(v), gang, name) for c, v, gang, name in session.exec(query).all()]


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


def opponents(*, session: Session, roster_id: str) -> list[tuple[Campaign, list[tuple[str, str]]]]:
    """The campaigns a roster joined (at most 50) and, for each, the other gangs' ids and
    names (the form's opponent list): two queries, no document read."""
    campaigns = campaigns_of(session=session, roster_id=roster_id)
    if not campaigns:
        return []
    query = (
        select(CampaignGang.campaign_id, Roster.id, Roster.name)
        .join(Roster, col(Roster.id) == col(CampaignGang.roster_id))
        .where(col(CampaignGang.campaign_id).in_([c.id for c in campaigns]))
        .where(CampaignGang.roster_id != roster_id)
        .order_by(col(CampaignGang.joined_at), col(Roster.id))
    )
    by: dict[str, list[tuple[str, str]]] = {c.id: [] for c in campaigns}
    for campaign_id, gang_id, name in session.exec(query).all():
        by[campaign_id].append((gang_id, name))
    return [(c, by[c.id]) for c in campaigns]


def recent_lines(
    *, session: Session, campaign_id: str, offset: int, limit: int
) -> tuple[list[Mirrored], int]:
    """A page of the campaign's battles, newest first (corrections and lines recording a
    battle again left out), and how many there are: two queries."""
    where = (
        Battle.campaign_id == campaign_id,
        col(Battle.corrects).is_(None),
        col(Battle.confirms_id).is_(None),
    )
    query = (
        select(*_MIRRORED)
        .where(*where)
        .order_by(col(Battle.created_at).desc(), col(Battle.id).desc())
        .offset(offset)
        .limit(limit)
    )
    total = session.exec(select(func.count()).select_from(Battle).where(*where)).one()
    return [Mirrored(*row) for row in session.exec(query).all()], int(total)


def unconfirmed_against(
    *, session: Session, recorder: str, opponent: str, campaign_id: str
) -> list[Battle]:
    """`recorder`'s lines of the campaign naming `opponent` that the opponent neither
    confirmed nor disputed and the organiser did not void, oldest first (at most 1,000:
    a ledger's own bound)."""
    query = (
        select(Battle)
        .where(
            Battle.roster_id == recorder,
            Battle.opponent_roster_id == opponent,
            Battle.campaign_id == campaign_id,
            col(Battle.corrects).is_(None),
            col(Battle.voided_at).is_(None),
            or_(col(Battle.verdict).is_(None), col(Battle.verdict) == "pending"),
        )
        .order_by(col(Battle.number))
        .limit(1000)
    )
    return list(session.exec(query).all())


def gangs_among(*, session: Session, campaign_id: str, roster_ids: Iterable[str]) -> set[str]:
    """Which of these rosters are gangs of the campaign (one query)."""
    wanted = sorted({r for r in roster_ids if not no_row_has(r)})
    if not wanted or no_row_has(campaign_id):
        return set()
    query = select(CampaignGang.roster_id).where(
        CampaignGang.campaign_id == campaign_id, col(CampaignGang.roster_id).in_(wanted)
    )
    return set(session.exec(query).all())
