"""late revisions: our notes looked at again 1 h and 3 h after they went out

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('late_revision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('post_id', sa.String(length=512), nullable=False),
    sa.Column('window', sa.String(length=16), nullable=False),
    sa.Column('replaces_note_id', sa.String(length=600), nullable=False),
    sa.Column('test_mode', sa.Boolean(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.Text(), nullable=False),
    sa.Column('note_text', sa.Text(), nullable=True),
    sa.Column('cited_urls', sa.JSON(), nullable=False),
    sa.Column('added_sources', sa.JSON(), nullable=False),
    sa.Column('note_id', sa.String(length=600), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('decided_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['episode_id'], ['episode.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('post_id', 'window', name='uq_late_revision_window')
    )
    with op.batch_alter_table('late_revision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_late_revision_episode_id'), ['episode_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_late_revision_post_id'), ['post_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('late_revision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_late_revision_post_id'))
        batch_op.drop_index(batch_op.f('ix_late_revision_episode_id'))
    op.drop_table('late_revision')
