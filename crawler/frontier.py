"""What a page's follow-up requests must pass before they are scheduled: spider middlewares,
one concern each, applied per request from its source (`request.meta["source_id"]`).

The spider yields every link it would follow (next page, list records, other links, in that
order of priority); on the way to the scheduler, nearest the spider first:

- `SourceDepthMiddleware` (Scrapy's DepthMiddleware, per source): a link is one hop deeper
  than its page, a next page as deep as its list; deeper than the source's `max_depth`: dropped;
  a next page further down its list's chain than PAGINATION_CHAIN_LIMIT: dropped;
- `SourceScopeMiddleware`: hosts outside the source's allowed domains are dropped;
- `UrlTrapMiddleware`: URLs whose segments or query pairs repeat (`crawler.traps`) are dropped;
- `KnownPagesMiddleware`: pages already requested in the run, and detail pages already
  stored (a revisit fetches only new ones), are dropped;
- `PageLimitMiddleware`: the run's requests are remembered, up to the source's page limit
  (`crawler.bounds`; in a cluster the run's shared count holds it across workers);
- `EnqueueInBatchesMiddleware`: a scheduler that takes requests in batches (the cluster's)
  gets all of a page's requests in one, before the page's item goes on to be stored.

Start requests pass untouched (the spider admits them through `RequestedPages` itself).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import nullcontext
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.spidermiddlewares.depth import DepthMiddleware
from sqlalchemy.exc import SQLAlchemyError

from crawler import settings as defaults
from crawler.bounds import Bounds
from crawler.database import connect_options
from crawler.discovery import DISCOVERY
from crawler.known_pages import MEMO_LIMIT, KnownDetailPages
from crawler.sources import CrawlTarget
from crawler.traps import repeats_too_often
from models.db import session_factory
from models.schema import reason
from models.store import stored_details

logger = logging.getLogger(__name__)

# request.meta keys: the request is its page's next page (same depth as the page); how many
# next pages lead from the list's first page to the request's (its records keep the count).
PAGINATION = "pagination"
CHAIN = "pagination_chain"
ALSO_A_LINK = "also_a_link"  # a next page the page links to as well (the spider asks once)


class RequestedPages:
    """The pages this worker requested, per run: each once, and no more than the source's
    page limit (counted per worker; in a cluster the run's shared count in Redis holds the
    limit across workers, `crawler.cluster.enqueue`)."""

    def __init__(self) -> None:
        self._keys: set[str] = set()
        self._per_run: Counter[object] = Counter()
        self._discovery: set[str] = set()

    def seen(self, run_id: object, url: str) -> bool:
        return f"{run_id}:{url}" in self._keys

    def admit(self, run_id: object, url: str, limit: int) -> bool:
        """Record a request for `url` unless it was requested or its run's limit (0: none)
        is reached. Past MEMO_LIMIT the memo of URLs starts again (the scheduler's seen-set
        still dedupes); the runs' counts go on."""
        key = f"{run_id}:{url}"
        if len(self._keys) > MEMO_LIMIT:
            self._keys.clear()
        if key in self._keys or (limit and self._per_run[run_id] >= limit):
            return False
        self._keys.add(key)
        self._per_run[run_id] += 1
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

    def bounds(self, request: Request) -> Bounds:
        return self.crawler.spider.bounds_for(request.meta.get("source_id"))


class SourceDepthMiddleware(DepthMiddleware):
    """Scrapy's DepthMiddleware with the limit of the request's source instead of
    DEPTH_LIMIT, and pagination (`meta["pagination"]`) that keeps its list's depth: a
    board's 20th page is as near as its first. Pagination is bounded apart: a next page one
    further down its list's chain than the source's PAGINATION_CHAIN_LIMIT is dropped (a
    list that never ends, a calendar's next day for ever, at any depth); when the page
    links to it too (`meta["also_a_link"]`), it goes on as that link, one hop deeper. A
    record or link keeps its page's chain, so a trap cannot restart the count through a
    record.

    Settings: DEPTH_PRIORITY, DEPTH_STATS_VERBOSE (Scrapy's own), PAGINATION_CHAIN_LIMIT."""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None:  # start requests carry their depth
            return request
        pagination = request.meta.pop(PAGINATION, False) or DISCOVERY in request.meta
        also_a_link = request.meta.pop(ALSO_A_LINK, False)
        spider = self.crawler.spider
        source_id = request.meta.get("source_id")
        chain = response.meta.get(CHAIN, 0) + (1 if pagination else 0)
        chain_limit = spider.bounds_for(source_id).pagination_chain
        if pagination and chain_limit and chain > chain_limit:
            spider.kept_out(request.meta, "pagination_chain", source_id, "a list reached "
                            "PAGINATION_CHAIN_LIMIT (%d pages in a row) at %s", chain_limit,
                            response.url)
            if not also_a_link:
                return None
            pagination, chain = False, chain - 1  # a link of its page now: one hop deeper
        request.meta["depth"] = depth = response.meta["depth"] + (0 if pagination else 1)
        request.meta[CHAIN] = chain
        if self.prio:
            request.priority -= depth * self.prio
        if not pagination and depth > spider.target_for(source_id).max_depth:
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


