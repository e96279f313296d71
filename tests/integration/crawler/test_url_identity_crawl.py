"""URL identity in the crawl: the spider requests one spelling, and one article linked three
ways is one stored row."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from scrapy.utils.test import get_crawler

from crawler.items import CrawledPage
from crawler.spiders.site import SiteSpider
from tests.crawling import followed, run_crawl, stored


def test_the_spider_requests_one_spelling_and_honours_the_settings(pg_url: str) -> None:
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url,
                                                     "URL_TRACKING_PARAMETERS": "ref"})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/index.html?ref=x")
    start = [request.url for request in spider.start_run(spider.target)]
    assert start == ["http://a.cn/"]
    item = CrawledPage(url="http://a.cn/", final_url="http://a.cn/", status=200, body=b"",
                       content_type="text/html", fetched_at=datetime.now(UTC), depth=0,
                       source_id=None, run_id=spider.run_id)
    links = [f"http://a.cn{path}" for path in
             ("/a/", "/a/index.html", "/a/?ref=1", "/index.html", "/b/?utm_source=x")]
    requests = asyncio.run(followed(spider, item, [], None, links))
    assert [r.url for r in requests] == ["http://a.cn/a/", "http://a.cn/b/?utm_source=x"]


@pytest.fixture
def tiny_site(tmp_path: Path) -> Iterator[str]:
    """A home page that links one article three ways, served by http.server."""
    root = tmp_path / "site"
    (root / "a").mkdir(parents=True)
    (root / "index.html").write_text(
        "<html><head><title>Home</title></head><body><ul>"
        '<li><a href="/a/">An article</a></li><li><a href="/a/index.html">Again</a></li>'
        '<li><a href="/a/?utm_source=x&amp;utm_medium=mail">Tracked</a></li>'
        '<li><a href="/index.html">Home</a></li></ul></body></html>', encoding="utf-8")
    (root / "a" / "index.html").write_text(
        "<html><head><title>An article</title></head><body><h1>An article</h1>"
        + "<p>One article, linked under three spellings of its address.</p>" * 8
        + "</body></html>", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 partial(SimpleHTTPRequestHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_one_article_linked_three_ways_is_one_row(tiny_site: str, pg_url: str,
                                                  tmp_path: Path) -> None:
    done = run_crawl(tiny_site + "/index.html", pg_url, tmp_path / "journal", "-a", "depth=2")
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(stored(pg_url)) == [tiny_site + "/", tiny_site + "/a/"]
