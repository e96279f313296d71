"""health alerts, and crawl_run's index by source and id (a source's latest runs)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 22:18:54.354348
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
_OPEN = sa.text("cleared_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "health_alert",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("origin", sa.String(length=200), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("raised_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cleared_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivery", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health_alert")),
    )
    with op.batch_alter_table("health_alert", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_health_alert_origin"), ["origin"], unique=False)
        batch_op.create_index(batch_op.f("ix_health_alert_raised_at"), ["raised_at"],
                              unique=False)
        batch_op.create_index("uq_health_alert_open_key", ["key"], unique=True,
                              postgresql_where=_OPEN, sqlite_where=_OPEN)
    with op.batch_alter_table("crawl_run", schema=None) as batch_op:
        batch_op.create_index("ix_crawl_run_source_id_id", ["source_id", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("crawl_run", schema=None) as batch_op:
        batch_op.drop_index("ix_crawl_run_source_id_id")
    with op.batch_alter_table("health_alert", schema=None) as batch_op:
        batch_op.drop_index("uq_health_alert_open_key")
        batch_op.drop_index(batch_op.f("ix_health_alert_raised_at"))
        batch_op.drop_index(batch_op.f("ix_health_alert_origin"))

    op.drop_table("health_alert")
