"""retired carnet keys: the hashes of a carnet's last keys before a rotation, so that an old
key is told from a wrong one (issue 28: `carnet_key_rotated`)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07

A new table only (`retired_key`): no existing row is read or rewritten. Downgrading drops
it (old keys are then refused as wrong ones, as before).
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "retired_key",
        sa.Column("key_hash", sa.String(length=64), primary_key=True),
        sa.Column(
            "carnet_id",
            sa.String(length=32),
            sa.ForeignKey("carnet.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_retired_key_carnet_id", "retired_key", ["carnet_id"])


def downgrade() -> None:
    op.drop_index("ix_retired_key_carnet_id", table_name="retired_key")
    op.drop_table("retired_key")
