"""A campaign's standings as its writes keep them (issue 29): each gang's tally rows (what
its lines of the campaign count, for itself and for the gangs they name), replaced in the
transaction of every write that changes them, and read summed for the standings in one
query whatever the number of battles. And the counter of each gang's public page
(`campaign_gang.version`), raised for the gangs a change names.

What the rows hold is the campaign feature's to compute (app/campaigns/tallies.py); these
functions only read and write them, in the caller's transaction (it commits)."""

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import func, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from app.store import table_of
from app.store.models import Campaign, CampaignGang, CampaignTally

TALLIED = ("battles", "wins", "draws", "losses", "points", "xp", "fighters_lost")
KEY = ("campaign_id", "recorder_id", "subject_id")


def replace(
    *, session: Session, campaign_id: str, recorder_id: str, rows: Sequence[dict[str, Any]]
) -> None:
    """The recorder's tally rows of the campaign are `rows` now (each a subject_id and the
    TALLIED counts, lost_version on its own row): one statement, an upsert. A recorder's
    rows never go (each gang its lines name keeps one, counted or not: app/campaigns/
    ledger.py `tally`), but with its row (a cascade)."""
    if not rows:
        return
    table = table_of(CampaignTally)
    upsert = _insert(session)(table)
    changed = {name: upsert.excluded[name] for name in (*TALLIED, "lost_version")}
    session.execute(
        upsert.on_conflict_do_update(index_elements=list(KEY), set_=changed),
        [{"campaign_id": campaign_id, "recorder_id": recorder_id, **row} for row in rows],
    )


def add(
    *, session: Session, campaign_id: str, recorder_id: str, rows: Sequence[dict[str, Any]]
) -> None:
    """A line's counts added to the recorder's tally rows (its own and its opponent's):
    each count added to the row's, its fighters lost and their version set. One upsert."""
    table = table_of(CampaignTally)
    upsert = _insert(session)(table)
    changed = {name: table.c[name] + upsert.excluded[name] for name in TALLIED[:-1]}
    changed.update(
        fighters_lost=upsert.excluded.fighters_lost, lost_version=upsert.excluded.lost_version
    )
    session.execute(
        upsert.on_conflict_do_update(index_elements=list(KEY), set_=changed),
        [{"campaign_id": campaign_id, "recorder_id": recorder_id, **row} for row in rows],
    )


def _insert(session: Session) -> Any:
    """The dialect's INSERT, which says ON CONFLICT (both databases speak it)."""
    return pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert


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


class Kept(NamedTuple):
    """A gang's line of the standings as the tallies keep it."""

    battles: int
    wins: int
    draws: int
    losses: int
    points: int
    xp: int
    fighters_lost: int
    lost_version: int | None


def kept(*, session: Session, campaign_id: str) -> dict[str, Kept]:
    """Subject → its counts, added over the tallies of the campaign's gangs (a gang that left
    it counts for no one; a line naming a gang that left counts for its recorder only: the
    caller keeps the subjects that are gangs). One query."""
    tally = table_of(CampaignTally)
    gangs = table_of(CampaignGang)
    query = (
        sa_select(
            tally.c.subject_id,
            *(func.sum(tally.c[name]) for name in TALLIED),
            func.max(tally.c.lost_version),
        )
        .join(
            gangs,
            (gangs.c.campaign_id == tally.c.campaign_id)
            & (gangs.c.roster_id == tally.c.recorder_id),
        )
        .where(tally.c.campaign_id == campaign_id)
        .group_by(tally.c.subject_id)
    )
    return {
        subject: Kept._make([*(int(v or 0) for v in counts), lost])
        for subject, *counts, lost in session.execute(query).all()
    }


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


def touch_campaigns(*, session: Session, campaign_ids: Iterable[str]) -> None:
    """These campaigns' standings and every gang page of them may show something else (a
    gang deleted or brought back: its lines leave or come back): their versions and their
    gangs' counters go up, the campaigns' rows first (app/store/campaigns.py `bump`'s order)."""
    ids = sorted(set(campaign_ids))
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
