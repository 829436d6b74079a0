"""request keys and approvals

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_key', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('approved_by', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('approved_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_episode_request_key'), ['request_key'], unique=True)




def downgrade() -> None:
    
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_episode_request_key'))
        batch_op.drop_column('approved_at')
        batch_op.drop_column('approved_by')
        batch_op.drop_column('request_key')


