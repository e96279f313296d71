"""What a page's follow-up requests must pass before they are scheduled: spider middlewares,
one concern each, applied per request from its source (`request.meta["source_id"]`).

The spider yields every link it would follow (next page, list records, other links, in that
order of priority); on the way to the scheduler, nearest the spider first:

- `SourceDepthMiddleware` (Scrapy's DepthMiddleware, per source): a link is one hop deeper
  than its page, a next page as deep as its list; deeper than the source's `max_depth`: dropped;
- `SourceScopeMiddleware`: hosts outside the source's allowed domains are dropped;
- `KnownPagesMiddleware`: pages already requested in the run, and detail pages already
  stored (a revisit fetches only new ones), are dropped;
- `PageLimitMiddleware`: the run's requests are remembered, up to the source's `max_pages`;
- `EnqueueInBatchesMiddleware`: a scheduler that takes requests in batches (the cluster's)
  gets all of a page's requests in one, before the page's item goes on to be stored.

Start requests pass untouched (the spider admits them through `RequestedPages` itself).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import nullcontext
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.spidermiddlewares.depth import DepthMiddleware
from sqlalchemy.exc import SQLAlchemyError

from crawler.discovery import DISCOVERY
from crawler.known_pages import MEMO_LIMIT, KnownDetailPages
from crawler.sources import CrawlTarget
from models.db import session_factory
from models.schema import reason
from models.store import stored_page_types

logger = logging.getLogger(__name__)

# request.meta key: the request is its page's next page (same depth as the page).
PAGINATION = "pagination"


class RequestedPages:
    """The pages this worker requested, per run: each once, and no more than the source's
    `max_pages` (counted per worker: in a cluster the limit is per worker)."""

    def __init__(self) -> None:
        self._keys: set[str] = set()
        self._discovery: set[str] = set()

    def seen(self, run_id: object, url: str) -> bool:
        return f"{run_id}:{url}" in self._keys

    def admit(self, run_id: object, url: str, limit: int) -> bool:
        """Record a request for `url` unless it was requested or the limit (0: none) is
        reached. Past MEMO_LIMIT and without a limit the memo starts again (the Redis
        seen-set still dedupes)."""
        key = f"{run_id}:{url}"
        if len(self._keys) > MEMO_LIMIT and not limit:
            self._keys.clear()
        if key in self._keys or (limit and len(self._keys) >= limit):
            return False
        self._keys.add(key)
        return True

    def admit_discovery(self, run_id: object, url: str) -> bool:
        """A feed, sitemap or robots.txt once per run, outside the page limit (they are read,
        not stored)."""
        key = f"{run_id}:{url}"
        if key in self._discovery:
            return False
        self._discovery.add(key)
        return True


class _SourceMiddleware(BaseSpiderMiddleware):
    """A spider middleware that applies the limits of each request's source."""

    def target(self, request: Request) -> CrawlTarget:
        return self.crawler.spider.target_for(request.meta.get("source_id"))


class SourceDepthMiddleware(DepthMiddleware):
    """Scrapy's DepthMiddleware with the limit of the request's source instead of
    DEPTH_LIMIT, and pagination (`meta["pagination"]`) that keeps its list's depth: a
    board's 20th page is as near as its first.

    Settings: DEPTH_PRIORITY, DEPTH_STATS_VERBOSE (Scrapy's own)."""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None:  # start requests carry their depth
            return request
        pagination = request.meta.pop(PAGINATION, False) or DISCOVERY in request.meta
        request.meta["depth"] = depth = response.meta["depth"] + (0 if pagination else 1)
        if self.prio:
            request.priority -= depth * self.prio
        limit = self.crawler.spider.target_for(request.meta.get("source_id")).max_depth
        if not pagination and depth > limit:
            self.stats.inc_value("depth/request_ignored_count")
            return None
        if self.verbose_stats:
            self.stats.inc_value(f"request_depth_count/{depth}")
        self.stats.max_value("request_depth_max", depth)
        return request


