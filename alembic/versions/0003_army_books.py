"""army books (a player's own units) and their published versions

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    # Two new tables; nothing existing changes (rosters, shares and carnets keep every row).
    op.create_table(
        "book",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("system", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("document", JSON_DOCUMENT, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("carnet_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["carnet_id"], ["carnet.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_book_system", "book", ["system"])
    op.create_index("ix_book_carnet_id", "book", ["carnet_id"])
    op.create_table(
        "book_share",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("book_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("system", sa.String(length=32), nullable=False),
        sa.Column("snapshot", JSON_DOCUMENT, nullable=False),
        sa.Column("etag", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code"),
    )
    op.create_index("ix_book_share_book_id", "book_share", ["book_id"])


def downgrade() -> None:
    op.drop_index("ix_book_share_book_id", table_name="book_share")
    op.drop_table("book_share")
    op.drop_index("ix_book_carnet_id", table_name="book")
    op.drop_index("ix_book_system", table_name="book")
    op.drop_table("book")
