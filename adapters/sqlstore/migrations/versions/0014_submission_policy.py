"""submissions keep the send policy that chose them (forecast order, bar, explore)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        # Submissions from before this revision were sent first come.
        batch_op.add_column(sa.Column('policy', sa.JSON(), nullable=False, server_default='{}'))


def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_column('policy')
