"""battle verdicts: a line naming another gang of the campaign is that gang's to confirm or
dispute, the organiser may void a line, and a gang's own recording of a battle already
recorded against it confirms that line (docs/campaigns.md « Who says a battle happened »)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04

Three nullable columns on `battle`, nothing rewritten: a line stored before this revision
has no verdict (read as « à confirmer », counted as it was) and is not voided. One nullable
column on `campaign`, `join_code`: null for a campaign made before (its code was stored
hashed only; its organiser makes a new link, docs/campaigns.md « The organiser's page »).
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.add_column(sa.Column("verdict", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("confirms_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("join_code", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("join_code")
    with op.batch_alter_table("battle") as batch:
        batch.drop_column("confirms_id")
        batch.drop_column("voided_at")
        batch.drop_column("verdict")
