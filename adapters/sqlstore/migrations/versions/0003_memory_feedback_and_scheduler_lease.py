"""memory, feedback and scheduler lease

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    
    op.create_table('memory_audit',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('item_id', sa.Integer(), nullable=False),
    sa.Column('actor', sa.String(length=200), nullable=False),
    sa.Column('action', sa.String(length=32), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('memory_audit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_memory_audit_item_id'), ['item_id'], unique=False)

    op.create_table('memory_item',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('phase', sa.Enum('CLAIM_ANALYSIS', 'EVIDENCE_ACQUISITION', 'NOTE_WRITING', name='memoryphase'), nullable=False),
    sa.Column('trigger', sa.Text(), nullable=False),
    sa.Column('strategy', sa.Text(), nullable=False),
    sa.Column('rationale', sa.Text(), nullable=False),
    sa.Column('kind', sa.Enum('AVOID', 'IMPROVE', 'REUSE', name='lessonkind'), nullable=False),
    sa.Column('source_episodes', sa.JSON(), nullable=False),
    sa.Column('learned_from_post_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('support', sa.Integer(), nullable=False),
    sa.Column('uses', sa.Integer(), nullable=False),
    sa.Column('votes_up', sa.Integer(), nullable=False),
    sa.Column('votes_down', sa.Integer(), nullable=False),
    sa.Column('status', sa.Enum('PROVISIONAL', 'ACTIVE', 'RETIRED', name='lessonstatus'), nullable=False),
    sa.Column('why_retired', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('memory_item', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_memory_item_learned_from_post_at'), ['learned_from_post_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_memory_item_phase'), ['phase'], unique=False)
        batch_op.create_index(batch_op.f('ix_memory_item_status'), ['status'], unique=False)

    op.create_table('scheduler_lease',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('owner', sa.String(length=200), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    op.create_table('feedback',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('platform', sa.String(length=32), nullable=False),
    sa.Column('user', sa.String(length=200), nullable=False),
    sa.Column('vote', sa.Integer(), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('event_id', sa.String(length=200), nullable=False),
    sa.Column('applied_to_memory', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['episode_id'], ['episode.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', name='uq_feedback_event')
    )
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_feedback_applied_to_memory'), ['applied_to_memory'], unique=False)
        batch_op.create_index(batch_op.f('ix_feedback_episode_id'), ['episode_id'], unique=False)




def downgrade() -> None:
    
    with op.batch_alter_table('feedback', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_feedback_episode_id'))
        batch_op.drop_index(batch_op.f('ix_feedback_applied_to_memory'))

    op.drop_table('feedback')
    op.drop_table('scheduler_lease')
    with op.batch_alter_table('memory_item', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_memory_item_status'))
        batch_op.drop_index(batch_op.f('ix_memory_item_phase'))
        batch_op.drop_index(batch_op.f('ix_memory_item_learned_from_post_at'))

    op.drop_table('memory_item')
    with op.batch_alter_table('memory_audit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_memory_audit_item_id'))

    op.drop_table('memory_audit')

