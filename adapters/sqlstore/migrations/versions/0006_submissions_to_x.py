"""submissions to X

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    op.create_table('submission',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('post_id', sa.String(length=32), nullable=False),
    sa.Column('note_id', sa.String(length=64), nullable=False),
    sa.Column('test_mode', sa.Boolean(), nullable=False),
    sa.Column('classification', sa.String(length=64), nullable=False),
    sa.Column('misleading_tags', sa.JSON(), nullable=False),
    sa.Column('claim_opinion_score', sa.Float(), nullable=True),
    sa.Column('submitted_by', sa.String(length=200), nullable=False),
    sa.Column('status', sa.String(length=64), nullable=True),
    sa.Column('status_history', sa.JSON(), nullable=False),
    sa.Column('submitted_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['episode_id'], ['episode.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_submission_episode_id'), ['episode_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_submission_post_id'), ['post_id'], unique=True)




def downgrade() -> None:
    
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_submission_post_id'))
        batch_op.drop_index(batch_op.f('ix_submission_episode_id'))

    op.drop_table('submission')

