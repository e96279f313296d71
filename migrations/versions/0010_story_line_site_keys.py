"""story lines keyed by site first: a site's sentence counts side by side in the index

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29 13:00:00.000000

A sentence's key now starts with its site's bits (reading/story_text.py, `_keyed`), so the
counts a crawl adds touch its sites' part of the index, not pages all over it. Keys are
digests and cannot be converted: the counts are taken again from the grouped articles'
bodies, with the store's own sentence keys (the application's code, as the crawl that counts
next will use it), a chunk of articles at a time, each chunk logged. The migration holds
the store's grouping turn (`take_grouping_turn`): a crawl's grouping pass waits for it in its
own thread while the crawl goes on storing. Workers still on the earlier code until `up`
replaces them count their sentences under the earlier keys, rows no later pass reads.
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_CHUNK = 5000  # articles read and counted at a time
_LOG = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    from models.bulk import insert_rows
    from models.search.terms import normalise
    from reading.stories import take_grouping_turn
    from reading.story_text import sentence_pages, story_texts

    bind = op.get_bind()
    session = Session(bind=bind)
    take_grouping_turn(session)
    op.execute("DELETE FROM story_line")
    op.execute("CREATE TEMPORARY TABLE story_line_counted (key BIGINT NOT NULL, "
               "pages INTEGER NOT NULL)")
    counted = sa.table("story_line_counted", sa.column("key", sa.BigInteger()),
                       sa.column("pages", sa.Integer()))
    total = bind.scalar(sa.text("SELECT count(*) FROM article_story")) or 0
    last, done = 0, 0
    while rows := bind.execute(sa.text(
            "SELECT article.id, article.body_text, page.url FROM article "
            "JOIN article_story ON article_story.article_id = article.id "
            "JOIN page ON page.id = article.page_id WHERE article.id > :last "
            "ORDER BY article.id LIMIT :chunk"), {"last": last, "chunk": _CHUNK}).all():
        texts = story_texts([normalise(body or "") for _, body, _ in rows],
                            [url for *_, url in rows])
        insert_rows(session, counted, ("key", "pages"),
                    list(sentence_pages(text for _, text in texts).items()))
        last, done = rows[-1][0], done + len(rows)
        _LOG.info("counted the sentences of %s of %s grouped articles", f"{done:,}",
                  f"{total:,}")
    # summed once, into the empty index in key order: an upsert a chunk wrote its keys all
    # over a growing index
    op.execute("INSERT INTO story_line (key, pages) SELECT key, sum(pages) "
               "FROM story_line_counted GROUP BY key ORDER BY key")
    op.execute("DROP TABLE story_line_counted")


def downgrade() -> None:
    # the earlier keys are digests of what is no longer computed: the counts start again
    op.execute("DELETE FROM story_line")
