"""baseline: episode and step

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "episode",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("requester", sa.String(length=200), nullable=False),
        sa.Column("reply_platform", sa.String(length=32), nullable=False),
        sa.Column("reply_channel", sa.String(length=200), nullable=True),
        sa.Column("reply_thread", sa.String(length=200), nullable=True),
        sa.Column("reply_message", sa.String(length=200), nullable=True),
        sa.Column("post_ref", sa.Text(), nullable=False),
        sa.Column("post", sa.JSON(), nullable=False),
        sa.Column("post_created_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=100), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("search_s", sa.Float(), nullable=True),
        sa.Column("visit_s", sa.Float(), nullable=True),
        sa.Column("inference_s", sa.Float(), nullable=True),
        sa.Column("total_s", sa.Float(), nullable=True),
        sa.Column("turns", sa.Integer(), nullable=True),
        sa.Column("prompt_tokens", sa.Integer(), nullable=True),
        sa.Column("completion_tokens", sa.Integer(), nullable=True),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("memory_mode", sa.String(length=16), nullable=False),
        sa.Column("brief", sa.JSON(), nullable=True),
        sa.Column("note_text", sa.Text(), nullable=True),
        sa.Column("char_count", sa.Integer(), nullable=True),
        sa.Column("cited_urls", sa.JSON(), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("abstain_reason", sa.Text(), nullable=True),
        sa.Column("failure_reason", sa.Text(), nullable=True),
        sa.Column("retrieved_memory_ids", sa.JSON(), nullable=False),
        sa.Column("judged", sa.Boolean(), nullable=False),
        sa.Column("utility_mode", sa.String(length=32), nullable=True),
        sa.Column("judge_feedback", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("episode", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_episode_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_episode_judged"), ["judged"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_episode_post_created_at"), ["post_created_at"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_episode_status"), ["status"], unique=False)

    op.create_table(
        "step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("episode_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("phase", sa.String(length=32), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("observation", sa.Text(), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=True),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("latency_s", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["episode_id"],
            ["episode.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("episode_id", "index", name="uq_step_episode_index"),
    )
    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_step_episode_id"), ["episode_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("step", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_step_episode_id"))

    op.drop_table("step")
    with op.batch_alter_table("episode", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_episode_status"))
        batch_op.drop_index(batch_op.f("ix_episode_post_created_at"))
        batch_op.drop_index(batch_op.f("ix_episode_judged"))
        batch_op.drop_index(batch_op.f("ix_episode_created_at"))

    op.drop_table("episode")
