"""submissions name their destination (X, Open Community Notes); at:// URIs as ids

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        # Submissions from before this revision all went to X.
        batch_op.add_column(
            sa.Column('destination', sa.String(length=16), nullable=False, server_default='x')
        )
        batch_op.alter_column(
            'note_id', existing_type=sa.String(length=64), type_=sa.String(length=600)
        )
        batch_op.alter_column(
            'post_id', existing_type=sa.String(length=32), type_=sa.String(length=512)
        )


def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.alter_column(
            'post_id', existing_type=sa.String(length=512), type_=sa.String(length=32)
        )
        batch_op.alter_column(
            'note_id', existing_type=sa.String(length=600), type_=sa.String(length=64)
        )
        batch_op.drop_column('destination')
