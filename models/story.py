"""Stories: articles that are copies of one another (reprints of the same wire copy with
new headlines, bylines and templates) share a story id.

Each grouped article keeps its MinHash signature and its locality-sensitive band keys; a
new article's candidates are the newest articles sharing a band key with it (one indexed
lookup), so the candidates it meets stay bounded at any store size. Rows go with their
article (a rewritten article is grouped again). A candidate is confirmed on the text its
site does not repeat: each sentence of a grouped body, keyed with its site, counts the
pages it is on.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Index, LargeBinary, SmallInteger
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base


class ArticleStory(Base):
    """An article's story and the signature it was grouped by."""

    __tablename__ = "article_story"

    article_id: Mapped[int] = mapped_column(ForeignKey("article.id", ondelete="CASCADE"),
                                            primary_key=True)
    # The id of the story's first grouped article: a label shared by the copies.
    story_id: Mapped[int] = mapped_column(index=True)
    signature: Mapped[bytes | None] = mapped_column(LargeBinary)  # None: too short to compare
    shingles: Mapped[int] = mapped_column(default=0)  # distinct shingles signed


class StoryBand(Base):
    """One band key of an article's signature: equal keys make two articles candidates.
    Indexed by bucket and article, so a bucket's newest members are read from the index
    alone, however many articles share it, with their publication day: a candidate
    published too far from the articles it would be a copy of is left before its signature
    is read (on PostgreSQL the index carries the day; SQLite reads it from the row)."""

    __tablename__ = "story_band"
    __table_args__ = (Index("ix_story_band_bucket_article", "bucket", "article_id",
                            postgresql_include=["published_day"]),)

    article_id: Mapped[int] = mapped_column(ForeignKey("article.id", ondelete="CASCADE"),
                                            primary_key=True)
    band: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    bucket: Mapped[int] = mapped_column(BigInteger)  # names its band too
    # The article's publication, in days since 1970-01-01 UTC; None: not known.
    published_day: Mapped[int | None]


class StoryLine(Base):
    """How many grouped pages of one site hold a sentence (the key names both): one on many
    is the site's template, not the article's text. Counts only grow (a regrouped article
    counts again)."""

    __tablename__ = "story_line"

    key: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    pages: Mapped[int] = mapped_column(default=0)
