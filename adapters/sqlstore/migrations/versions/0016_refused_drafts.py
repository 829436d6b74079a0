"""episodes keep the rules that refused each of their drafts

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('episode', schema=None) as batch_op:
        # Episodes from before this revision kept no refusals: none is shown for them.
        batch_op.add_column(
            sa.Column('refused_drafts', sa.JSON(), nullable=False, server_default='[]')
        )


def downgrade() -> None:
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.drop_column('refused_drafts')
