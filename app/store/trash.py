"""What players delete from the pages, kept so that it can be undone (issue 26: every removal
can be undone): lists, army books and books' units, one `deleted_item` row each.

« Supprimer » on « Mes listes » moves a list here: its row, the carnets and campaigns that
held it (`carnet_roster`, `campaign_gang`) and its ledger's lines (`battle`) are written into
one row, as they were, then the list is deleted as before (every other query of Caserne sees
it gone: its edit link answers 404, its campaign forgets it). « Annuler » puts every row back
with its own keys: the same edit link, the same carnets (those still there), the same
campaigns (those still there) and the same ledger. Its shares never left (`share` has no
foreign key); `caserne prune` keeps them while the list waits here. An army book is kept as
its row (its published versions never leave), a book's unit as the unit and its place.
`caserne prune` removes what has waited longer than TRASH_DAYS (docs/retention.md).
"""

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, func, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, SQLModel, col, select

from app.store import no_row_has, table_of
from app.store.campaigns import CAMPAIGN_MAX_GANGS, count_gangs
from app.store.carnets import rows_changed
from app.store.models import (
    Battle,
    Book,
    Campaign,
    CampaignGang,
    Carnet,
    CarnetRoster,
    DeletedItem,
    Roster,
)
from app.store.tallies import lock_campaigns, touch_campaigns

TRASH_DAYS = 30
FORMAT = 1  # of `rows`: bumped if what is kept changes, so older rows are read as written
ROSTER, BOOK, UNIT = "roster", "book", "unit"


def _row(model: SQLModel) -> dict[str, Any]:
    """A row's columns as JSON values (moments in ISO 8601, with their zone)."""
    return model.model_dump(mode="json")


def _move(
    session: Session,
    held: Roster | Book,
    kind: str,
    carnet_id: str | None,
    rows: dict[str, Any],
) -> None:
    """Keeps `rows` in the trash under the row's own id, then deletes the row (its
    database cascades follow)."""
    session.add(
        DeletedItem(
            id=held.id,
            kind=kind,
            carnet_id=carnet_id,
            system=held.system,
            name=held.name,
            rows={"format": FORMAT, **rows},
        )
    )
    session.flush()
    table = table_of(type(held))
    session.execute(delete(table).where(table.c.id == held.id))
    session.commit()


def discard(*, session: Session, roster: Roster, carnet_id: str | None) -> None:
    """Keeps the list and what held it in the trash of `carnet_id`, then deletes it (the
    database's cascades remove its carnet links, campaign places and ledger lines).

    Its rows are taken as every write takes them — the roster's, its campaigns', then their
    gangs' and lines' (app/store/campaigns.py `bump`) — and what is kept is read once they
    are: a verdict or a void of one of its lines at the same time waits for the deletion or
    is kept by it, never deadlocked with it (it took the lines first, by the delete's
    cascade, then the campaigns: tests/store/test_trash_locks.py)."""
    table = table_of(Roster)
    session.execute(sa_select(table.c.id).where(table.c.id == roster.id).with_for_update())
    session.refresh(roster)  # as the last save left it, now that no other can come
    held_by = session.exec(
        select(CampaignGang.campaign_id).where(CampaignGang.roster_id == roster.id)
    ).all()
    # Its lines leave its opponents' pages (its tallies go with its row: a cascade).
    touch_campaigns(session=session, campaign_ids=held_by)
    links = session.exec(select(CarnetRoster).where(CarnetRoster.roster_id == roster.id)).all()
    gangs = session.exec(select(CampaignGang).where(CampaignGang.roster_id == roster.id)).all()
    battles = session.exec(
        select(Battle).where(Battle.roster_id == roster.id).order_by(col(Battle.number))
    ).all()
    rows = {
        "roster": _row(roster),
        "carnets": [_row(link) for link in links],
        "gangs": [_row(gang) for gang in gangs],
        "battles": [_row(battle) for battle in battles],
    }
    _move(session, roster, ROSTER, carnet_id, rows)


def discard_book(*, session: Session, book: Book, carnet_id: str) -> None:
    """Keeps the army book in the trash of `carnet_id`, then deletes it (its published
    versions stay: lists draw units from them by code)."""
    _move(session, book, BOOK, carnet_id, {"book": _row(book)})


def keep_unit(
    *, session: Session, book: Book, carnet_id: str, unit: dict[str, Any], position: int
) -> str:
    """Keeps a unit just taken out of `book` (and its place) in the trash; its item's id."""
    item = DeletedItem(
        id=secrets.token_hex(16),
        kind=UNIT,
        parent_id=book.id,
        carnet_id=carnet_id,
        system=book.system,
        name=str(unit.get("name", ""))[:100],
        rows={"format": FORMAT, "unit": unit, "position": position},
    )
    session.add(item)
    session.commit()
    return item.id


