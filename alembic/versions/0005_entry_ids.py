"""entry ids: every entry of a list that recorded battles gets a stable id, and each ledger
line's fighters name it, so that reordering or removing entries keeps a fighter's history

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02

No table changes: roster documents and battle lines are JSON. An entry that has an id keeps
it; a line's fighter gets the id of the entry standing at his index now (what the ledger
read before this revision). Lists without battles are left exactly as they were. Rows are
read one roster at a time (a big database never sits in memory at once).
"""

import secrets
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
roster = sa.table(
    "roster", sa.column("id", sa.String), sa.column("document", JSON_DOCUMENT)
)
battle = sa.table(
    "battle",
    sa.column("id", sa.Integer),
    sa.column("roster_id", sa.String),
    sa.column("fighters", JSON_DOCUMENT),
)


def with_ids(document: dict[str, Any]) -> dict[str, Any]:
    entries = document.get("entries") or []
    taken = {e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
    fresh_entries = []
    for entry in entries:
        if isinstance(entry, dict) and not isinstance(entry.get("id"), str):
            fresh = secrets.token_hex(4)
            while fresh in taken:
                fresh = secrets.token_hex(4)
            taken.add(fresh)
            entry = {**entry, "id": fresh}
        fresh_entries.append(entry)
    return {**document, "entries": fresh_entries}


def upgrade() -> None:
    bind = op.get_bind()
    gangs = [
        row[0]
        for row in bind.execute(sa.select(battle.c.roster_id).distinct().order_by("roster_id"))
    ]
    for roster_id in gangs:
        document = bind.execute(
            sa.select(roster.c.document).where(roster.c.id == roster_id)
        ).scalar()
        if not isinstance(document, dict):
            continue
        given = with_ids(document)
        if given != document:
            bind.execute(roster.update().where(roster.c.id == roster_id).values(document=given))
        entries = given.get("entries") or []
        lines = bind.execute(
            sa.select(battle.c.id, battle.c.fighters).where(battle.c.roster_id == roster_id)
        ).all()
        for line_id, fighters in lines:
            named = []
            for fighter in fighters or []:
                index = fighter.get("entry") if isinstance(fighter, dict) else None
                if (
                    isinstance(index, int)
                    and "id" not in fighter
                    and 0 <= index < len(entries)
                    and isinstance(entries[index], dict)
                ):
                    fighter = {**fighter, "id": entries[index]["id"]}
                named.append(fighter)
            if named != fighters:
                bind.execute(battle.update().where(battle.c.id == line_id).values(fighters=named))


def downgrade() -> None:
    # Revision 0004's documents refuse unknown fields: the entries' ids are taken out again
    # (the lines' fighters keep theirs, which 0004's code does not read).
    bind = op.get_bind()
    rows = bind.execute(sa.select(roster.c.id, roster.c.document)).all()
    for roster_id, document in rows:
        entries = (document or {}).get("entries") if isinstance(document, dict) else None
        if not entries or not any(isinstance(e, dict) and "id" in e for e in entries):
            continue
        bare = [
            {k: v for k, v in e.items() if k != "id"} if isinstance(e, dict) else e
            for e in entries
        ]
        bind.execute(
            roster.update().where(roster.c.id == roster_id).values(
                document={**document, "entries": bare}
            )
        )
