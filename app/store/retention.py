"""Which shares are kept, and `caserne prune` (issue 29; docs/retention.md).

A share is pinned, and never removed, when a battle line names it (`battle.share_code`: the
state of a gang after that battle, what its ledger and battle reports link to), when its
list is a gang of a campaign (`campaign_gang`: its public gang page is reached by any of its
share codes), or when it is the newest share of a list that exists (the link its editor,
its campaign's standings and its public ledger give). `battle.share_code` is the only
column that holds a roster share's code; army books and lists name book versions
(`book_share` codes, an entry's `source.book`), never roster shares.

Removable: an unpinned share not viewed for `days` days (its `last_viewed`, or its creation
when it was never viewed), and every share of a deleted list.
A removed share leaves its code in `share_gone`: its page answers 410, and the code is never
drawn again. Published book versions (`book_share`) are all kept: lists draw units from
them by code.
"""

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from app.db import primary_of
from app.store import no_row_has, table_of, trash
from app.store.listed import list_kept
from app.store.models import (
    Battle,
    CampaignGang,
    Share,
    ShareGone,
    utcnow,
)
from app.store.rosters import get_share

DEFAULT_DAYS = 180
BATCH = 500
# The shares one process recorded a view of today, at most this many (then forgotten: a
# forgotten share costs one more UPDATE that changes nothing).
VIEW_MARKS = 100_000


def today() -> date:
    return datetime.now(UTC).date()


class ViewMarks:
    """What spares a view its write: a share is marked viewed once a day per process; the
    UPDATE itself changes nothing when another process marked it today."""

    def __init__(self, limit: int = VIEW_MARKS) -> None:
        self.limit = limit
        self.day: date | None = None
        self.codes: set[str] = set()

    def due(self, code: str, day: date) -> bool:
        """True the first time `code` is seen on `day` (the caller then records the view)."""
        if day != self.day:
            self.day, self.codes = day, set()
        if code in self.codes:
            return False
        if len(self.codes) >= self.limit:
            self.codes.clear()
        self.codes.add(code)
        return True


VIEWS = ViewMarks()


def note_view(*, session: Session, code: str, day: date) -> None:
    """The share `code` was viewed on `day`: one UPDATE (none of its row when it is already
    marked that day), committed. A code no row can have (U+0000) writes nothing."""
    if no_row_has(code):
        return
    table = table_of(Share)
    session.execute(
        update(table)
        .where(table.c.code == code[:16])
        .where(or_(table.c.last_viewed.is_(None), table.c.last_viewed < day))
        .values(last_viewed=day)
    )
    session.commit()


def record_view(session: Session, code: str) -> None:
    """A public read of the share `code`: written when this process has not marked it today."""
    day = today()
    if VIEWS.due(code, day):
        note_view(session=session, code=code, day=day)


def viewed_share(session: Session, code: str) -> Share | None:
    """The share `code` a public route shows (or None), its view recorded (record_view) on
    the primary when `session` is a read session (app/deps.py, ReadSessionDep)."""
    record_view(primary_of(session), code)
    return get_share(session=session, code=code)


def note_view_in(factory: Callable[[], AbstractContextManager[Session]], code: str) -> None:
    """note_view in a session of its own (a page answered from memory has none)."""
    with factory() as session:
        note_view(session=session, code=code, day=today())


@dataclass(frozen=True)
class PruneReport:
    """What `caserne prune` found (dry run) or removed (`applied`)."""

    days: int
    cutoff: date
    applied: bool
    shares: int  # every share before the run
    expired_lists: int  # lists, books, units deleted over trash.TRASH_DAYS days ago (removed)
    deleted_lists: int  # removable: the shares of lists that no longer exist
    unviewed: int  # removable: not viewed since `cutoff`, of lists that exist (or of none)
    removable_bytes: int  # what their snapshots weigh as stored
    pinned_unviewed: int  # not viewed since `cutoff`, kept: pinned
    removed: int  # 0 on a dry run

    @property
    def removable(self) -> int:
        return self.deleted_lists + self.unviewed

    def lines(self) -> list[str]:
        verb = "removed" if self.applied else "would remove"
        count = self.removed if self.applied else self.removable
        return [
            f"caserne prune: {self.shares} shares; not viewed since {self.cutoff.isoformat()} "
            f"({self.days} days) or of a deleted list: {self.removable}",
            f"  of deleted lists: {self.deleted_lists}",
            f"  not viewed for {self.days} days: {self.unviewed}",
            f"  kept, pinned (a battle, a campaign, the newest of a list): {self.pinned_unviewed}",
            f"  their snapshots as stored: {self.removable_bytes} bytes",
            f"lists, books and units deleted more than {trash.TRASH_DAYS} days ago: "
            f"{self.expired_lists} ({'removed' if self.applied else 'would remove'})",
            f"{verb}: {count} shares"
            + ("" if self.applied else " (dry run: nothing removed; --apply removes)"),
        ]