def waiting(*, session: Session, item_id: str, carnet_id: str, kind: str) -> DeletedItem | None:
    """What this carnet's trash holds under that id, of that kind; None when nothing (already
    restored, or another carnet's)."""
    if no_row_has(item_id, carnet_id):
        return None
    kept = session.get(DeletedItem, item_id[:32])
    if kept is None or kept.carnet_id != carnet_id or kept.kind != kind:
        return None
    return kept


def forget(*, session: Session, item: DeletedItem) -> None:
    """Takes an item out of the trash once it is back."""
    session.delete(item)
    session.commit()


@dataclass(frozen=True)
class Restored:
    roster: Roster
    battles: int


def restore(
    *,
    session: Session,
    item: DeletedItem,
    carnet_id: str,
    also: Callable[[Session, Roster], None] | None = None,
) -> Restored:
    """Puts a list of this carnet's trash back, whole; `also(session, roster)` then, in the
    same transaction (what features keep of it: app/hooks.py `restored`)."""
    rows = item.rows
    roster = Roster.model_validate(rows["roster"])
    session.add(roster)
    session.flush()
    held = {link["carnet_id"] for link in rows["carnets"]}
    there = set(session.exec(select(Carnet.id).where(col(Carnet.id).in_(held))).all())
    for link in rows["carnets"]:
        if link["carnet_id"] in there:
            session.add(CarnetRoster.model_validate(link))
    if carnet_id not in held:
        session.add(CarnetRoster(carnet_id=carnet_id, roster_id=roster.id))
    # Its campaigns' rows, in one order, before their gangs are counted and any of their
    # gangs' or lines' rows is written (app/store/campaigns.py `bump`): a join at the same
    # time waits, and the cap holds.
    campaigns = lock_campaigns(
        session=session, campaign_ids=[gang["campaign_id"] for gang in rows["gangs"]]
    )
    open_ = set(session.exec(select(Campaign.id).where(col(Campaign.id).in_(campaigns))).all())
    for gang in sorted(rows["gangs"], key=lambda gang: str(gang["campaign_id"])):
        # Its place is kept unless the campaign filled up while it waited here.
        full = count_gangs(session=session, campaign_id=gang["campaign_id"]) >= CAMPAIGN_MAX_GANGS
        if gang["campaign_id"] in open_ and not full:
            session.add(CampaignGang.model_validate(gang))
    session.flush()
    for line in rows["battles"]:
        _put_back(session, Battle.model_validate(line))
    # A gang back in a campaign is a join, and its lines are on its opponents' pages again:
    # the campaigns' versions and their gangs' counters go up, once.
    touch_campaigns(session=session, campaign_ids=open_)
    if also is not None:
        also(session, roster)
    session.delete(item)
    session.commit()
    return Restored(roster=roster, battles=len(rows["battles"]))


def restore_book(*, session: Session, item: DeletedItem, carnet_id: str) -> Book:
    """Puts an army book back, with its id and edit token, in this carnet."""
    book = Book.model_validate({**item.rows["book"], "carnet_id": carnet_id})
    session.add(book)
    session.delete(item)
    session.commit()
    return book


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
    id: str
    kind: str
    system: str
    name: str
    deleted_at: datetime


def page(
    *,
    session: Session,
    carnet_id: str,
    kinds: tuple[str, ...],
    offset: int,
    limit: int,
    parent_id: str | None = None,
) -> tuple[list[TrashItem], int]:
    """One page of this carnet's deleted items of `kinds` (of the book `parent_id`, for
    units), the newest deletion first (what is kept of each is not read), and how many
    there are."""
    where: list[ColumnElement[bool]] = [
        col(DeletedItem.carnet_id) == carnet_id,
        col(DeletedItem.kind).in_(kinds),
    ]
    if parent_id is not None:
        where.append(col(DeletedItem.parent_id) == parent_id)
    total = session.exec(select(func.count()).select_from(DeletedItem).where(*where)).one()
    query = (
        sa_select(
            col(DeletedItem.id),
            col(DeletedItem.kind),
            col(DeletedItem.system),
            col(DeletedItem.name),
            col(DeletedItem.deleted_at),
        )
        .where(*where)
        .order_by(col(DeletedItem.deleted_at).desc(), col(DeletedItem.id))
        .offset(offset)
        .limit(limit)
    )
    items = [TrashItem(*row) for row in session.execute(query).all()]
    return items, int(total)


def expired(*, session: Session, before: datetime) -> int:
    """How many items were deleted before `before`."""
    query = select(func.count()).select_from(DeletedItem)
    return int(session.exec(query.where(col(DeletedItem.deleted_at) < before)).one())


def purge(*, session: Session, before: datetime) -> int:
    """Removes the items deleted before `before` (TRASH_DAYS ago, for `caserne prune`);
    how many."""
    kept = table_of(DeletedItem)
    result = session.execute(delete(kept).where(kept.c.deleted_at < before))
    session.commit()
    return rows_changed(result)
