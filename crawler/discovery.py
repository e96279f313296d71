"""Discovery: a source's feeds and sitemaps, read on every run, whose entries enter the
frontier as article candidates carrying the date the document gives them.

From each start page of a run (`SEED` in its meta) the spider asks the page's origin for
robots.txt (its `Sitemap:` lines, else /sitemap.xml) and for the feeds the page declares
(`<link rel="alternate">`, else the common paths of DISCOVERY_FEED_PATHS). A sitemap index
leads to its sitemaps, DISCOVERY_SITEMAP_DEPTH levels down and DISCOVERY_SITEMAP_FILES files
per origin; gzip'd sitemaps are unpacked up to DISCOVERY_MAX_SIZE. Every request goes through
Scrapy's scheduler (and scrapy-redis in a cluster) and the frontier's middlewares: each
document is fetched once per run, out-of-scope entries are dropped. Discovery documents are
read, counted and never stored; their entries are pages like any other, fetched newest first,
and an entry's date becomes its article's publish time when the page shows none.

Feeds and sitemaps are read in `crawler.feeds` (feedparser, Scrapy's sitemap utilities),
robots.txt's `Sitemap:` lines by Scrapy's `sitemap_urls_from_robots`.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import Response
from scrapy.settings import BaseSettings
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.gz import gzip_magic_number
from scrapy.utils.sitemap import sitemap_urls_from_robots
from twisted.python.failure import Failure

from crawler.feeds import newest_first, read_feed, read_sitemap

logger = logging.getLogger(__name__)

# request.meta keys: the request is a start page's (discovery starts from it); it fetches a
# discovery document of this kind; the sitemap-index level it is at; the date an entry's
# feed or sitemap gave it (ISO 8601) and as written there.
SEED = "seed"
DISCOVERY = "discovery"
SITEMAP_LEVEL = "sitemap_level"
LISTED_AT = "listed_at"
LISTED_RAW = "listed_raw"
ROBOTS, SITEMAP, FEED, PROBE = "robots", "sitemap", "feed", "probe"

# Discovery documents follow the start pages; an entry's priority falls with its rank in
# its document, newest first, from above a list's records to below them.
PRIORITY_DISCOVERY = 90
PRIORITY_NEWEST_ENTRY = 55
PRIORITY_ENTRY_SPAN = 50


def entry_priority(rank: int) -> int:
    return PRIORITY_NEWEST_ENTRY - min(rank, PRIORITY_ENTRY_SPAN)


@dataclass(frozen=True)
class DiscoveryRead:
    """Output of a discovery callback after its requests: the request is settled once they
    are queued (`SettleDiscoveryMiddleware`), so a cluster run never looks drained early."""

    meta: dict[str, Any]


class Discovery:
    """The discovery requests of a spider's runs, with the settings' bounds.

    Settings: DISCOVERY_FEED_PATHS, DISCOVERY_SITEMAP_DEPTH, DISCOVERY_SITEMAP_FILES,
    DISCOVERY_MAX_SIZE, DISCOVERY_MAX_ENTRIES."""

    def __init__(self, spider: scrapy.Spider, settings: BaseSettings) -> None:
        self.spider = spider
        self.feed_paths = settings.getlist("DISCOVERY_FEED_PATHS")
        self.sitemap_depth = settings.getint("DISCOVERY_SITEMAP_DEPTH")
        self.sitemap_files = settings.getint("DISCOVERY_SITEMAP_FILES")
        self.max_size = settings.getint("DISCOVERY_MAX_SIZE")
        self.max_entries = settings.getint("DISCOVERY_MAX_ENTRIES")
        self._sitemaps: Counter[tuple[Any, str]] = Counter()  # per (run, origin), this worker

    def start(self, page_url: str, declared_feeds: list[str],
              meta: dict[str, Any]) -> list[scrapy.Request]:
        """What a start page leads to: its origin's robots.txt, and its declared feeds, or
        the common feed paths probed when it declares none."""
        origin = _origin(page_url)
        requests = [self.request(origin + "/robots.txt", ROBOTS, meta, dont_obey_robotstxt=True)]
        if declared_feeds:
            requests += [self.request(url, FEED, meta) for url in declared_feeds]
        else:
            requests += [self.request(origin + path, PROBE, meta) for path in self.feed_paths]
        return requests

    def request(self, url: str, kind: str, meta: dict[str, Any], level: int = 0,
                **extra: Any) -> scrapy.Request:
        return scrapy.Request(url, callback=self.spider.parse_discovery,
                              errback=self.spider.discovery_failed, priority=PRIORITY_DISCOVERY,
                              meta={"run_id": meta.get("run_id"),
                                    "source_id": meta.get("source_id"), DISCOVERY: kind,
                                    SITEMAP_LEVEL: level, **extra})

    def sitemap_requests(self, urls: Iterable[str], meta: dict[str, Any],
                         level: int) -> list[scrapy.Request]:
        """Requests for sitemaps, within the per-origin file budget and the index depth."""
        if level > self.sitemap_depth:
            return []
        requests = []
        for url in urls:
            key = (meta.get("run_id"), _origin(url))
            if self._sitemaps[key] >= self.sitemap_files:
                logger.info("sitemap %s not read: %d sitemaps of %s read in this run", url,
                            self.sitemap_files, key[1])
                break
            self._sitemaps[key] += 1
            requests.append(self.request(url, SITEMAP, meta, level))
        return requests

    def read(self, response: Response) -> Iterator[scrapy.Request | DiscoveryRead]:
        """The requests a discovery document leads to, then its settlement."""
        meta = response.meta
        if meta[DISCOVERY] == ROBOTS:
            listed = list(sitemap_urls_from_robots(response.body, base_url=response.url))
            yield from self.sitemap_requests(listed or [_origin(response.url) + "/sitemap.xml"],
                                             meta, 0)
        else:
            yield from self._document(response)
        yield DiscoveryRead(dict(meta))

    def missing(self, failure: Failure) -> Iterator[scrapy.Request | DiscoveryRead]:
        """A discovery document that could not be fetched (a probe's 404, a robots.txt
        refusal) is expected, counted and logged at debug level; without robots.txt (an
        HTTP error), /sitemap.xml is tried. A download failure is settled at once: Scrapy
        hands an errback's output for one to the engine past the spider middlewares."""
        request = failure.request  # type: ignore[attr-defined]
        self.spider.count(request.meta, "discovery/missing")
        logger.debug("discovery: %s not read (%s)", request.url, failure.getErrorMessage())
        if getattr(failure.value, "response", None) is None:
            self.spider.request_done(request.meta)
            return
        if request.meta.get(DISCOVERY) == ROBOTS:
            yield from self.sitemap_requests([_origin(request.url) + "/sitemap.xml"],
                                             request.meta, 0)
        yield DiscoveryRead(dict(request.meta))

    def _document(self, response: Response) -> Iterator[scrapy.Request]:
        meta = response.meta
        body = response.body
        sitemap = read_sitemap(body, response.url, self.max_size) if (
            meta[DISCOVERY] == SITEMAP or gzip_magic_number(response)
            or b"<urlset" in body[:2048] or b"<sitemapindex" in body[:2048]) else None
        if sitemap is not None and sitemap.kind == "sitemapindex":
            self.spider.count(meta, "discovery/sitemaps_found")
            yield from self.sitemap_requests([e.url for e in sitemap.entries], meta,
                                             meta.get(SITEMAP_LEVEL, 0) + 1)
            return
        if sitemap is not None:
            self.spider.count(meta, "discovery/sitemaps_found")
            entries = sitemap.entries
        else:
            entries = read_feed(body, response.url)
            if entries is None:
                self.spider.count(meta, "discovery/missing")
                return
            self.spider.count(meta, "discovery/feeds_found")
        chosen = newest_first(entries, self.max_entries)
        self.spider.count(meta, "discovery/entries", len(chosen))
        for rank, entry in enumerate(chosen):
            listed = {LISTED_AT: entry.published.isoformat(), LISTED_RAW: entry.published_raw
                      } if entry.published else {}
            yield scrapy.Request(entry.url, callback=self.spider.parse,
                                 errback=self.spider.on_error, priority=entry_priority(rank),
                                 meta={"run_id": meta.get("run_id"),
                                       "source_id": meta.get("source_id"), **listed})


def listed_at(meta: dict[str, Any]) -> tuple[datetime | None, str | None]:
    """The date a feed or sitemap gave the requested page, and as written there."""
    value = meta.get(LISTED_AT)
    return (datetime.fromisoformat(value) if value else None), meta.get(LISTED_RAW)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class SettleDiscoveryMiddleware(BaseSpiderMiddleware):
    """Nearest the engine: a discovery callback's `DiscoveryRead` settles its request (in a
    cluster, after the batch middleware queued the requests before it) and goes no further."""

    async def process_spider_output_async(self, response: Response | None,
                                          result: AsyncIterator[Any],
                                          spider: object = None) -> AsyncIterator[Any]:
        async for output in result:
            if isinstance(output, DiscoveryRead):
                self.crawler.spider.request_done(output.meta)
            else:
                yield output
