"""share lookups: a list's newest share and its share of one snapshot, a book's newest
version, each an index lookup (issue 29)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05

The single-column indexes on `share.roster_id` and `book_share.book_id` give way to
composite ones that start with the same column (every lookup by that column alone still
uses them): `(roster_id, created_at)` for the newest share, `(roster_id, etag)` for the
share of one exact snapshot, `(book_id, created_at)` for a book's newest version. Indexes
only: no row is read or rewritten.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_share_roster_id_created_at", "share", ["roster_id", "created_at"])
    op.create_index("ix_share_roster_id_etag", "share", ["roster_id", "etag"])
    op.drop_index("ix_share_roster_id", table_name="share")
    op.create_index("ix_book_share_book_id_created_at", "book_share", ["book_id", "created_at"])
    op.drop_index("ix_book_share_book_id", table_name="book_share")


def downgrade() -> None:
    op.create_index("ix_book_share_book_id", "book_share", ["book_id"])
    op.drop_index("ix_book_share_book_id_created_at", table_name="book_share")
    op.create_index("ix_share_roster_id", "share", ["roster_id"])
    op.drop_index("ix_share_roster_id_etag", table_name="share")
    op.drop_index("ix_share_roster_id_created_at", table_name="share")
