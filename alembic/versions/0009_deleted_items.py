"""deleted items: a list, an army book or a book's unit deleted from the pages is kept, whole,
until `caserne prune` removes it, so that its deletion can be undone (issue 26: every removal
can be undone)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

A new table only (`deleted_item`): no existing row is read or rewritten. Downgrading drops
it, and with it the lists waiting there (they cannot be brought back by an older Caserne).
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deleted_item",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("parent_id", sa.String(length=32), nullable=True),
        sa.Column(
            "carnet_id",
            sa.String(length=32),
            sa.ForeignKey("carnet.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("system", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rows", sa.LargeBinary(), nullable=False),
    )
    op.create_index("ix_deleted_item_parent_id", "deleted_item", ["parent_id"])
    op.create_index("ix_deleted_item_carnet_id", "deleted_item", ["carnet_id"])
    op.create_index("ix_deleted_item_deleted_at", "deleted_item", ["deleted_at"])


def downgrade() -> None:
    op.drop_index("ix_deleted_item_deleted_at", table_name="deleted_item")
    op.drop_index("ix_deleted_item_carnet_id", table_name="deleted_item")
    op.drop_index("ix_deleted_item_parent_id", table_name="deleted_item")
    op.drop_table("deleted_item")
