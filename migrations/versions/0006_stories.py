"""stories

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 19:41:47.577981
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "article_story",
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.Column("story_id", sa.Integer(), nullable=False),
        sa.Column("signature", sa.LargeBinary(), nullable=True),
        sa.Column("shingles", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["article_id"],
            ["article.id"],
            name=op.f("fk_article_story_article_id_article"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("article_id", name=op.f("pk_article_story")),
    )
    with op.batch_alter_table("article_story", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_article_story_story_id"), ["story_id"], unique=False)

    op.create_table(
        "story_band",
        sa.Column("article_id", sa.Integer(), nullable=False),
        sa.Column("band", sa.SmallInteger(), nullable=False),
        sa.Column("bucket", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["article_id"],
            ["article.id"],
            name=op.f("fk_story_band_article_id_article"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("article_id", "band", name=op.f("pk_story_band")),
    )
    with op.batch_alter_table("story_band", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_story_band_bucket"), ["bucket"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("story_band", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_story_band_bucket"))

    op.drop_table("story_band")
    with op.batch_alter_table("article_story", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_article_story_story_id"))

    op.drop_table("article_story")
