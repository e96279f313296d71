"""Run the real `scrapy crawl site` command in a subprocess, as a user or cron would."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.misc import load_object
from sqlalchemy import select

from crawler import settings
from crawler.frontier import CHAIN
from crawler.items import CrawledPage
from crawler.spiders.site import SiteSpider
from models import CrawlRun, Page
from models.db import session_factory

ROOT = Path(__file__).resolve().parent.parent


def run_crawl(start_urls: str | None, database_url: str, journal_dir: Path, *options: str,
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`scrapy crawl site -a start_urls=…` with the given extra `-a`/`-s` options (no
    start_urls argument when None, as for `-a source=NAME`)."""
    seeds = ("-a", f"start_urls={start_urls}") if start_urls is not None else ()
    return run_spider(database_url, journal_dir, *seeds, *options, timeout=timeout)


def run_spider(database_url: str, journal_dir: Path, *options: str, timeout: float = 300,
               redis_url: str | None = None) -> subprocess.CompletedProcess[str]:
    """`scrapy crawl site` with exactly the given `-a`/`-s` options (a worker of the
    cluster at `redis_url` if given)."""
    env = {**os.environ, "DATABASE_URL": database_url, "JOURNAL_DIR": str(journal_dir)}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    level = os.environ.get("CRAWL_LOG_LEVEL", "INFO")
    command = [sys.executable, "-m", "scrapy", "crawl", "site",
               "-s", f"LOG_LEVEL={level}", "-s", "AUTOTHROTTLE_ENABLED=False", *options]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)


def stored(database_url: str) -> dict[str, Page]:
    """Every stored page by URL, with its article and records loaded."""
    with session_factory(database_url)() as session:
        pages = session.scalars(select(Page)).all()
        for page in pages:
            _ = page.article and page.article.comments, page.records
        return {page.url: page for page in pages}


def latest_run_stats(database_url: str) -> dict[str, object]:
    with session_factory(database_url)() as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        assert run is not None and run.finished_at is not None
        return run.stats


async def followed(spider: SiteSpider, item: CrawledPage, records: list[str],
                   next_page: str | None, links: list[str], pages_in_list: int = 0
                   ) -> list[Request]:
    """The spider's follow-up requests after `item` (its list's `pages_in_list`-th next page),
    as they leave the project's spider middlewares (depth, pagination chain, scope, known
    pages, page limit) for the scheduler."""
    crawler = spider.crawler
    crawler.spider = spider
    chain = sorted((order, path) for path, order in settings.SPIDER_MIDDLEWARES.items()
                   if order is not None and path.startswith("crawler.frontier.")
                   and not path.endswith("EnqueueInBatchesMiddleware"))
    response = HtmlResponse(item.url, body=b"", request=Request(item.url, meta={
        "depth": item.depth, "run_id": item.run_id, "source_id": item.source_id,
        CHAIN: pages_in_list}))

    async def output() -> AsyncIterator[Request]:
        for request in spider.follow_up(item, records, next_page, links):
            yield request

    result: AsyncIterator[Any] = output()
    for _, path in reversed(chain):  # nearest the spider first
        middleware = load_object(path).from_crawler(crawler)
        process = getattr(middleware, "process_spider_output_async",
                          middleware.process_spider_output)
        result = process(response, result)
    return [request async for request in result]