def _conditions(cutoff: date) -> tuple[Any, ColumnElement[bool], ColumnElement[bool], Any]:
    """The share table and three conditions on its rows: pinned, of a deleted list, not
    viewed since `cutoff`."""
    share = table_of(Share)
    newer = aliased(Share)
    battle = table_of(Battle)
    list_exists = list_kept(share.c.roster_id)
    newest = (
        select(func.max(col(newer.created_at)))
        .where(col(newer.roster_id) == share.c.roster_id)
        .scalar_subquery()
    )
    gang = table_of(CampaignGang)
    pinned = or_(
        exists(select(battle.c.id).where(battle.c.share_code == share.c.code)),
        exists(select(gang.c.roster_id).where(gang.c.roster_id == share.c.roster_id)),
        and_(list_exists, share.c.created_at >= newest),
    )
    deleted_list = and_(share.c.roster_id.is_not(None), not_(list_exists))
    since = datetime.combine(cutoff, time(0), tzinfo=UTC)
    unviewed = or_(
        and_(share.c.last_viewed.is_not(None), share.c.last_viewed < cutoff),
        and_(share.c.last_viewed.is_(None), share.c.created_at < since),
    )
    return share, pinned, deleted_list, unviewed


def prune(
    *, session: Session, days: int = DEFAULT_DAYS, apply: bool = False, on: date | None = None
) -> PruneReport:
    """The report of what the policy removes on `on` (today); with `apply`, removes it,
    BATCH shares a transaction, each leaving its code in share_gone."""
    day = on or today()
    cutoff = day - timedelta(days=days)
    # Lists deleted more than trash.TRASH_DAYS ago go first: their shares are then those
    # of a deleted list.
    trash_cutoff = datetime.combine(day, time(0), tzinfo=UTC) - timedelta(days=trash.TRASH_DAYS)
    expired = trash.expired(session=session, before=trash_cutoff)
    if apply:
        trash.purge(session=session, before=trash_cutoff)
    share, pinned, deleted_list, unviewed = _conditions(cutoff)
    removable = and_(not_(pinned), or_(deleted_list, unviewed))
    one = func.count()
    counts = session.execute(
        select(
            one,
            func.sum(case((and_(removable, deleted_list), 1), else_=0)),
            func.sum(case((and_(removable, not_(deleted_list)), 1), else_=0)),
            func.sum(case((removable, func.length(share.c.snapshot)), else_=0)),
            func.sum(case((and_(pinned, unviewed), 1), else_=0)),
        ).select_from(share)
    ).one()
    removed = 0
    if apply:
        gone = table_of(ShareGone)
        batch = (
            select(share.c.code)
            .where(removable, share.c.code > bindparam("after"))
            .order_by(share.c.code)
            .limit(BATCH)
        )
        after = ""
        while codes := list(session.execute(batch, {"after": after}).scalars()):
            after, stamp = codes[-1], utcnow()
            session.execute(insert(gone), [{"code": code, "gone_at": stamp} for code in codes])
            session.execute(delete(share).where(share.c.code.in_(codes)))
            session.commit()
            removed += len(codes)
    session.commit()
    return PruneReport(
        days=days,
        cutoff=cutoff,
        applied=apply,
        shares=int(counts[0]),
        expired_lists=expired,
        deleted_lists=int(counts[1] or 0),
        unviewed=int(counts[2] or 0),
        removable_bytes=int(counts[3] or 0),
        pinned_unviewed=int(counts[4] or 0),
        removed=removed,
    )
