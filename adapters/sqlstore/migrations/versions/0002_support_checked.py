"""episode.support_checked: whether every sentence was checked against its sources

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("episode", schema=None) as batch_op:
        batch_op.add_column(sa.Column("support_checked", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("episode", schema=None) as batch_op:
        batch_op.drop_column("support_checked")
