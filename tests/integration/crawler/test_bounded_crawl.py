"""Every crawl ends by itself (issue 24, bounded work): a list that never ends, a calendar
without a last day and a path that repeats for ever, crawled for real from a trap server
on 127.0.0.1 (`tests/trapsite.py`), stop at the crawl's limits, and the run's statistics
say which limit stopped them; a domain's queue holds no more than its limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from scrapy.utils.test import get_crawler
from sqlalchemy.orm import Session

from crawler import settings
from crawler.items import CrawledPage
from crawler.spiders.site import SiteSpider
from models import Source
from models.db import session_factory
from tests.crawling import followed, latest_run_stats, run_crawl, run_spider
from tests.trapsite import RECORDS_PER_PAGE, TrapServer

CHAIN = settings.PAGINATION_CHAIN_LIMIT
DEPTH = 3  # the crawl's default link hops


@pytest.fixture
def trap() -> Iterator[TrapServer]:
    with TrapServer() as server:
        yield server


def test_the_trap_ends_by_itself_with_default_settings(trap: TrapServer, pg_url: str,
                                                       tmp_path: Path) -> None:
    started = time.monotonic()
    done = run_crawl(trap.url + "/", pg_url, tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert time.monotonic() - started < 600
    stats = latest_run_stats(pg_url)
    assert stats["bounds/pagination_chain"] >= 2  # the list and the calendar
    # a list's chain, then at most a link per remaining hop past its end (its pager's numbers)
    assert CHAIN + 1 <= trap.hits["list"] <= CHAIN + 1 + DEPTH
    assert CHAIN + 1 <= trap.hits["calendar"] <= CHAIN + 1 + 2 * DEPTH
    assert trap.hits["item"] <= trap.hits["list"] * RECORDS_PER_PAGE
    assert stats["response_received_count"] <= settings.MAX_PAGES_PER_RUN
    assert "reached PAGINATION_CHAIN_LIMIT" in done.stderr
    assert "Traceback" not in done.stderr


def test_pagination_is_bounded_at_depth_zero(trap: TrapServer, pg_url: str,
                                             tmp_path: Path) -> None:
    done = run_crawl(f"{trap.url}/list?page=1,{trap.url}/calendar?day=2024-01-01", pg_url,
                     tmp_path, "-a", "depth=0", timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert trap.hits["list"] == trap.hits["calendar"] == CHAIN + 1  # the first, then CHAIN
    assert trap.hits["item"] == trap.hits["event"] == 0  # records are a hop away
    assert latest_run_stats(pg_url)["bounds/pagination_chain"] == 2
    assert done.stderr.count("reached PAGINATION_CHAIN_LIMIT") == 1  # once per source


def test_a_source_s_own_limits_win(trap: TrapServer, pg_url: str, tmp_path: Path) -> None:
    with session_factory(pg_url).begin() as session:
        add_source(session, "trap", [f"{trap.url}/list?page=1"], max_pages=None,
                   settings={"PAGINATION_CHAIN_LIMIT": 4})
    done = run_spider(pg_url, tmp_path, "-a", "source=trap", "-a", "depth=1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert trap.hits["list"] == 4 + 1 + 1  # the chain, then page 6 as a link of page 5
    assert trap.hits["item"] == (4 + 1) * RECORDS_PER_PAGE  # page 6's are a hop too far


def test_the_page_limit_holds_and_says_so(trap: TrapServer, pg_url: str,
                                          tmp_path: Path) -> None:
    done = run_crawl(trap.url + "/", pg_url, tmp_path, "-s", "MAX_PAGES_PER_RUN=30")
    assert done.returncode == 0, done.stderr[-3000:]
    assert trap.pages() == 30
    assert latest_run_stats(pg_url)["bounds/max_pages"] > 0
    assert done.stderr.count("reached its page limit (30 pages)") == 1


def test_a_repeating_path_is_not_followed(trap: TrapServer, pg_url: str,
                                          tmp_path: Path) -> None:
    done = run_crawl(trap.url + "/loop/", pg_url, tmp_path, "-a", "depth=20")
    assert done.returncode == 0, done.stderr[-3000:]
    # /loop/, /loop/a/b/ … /loop/a/b/a/b/a/b/: a fourth a/b is one repeat too many
    assert trap.hits["loop"] == settings.URL_REPEAT_LIMIT + 1
    assert latest_run_stats(pg_url)["bounds/url_trap"] == 1


def test_a_domain_s_queue_holds_its_limit_and_drops_the_rest(trap: TrapServer, pg_url: str,
                                                             tmp_path: Path) -> None:
    links = 300
    done = run_crawl(f"{trap.url}/hub?n={links}", pg_url, tmp_path, "-a", "depth=1",
                     "-s", "DOMAIN_QUEUE_LIMIT=20", "-s", "CONCURRENT_REQUESTS_PER_DOMAIN=1",
                     "-s", "CONCURRENT_REQUESTS=1")
    assert done.returncode == 0, done.stderr[-3000:]
    stats = latest_run_stats(pg_url)
    assert stats["scheduler/domain_queue_max"] == 20
    dropped = stats["bounds/domain_queue"]
    assert dropped >= links / 2  # the page's links arrive faster than one at a time leave
    # what was queued was fetched, and at most two siblings for the articles' template
    assert links - dropped <= trap.hits["item"] <= links - dropped + 2
    assert done.stderr.count("(DOMAIN_QUEUE_LIMIT): its new requests are dropped") == 1


def test_a_next_page_past_the_chain_that_is_also_a_link_goes_on_as_that_link(
        pg_url: str) -> None:
    """The spider asks once for a page its page names twice (next page and pager link);
    past the chain's end that request is the link's: one hop deeper, the page's chain."""
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/")
    page = CrawledPage(url="http://a.cn/?p=100", final_url="http://a.cn/?p=100", status=200,
                       body=b"", content_type="text/html", fetched_at=datetime.now(UTC),
                       depth=0, source_id=None, run_id=1)
    requests = asyncio.run(followed(spider, page, [], "http://a.cn/?p=101",
                                    ["http://a.cn/?p=99", "http://a.cn/?p=101"],
                                    pages_in_list=CHAIN))
    assert [(r.url, r.meta["depth"], r.meta["pagination_chain"]) for r in requests] == [
        ("http://a.cn/?p=101", 1, CHAIN), ("http://a.cn/?p=99", 1, CHAIN)]
    assert crawler.stats.get_value("bounds/pagination_chain") == 1
    assert "also_a_link" not in requests[0].meta


