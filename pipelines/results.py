"""Plain result records that the algorithms return and the CLI / store consume.

They carry no Scrapy or SQLAlchemy types, so every algorithm stays reusable alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

PAGE_TYPES = ("news", "blog", "forum", "list", "other")
ARTICLE_TYPES = ("news", "blog", "forum")


@dataclass
class PageTypeDecision:
    """Which type a page is, how sure we are, and what decided it (a rule name or 'classifier')."""

    page_type: str
    confidence: float
    decided_by: str
    candidates: list[tuple[str, float]] = field(default_factory=list)


@dataclass
class CommentData:
    """One reader comment or forum reply, kept apart from the body."""

    text: str
    author: str | None = None
    published_at: datetime | None = None
    published_raw: str | None = None
    anchor: str | None = None  # its own handle on the page (comments.identity), if any


@dataclass
class ArticleData:
    """What the article route extracts from a news, blog or forum page."""

    title: str | None = None
    author: str | None = None
    source: str | None = None  # the 来源 / originating outlet named in the byline
    published_at: datetime | None = None
    published_raw: str | None = None
    language: str | None = None
    content_text: str = ""
    content_html: str = ""
    comments: list[CommentData] = field(default_factory=list)
    next_page: str | None = None  # a forum thread's next page (article.thread_pages)
    post_anchor: str | None = None  # a thread's opening post's own handle on the page
    thread_url: str | None = None  # on a thread's later page: the thread's first page
    thread_page: int | None = None  # and this page's number (article.thread_pages)


@dataclass
class RecordData:
    """One record mined from a list page."""

    title: str | None
    url: str | None
    date: datetime | None = None
    date_raw: str | None = None
    snippet: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class ListData:
    """What record mining extracts from a list page."""

    records: list[RecordData] = field(default_factory=list)
    next_page: str | None = None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def comment_json(comment: CommentData) -> dict[str, Any]:
    return {"author": comment.author, "published_at": _iso(comment.published_at),
            "text": comment.text, "anchor": comment.anchor}


def record_json(record: RecordData) -> dict[str, Any]:
    """Field by field: `dataclasses.asdict` deep-copies through every field, a measurable
    share of a crawl worker's time per page."""
    return {"title": record.title, "url": record.url, "date": _iso(record.date),
            "date_raw": record.date_raw, "snippet": record.snippet, "extra": dict(record.extra)}
