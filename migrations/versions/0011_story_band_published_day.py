"""story bands carry their article's publication day, in the bucket index on PostgreSQL

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30 05:00:00.000000

A grouping pass drops the candidates published too far from its articles before it reads
their signatures (reading/stories.py, `_near`); the day comes with the bucket lookup, from
the index alone on PostgreSQL. The stored bands get their articles' days here (the index is
built again after, once). Every band row is written again: on PostgreSQL the table is then
rewritten in key order (CLUSTER), not left at twice its size with free space that new rows
would be scattered into, and it wants a VACUUM after (autovacuum does it on a stock server)
for its lookups to be index-only again. The migration holds the store's grouping turn: a crawl's
pass waits for it in its own thread while the crawl goes on storing.
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LOG = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    from reading.stories import take_grouping_turn

    bind = op.get_bind()
    take_grouping_turn(Session(bind=bind))
    op.add_column("story_band", sa.Column("published_day", sa.Integer(), nullable=True))
    if bind.dialect.name == "postgresql":
        op.drop_index("ix_story_band_bucket_article", table_name="story_band")
        op.execute("UPDATE story_band AS b SET published_day = "
                   "floor(extract(epoch FROM a.published_at) / 86400)::integer "
                   "FROM article AS a WHERE a.id = b.article_id AND a.published_at IS NOT NULL")
        _LOG.info("story bands dated; rewriting the table and building its indexes again")
        op.execute("CLUSTER story_band USING pk_story_band")
        op.create_index("ix_story_band_bucket_article", "story_band", ["bucket", "article_id"],
                        postgresql_include=["published_day"])
    else:
        # whole days since 1970 (a truncation: SQLite's floor() is an optional build)
        op.execute("UPDATE story_band SET published_day = (SELECT CAST(julianday("
                   "article.published_at) - 2440587.5 AS INTEGER) FROM article "
                   "WHERE article.id = story_band.article_id)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("ix_story_band_bucket_article", table_name="story_band")
        op.create_index("ix_story_band_bucket_article", "story_band", ["bucket", "article_id"])
    with op.batch_alter_table("story_band", schema=None) as batch_op:
        batch_op.drop_column("published_day")
