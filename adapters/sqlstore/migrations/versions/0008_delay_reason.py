"""delay reason

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.add_column(sa.Column('delay_reason', sa.Text(), nullable=True))




def downgrade() -> None:
    
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.drop_column('delay_reason')