class UrlTrapMiddleware(_SourceMiddleware):
    """Drop links whose URL repeats a path segment or query pair more often than the
    source's URL_REPEAT_LIMIT (`crawler.traps`), before they are queued.

    Settings: URL_REPEAT_LIMIT."""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None or not repeats_too_often(request.url,
                                                      self.bounds(request).url_repeats):
            return request
        host = urlsplit(request.url).netloc
        self.crawler.spider.kept_out(request.meta, "url_trap", host, "a URL of %s repeats "
                                     "its path segments or query (URL_REPEAT_LIMIT): %s",
                                     host, request.url[:200])
        return None


class KnownPagesMiddleware(BaseSpiderMiddleware):
    """Drop a page's links already requested in its run, and those the store holds as
    articles (news, blog, forum) not yet due for a revisit: a run fetches new ones and due
    ones (the spider's clock says when). The store is asked once
    per page for all its links (`KnownDetailPages` batches pages too); if it cannot answer,
    or has not answered within DATABASE_STALL_SECONDS (a partition), every link is fetched
    (upserts make that harmless) and the outage is logged once; while the outage's query
    hangs, pages do not wait for it.

    Settings: DATABASE_URL, DATABASE_STALL_SECONDS and the connection's DATABASE_* timeouts."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.database_url = crawler.settings.get("DATABASE_URL")
        self.options = connect_options(crawler.settings)
        self.stall_seconds = crawler.settings.getfloat("DATABASE_STALL_SECONDS",
                                                       defaults.DATABASE_STALL_SECONDS)
        self.known = KnownDetailPages(self._stored_details)
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
        """Stored articles not due among these; none while the store cannot tell."""
        if self._store_unreadable and self.known.busy:
            return set()  # the outage's query has not come back
        try:
            known = await asyncio.wait_for(self.known.among(urls, self.crawler.spider.clock()),
                                           self.stall_seconds)
        except (SQLAlchemyError, TimeoutError) as error:
            if not self._store_unreadable:  # once per outage, not once per page
                why = (reason(error) if isinstance(error, SQLAlchemyError)
                       else f"no answer in {self.stall_seconds:.0f} s")
                logger.warning("cannot check stored URLs (%s); fetching all until the "
                               "database answers", why)
                self._store_unreadable = True
            return set()
        self._store_unreadable = False
        self.crawler.stats.inc_value("frontier/known_skipped", len(known))
        return known

    def _stored_details(self, urls: list[str]) -> dict[str, datetime | None]:
        """Stored articles and their next visit (runs in a thread: touches only the database)."""
        with session_factory(self.database_url, self.options)() as session:
            return stored_details(session, urls)


class PageLimitMiddleware(_SourceMiddleware):
    """Each page once per run, and no more than the source's page limit (its `max_pages`,
    else MAX_PAGES_PER_RUN); feeds, sitemaps and robots.txt read for discovery once per
    run, outside the limit."""

    def get_processed_request(self, request: Request,
                              response: Response | None) -> Request | None:
        if response is None:
            return request
        requested, run_id = self.crawler.spider.requested, request.meta.get("run_id")
        if DISCOVERY in request.meta:
            return request if requested.admit_discovery(run_id, request.url) else None
        limit = self.bounds(request).max_pages
        if requested.admit(run_id, request.url, limit):
            return request
        if not requested.seen(run_id, request.url):
            self.crawler.spider.kept_out(request.meta, "max_pages", run_id, "run %s reached "
                                         "its page limit (%d pages)", run_id, limit)
        return None


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
