"""Whether a list is still kept: it exists, or waits in the trash to be restored (a deleted
list comes back from there with its versions and shares: app/store/trash.py). What
`caserne prune` spares of a list's versions (app/store/history.py) and shares
(app/store/retention.py)."""

from typing import Any

from sqlalchemy import ColumnElement, exists, or_, select

from app.store import table_of
from app.store.models import DeletedItem, Roster


def list_kept(roster_id: ColumnElement[Any]) -> ColumnElement[bool]:
    """Whether `roster_id` names a list that exists or waits in the trash."""
    rosters, waiting = table_of(Roster), table_of(DeletedItem)
    return or_(
        exists(select(rosters.c.id).where(rosters.c.id == roster_id)),
        exists(
            select(waiting.c.id).where(
                waiting.c.id == roster_id, waiting.c.kind == "roster"
            )  # trash.ROSTER (trash imports the modules that use this one)
        ),
    )