def test_a_record_keeps_its_list_s_chain(pg_url: str) -> None:
    """A list's last allowed page: its next page is kept out, its records are followed
    with the page's count, so a record that is itself a list cannot start the chain anew."""
    crawler = get_crawler(SiteSpider, settings_dict={"DATABASE_URL": pg_url})
    spider = SiteSpider.from_crawler(crawler, start_urls="http://a.cn/")
    page = CrawledPage(url="http://a.cn/?p=100", final_url="http://a.cn/?p=100", status=200,
                       body=b"", content_type="text/html", fetched_at=datetime.now(UTC),
                       depth=0, source_id=None, run_id=1)
    requests = asyncio.run(followed(spider, page, ["http://a.cn/r.html"], "http://a.cn/?p=101",
                                    [], pages_in_list=CHAIN))
    assert [(r.url, r.meta["pagination_chain"]) for r in requests] == [
        ("http://a.cn/r.html", CHAIN)]
    assert crawler.stats.get_value("bounds/pagination_chain") == 1
    record = replace(page, url="http://a.cn/r.html", final_url="http://a.cn/r.html", depth=1)
    assert not asyncio.run(followed(spider, record, [], "http://a.cn/r.html?p=2", [],
                                    pages_in_list=CHAIN))


def add_source(session: Session, name: str, urls: list[str], **fields: object) -> Source:
    source = Source(name=name, start_urls=urls, allowed_domains=[], page_type_rules=[],
                    **fields)
    session.add(source)
    session.flush()
    return source
