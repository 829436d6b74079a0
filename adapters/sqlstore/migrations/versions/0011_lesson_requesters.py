"""lesson requesters: support activates a lesson only from different requesters' episodes

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('memory_item', schema=None) as batch_op:
        # Lessons stored before this revision keep their status; they name no requester.
        batch_op.add_column(
            sa.Column('requesters', sa.JSON(), nullable=False, server_default='[]')
        )


def downgrade() -> None:
    with op.batch_alter_table('memory_item', schema=None) as batch_op:
        batch_op.drop_column('requesters')
