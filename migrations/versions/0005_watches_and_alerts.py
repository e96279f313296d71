"""watches and alerts

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 19:27:47.785589
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "watch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column(
            "filters",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "targets",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("matched_through", sa.Integer(), nullable=False),
        sa.Column("started_after", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watch")),
        sa.UniqueConstraint("name", name=op.f("uq_watch_name")),
    )
    op.create_table(
        "alert",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("watch_id", sa.Integer(), nullable=False),
        sa.Column("story_key", sa.String(length=100), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("ref_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("snippet", sa.Text(), nullable=False),
        sa.Column("site", sa.String(length=255), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["watch_id"], ["watch.id"], name=op.f("fk_alert_watch_id_watch"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert")),
        sa.UniqueConstraint("watch_id", "story_key", name=op.f("uq_alert_watch_id_story_key")),
    )
    with op.batch_alter_table("alert", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alert_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_alert_watch_id"), ["watch_id"], unique=False)

    op.create_table(
        "alert_delivery",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("alert_id", sa.Integer(), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["alert_id"],
            ["alert.id"],
            name=op.f("fk_alert_delivery_alert_id_alert"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_delivery")),
        sa.UniqueConstraint("alert_id", "target", name=op.f("uq_alert_delivery_alert_id_target")),
    )
    with op.batch_alter_table("alert_delivery", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alert_delivery_alert_id"), ["alert_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_alert_delivery_status"), ["status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("alert_delivery", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alert_delivery_status"))
        batch_op.drop_index(batch_op.f("ix_alert_delivery_alert_id"))

    op.drop_table("alert_delivery")
    with op.batch_alter_table("alert", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alert_watch_id"))
        batch_op.drop_index(batch_op.f("ix_alert_created_at"))

    op.drop_table("alert")
    op.drop_table("watch")