class SourceScopeMiddleware(_SourceMiddleware):
    """Drop links outside their source's scope (`crawler.scope`) before they are queued;
    Scrapy's OffsiteMiddleware knows only the spider's domains, not each source's. (What
    gets past, a redirect, is checked again before it is fetched.)"""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None or self.target(request).scope.allows(request.url):
            return request
        self.crawler.stats.inc_value("scope/dropped_links")
        return None


class KnownPagesMiddleware(BaseSpiderMiddleware):
    """Drop a page's links already requested in its run, and those the store holds as
    articles (news, blog, forum): a revisit fetches only new ones. The store is asked once
    per page for all its links (`KnownDetailPages` batches pages too); if it cannot answer,
    every link is fetched (upserts make that harmless) and the outage is logged once.

    Settings: DATABASE_URL."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.database_url = crawler.settings.get("DATABASE_URL")
        self.known = KnownDetailPages(self._stored_types)
        self._store_unreadable = False

    async def process_spider_output_async(self, response: Response | None,
                                          result: AsyncIterator[Any],
                                          spider: object = None) -> AsyncIterator[Any]:
        requested = self.crawler.spider.requested
        outputs = [output async for output in result]
        fresh = {output.url for output in outputs if isinstance(output, Request)
                 and not requested.seen(output.meta.get("run_id"), output.url)}
        known = await self.known_details(fresh)
        for output in outputs:
            if not isinstance(output, Request) or (output.url in fresh
                                                   and output.url not in known):
                yield output

    async def known_details(self, urls: set[str]) -> set[str]:
        """Stored articles among these; none while the store cannot tell."""
        try:
            known = await self.known.among(urls)
        except SQLAlchemyError as error:
            if not self._store_unreadable:  # once per outage, not once per page
                logger.warning("cannot check stored URLs (%s); fetching all until the "
                               "database answers", reason(error))
                self._store_unreadable = True
            return set()
        self._store_unreadable = False
        self.crawler.stats.inc_value("frontier/known_skipped", len(known))
        return known

    def _stored_types(self, urls: list[str]) -> dict[str, str | None]:
        """Page type of each stored URL (runs in a thread: touches nothing but the database)."""
        with session_factory(self.database_url)() as session:
            return stored_page_types(session, urls)


class PageLimitMiddleware(_SourceMiddleware):
    """Each page once per run, and no more than the source's `max_pages` requests (feeds,
    sitemaps and robots.txt read for discovery once per run, outside the limit)."""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None:
            return request
        requested, run_id = self.crawler.spider.requested, request.meta.get("run_id")
        if DISCOVERY in request.meta:
            return request if requested.admit_discovery(run_id, request.url) else None
        admitted = requested.admit(run_id, request.url, self.target(request).max_pages)
        return request if admitted else None


class EnqueueInBatchesMiddleware(BaseSpiderMiddleware):
    """With a scheduler that has `batch()` (the cluster's: one Redis round trip per run for
    all of a page's links), schedule a page's requests together, then pass its item on: the
    links are queued (and counted in their run) before the page can be stored and its own
    request acknowledged, so a run never looks drained while its links are unqueued. Other
    schedulers get the output as it is. (The spider's callback is asynchronous: only
    `process_spider_output_async` sees its output.)"""

    async def process_spider_output_async(self, response: Response | None,
                                          result: AsyncIterator[Any],
                                          spider: object = None) -> AsyncIterator[Any]:
        engine = self.crawler.engine
        if not hasattr(engine.scheduler, "batch"):
            async for output in result:
                yield output
            return
        outputs = [output async for output in result]
        self.schedule([output for output in outputs if isinstance(output, Request)])
        for output in outputs:
            if not isinstance(output, Request):
                yield output

    def schedule(self, requests: Iterable[Request]) -> None:
        engine = self.crawler.engine
        with getattr(engine.scheduler, "batch", nullcontext)():
            for request in requests:
                engine.crawl(request)
