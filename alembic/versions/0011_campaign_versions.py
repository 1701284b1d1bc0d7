"""campaign versions: a campaign counts its changes that no gang's version shows (a gang
joined, a line of the campaign recorded, confirmed, disputed or voided), so that its
standings and its gangs' public pages are remembered per version and answered with an ETag
(issue 29, docs/campaigns.md « Views remembered per version »)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06

One column on `campaign`, `version` (not null, 1 for every campaign made before): nothing
is rewritten. A campaign's first view after the upgrade is computed, as every view was.
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("campaign") as batch:
        batch.drop_column("version")
