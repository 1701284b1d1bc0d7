"""Reading and writing carnets and what they hold. Keyword-only arguments, one code path for
both databases; the key is compared by its hash only."""

import hmac
import secrets
from collections.abc import Iterable
from typing import Any, NamedTuple

from sqlalchemy import CursorResult, Result, String, and_, bindparam, delete, func, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import Session, col, select

from app.store import deferred, no_row_has
from app.store.models import Carnet, CarnetRoster, RetiredKey, Roster, Share, utcnow
from app.store.rosters import hash_token, new_token

ROSTER = "roster"
# A carnet's retired keys kept, newest first: enough for the devices and programs of one
# player that missed a few rotations, bounded however often the key changes.
RETIRED_KEYS_KEPT = 10


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed (its cursor's row count)."""
    assert isinstance(result, CursorResult)
    return result.rowcount


def create_carnet(*, session: Session) -> tuple[Carnet, str]:
    key = new_token()
    carnet = Carnet(id=secrets.token_hex(12), key_hash=hash_token(key))
    session.add(carnet)
    session.commit()
    session.refresh(carnet)
    return carnet, key


def get_carnet(*, session: Session, carnet_id: str) -> Carnet | None:
    return None if no_row_has(carnet_id) else session.get(Carnet, carnet_id)


def carnet_of_key(*, session: Session, key: str) -> Carnet | None:
    """The carnet this key opens (a key's hash is unique), or None."""
    query = select(Carnet).where(Carnet.key_hash == hash_token(key)).limit(1)
    return session.exec(query).first()


def key_matches(carnet: Carnet, key: str | None) -> bool:
    return key is not None and hmac.compare_digest(carnet.key_hash, hash_token(key))


def rotate_key(*, session: Session, carnet: Carnet, key: str | None = None) -> str | None:
    """A new key (`key`, or one drawn now) in place of the one `carnet` was opened with, as a
    compare-and-swap on the key's hash: None when another request changed the key first
    (issue 25: 20 concurrent rotations with one key were 4 x accepted on PostgreSQL,
    handing out 4 keys of which one worked)."""
    key = key or new_token()
    old = carnet.key_hash
    result = session.execute(
        update(Carnet)
        .where(col(Carnet.id) == carnet.id, col(Carnet.key_hash) == old)
        .values(key_hash=hash_token(key), key_changed_at=utcnow())
    )
    changed = rows_changed(result) == 1
    if changed:
        _retire(session, carnet.id, old)
    session.commit()
    session.refresh(carnet)
    return key if changed else None


def _retire(session: Session, carnet_id: str, key_hash: str) -> None:
    """Keeps the old key's hash, and only the newest RETIRED_KEYS_KEPT of the carnet's."""
    session.execute(delete(RetiredKey).where(col(RetiredKey.key_hash) == key_hash))
    session.add(RetiredKey(key_hash=key_hash, carnet_id=carnet_id))
    session.flush()
    kept = (
        select(RetiredKey.key_hash)
        .where(RetiredKey.carnet_id == carnet_id)
        .order_by(col(RetiredKey.retired_at).desc(), col(RetiredKey.key_hash))
        .limit(RETIRED_KEYS_KEPT)
    )
    session.execute(
        delete(RetiredKey).where(
            col(RetiredKey.carnet_id) == carnet_id,
            col(RetiredKey.key_hash).not_in(list(session.exec(kept).all())),
        )
    )


def retired_carnet(*, session: Session, key: str) -> str | None:
    """The id of the carnet whose key this was before a rotation, or None."""
    found = session.get(RetiredKey, hash_token(key))
    return found.carnet_id if found is not None else None


def count_rosters(*, session: Session, carnet_id: str) -> int:
    query = (
        select(func.count()).select_from(CarnetRoster).where(CarnetRoster.carnet_id == carnet_id)
    )
    return int(session.exec(query).one())


def holds(*, session: Session, carnet_id: str, roster_id: str) -> bool:
    if no_row_has(carnet_id, roster_id):
        return False
    return session.get(CarnetRoster, (carnet_id, roster_id)) is not None


def link(*, session: Session, carnet_id: str, roster_ids: Iterable[str]) -> None:
    """Puts the rosters in the carnet; one already there stays as it is (no error, no
    duplicate, even when two requests link it at once)."""
    rows = [
        {"carnet_id": carnet_id, "roster_id": roster_id, "kind": ROSTER, "added_at": utcnow()}
        for roster_id in dict.fromkeys(roster_ids)
    ]
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    session.execute(insert(CarnetRoster).values(rows).on_conflict_do_nothing())
    session.commit()


def unlink(*, session: Session, carnet_id: str, roster_id: str) -> bool:
    result = session.execute(
        delete(CarnetRoster).where(
            col(CarnetRoster.carnet_id) == carnet_id, col(CarnetRoster.roster_id) == roster_id
        )
    )
    session.commit()
    return bool(rows_changed(result))


def roster_ids(*, session: Session, carnet_id: str) -> list[str]:
    query = select(CarnetRoster.roster_id).where(CarnetRoster.carnet_id == carnet_id)
    return list(session.exec(query).all())


def rosters(*, session: Session, carnet_id: str, system: str | None = None) -> list[Roster]:
    """The carnet's rosters, most recently changed first, without their documents (a
    library view reads names and stored cards, never the lists themselves)."""
    query = (
        select(Roster)
        .join(CarnetRoster, col(CarnetRoster.roster_id) == col(Roster.id))
        .where(CarnetRoster.carnet_id == carnet_id)
        .options(deferred(Roster.document))
        .order_by(col(Roster.updated_at).desc(), col(Roster.id))
    )
    if system is not None:
        query = query.where(Roster.system == system)
    return list(session.exec(query).all())


# « Mes listes »'s orders (issue 26): the query parameter `tri` names one.
SORTS = {
    "recent": (col(Roster.updated_at).desc(), col(Roster.id)),
    "ancien": (col(Roster.updated_at).asc(), col(Roster.id)),
    "nom": (func.lower(col(Roster.name)).asc(), col(Roster.updated_at).desc(), col(Roster.id)),
}


def roster_page(
    *,
    session: Session,
    carnet_id: str,
    system: str | None,
    search: str,
    sort: str,
    offset: int,
    limit: int,
) -> tuple[list[Roster], int]:
    """One page of the carnet's rosters matching a system and a piece of their name, in
    one of SORTS' orders, without their documents; and how many match in all."""
    query = (
        select(Roster)
        .join(CarnetRoster, col(CarnetRoster.roster_id) == col(Roster.id))
        .where(CarnetRoster.carnet_id == carnet_id)
    )
    if system is not None:
        query = query.where(Roster.system == system)
    if search:
        query = query.where(func.lower(col(Roster.name)).contains(search.lower(), autoescape=True))
    total = session.exec(select(func.count()).select_from(query.subquery())).one()
    page = (
        query.options(deferred(Roster.document))
        .order_by(*SORTS.get(sort, SORTS["recent"]))
        .offset(offset)
        .limit(limit)
    )
    return list(session.exec(page).all()), int(total)


def roster_in_carnet_with_key(*, session: Session, roster_id: str, key: str) -> bool:
    """Whether `key` is the key of a carnet that holds this roster (one indexed query)."""
    if no_row_has(roster_id):
        return False
    query = (
        select(CarnetRoster.carnet_id)
        .join(Carnet, col(Carnet.id) == col(CarnetRoster.carnet_id))
        .where(CarnetRoster.roster_id == roster_id, Carnet.key_hash == hash_token(key))
        .limit(1)
    )
    return session.exec(query).first() is not None


class RosterWithCarnet(NamedTuple):
    roster: Roster
    carnet: Carnet | None  # None: there is no carnet `carnet_id`
    held: bool  # whether that carnet holds the roster
    shared: bool  # whether the roster has a share (the editor then says which)


def roster_with_carnet(
    *, session: Session, roster_id: str, carnet_id: str
) -> RosterWithCarnet | None:
    """The roster, the carnet `carnet_id`, whether that carnet holds the roster and whether
    the roster was ever shared, in one query: what an editor's request checks first (issue
    19: three queries were a fifth of a count save's CPU; issue 29: a list never shared
    needs no query for its share's state). None when there is no such roster."""
    if no_row_has(roster_id, carnet_id):
        return None
    row = session.execute(
        _ROSTER_WITH_CARNET, {"b_roster_id": roster_id, "b_carnet_id": carnet_id}
    ).first()
    if row is None:
        return None
    roster, carnet, held, shared = row
    return RosterWithCarnet(roster, carnet, held is not None, bool(shared))


_ROSTER_WITH_CARNET = (
    select(
        Roster,
        Carnet,
        CarnetRoster.roster_id,
        select(Share.roster_id).where(col(Share.roster_id) == col(Roster.id)).exists(),
    )
    .select_from(Roster)
    .outerjoin(Carnet, col(Carnet.id) == bindparam("b_carnet_id", type_=String))
    .outerjoin(
        CarnetRoster,
        and_(
            col(CarnetRoster.carnet_id) == col(Carnet.id),
            col(CarnetRoster.roster_id) == col(Roster.id),
        ),
    )
    .where(col(Roster.id) == bindparam("b_roster_id", type_=String))
)
