"""What a campaign's standings and a gang's pages read, each in one query whatever the
campaign's history (issue 29): the gangs with their versions and latest shares, the
campaign's lines as plain rows, a gang's page of the lines others recorded against it, and
the versions a computed view is remembered by (app/campaigns/views.py)."""

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Integer, String, bindparam, func, or_, tuple_
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.store import no_row_has, table_of
from app.store.campaigns import _MIRRORED, LineColumns, Mirrored, campaigns_of
from app.store.models import Battle, Campaign, CampaignGang, Roster, Share

_SHARES = table_of(Share)


class SharedGang(NamedTuple):
    """The gang a share froze, as its public page names it (no document read)."""

    id: str
    system: str
    name: str
    version: int


class GangPage(NamedTuple):
    """A gang's public page by a share code: the gang, and for each campaign it joined, its
    page counter there and each gang's id and name (the names its page shows, and with the
    counters, the page's version: app/campaigns/views.py)."""

    roster: SharedGang
    places: list[tuple[str, int, str, str]]

    def names(self) -> dict[str, str]:
        return {gang: name for _c, _v, gang, name in self.places}


def gang_page(*, session: Session, code: str) -> GangPage | None:
    """The gang a share froze, when both exist, and its places: one query, no snapshot nor
    document read (a gang's public page answers 304 with it)."""
    if no_row_has(code):
        return None
    rows = session.execute(_GANG_PAGE, {"b_code": code}).all()
    if not rows:
        return None
    places = [(c, int(v), g, n) for *_r, c, v, g, n in rows if c is not None and g is not None]
    return GangPage(SharedGang(*rows[0][:4]), places)


# Built once, as every statement a hot view runs (building one took 2.5 ms of CPU, running
# it 0.3: issue 29).
_MINE, _THEIRS, _GANG = aliased(CampaignGang), aliased(CampaignGang), aliased(Roster)
_GANG_PAGE = (
    sa_select(
        *(col(getattr(Roster, name)) for name in SharedGang._fields),
        col(_MINE.campaign_id),
        col(_MINE.version),
        col(_GANG.id),
        col(_GANG.name),
    )
    .join(Share, col(Share.roster_id) == col(Roster.id))
    .outerjoin(_MINE, col(_MINE.roster_id) == col(Roster.id))
    .outerjoin(_THEIRS, col(_THEIRS.campaign_id) == col(_MINE.campaign_id))
    .outerjoin(_GANG, col(_GANG.id) == col(_THEIRS.roster_id))
    .where(col(Share.code) == bindparam("b_code", type_=String))
    .order_by(col(_MINE.campaign_id), col(_GANG.id))
)


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
    rows = session.execute(_GANG_VERSIONS, {"b_campaign_id": campaign_id}).all()
    return [GangVersion(*row) for row in rows]


_LATEST = (
    sa_select(_SHARES.c.code)
    .where(_SHARES.c.roster_id == col(CampaignGang.roster_id))
    .order_by(_SHARES.c.created_at.desc())
    .limit(1)
    .scalar_subquery()
)
_GANG_VERSIONS = (
    sa_select(col(Roster.id), col(Roster.version), col(Roster.name), _LATEST)
    .join(CampaignGang, col(CampaignGang.roster_id) == col(Roster.id))
    .where(col(CampaignGang.campaign_id) == bindparam("b_campaign_id", type_=String))
    .order_by(col(CampaignGang.joined_at), col(Roster.id))
)


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


@dataclass(slots=True)
class OwnLine(LineColumns):
    """A line of a gang's own ledger as its pages show it: every column but the score, as
    plain values (no ORM object: a veteran's 400 lines, issue 29)."""

    fighters: list[Any]
    recruits: list[Any]
    confirms_id: int | None


_OWN = OwnLine.columns()


def own_lines(*, session: Session, roster_id: str) -> list[OwnLine]:
    """The gang's ledger, by number, as plain rows (its pages' lines, states and histories)."""
    rows = session.execute(_OWN_LINES, {"b_roster_id": roster_id}).all()
    return [OwnLine(*row) for row in rows]


def ledger_rows(*, session: Session, roster_id: str) -> list[LedgerRow]:
    """The roster's whole ledger as plain rows with their fighters, by number (what
    recording a line reads: no ORM object, no score, notes nor recruits)."""
    rows = session.execute(_LEDGER_ROWS, {"b_roster_id": roster_id}).all()
    return [LedgerRow(*row) for row in rows]


def _of_roster(*columns: Any) -> Any:
    """A roster's lines, by number (`b_roster_id`)."""
    return (
        sa_select(*columns)
        .where(col(Battle.roster_id) == bindparam("b_roster_id", type_=String))
        .order_by(col(Battle.number))
    )


_OWN_LINES = _of_roster(*_OWN)
_LEDGER_ROWS = _of_roster(*_WITH_FIGHTERS)


def newest_against(
    *,
    session: Session,
    roster_id: str,
    limit: int,
    leave_out: Iterable[int] = (),
    until: datetime | None = None,
) -> tuple[list[Mirrored], int]:
    """The newest `limit` lines other gangs recorded against this one that its page shows
    as lines (no correction, no line recording again one of this gang's, none of
    `leave_out`: the lines its own lines record again), up to `until` when given, newest
    first, and how many there are in all (one query: a window count)."""
    values = {"b_roster_id": roster_id, "b_limit": limit, "b_left": sorted(set(leave_out))}
    rows = session.execute(_statements(until is not None)[0], {**values, "b_until": until}).all()
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
    values = {"b_roster_id": roster_id, "b_lines": wanted, "b_until": until}
    return [Mirrored(*row) for row in session.execute(_statements(until is not None)[1], values)]


@functools.cache
def _statements(until: bool) -> tuple[Any, Any]:
    """newest_against's and corrections_against's statements, built once (with `until`:
    the lines recorded up to `b_until` only)."""
    against: list[Any] = [
        col(Battle.opponent_roster_id) == bindparam("b_roster_id", type_=String),
        col(Battle.roster_id) != bindparam("b_roster_id", type_=String),
    ]
    if until:
        stamp = table_of(Battle).c.created_at.type
        against.append(col(Battle.created_at) <= bindparam("b_until", type_=stamp))
    newest = (
        sa_select(*_MIRRORED, func.count().over())
        .where(*against, col(Battle.corrects).is_(None), col(Battle.confirms_id).is_(None))
        .where(col(Battle.id).not_in(bindparam("b_left", expanding=True)))
        .order_by(col(Battle.created_at).desc(), col(Battle.id).desc())
        .limit(bindparam("b_limit", type_=Integer))
    )
    corrections = (
        sa_select(*_MIRRORED)
        .where(*against)
        .where(
            tuple_(col(Battle.roster_id), col(Battle.corrects)).in_(
                bindparam("b_lines", expanding=True)
            )
        )
        .order_by(col(Battle.created_at), col(Battle.id))
    )
    return newest, corrections


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
    values = {"b_campaign_id": campaign_id, "b_ids": wanted}
    return set(session.execute(_GANGS_AMONG, values).scalars())


_GANGS_AMONG = sa_select(col(CampaignGang.roster_id)).where(
    col(CampaignGang.campaign_id) == bindparam("b_campaign_id", type_=String),
    col(CampaignGang.roster_id).in_(bindparam("b_ids", expanding=True)),
)
