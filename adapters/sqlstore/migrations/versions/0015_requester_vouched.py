"""episodes say whether a moderator vouches for their requester

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('episode', schema=None) as batch_op:
        # Episodes from before this revision vouch for no one: their lessons need a moderator.
        batch_op.add_column(
            sa.Column('requester_vouched', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.drop_column('requester_vouched')
