"""Builders of storage records for tests: the same shape the crawl journals."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from models.stored import FetchFacts, stored_page
from pipelines.process import PageResult
from pipelines.results import ArticleData, CommentData, ListData, PageTypeDecision, RecordData


def article_page(url: str, body: str = "正文第一段。\n\n正文第二段。",
                 comments: tuple[str, ...] = ("好文章！", "同意楼上。")) -> dict[str, Any]:
    article = ArticleData(title="标题", author="记者 张三",
                          published_at=datetime(2026, 11, 20, 10, 0, tzinfo=UTC),
                          published_raw="2026年11月20日 18:00", language="zh",
                          content_text=body, content_html=f"<div>{body}</div>",
                          comments=[CommentData(text=t, author=f"网友{i}")
                                    for i, t in enumerate(comments)])
    result = PageResult(PageTypeDecision("news", 0.93, "classifier"), article=article)
    return stored_page(_facts(url), result)


def list_page(url: str, record_urls: tuple[str, ...], body: str | None = None) -> dict[str, Any]:
    """A list page; with a `body`, one the classifier was unsure of, which keeps its text."""
    listing = ListData(records=[RecordData(title=f"记录 {i}", url=u, date_raw="2026-11-20")
                                for i, u in enumerate(record_urls)],
                       next_page=url + "?page=2")
    decision = (PageTypeDecision("list", 0.6, "classifier") if body is not None
                else PageTypeDecision("list", 0.88, "rule:url-list"))
    article = ArticleData(title="栏目", content_text=body) if body is not None else None
    return stored_page(_facts(url), PageResult(decision, article=article, listing=listing))


def _facts(url: str) -> FetchFacts:
    return FetchFacts(url=url, final_url=url, status=200, fetched_at=datetime.now(UTC),
                      encoding="utf-8")
