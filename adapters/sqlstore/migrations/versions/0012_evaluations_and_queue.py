"""evaluations of notes before submission, evaluator outcomes, the submission queue

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('note_evaluation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('note_text', sa.Text(), nullable=False),
    sa.Column('claim_opinion_score', sa.Float(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('verdict', sa.String(length=16), nullable=False),
    sa.Column('evaluated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['episode_id'], ['episode.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('note_evaluation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_note_evaluation_episode_id'), ['episode_id'], unique=False)
    op.create_table('submission_queue',
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('requested_by', sa.String(length=200), nullable=False),
    sa.Column('test_mode', sa.Boolean(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('queued_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['episode_id'], ['episode.id'], ),
    sa.PrimaryKeyConstraint('episode_id')
    )
    with op.batch_alter_table('submission', schema=None) as batch_op:
        # Submissions from before this revision have no evaluator outcomes until the next sync.
        batch_op.add_column(
            sa.Column('evaluator_outcomes', sa.JSON(), nullable=False, server_default='[]')
        )


def downgrade() -> None:
    with op.batch_alter_table('submission', schema=None) as batch_op:
        batch_op.drop_column('evaluator_outcomes')
    op.drop_table('submission_queue')
    with op.batch_alter_table('note_evaluation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_note_evaluation_episode_id'))
    op.drop_table('note_evaluation')
