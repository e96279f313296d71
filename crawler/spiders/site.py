"""`scrapy crawl site`: crawl any site from start URLs or a stored Source, alone or as one
of many workers sharing a Redis frontier (when REDIS_URL is set).

The callback reads each page once through the page layer (`crawler.pages`: decode,
classify, template, extract) and yields what to fetch next, the next page and list
records first, then other links, and then the page's item, which the item pipeline
stores. The source's depth, scope and page limits and the stored-page check are spider
middlewares (`crawler.frontier`). Every request carries plain, serialisable meta: run_id,
source_id, depth (and, in distributed mode, the ticket the cluster ledger counts it by).
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import scrapy
from pydispatch.dispatcher import getAllReceivers
from redis.exceptions import RedisError
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Response
from scrapy.settings import BaseSettings
from scrapy_redis.spiders import RedisMixin
from sqlalchemy.exc import SQLAlchemyError
from twisted.python.failure import Failure

from crawler.arguments import SpiderArguments
from crawler.bounds import Bounds, LimitLog
from crawler.cluster import connection
from crawler.cluster.ledger import RunLedger
from crawler.cluster.runs import push_start_urls
from crawler.discovery import SEED, Discovery, DiscoveryRead, listed_at
from crawler.frontier import ALSO_A_LINK, PAGINATION, RequestedPages
from crawler.items import CrawledPage
from crawler.pages import PageReader
from crawler.patches.robots import RobotsForbidden
from crawler.revisits import (
    NOT_MODIFIED,
    REVISIT,
    THREAD_PAGE,
    THREAD_URL,
    conditional_request_options,
    due_revisits,
    revisits_per_run,
)
from crawler.run_record import run_drained
from crawler.scope import OutOfScope
from crawler.sources import CrawlTarget, target_from_source
from crawler.urls import DEFAULT_IDENTITY, UrlIdentity, canonical_or_none, normalise_url
from models.db import session_factory
from models.schema import DatabaseUnreachable, check_schema, reason
from models.source_settings import FEEDS_ONLY, LINKS_ONLY
from models.stored import body_hash
from pipelines import feed_links, later_thread_pages

# Priorities: higher is fetched sooner. Fresh list records and pagination lead.
PRIORITY_START = 100
PRIORITY_NEXT_PAGE = 60
PRIORITY_RECORD = 50
# A due revisit goes after the run's new articles (list records, feed and sitemap entries
# from 55 down to 5), before plain links: behind a burst of revisits a new article waited
# for all of them (the live demo: docs/BENCHMARKS.md, "Freshness").
PRIORITY_REVISIT = 2
PRIORITY_LINK = 0
# signal: `value` added to the statistic `name` of the request whose meta is `meta`
counted = object()
_SKIPPED_TYPES = (b"image/", b"audio/", b"video/", b"application/pdf", b"application/zip",
                  b"application/octet-stream", b"font/")


def start_priority(meta: dict[str, Any]) -> int:
    """A run's own request: a start URL first, a due revisit after the new articles."""
    return PRIORITY_REVISIT if REVISIT in meta else PRIORITY_START


