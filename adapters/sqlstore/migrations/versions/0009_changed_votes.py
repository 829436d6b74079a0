"""changed votes (the vote already applied to the lessons, so a change applies the
difference) and the kind of an episode's failure (rejected input apart from failures)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('applied_vote', sa.Integer(), nullable=False, server_default='0')
        )
    op.execute("UPDATE feedback SET applied_vote = vote WHERE applied_to_memory")
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failure_kind', sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('episode', schema=None) as batch_op:
        batch_op.drop_column('failure_kind')
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        batch_op.drop_column('applied_vote')
