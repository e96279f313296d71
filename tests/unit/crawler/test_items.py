"""A page item's repr, which Scrapy logs when a stage fails, never carries its bytes."""

from __future__ import annotations

from datetime import UTC, datetime

from crawler.items import CrawledPage


def test_an_items_repr_shows_its_fetch_facts_not_its_body() -> None:
    body = b"DATABASE_URL=postgresql://u:secret@db/x\x00" * 100_000
    item = CrawledPage(url="https://a.cn/1.html", final_url="https://a.cn/1.html", status=200,
                       body=body, content_type="text/html", fetched_at=datetime.now(UTC),
                       document=object(), result=object())
    shown = repr(item)
    assert "https://a.cn/1.html" in shown and "status=200" in shown
    assert "secret" not in shown and len(shown) < 500