class SiteSpider(RedisMixin, scrapy.Spider):
    """-a start_urls=URL[,URL…] | -a source=NAME, optional -a max_pages=N -a depth=N
    -a allowed_domains=HOST[,HOST…] -a timezone=ZONE (the IANA zone the sites write their
    times in, where a page's domain or language does not settle it). With REDIS_URL set and
    no arguments: a worker that takes whatever the shared queue holds.

    Settings: DATABASE_URL, REDIS_URL, URL_TRACKING_PARAMETERS, URL_DIRECTORY_INDEXES,
    MAX_IDLE_TIME_BEFORE_CLOSE (scrapy-redis's, counted from the last response)."""

    name = "site"
    ledger: RunLedger | None = None  # set by the cluster scheduler in distributed mode
    _counted_receivers: bool | None = None  # whether anything listens to `counted`

    def __init__(self, **kwargs: Any) -> None:
        self.arguments = SpiderArguments.parse(kwargs)  # ArgumentError names a wrong one
        super().__init__(**self.arguments.passed_by_tools)
        self._targets: dict[int | None, CrawlTarget] = {}
        self._bounds: dict[int | None, Bounds] = {}
        self.limits = LimitLog()
        self.requested = RequestedPages()
        self.run_id: int | None = None
        self.url_identity: UrlIdentity = DEFAULT_IDENTITY
        self._robots_hosts: set[str] = set()
        self._refused_hosts: set[str] = set()
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # tests inject theirs

    @classmethod
    def preflight(cls, settings: BaseSettings, given: Mapping[str, Any]) -> None:
        """What a crawl with these settings and `-a` arguments would refuse, raised before
        Scrapy starts (by `crawler.commands.crawl`) as one line: ArgumentError, or
        DatabaseNotReady when the database has no schema or an outdated one. An unreachable
        database is left to the crawl (its items are journalled) unless a source must be
        read from it."""
        arguments = SpiderArguments.parse(given)
        distributed = bool(settings.get("REDIS_URL"))
        arguments.check_given(distributed)
        try:
            check_schema(settings.get("DATABASE_URL"))
        except DatabaseUnreachable:
            if arguments.source:
                raise
            return
        arguments.target(settings.get("DATABASE_URL"), distributed)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> SiteSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.database_url = crawler.settings.get("DATABASE_URL")
        spider.distributed = bool(crawler.settings.get("REDIS_URL"))
        spider.url_identity = UrlIdentity.from_settings(crawler.settings)
        spider.pages = PageReader(crawler)
        spider.discovery = Discovery(spider, crawler.settings)
        spider.target = spider.arguments.target(spider.database_url, spider.distributed)
        if spider.target is not None:
            spider._targets[spider.target.source_id] = spider.target
        crawler.signals.connect(spider.item_lost, signal=signals.item_dropped)
        crawler.signals.connect(spider.item_lost, signal=signals.item_error)
        if spider.distributed:
            spider.setup_redis(crawler)
        return spider

    def target_for(self, source_id: int | None) -> CrawlTarget:
        """The limits and rules of the source a request belongs to (loaded once)."""
        if source_id not in self._targets:
            self._targets[source_id] = target_from_source(None, self.database_url, source_id)
        return self._targets[source_id]

    def bounds_for(self, source_id: int | None) -> Bounds:
        """The limits of the source a request belongs to (`crawler.bounds`)."""
        if source_id not in self._bounds:
            self._bounds[source_id] = Bounds.of(self.target_for(source_id),
                                                self.crawler.settings)
        return self._bounds[source_id]

    def use_target(self, target: CrawlTarget) -> None:
        """The crawl's plan as recorded (an ad-hoc cluster crawl gets a source id)."""
        self.target = target
        self._targets[target.source_id] = target
        self._bounds.pop(target.source_id, None)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.target is not None:
            for request in self.start_run(self.target):
                yield request
        if self.distributed:
            for request in self.next_requests():
                yield request

    def start_run(self, target: CrawlTarget) -> Iterator[scrapy.Request]:
        """The run's start URLs and its source's articles due for a revisit (its record was
        made when the spider opened, `crawler.run_record`): alone, requests to fetch; in a
        cluster, shared in Redis."""
        revisits = self.due_revisits(target)
        if self.distributed:
            push_start_urls(self.server, self.name, self.run_id, target.source_id,
                            target.start_urls, revisits)
            return
        run = {"run_id": self.run_id, "source_id": target.source_id, "depth": 0}
        for url, extra in [*((url, {}) for url in target.start_urls), *revisits]:
            request = self.page_request(url, {**run, **extra}, start_priority(extra),
                                        refresh=True)
            if request is not None:
                yield request

    def due_revisits(self, target: CrawlTarget) -> list[tuple[str, dict[str, Any]]]:
        """The source's stored articles due now (`crawler.revisits`); none for a crawl
        without a stored source, or while the database cannot tell (logged)."""
        if target.source_id is None:
            return []
        limit = revisits_per_run(self.settings, target.settings)
        try:
            with session_factory(self.database_url)() as session:
                return due_revisits(session, target.source_id, self.clock(), limit)
        except SQLAlchemyError as error:
            self.logger.warning("no revisits this run: the database cannot say which pages "
                                "are due (%s)", reason(error))
            return []

    def spider_idle(self) -> None:
        """scrapy-redis counts idle time from start-up; count it from the last response, so a
        busy worker does not exit in a momentary lull (MAX_IDLE_TIME_BEFORE_CLOSE)."""
        received = self.crawler.stats.get_value("response_received_count", 0)
        if received != getattr(self, "_received_at_idle", None):
            self._received_at_idle = received
            self.spider_idle_start_time = int(time.time())
        try:
            super().spider_idle()
        except RedisError as error:  # the scheduler logs the outage; the worker waits it out
            raise DontCloseSpider from error

    def setup_redis(self, crawler: Crawler | None = None) -> None:
        """scrapy-redis's set-up, on a connection that rides out a Redis restart."""
        super().setup_redis(crawler)
        self.server = connection.from_settings((crawler or self.crawler).settings)
        self.count_size = self.server.llen

    def make_request_from_data(self, data: bytes) -> scrapy.Request | None:
        """A start URL pushed to Redis by a run's starter: {"url", "meta"}."""
        entry = json.loads(data)
        meta = entry.get("meta", {})
        return self.page_request(entry["url"], meta, start_priority(meta), refresh=False)

    def page_request(self, url: str, meta: dict[str, Any], priority: int,
                     refresh: bool = False) -> scrapy.Request | None:
        """A start request for the page's canonical URL, or None for a URL that has none or
        once the source's page limit was reached. Start URLs are spelled by users: one
        identity for every request."""
        url = self.canonical(url)
        limit = self.bounds_for(meta.get("source_id")).max_pages
        if url is None or not self.requested.admit(meta.get("run_id"), url, limit):
            return None
        conditional = conditional_request_options(meta)
        return scrapy.Request(url, callback=self.parse, errback=self.on_error, priority=priority,
                              dont_filter=refresh, headers=conditional.get("headers"),
                              meta={**meta, **conditional.get("meta", {}),
                                    **({} if REVISIT in meta else {SEED: True})})

    async def parse(self, response: Response) -> AsyncIterator[scrapy.Request | CrawledPage]:
        """Read the page, then yield its follow-up requests and its item, in that order (the
        links are queued before the page is stored and its request acknowledged). A revisit
        that finds the page as stored (304, or the same bytes) yields only an item that
        moves its schedule on: nothing is extracted or followed."""
        meta = response.meta
        digest = body_hash(response.body)
        revisit = meta.get(REVISIT)
        if revisit is not None:
            self.count(meta, "revisits/fetched")
            if response.status == NOT_MODIFIED or digest == revisit.get("body_hash"):
                self.count(meta, "revisits/304" if response.status == NOT_MODIFIED
                           else "revisits/unchanged")
                # a 304 has no body: the hash of the one stored stands
                yield self.page_item(response, b"", revisit.get("body_hash"), not_modified=True)
                return
        content_type = response.headers.get(b"Content-Type") or b""
        if content_type.lower().startswith(_SKIPPED_TYPES):
            self.logger.info("skipped non-HTML %s (Content-Type %s)", response.url,
                             content_type.decode("latin-1"))
            self.count(response.meta, "pages/skipped_non_html")
            self.request_done(response.meta)
            return
        item = self.page_item(response, response.body, digest)
        item.content_type = content_type.decode("latin-1") or None
        dropped = await self.pages.read(item)
        if dropped is not None:
            self.logger.warning("Dropped: %s", dropped)
            self.request_done(item.meta)
            return
        discovery = self.target_for(item.source_id).settings.discovery
        if meta.get(SEED) and discovery != LINKS_ONLY:
            for request in self.discovery.start(response.url, feed_links(item.document), meta):
                yield request
        listing, article = item.result.listing, item.result.article
        self.place_in_thread(item)
        records = [r.url for r in listing.records if r.url] if listing else []
        if listing:
            self.count(item.meta, "records/found", len(records))
        if discovery != FEEDS_ONLY:
            for request in self.follow_up(item, records,
                                          listing.next_page if listing else None,
                                          item.document.links,
                                          article.next_page if article else None):
                yield request
        yield item

    def parse_discovery(self, response: Response) -> Iterator[scrapy.Request | DiscoveryRead]:
        """A feed, sitemap or robots.txt: the requests it leads to (`crawler.discovery`);
        never stored."""
        return self.discovery.read(response)

    def discovery_failed(self, failure: Failure) -> Iterator[scrapy.Request | DiscoveryRead]:
        """A discovery document that could not be fetched: expected, counted, not an error."""
        return self.discovery.missing(failure)

    def page_item(self, response: Response, body: bytes, digest: str | None,
                  not_modified: bool = False) -> CrawledPage:
        """The item of a fetched page: its fetch facts, validators, place in a thread and
        the date a feed or sitemap gave it."""
        meta = response.meta
        etag, modified = (response.headers.get(name) for name in (b"ETag", b"Last-Modified"))
        listed, listed_raw = listed_at(meta)
        return CrawledPage(
            url=normalise_url(response.request.url, self.url_identity), final_url=response.url,
            status=response.status, body=body, content_type=None, fetched_at=self.clock(),
            depth=meta.get("depth", 0), source_id=meta.get("source_id"),
            run_id=meta.get("run_id"), ticket=meta.get("ticket"),
            etag=etag.decode("latin-1") if etag else None,
            last_modified=modified.decode("latin-1") if modified else None,
            body_hash=digest, thread_url=meta.get(THREAD_URL), thread_page=meta.get(THREAD_PAGE),
            revisited=REVISIT in meta, not_modified=not_modified, listed_at=listed,
            listed_raw=listed_raw)

    def place_in_thread(self, item: CrawledPage) -> None:
        """A thread's later page reached other than through the thread's next page (a link,
        a revisit) is placed in its thread as its pager tells (ArticleData.thread_url), so
        its posts join the thread's comments and its next page knows the thread."""
        article = item.result.article if item.result else None
        if item.thread_url is None and article is not None and article.thread_url:
            item.thread_url = self.canonical(article.thread_url)
            item.thread_page = article.thread_page if item.thread_url else None

    def canonical(self, url: str) -> str | None:
        """The URL's identity under this crawl's settings, or None if it has none."""
        return canonical_or_none(url, self.url_identity)

    def on_error(self, failure: Failure) -> None:
        """Every failed fetch gets one clear log line and an error-kind counter; crawl goes on.
        A request robots.txt forbids is no failure: counted, and logged once per host."""
        kind = failure.type.__name__ if failure.type else "Unknown"
        request = getattr(failure, "request", None)
        if request is not None and failure.check(RobotsForbidden):
            self.robots_forbidden(request)
            return
        if request is not None and failure.check(OutOfScope):
            self.out_of_scope(request, failure.getErrorMessage())
            return
        response = getattr(failure.value, "response", None)
        if response is not None:
            kind = f"http_{response.status}"
        meta = request.meta if request is not None else {}
        self.count(meta, f"errors/{kind}")
        self.logger.warning("fetch failed (%s) %s: %s", kind,
                            request.url if request else "?", failure.getErrorMessage())
        self.request_done(meta)

    def robots_forbidden(self, request: scrapy.Request) -> None:
        """Count a request robots.txt forbids in `robots/forbidden` and settle it; the first
        one per host is logged (a site's disallowed area is one fact, not one per link)."""
        self.count(request.meta, "robots/forbidden")
        host = urlsplit(request.url).netloc
        if host not in self._robots_hosts:
            self._robots_hosts.add(host)
            self.logger.info("robots.txt of %s forbids %s; further pages it forbids are not "
                             "logged, only counted in robots/forbidden", host, request.url)
        self.request_done(request.meta)

    def out_of_scope(self, request: scrapy.Request, why: str) -> None:
        """Count a request its source does not allow (a redirect or refresh elsewhere, a
        private address) in `scope/refused` and settle it; logged once per host."""
        self.count(request.meta, "scope/refused")
        host = urlsplit(request.url).netloc
        if host not in self._refused_hosts:
            self._refused_hosts.add(host)
            self.logger.info("not fetched: %s; further requests to %s are only counted in "
                             "scope/refused", why, host)
        self.request_done(request.meta)

    def item_lost(self, item: CrawledPage, **_: Any) -> None:
        """A page dropped (empty, binary) or broken in a stage is done too."""
        self.request_done(item.meta)

    def count(self, meta: Mapping[str, Any], name: str, value: int = 1) -> None:
        """Count an event in this worker's stats and, in a cluster, in its run's stats; the
        `counted` signal tells the metrics (`crawler.metrics.worker`)."""
        self.crawler.stats.inc_value(name, value)
        if self.ledger is not None and meta.get("run_id") is not None:
            self.ledger.count(meta["run_id"], name, value)
        if self._counted_receivers is None:  # known once the extensions are connected
            self._counted_receivers = any(
                getAllReceivers(self.crawler.signals.sender, counted))
        if self._counted_receivers:  # a signal nobody hears still costs its dispatch
            self.crawler.signals.send_catch_log(counted, meta=meta, name=name, value=value)

    def kept_out(self, meta: dict[str, Any], limit: str, key: object, message: str,
                 *args: object) -> None:
        """A request one of the crawl's limits kept out (`crawler.bounds`): counted in its
        run's `bounds/<limit>`, logged once per worker and key."""
        self.count(meta, f"bounds/{limit}")
        self.limits.reached(limit, key, message, *args)

    def request_done(self, meta: Mapping[str, Any]) -> None:
        """A request is finished (stored, skipped or failed); the last one ends its run."""
        self.requests_done([meta])

    def requests_done(self, metas: Sequence[Mapping[str, Any]]) -> None:
        """Requests are finished, told to the cluster in one round trip; a run whose last
        request this was is drained (`crawler.run_record` records its end)."""
        if self.ledger is None:
            return
        for run_id in self.ledger.settle(metas):
            self.crawler.signals.send_catch_log(run_drained, run_id=run_id,
                                                stats=self.ledger.close_run(run_id))

    def follow_up(self, item: CrawledPage, records: Iterable[str], next_page: str | None,
                  links: Iterable[str], thread_next: str | None = None) -> list[scrapy.Request]:
        """Every page the spider would fetch after this one: its next page and records
        first, then its links, in canonical spelling. A thread's next page is told its
        thread and number (its posts are the thread's comments); its later pages come one
        by one through next pages, not as links. The source's limits and the pages stored
        are the spider middlewares' (`crawler.frontier`); a link this worker already
        requested in the run is left out here, before its request is built: the middlewares
        would drop it anyway (`KnownPagesMiddleware`), and most of a page's links are such
        (a site's menus and lists link the same pages from every page), each costing a
        request and a pass through every middleware (docs/BENCHMARKS.md, latency mode). A
        page named twice on this one (its next page, a thread's next page and the records are
        among its links too) gets one request, its first: the next page's keeps the
        pagination and thread it was told, and is marked a link too, which it becomes past
        its list's chain (`crawler.frontier`)."""
        meta = {"run_id": item.run_id, "source_id": item.source_id}
        candidates = [(next_page, PRIORITY_NEXT_PAGE, {PAGINATION: True})] if next_page else []
        if thread_next:
            links = list(links)
            later = later_thread_pages(item.url, thread_next, links)
            links = [link for link in links if link not in later]
            candidates.append((thread_next, PRIORITY_NEXT_PAGE, {
                PAGINATION: True, THREAD_URL: item.thread_url or item.url,
                THREAD_PAGE: (item.thread_page or 1) + 1}))
        candidates += [(url, PRIORITY_RECORD, {}) for url in records]
        candidates += [(url, PRIORITY_LINK, {}) for url in links]
        requests: list[scrapy.Request] = []
        chosen: dict[str, scrapy.Request] = {}
        for url, priority, extra in candidates:
            canonical = self.canonical(url)
            if canonical is None:
                continue
            if (first := chosen.get(canonical)) is not None:
                if not extra:  # a record or link: past its chain's end, the next page is one
                    first.meta[ALSO_A_LINK] = True
                continue
            if not self.requested.seen(item.run_id, canonical):
                chosen[canonical] = request = scrapy.Request(
                    canonical, callback=self.parse, errback=self.on_error, priority=priority,
                    meta={**meta, **extra})
                requests.append(request)
        return requests
