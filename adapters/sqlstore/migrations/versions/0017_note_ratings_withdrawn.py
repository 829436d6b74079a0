"""submissions keep X's rating counts so far and when we withdrew the note

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        # Submissions from before this revision have no counts until the next sync.
        batch_op.add_column(sa.Column('ratings', sa.JSON(), nullable=False, server_default='{}'))
        batch_op.add_column(sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_column('withdrawn_at')
        batch_op.drop_column('ratings')
