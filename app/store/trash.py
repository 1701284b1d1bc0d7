"""Deleted lists, kept so that a deletion can be undone (issue 26: every removal can be undone).

« Supprimer » on « Mes listes » moves the list here: its row, the carnets and campaigns that
held it (`carnet_roster`, `campaign_gang`) and its ledger's lines (`battle`) are written into
one `deleted_roster` row, as they were, then the list is deleted as before (every other
query of Caserne sees it gone: its edit link answers 404, its campaign forgets it). « Annuler »
puts every row back with its own keys: the same edit link, the same carnets (those still
there), the same campaigns (those still there) and the same ledger. Its shares never left
(`share` has no foreign key); `caserne prune` keeps them while the list waits here, and
removes what has waited longer than TRASH_DAYS (docs/retention.md).
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, update
from sqlmodel import Session, SQLModel, col, select

from app.store import no_row_has, table_of
from app.store.carnets import rows_changed
from app.store.models import (
    Battle,
    Campaign,
    CampaignGang,
    Carnet,
    CarnetRoster,
    DeletedRoster,
    Roster,
)

TRASH_DAYS = 30
FORMAT = 1  # of `rows`: bumped if what is kept changes, so older rows are read as written


def _row(model: SQLModel) -> dict[str, Any]:
    """A row's columns as JSON values (moments in ISO 8601, with their zone)."""
    return model.model_dump(mode="json")


def discard(*, session: Session, roster: Roster, carnet_id: str | None) -> DeletedRoster:
    """Keeps the list and what held it in the trash of `carnet_id`, then deletes it (the
    database's cascades remove its carnet links, campaign places and ledger lines)."""
    links = session.exec(select(CarnetRoster).where(CarnetRoster.roster_id == roster.id)).all()
    gangs = session.exec(select(CampaignGang).where(CampaignGang.roster_id == roster.id)).all()
    battles = session.exec(
        select(Battle).where(Battle.roster_id == roster.id).order_by(col(Battle.number))
    ).all()
    kept = DeletedRoster(
        roster_id=roster.id,
        carnet_id=carnet_id,
        system=roster.system,
        name=roster.name,
        rows={
            "format": FORMAT,
            "roster": _row(roster),
            "carnets": [_row(link) for link in links],
            "gangs": [_row(gang) for gang in gangs],
            "battles": [_row(battle) for battle in battles],
        },
    )
    session.add(kept)
    session.flush()
    session.execute(delete(table_of(Roster)).where(table_of(Roster).c.id == roster.id))
    session.commit()
    return kept


@dataclass(frozen=True)
class Restored:
    roster: Roster
    battles: int


def waiting(*, session: Session, roster_id: str, carnet_id: str) -> bool:
    """Whether this carnet's trash holds that list."""
    if no_row_has(roster_id, carnet_id):
        return False
    kept = session.exec(
        select(DeletedRoster.carnet_id).where(DeletedRoster.roster_id == roster_id)
    ).first()
    return kept == carnet_id


def restore(*, session: Session, roster_id: str, carnet_id: str) -> Restored | None:
    """Puts a list of this carnet's trash back, whole; None when the trash holds no such list
    for this carnet (already restored: a second click does nothing)."""
    if no_row_has(roster_id, carnet_id):
        return None
    kept = session.get(DeletedRoster, roster_id)
    if kept is None or kept.carnet_id != carnet_id:
        return None
    rows = kept.rows
    roster = Roster.model_validate(rows["roster"])
    session.add(roster)
    session.flush()
    carnets = {link["carnet_id"] for link in rows["carnets"]} | {carnet_id}
    there = set(session.exec(select(Carnet.id).where(col(Carnet.id).in_(carnets))).all())
    for link in rows["carnets"]:
        if link["carnet_id"] in there:
            session.add(CarnetRoster.model_validate(link))
    if carnet_id not in {link["carnet_id"] for link in rows["carnets"]}:
        session.add(CarnetRoster(carnet_id=carnet_id, roster_id=roster.id))
    campaigns = {gang["campaign_id"] for gang in rows["gangs"]}
    open_ = set(session.exec(select(Campaign.id).where(col(Campaign.id).in_(campaigns))).all())
    for gang in rows["gangs"]:
        if gang["campaign_id"] in open_:
            session.add(CampaignGang.model_validate(gang))
    session.flush()
    for line in rows["battles"]:
        _put_back(session, Battle.model_validate(line))
    session.delete(kept)
    session.commit()
    return Restored(roster=roster, battles=len(rows["battles"]))


def _put_back(session: Session, battle: Battle) -> None:
    """A ledger line back under its own id; under a new one if another line took it since
    (SQLite may hand out a freed id again), the lines that named it renamed with it."""
    taken = battle.id is not None and session.get(Battle, battle.id) is not None
    if not taken:
        session.add(battle)
        session.flush()
        return
    old = battle.id
    battle.id = None
    session.add(battle)
    session.flush()
    # Its partner (the other gang's line of the same battle) named it by its old id.
    if battle.confirms_id is not None:
        lines = table_of(Battle)
        session.execute(
            update(lines)
            .where(lines.c.id == battle.confirms_id, lines.c.confirms_id == old)
            .values(confirms_id=battle.id)
        )


@dataclass(frozen=True)
class TrashItem:
    roster_id: str
    system: str
    name: str
    deleted_at: datetime


def page(
    *, session: Session, carnet_id: str, offset: int, limit: int
) -> tuple[list[TrashItem], int]:
    """One page of this carnet's deleted lists, the newest deletion first (what is kept of
    each is not read), and how many there are."""
    where = DeletedRoster.carnet_id == carnet_id
    total = session.exec(select(func.count()).select_from(DeletedRoster).where(where)).one()
    query = (
        select(
            DeletedRoster.roster_id,
            DeletedRoster.system,
            DeletedRoster.name,
            DeletedRoster.deleted_at,
        )
        .where(where)
        .order_by(col(DeletedRoster.deleted_at).desc(), col(DeletedRoster.roster_id))
        .offset(offset)
        .limit(limit)
    )
    items = [TrashItem(*row) for row in session.execute(query).all()]
    return items, int(total)


def expired(*, session: Session, before: datetime) -> int:
    """How many lists were deleted before `before`."""
    query = select(func.count()).select_from(DeletedRoster)
    return int(session.exec(query.where(col(DeletedRoster.deleted_at) < before)).one())


def purge(*, session: Session, before: datetime) -> int:
    """Removes the lists deleted before `before` (TRASH_DAYS ago, for `caserne prune`);
    how many."""
    kept = table_of(DeletedRoster)
    result = session.execute(delete(kept).where(kept.c.deleted_at < before))
    session.commit()
    return rows_changed(result)
