"""story lines: pages per site sentence, the template a story copy is not confirmed on

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28 10:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "story_line",
        sa.Column("key", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("pages", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_story_line")),
    )


def downgrade() -> None:
    op.drop_table("story_line")
