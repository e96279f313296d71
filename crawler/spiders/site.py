"""`scrapy crawl site`: crawl any site from start URLs or a stored Source.

The spider never parses HTML: it yields each response's raw facts, and the item
pipelines parse the page once. After extraction the frontier stage asks
`follow_up` which links to fetch next: list records and the next page first,
then other in-site links, within depth, page and domain limits.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import Response
from sqlalchemy.exc import SQLAlchemyError
from twisted.python.failure import Failure

from crawler.items import CrawledPage
from crawler.sources import CrawlTarget, hosts_of, split_list, target_from_source
from crawler.urls import normalise_url
from models.db import session_factory
from models.store import stored_page_types

# Priorities: higher is fetched sooner. Fresh list records and pagination lead.
PRIORITY_START = 100
PRIORITY_NEXT_PAGE = 60
PRIORITY_RECORD = 50
PRIORITY_LINK = 0
_SKIPPED_TYPES = (b"image/", b"audio/", b"video/", b"application/pdf", b"application/zip",
                  b"application/octet-stream", b"font/")


class SiteSpider(scrapy.Spider):
    """Crawl one or more sites: -a start_urls=URL[,URL…] | -a source=NAME,
    optional -a max_pages=N -a depth=N -a allowed_domains=HOST[,HOST…]."""

    name = "site"

    def __init__(self, start_urls: str = "", source: str | None = None,
                 max_pages: str | int | None = None, depth: str | int | None = None,
                 allowed_domains: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = self._plan(start_urls, source, max_pages, depth, allowed_domains)
        self.start_urls = list(self.target.start_urls)
        self.allowed_domains = list(self.target.allowed_domains)
        self._requested: set[str] = set()

    @staticmethod
    def _plan(start_urls: str, source: str | None, max_pages: str | int | None,
              depth: str | int | None, allowed_domains: str) -> CrawlTarget:
        base = target_from_source(source, None) if source else None
        urls = split_list(start_urls) or (base.start_urls if base else ())
        if not urls:
            raise ValueError("give -a start_urls=URL[,URL…] or -a source=NAME")
        return CrawlTarget(
            start_urls=urls,
            allowed_domains=split_list(allowed_domains) or (base.allowed_domains if base
                                                            else hosts_of(urls)),
            max_pages=int(max_pages) if max_pages is not None else (base.max_pages if base else 0),
            max_depth=int(depth) if depth is not None else (base.max_depth if base else 3),
            source_id=base.source_id if base else None,
            page_type_rules=base.page_type_rules if base else (),
        )

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.start_urls:
            request = self.page_request(url, depth=0, priority=PRIORITY_START, refresh=True)
            if request is not None:
                yield request

    def page_request(self, url: str, depth: int, priority: int,
                     refresh: bool = False) -> scrapy.Request | None:
        """A request for one page, or None once max_pages distinct URLs were requested."""
        if url in self._requested:
            return None
        if self.target.max_pages and len(self._requested) >= self.target.max_pages:
            return None
        self._requested.add(url)
        return scrapy.Request(url, callback=self.parse, errback=self.on_error, priority=priority,
                              dont_filter=refresh, meta={"depth": depth})

    def parse(self, response: Response) -> Iterator[CrawledPage]:
        content_type = response.headers.get(b"Content-Type") or b""
        if content_type.lower().startswith(_SKIPPED_TYPES):
            self.logger.info("skipped non-HTML %s (Content-Type %s)", response.url,
                             content_type.decode("latin-1"))
            self.crawler.stats.inc_value("pages/skipped_non_html")
            return
        yield CrawledPage(
            url=normalise_url(response.request.url), final_url=response.url,
            status=response.status, body=response.body,
            content_type=content_type.decode("latin-1") or None,
            fetched_at=datetime.now(UTC), depth=response.meta.get("depth", 0),
            source_id=self.target.source_id)

    def on_error(self, failure: Failure) -> None:
        """Every failed fetch gets one clear log line and an error-kind counter; crawl goes on."""
        kind = failure.type.__name__ if failure.type else "Unknown"
        request = getattr(failure, "request", None)
        response = getattr(failure.value, "response", None)
        if response is not None:
            kind = f"http_{response.status}"
        self.crawler.stats.inc_value(f"errors/{kind}")
        self.logger.warning("fetch failed (%s) %s: %s", kind,
                            request.url if request else "?", failure.getErrorMessage())

    def in_scope(self, url: str) -> bool:
        host = urlsplit(url).hostname or ""
        return any(host == d or host.endswith("." + d) for d in self.allowed_domains)

    def follow_up(self, item: CrawledPage, records: Iterable[str], next_page: str | None,
                  links: Iterable[str]) -> Iterator[scrapy.Request]:
        """Decide what to fetch after a page: its next page and records first, then links."""
        depth = item.depth + 1
        # Pagination stays at the list's depth: a board's 20th page is as near as its first.
        candidates = [(next_page, PRIORITY_NEXT_PAGE, item.depth)] if next_page else []
        if depth <= self.target.max_depth:
            candidates += [(url, PRIORITY_RECORD, depth) for url in records]
            candidates += [(url, PRIORITY_LINK, depth) for url in links]
        scoped = [(normalise_url(url), p, d) for url, p, d in candidates if self.in_scope(url)]
        known = self.known_details(url for url, _, _ in scoped)
        self.crawler.stats.inc_value("frontier/known_skipped", len(known))
        for url, priority, url_depth in scoped:
            if url not in known:
                request = self.page_request(url, url_depth, priority)
                if request is not None:
                    yield request

    def known_details(self, urls: Iterable[str]) -> set[str]:
        """Stored pages that are not lists: already have them, so a revisit skips them.
        If the database is down we cannot tell, and fetch (upserts make that harmless)."""
        try:
            with session_factory(self.settings.get("DATABASE_URL"))() as session:
                stored = stored_page_types(session, urls)
        except SQLAlchemyError as error:
            self.logger.warning("cannot check stored URLs (%s); fetching all", error)
            return set()
        return {url for url, page_type in stored.items() if page_type != "list"}
