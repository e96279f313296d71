"""story bands indexed by bucket and article: a bucket's newest members from the index alone

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29 10:55:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("story_band", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_story_band_bucket"))
        batch_op.create_index("ix_story_band_bucket_article", ["bucket", "article_id"],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table("story_band", schema=None) as batch_op:
        batch_op.drop_index("ix_story_band_bucket_article")
        batch_op.create_index(batch_op.f("ix_story_band_bucket"), ["bucket"], unique=False)
