"""campaigns: a roster's ledger of battles, campaigns, their gangs, a carnet's campaigns

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("system", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("join_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "campaign_gang",
        sa.Column("campaign_id", sa.String(length=32), nullable=False),
        sa.Column("roster_id", sa.String(length=32), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["roster_id"], ["roster.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "roster_id"),
    )
    op.create_index("ix_campaign_gang_roster_id", "campaign_gang", ["roster_id"])
    op.create_table(
        "carnet_campaign",
        sa.Column("carnet_id", sa.String(length=32), nullable=False),
        sa.Column("campaign_id", sa.String(length=32), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["carnet_id"], ["carnet.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaign.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("carnet_id", "campaign_id"),
    )
    op.create_table(
        "battle",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("roster_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.String(length=32), nullable=True),
        sa.Column("opponent_roster_id", sa.String(length=32), nullable=True),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("opponent", sa.String(length=100), nullable=False),
        sa.Column("scenario", sa.String(length=100), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("score", JSON_DOCUMENT, nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("fighters", JSON_DOCUMENT, nullable=False),
        sa.Column("recruits", JSON_DOCUMENT, nullable=False),
        sa.Column("corrects", sa.Integer(), nullable=True),
        sa.Column("share_code", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["roster_id"], ["roster.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("roster_id", "number", name="uq_battle_roster_number"),
    )
    op.create_index("ix_battle_roster_id", "battle", ["roster_id"])
    op.create_index("ix_battle_campaign_id", "battle", ["campaign_id"])
    op.create_index("ix_battle_opponent_roster_id", "battle", ["opponent_roster_id"])


def downgrade() -> None:
    op.drop_index("ix_battle_opponent_roster_id", table_name="battle")
    op.drop_index("ix_battle_campaign_id", table_name="battle")
    op.drop_index("ix_battle_roster_id", table_name="battle")
    op.drop_table("battle")
    op.drop_table("carnet_campaign")
    op.drop_index("ix_campaign_gang_roster_id", table_name="campaign_gang")
    op.drop_table("campaign_gang")
    op.drop_table("campaign")
