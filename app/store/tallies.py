"""A campaign's standings as its writes keep them (issue 29): each gang's tally rows (what
its lines of the campaign count, for itself and for the gangs they name), replaced in the
transaction of every write that changes them, and read summed for the standings in one
query whatever the number of battles. And the counter of each gang's public page
(`campaign_gang.version`), raised for the gangs a change names.

What the rows hold is the campaign feature's to compute (app/campaigns/tallies.py); these
functions only read and write them, in the caller's transaction (it commits)."""

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import String, bindparam, func, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from app.store import table_of
from app.store.models import Campaign, CampaignGang, CampaignTally, Counts

TALLIED = tuple(Counts.model_fields)
KEY = ("campaign_id", "recorder_id", "subject_id")


def replace(
    *, session: Session, campaign_id: str, recorder_id: str, rows: Sequence[dict[str, Any]]
) -> None:
    """The recorder's tally rows of the campaign are `rows` now (each a subject_id and the
    TALLIED counts, lost_version on its own row): one statement, an upsert. A recorder's
    rows never go (each gang its lines name keeps one, counted or not: app/campaigns/
    ledger.py `tally`), but with its row (a cascade)."""
    _upsert(session, rows, campaign_id, recorder_id, added=False)


def add(
    *, session: Session, campaign_id: str, recorder_id: str, rows: Sequence[dict[str, Any]]
) -> None:
    """A line's counts added to the recorder's tally rows (its own and its opponent's):
    each count added to the row's, its fighters lost and their version set. One upsert."""
    _upsert(session, rows, campaign_id, recorder_id, added=True)


def _upsert(
    session: Session,
    rows: Sequence[dict[str, Any]],
    campaign_id: str,
    recorder_id: str,
    *,
    added: bool,
) -> None:
    if rows:
        statement = _upserts(session.get_bind().dialect.name)[added]
        ids = {"campaign_id": campaign_id, "recorder_id": recorder_id}
        session.execute(statement, [{**ids, **row} for row in rows])


@functools.cache
def _upserts(dialect: str) -> tuple[Any, Any]:
    """The tally's two upserts in the dialect's words (both databases say ON CONFLICT),
    built once: the counts set (`replace`), or added to (`add`)."""
    upsert = (pg_insert if dialect == "postgresql" else sqlite_insert)(_TALLY)
    kept = {name: upsert.excluded[name] for name in ("fighters_lost", "lost_version")}
    counts = TALLIED[:-1]
    set_ = {**{name: upsert.excluded[name] for name in counts}, **kept}
    add_ = {**{name: _TALLY.c[name] + upsert.excluded[name] for name in counts}, **kept}
    return (
        upsert.on_conflict_do_update(index_elements=list(KEY), set_=set_),
        upsert.on_conflict_do_update(index_elements=list(KEY), set_=add_),
    )


def own(*, session: Session, campaign_id: str, roster_id: str) -> tuple[int, int | None]:
    """The gang's fighters lost as its tally counted them, and the version of its list they
    were counted against (0, None: no row)."""
    query = select(CampaignTally.fighters_lost, CampaignTally.lost_version).where(
        CampaignTally.campaign_id == campaign_id,
        CampaignTally.recorder_id == roster_id,
        CampaignTally.subject_id == roster_id,
    )
    found = session.exec(query).first()
    return (0, None) if found is None else (int(found[0]), found[1])


class Kept(Counts):
    """A gang's line of the standings as the tallies keep it."""

    lost_version: int | None


def kept(*, session: Session, campaign_id: str) -> dict[str, Kept]:
    """Subject → its counts, added over the tallies of the campaign's gangs (a gang that left
    it counts for no one; a line naming a gang that left counts for its recorder only: the
    caller keeps the subjects that are gangs). One query."""
    rows = session.execute(_KEPT, {"b_campaign_id": campaign_id}).all()
    out = {}
    for subject, *counts, lost in rows:
        added = {name: int(v or 0) for name, v in zip(TALLIED, counts, strict=True)}
        out[subject] = Kept(**added, lost_version=lost)
    return out


_TALLY, _GANGS = table_of(CampaignTally), table_of(CampaignGang)
_KEPT = (
    sa_select(
        _TALLY.c.subject_id,
        *(func.sum(_TALLY.c[name]) for name in TALLIED),
        func.max(_TALLY.c.lost_version),
    )
    .join(
        _GANGS,
        (_GANGS.c.campaign_id == _TALLY.c.campaign_id)
        & (_GANGS.c.roster_id == _TALLY.c.recorder_id),
    )
    .where(_TALLY.c.campaign_id == bindparam("b_campaign_id", type_=String))
    .group_by(_TALLY.c.subject_id)
)


def touch(*, session: Session, campaign_id: str, roster_ids: Iterable[str | None]) -> None:
    """What these gangs' public pages show changed: their counters go up (after the
    campaign's row, in the caller's transaction)."""
    ids = sorted({roster_id for roster_id in roster_ids if roster_id})
    if ids:
        session.execute(
            update(CampaignGang)
            .where(
                col(CampaignGang.campaign_id) == campaign_id, col(CampaignGang.roster_id).in_(ids)
            )
            .values(version=col(CampaignGang.version) + 1)
        )


def lock_campaigns(*, session: Session, campaign_ids: Iterable[str]) -> list[str]:
    """Takes these campaigns' rows, one after the other in the order of their ids, before
    any of their gangs' or lines' rows (app/store/campaigns.py `bump`: roster, campaign,
    then gangs and lines), so that two writers of several campaigns cannot wait for each
    other. The ids, sorted. (SQLite locks the whole database: no row is taken there.)"""
    ids = sorted(set(campaign_ids))
    if ids:
        session.execute(
            sa_select(col(Campaign.id))
            .where(col(Campaign.id).in_(ids))
            .order_by(col(Campaign.id))
            .with_for_update()
        )
    return ids


def touch_campaigns(*, session: Session, campaign_ids: Iterable[str]) -> None:
    """These campaigns' standings and every gang page of them may show something else (a
    gang deleted or brought back: its lines leave or come back): their versions and their
    gangs' counters go up, the campaigns' rows taken first (`lock_campaigns`)."""
    ids = lock_campaigns(session=session, campaign_ids=campaign_ids)
    if ids:
        session.execute(
            update(Campaign)
            .where(col(Campaign.id).in_(ids))
            .values(version=col(Campaign.version) + 1)
        )
        session.execute(
            update(CampaignGang)
            .where(col(CampaignGang.campaign_id).in_(ids))
            .values(version=col(CampaignGang.version) + 1)
        )


def campaigns_of(*, session: Session, roster_id: str) -> list[str]:
    """The campaigns the roster is a gang of."""
    query = select(CampaignGang.campaign_id).where(CampaignGang.roster_id == roster_id)
    return sorted(session.exec(query).all())
