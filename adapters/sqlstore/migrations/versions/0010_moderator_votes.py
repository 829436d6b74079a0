"""moderator votes: only a moderator's vote moves a lesson's standing (others are recorded)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        # Votes stored before this revision were counted as moderators' votes: kept so.
        batch_op.add_column(
            sa.Column('moderator', sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        batch_op.drop_column('moderator')
