"""roster versions: every save of a list kept, its document compressed, its total and what
changed in a player's words (issue 30, « Every save kept »; docs/history.md)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06

A new table `roster_version`, one row per kept save: (roster_id, version) its key. No
foreign key, as `share` has none: a list deleted from the pages waits in the trash
(`deleted_item`, revision 0009) and comes back with its versions; `caserne prune` removes
the versions of a list that is neither there nor in the trash. Upgrading gives every
existing list one version: its current document at its current version, dated by its last
change, its total read from its stored card, summarised « Version enregistrée avant
l'historique ». Rosters are read BATCH at a time, by id (memory stays bounded whatever the
table's size); no roster row is changed. Downgrading drops the table (the rosters are as
they were).

The document is stored as app/store/compressed.py stores a share's snapshot (the zlib
stream of its compact UTF-8 JSON text); this file keeps its own copy of the format, so that
later changes to the app never change what this revision wrote.
"""

import json
import zlib
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500
JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BEFORE_HISTORY = "Version enregistrée avant l'historique"


def pack(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode(), 6)


def as_document(stored: Any) -> Any:
    """A JSON column's value as a select gives it: text on SQLite, parsed on PostgreSQL."""
    return json.loads(stored) if isinstance(stored, str | bytes) else stored


def points_of(card: Any) -> int | None:
    """The points a stored card says the list spends (None: no card, no points)."""
    card = as_document(card)
    if not isinstance(card, dict):
        return None
    for budget in card.get("budgets") or []:
        if isinstance(budget, dict) and budget.get("id") == "points":
            used = budget.get("used")
            return int(used) if isinstance(used, int | float) else None
    return None


def upgrade() -> None:
    op.create_table(
        "roster_version",
        sa.Column("roster_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("document", sa.LargeBinary(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("summary", JSON_DOCUMENT, nullable=False),
        sa.Column("counts", JSON_DOCUMENT, nullable=True),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("roster_id", "version"),
    )
    bind = op.get_bind()
    rosters = sa.table(
        "roster",
        sa.column("id", sa.String()),
        sa.column("version", sa.Integer()),
        sa.column("updated_at", sa.DateTime(timezone=True)),
        sa.column("document"),
        sa.column("card"),
    )
    versions = sa.table(
        "roster_version",
        sa.column("roster_id", sa.String()),
        sa.column("version", sa.Integer()),
        sa.column("saved_at", sa.DateTime(timezone=True)),
        sa.column("document", sa.LargeBinary()),
        sa.column("points", sa.Integer()),
        sa.column("summary", JSON_DOCUMENT),
        sa.column("origin", sa.String()),
    )
    read = (
        sa.select(
            rosters.c.id,
            rosters.c.version,
            rosters.c.updated_at,
            rosters.c.document,
            rosters.c.card,
        )
        .where(rosters.c.id > sa.bindparam("after"))
        .order_by(rosters.c.id)
        .limit(BATCH)
    )
    after = ""
    while batch := bind.execute(read, {"after": after}).all():
        bind.execute(
            sa.insert(versions),
            [
                {
                    "roster_id": roster_id,
                    "version": version,
                    "saved_at": updated_at,
                    "document": pack(as_document(document)),
                    "points": points_of(card),
                    "summary": [BEFORE_HISTORY],
                    "origin": "upgrade",
                }
                for roster_id, version, updated_at, document, card in batch
            ],
        )
        after = batch[-1][0]


def downgrade() -> None:
    op.drop_table("roster_version")
