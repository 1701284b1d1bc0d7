"""compressed shares: snapshots stored as zlib of their compact JSON, the day a share was last
viewed, the codes of removed shares (issue 29: shares were 80–90 % of the database)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05

`share.snapshot` and `book_share.snapshot` go from JSON (PostgreSQL jsonb) to LargeBinary
(SQLite BLOB, PostgreSQL bytea) holding the zlib stream of the document's compact UTF-8 JSON
text (app/store/compressed.py reads and writes it; this file keeps its own copy of the
format, so that later changes to the app never change what this revision wrote). Rows are
converted in batches of BATCH, by code, into a new column that then takes the old one's
place: no row is lost, and memory stays bounded whatever the table's size. Downgrading
converts them back to JSON.

`share.last_viewed` (a date, nullable) is what `caserne prune` reads: views were not
recorded before this revision, so every share it finds counts as viewed on the day of the
upgrade. `share_gone` keeps the codes `caserne prune` removed (their pages answer 410), and
`battle.share_code` gets an index (prune asks of every share whether a battle line names it).
Downgrading drops all three: a removed share's page answers 404 again.
"""

import json
import zlib
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500
TABLES = ("share", "book_share")
JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def pack(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode(), 6)


def as_document(stored: Any) -> Any:
    """A JSON column's value as a select gives it: text on SQLite, parsed on PostgreSQL."""
    return json.loads(stored) if isinstance(stored, str | bytes) else stored


def unpack(stored: Any) -> Any:
    return json.loads(zlib.decompress(bytes(stored)))


def convert(table: str, into: sa.Column[Any], change: Callable[[Any], Any]) -> None:
    """Fills `into` (a new column of `table`) with change(snapshot) for every row, BATCH rows
    at a time in the order of their codes, then gives it the name and place of `snapshot`."""
    bind = op.get_bind()
    op.add_column(table, into)
    rows = sa.table(table, sa.column("code", sa.String()), sa.column("snapshot"))
    target = sa.table(table, sa.column("code", sa.String()), sa.column(into.name, into.type))
    read = (
        sa.select(rows.c.code, rows.c.snapshot)
        .where(rows.c.code > sa.bindparam("after"))
        .order_by(rows.c.code)
        .limit(BATCH)
    )
    write = (
        sa.update(target)
        .where(target.c.code == sa.bindparam("b_code"))
        .values({into.name: sa.bindparam("b_value", type_=into.type)})
    )
    after = ""
    while batch := bind.execute(read, {"after": after}).all():
        bind.execute(write, [{"b_code": code, "b_value": change(value)} for code, value in batch])
        after = batch[-1][0]
    with op.batch_alter_table(table) as alter:
        alter.drop_column("snapshot")
        alter.alter_column(
            into.name, new_column_name="snapshot", existing_type=into.type, nullable=False
        )


def upgrade() -> None:
    for table in TABLES:
        convert(
            table,
            sa.Column("snapshot_z", sa.LargeBinary(), nullable=True),
            lambda stored: pack(as_document(stored)),
        )
    op.add_column("share", sa.Column("last_viewed", sa.Date(), nullable=True))
    shares = sa.table("share", sa.column("last_viewed", sa.Date()))
    op.execute(sa.update(shares).values(last_viewed=datetime.now(UTC).date()))
    op.create_index("ix_battle_share_code", "battle", ["share_code"])
    op.create_table(
        "share_gone",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("gone_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code"),
    )


def downgrade() -> None:
    op.drop_table("share_gone")
    op.drop_index("ix_battle_share_code", table_name="battle")
    with op.batch_alter_table("share") as alter:
        alter.drop_column("last_viewed")
    for table in TABLES:
        convert(table, sa.Column("snapshot_j", JSON_DOCUMENT, nullable=True), unpack)
