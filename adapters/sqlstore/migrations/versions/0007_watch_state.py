"""watch state

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    op.create_table('watch_state',
    sa.Column('key', sa.String(length=300), nullable=False),
    sa.Column('newest_id', sa.String(length=32), nullable=True),
    sa.Column('user_id', sa.String(length=32), nullable=True),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )



def downgrade() -> None:
    
    op.drop_table('watch_state')

