"""carnets (a player's library) and each roster's stored summary card

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # Existing rosters get no card: the library computes it once, at its first view, and
    # stores it (app/carnet_service.py).
    with op.batch_alter_table("roster") as batch:
        batch.add_column(sa.Column("card", JSON_DOCUMENT, nullable=True))
    op.create_table(
        "carnet",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("key_changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
    )
    op.create_table(
        "carnet_roster",
        sa.Column("carnet_id", sa.String(length=32), nullable=False),
        sa.Column("roster_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["carnet_id"], ["carnet.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["roster_id"], ["roster.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("carnet_id", "roster_id"),
    )
    op.create_index("ix_carnet_roster_roster_id", "carnet_roster", ["roster_id"])


def downgrade() -> None:
    op.drop_index("ix_carnet_roster_roster_id", table_name="carnet_roster")
    op.drop_table("carnet_roster")
    op.drop_table("carnet")
    with op.batch_alter_table("roster") as batch:
        batch.drop_column("card")
