"""Fetched pages and what was extracted from them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from models.base import Base


class Page(Base):
    """One URL as last fetched; a re-crawl updates this row, never adds another."""

    __tablename__ = "page"

    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str] = mapped_column(Text, unique=True)  # normalised (canonical) URL
    final_url: Mapped[str] = mapped_column(Text)
    status: Mapped[int]
    fetched_at: Mapped[datetime]
    first_seen_at: Mapped[datetime]
    content_hash: Mapped[str] = mapped_column(String(64))
    encoding: Mapped[str | None] = mapped_column(String(40))
    page_type: Mapped[str | None] = mapped_column(String(20), index=True)
    type_confidence: Mapped[float | None] = mapped_column(Float)
    type_decided_by: Mapped[str | None] = mapped_column(String(200))
    type_candidates: Mapped[list[Any]] = mapped_column(default=list)
    next_page_url: Mapped[str | None] = mapped_column(Text)
    source_id: Mapped[int | None] = mapped_column(ForeignKey("source.id", ondelete="SET NULL"),
                                                  index=True)
    crawl_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("crawl_run.id", ondelete="SET NULL"), index=True)
    # The revisit schedule (models/revisit.py): when the page is due again (None: never),
    # the interval that set it, fetches so far and when its content last changed.
    next_visit_at: Mapped[datetime | None] = mapped_column(index=True)
    revisit_seconds: Mapped[int | None]
    visits: Mapped[int] = mapped_column(default=1, server_default="1")
    last_changed_at: Mapped[datetime | None]
    # What a revisit sends and compares so an unchanged page costs no extraction: the
    # server's validators (If-None-Match, If-Modified-Since) and the hash of the raw body.
    etag: Mapped[str | None] = mapped_column(Text)
    last_modified: Mapped[str | None] = mapped_column(Text)
    body_hash: Mapped[str | None] = mapped_column(String(64))
    # A later page of a paginated thread: the thread's first page and this page's number;
    # its posts are comments of the thread's article.
    thread_url: Mapped[str | None] = mapped_column(Text)
    thread_page: Mapped[int | None]

    article: Mapped[Article | None] = relationship(back_populates="page",
                                                   cascade="all, delete-orphan")
    records: Mapped[list[ListRecord]] = relationship(back_populates="page",
                                                     cascade="all, delete-orphan",
                                                     order_by="ListRecord.position")


class Article(Base):
    """The article route's output for a news, blog or forum page."""

    __tablename__ = "article"

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"), unique=True)
    title: Mapped[str | None] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(Text)
    # The outlet the page credits (来源), which on Chinese portals often differs from the site.
    source: Mapped[str | None] = mapped_column(Text)
    published_at: Mapped[datetime | None] = mapped_column(index=True)
    published_raw: Mapped[str | None] = mapped_column(Text)
    language: Mapped[str | None] = mapped_column(String(16))
    body_text: Mapped[str] = mapped_column(Text, default="")
    body_html: Mapped[str] = mapped_column(Text, default="")
    body_seen_at: Mapped[datetime | None]  # since when the body reads as it does now

    page: Mapped[Page] = relationship(back_populates="article")
    comments: Mapped[list[Comment]] = relationship(
        back_populates="article", cascade="all, delete-orphan",
        order_by="[Comment.page_number, Comment.position]")
    versions: Mapped[list[ArticleVersion]] = relationship(
        back_populates="article", cascade="all, delete-orphan",
        order_by="ArticleVersion.replaced_at")


class ArticleVersion(Base):
    """An article's earlier text, kept when a revisit found it changed: an edited or
    retracted article shows what it said and when."""

    __tablename__ = "article_version"

    id: Mapped[int] = mapped_column(primary_key=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("article.id", ondelete="CASCADE"),
                                            index=True)
    title: Mapped[str | None] = mapped_column(Text)
    body_text: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str] = mapped_column(Text)
    seen_at: Mapped[datetime | None]  # when this text was first stored
    replaced_at: Mapped[datetime]  # the fetch that found a different text

    article: Mapped[Article] = relationship(back_populates="versions")


class Comment(Base):
    """A reader comment or forum reply, stored once whatever number of revisits see it:
    `key` is its identity in the article (pipelines.comment_keys); ordered by the thread
    page it was last seen on and its place there. One that disappears is marked gone,
    never deleted; one edited under the same identity keeps its row, with the new text."""

    __tablename__ = "comment"
    __table_args__ = (UniqueConstraint("article_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    article_id: Mapped[int] = mapped_column(ForeignKey("article.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(200))
    page_number: Mapped[int] = mapped_column(default=1, server_default="1")
    position: Mapped[int]
    author: Mapped[str | None] = mapped_column(Text)
    published_at: Mapped[datetime | None]
    text: Mapped[str] = mapped_column(Text)
    first_seen_at: Mapped[datetime | None]
    edited_at: Mapped[datetime | None]
    gone_at: Mapped[datetime | None]

    article: Mapped[Article] = relationship(back_populates="comments")


class ListRecord(Base):
    """One record of a list page, in page order."""

    __tablename__ = "list_record"
    __table_args__ = (UniqueConstraint("page_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("page.id", ondelete="CASCADE"))
    position: Mapped[int]
    title: Mapped[str | None] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text, index=True)
    date: Mapped[datetime | None]
    date_raw: Mapped[str | None] = mapped_column(Text)
    snippet: Mapped[str | None] = mapped_column(Text)
    extra: Mapped[dict[str, Any]] = mapped_column(default=dict)

    page: Mapped[Page] = relationship(back_populates="records")


class SiteTemplate(Base):
    """A learned site template (the boilerplate one page shares with a same-template sibling),
    shared by all workers, keyed by host and URL pattern."""

    __tablename__ = "site_template"
    __table_args__ = (UniqueConstraint("host", "url_pattern"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    url_pattern: Mapped[str] = mapped_column(Text)
    template: Mapped[dict[str, Any]]
    learned_at: Mapped[datetime]
    pages_matched: Mapped[int] = mapped_column(default=0)
