"""Reading and writing rosters and shares. Keyword-only arguments, one code path for both DBs."""

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import DateTime, Integer, String, Text, Update, bindparam, cast, update
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from app.db import count_written, on_primary
from app.store import no_row_has, table_of
from app.store.history import Kept, keep
from app.store.models import (
    BookShare,
    HeldDocument,
    JsonDocument,
    Roster,
    RosterVersion,
    Share,
    ShareGone,
    utcnow,
)

# Share codes: 8 characters from an alphabet without look-alikes (31^8 ≈ 8.5e11 codes).
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 8

RowT = TypeVar("RowT", Share, BookShare)
HeldT = TypeVar("HeldT", bound=HeldDocument)


class StaleVersion(Exception):
    """The roster changed since the version the writer read."""

    def __init__(self, current: int) -> None:
        self.current = current
        super().__init__(f"current version is {current}")


def new_token() -> str:
    """An edit token: 256 bits from `secrets`, shown once, stored only as its hash."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(holder: HeldDocument, token: str | None) -> bool:
    """Whether `token` is the edit token of the roster or book (compared by its hash)."""
    return token is not None and hmac.compare_digest(holder.token_hash, hash_token(token))


def create_held(
    session: Session,
    model: type[HeldT],
    also: Callable[[HeldT], list[Any]] = lambda _row: [],
    **fields: Any,
) -> tuple[HeldT, str]:
    """A new roster or book (`fields`) with a fresh id and edit token, stored with the rows
    `also` gives for it (a roster's first kept version); with the token."""
    token = new_token()
    row = model(id=secrets.token_hex(12), token_hash=hash_token(token), **fields)
    session.add(row)
    rows = also(row)
    if rows:
        session.flush()  # its row first: theirs name it (the flush orders no foreign key)
        session.add_all(rows)
    session.commit()
    session.refresh(row)
    return row, token


def create_roster(
    *,
    session: Session,
    system: str,
    name: str,
    document: dict[str, Any],
    card: dict[str, Any] | None = None,
    history: Kept | None = None,
) -> tuple[Roster, str]:
    """A new roster, and its first kept version (`history`) in the same transaction."""

    def first(roster: Roster) -> list[Any]:
        if history is None:
            return []
        kept = RosterVersion(
            roster_id=roster.id,
            version=1,
            document=document,
            points=history.points,
            summary=history.summary,
            origin=history.origin,
        )
        return [kept]

    fields = {"system": system, "name": name, "document": document, "card": card}
    return create_held(session, Roster, first, **fields)


def get_roster(*, session: Session, roster_id: str) -> Roster | None:
    return None if no_row_has(roster_id) else session.get(Roster, roster_id)


def update_roster(
    *,
    session: Session,
    roster: Roster,
    expected_version: int,
    name: str,
    document: dict[str, Any],
    document_json: str,
    card: dict[str, Any] | None = None,
    history: Kept | None = None,
) -> Roster:
    """Compare-and-swap on the version, so concurrent writers in any process get 409.
    `roster` then holds what was written, without reading it back (the UPDATE returns the
    new version; issue 19: the re-read cost a save a second query and JSON parse).
    `document_json`: `document` as JSON text, stored as it is (the caller has it already:
    its size was checked on it). One prepared UPDATE statement, not the ORM's bulk update: a
    save's CPU (issue 19). `history`: the version this save keeps, written in the same
    transaction (app/store/history.py)."""
    stamp = utcnow()
    dialect = session.get_bind().dialect.name
    written = session.execute(
        _roster_update(dialect),
        {
            "b_id": roster.id,
            "b_expected": expected_version,
            "b_name": name,
            "b_document": count_written(document_json),  # the byte budget's (ratelimit.py)
            "b_card": card,
            "b_stamp": stamp,
        },
    ).scalar_one_or_none()
    if written is None:
        session.rollback()
        session.refresh(roster)
        raise StaleVersion(roster.version)
    if history is not None:
        keep(session=session, roster_id=roster.id, version=written, kept=history, stamp=stamp)
    expiring, session.expire_on_commit = session.expire_on_commit, False
    try:
        session.commit()
    finally:
        session.expire_on_commit = expiring
    written_values = {
        "name": name,
        "document": document,
        "card": card,
        "version": written,
        "updated_at": stamp,
    }
    for key, value in written_values.items():
        set_committed_value(roster, key, value)
    return roster


@functools.cache
def _roster_update(dialect: str) -> Update:
    """The compare-and-swap UPDATE, built once per dialect (its compiled form is then
    SQLAlchemy's cache's). The document comes as JSON text: SQLite stores it as it is
    (a JSON column is text there), PostgreSQL casts it to jsonb."""
    table = table_of(Roster)
    document: Any = bindparam("b_document", type_=Text)
    if dialect == "postgresql":
        document = cast(document, JSONB)
    return (
        update(table)
        .where(
            table.c.id == bindparam("b_id", type_=String),
            table.c.version == bindparam("b_expected", type_=Integer),
        )
        .values(
            name=bindparam("b_name", type_=String),
            document=document,
            card=bindparam("b_card", type_=JsonDocument),
            version=table.c.version + 1,
            updated_at=bindparam("b_stamp", type_=DateTime(timezone=True)),
        )
        .returning(table.c.version)
    )


def store_card(*, session: Session, roster_id: str, card: dict[str, Any]) -> None:
    """Keeps a recomputed card (after a catalogue change) without touching the version."""
    session.execute(update(Roster).where(col(Roster.id) == roster_id).values(card=card))
    session.commit()


def delete_roster(*, session: Session, roster: Roster) -> None:
    session.delete(roster)
    session.commit()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Frozen(NamedTuple):
    """What a share holds but for its code, list and moment: the system and catalogue
    version it was built with, the snapshot and its etag (app/roster_service.py `frozen_share`
    makes one; a restored ledger copies one)."""

    system: str
    catalogue_version: str
    snapshot: dict[str, Any]
    etag: str


def create_share(
    *,
    session: Session,
    roster_id: str | None,
    frozen: Frozen,
    created_at: datetime | None = None,
    commit: bool = True,
) -> Share:
    """Stores an immutable snapshot under a fresh random code (retries on a collision).
    `created_at`: its moment when not now (a restored ledger's); `commit`: as
    insert_at_free_code's."""

    def share(code: str) -> Share:
        moment = created_at or utcnow()
        return Share(code=code, roster_id=roster_id, created_at=moment, **frozen._asdict())

    return insert_at_free_code(session, share, commit=commit)


def insert_at_free_code(
    session: Session, row: Callable[[str], RowT], *, commit: bool = True
) -> RowT:
    """`row(code)` inserted and committed under a fresh random code: a code already taken
    (an IntegrityError on its primary key) is drawn again, five times at most. `commit`
    False: flushed in the caller's transaction, which commits (a carnet file's restore)."""
    for _ in range(5):
        made = row(new_code())
        if isinstance(made, Share) and share_gone(session=session, code=made.code):
            continue  # a removed share's code keeps saying so (410), never another list
        try:
            with session.begin_nested():
                session.add(made)
        except IntegrityError:
            continue
        if commit:
            session.commit()
        return made
    raise RuntimeError(f"could not find a free {type(made).__name__} code")


def get_share(*, session: Session, code: str) -> Share | None:
    """The share `code`; on a read session, asked of the primary when the read database
    has not seen it yet (a share never changes once made: app/db.py `on_primary`)."""
    if no_row_has(code):
        return None
    found = session.get(Share, code)
    return found if found is not None else on_primary(session, lambda p: p.get(Share, code))


def share_gone(*, session: Session, code: str) -> bool:
    """Whether `caserne prune` removed the share `code` (app/store/retention.py)."""
    return not no_row_has(code) and session.get(ShareGone, code[:16]) is not None


def new_share_code(*, session: Session) -> str:
    """A fresh code that no removed share had (a taken one is the insert's to refuse)."""
    for _ in range(5):
        code = new_code()
        if not share_gone(session=session, code=code):
            return code
    raise RuntimeError("could not find a free Share code")


class LastShare(NamedTuple):
    """What a roster's editor says of its last share (its snapshot is another query)."""

    code: str
    created_at: datetime
    catalogue_version: str


def latest_share(*, session: Session, roster_id: str) -> LastShare | None:
    """The roster's most recent share: its code, date and catalogue version."""
    row = session.execute(_LATEST_SHARE, {"b_roster_id": roster_id}).first()
    return None if row is None else LastShare(*row)


# Built once (every editor answer runs it: issue 19), of the table's columns (no ORM).
_SHARES = table_of(Share)
_LATEST_SHARE = (
    select(_SHARES.c.code, _SHARES.c.created_at, _SHARES.c.catalogue_version)
    .where(_SHARES.c.roster_id == bindparam("b_roster_id", type_=String))
    .order_by(_SHARES.c.created_at.desc())
    .limit(1)
)


def find_share(*, session: Session, roster_id: str, etag: str) -> Share | None:
    """The share of this roster with this exact snapshot, if it was shared before."""
    query = select(Share).where(Share.roster_id == roster_id, Share.etag == etag).limit(1)
    return session.exec(query).first()
