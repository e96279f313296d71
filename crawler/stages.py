"""Thin Scrapy item pipelines: decode → classify → extract → frontier.

Each stage calls one pure function of the extraction package (`pipelines`) and records what happened
in the crawl stats; persistence is in `scrapy_persist`. A page that fails a
stage is logged and kept with the facts it has, never silently lost.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import nullcontext
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from lxml.html import HtmlElement
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem

from crawler.items import CrawledPage
from models.db import session_factory
from models.template_cache import TemplateCache
from pipelines import (
    ARTICLE_TYPES,
    Document,
    NotHtmlError,
    PageResult,
    PageTypeDecision,
    SiteRule,
    Template,
    decide_type,
    denoise_with_sibling,
    extract,
    load_document,
    sibling_candidates,
    template_mask,
    url_pattern,
    zone_named,
)

# Siblings jump the queue: a pair compared close in time sees the same template.
PRIORITY_SIBLING = 200

logger = logging.getLogger(__name__)


class Stage:
    """Common wiring: the crawler (for settings and the spider) and a from_crawler."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Stage:
        return cls(crawler)

    def count(self, item: CrawledPage, name: str, value: int = 1) -> None:
        """Count in the worker's stats and the item's run's stats (the spider knows both)."""
        self.crawler.spider.count(item.meta, name, value)


class DecodeStage(Stage):
    """Decode and parse once; empty and binary bodies are dropped with a warning. The page
    carries its source's time zone, where one is set (-a timezone, a Source's settings)."""

    def zone(self, source_id: int | None) -> ZoneInfo | None:
        name = self.crawler.spider.target_for(source_id).timezone
        return zone_named(name) if name else None

    def process_item(self, item: CrawledPage) -> CrawledPage:
        if not item.body.strip():
            self.count(item, "pages/skipped_empty")
            raise DropItem(f"{item.url}: empty body (HTTP {item.status})")
        try:
            item.document = load_document(item.body, url=item.final_url,
                                          content_type=item.content_type,
                                          fetched_at=item.fetched_at,
                                          zone=self.zone(item.source_id))
        except NotHtmlError as error:
            self.count(item, "pages/skipped_binary")
            raise DropItem(f"{item.url}: {error}") from error
        item.body = b""  # the tree holds the page now
        return item


class ClassifyStage(Stage):
    """Page type from per-site rules, built-in rules, then the trained classifier."""

    def site_rules(self, source_id: int | None) -> tuple[SiteRule, ...]:
        """The source's own page-type rules, parsed and checked when the source was loaded."""
        return self.crawler.spider.target_for(source_id).page_type_rules

    def process_item(self, item: CrawledPage) -> CrawledPage:
        try:
            item.decision = decide_type(item.document, None, self.site_rules(item.source_id))
        except Exception:  # noqa: BLE001 - an unclassifiable page is stored as 'other'
            logger.exception("page-type classification failed for %s", item.url)
            self.count(item, "errors/classify")
            item.decision = PageTypeDecision("other", 0.0, "error")
        self.count(item, f"pages/type/{item.decision.page_type}")
        return item


class ExtractStage(Stage):
    """Articles to density extraction (minus the site template), lists to record mining.

    The template comes from the shared cache; when a URL pattern has none yet, or a
    page no longer fits it, one same-template sibling is fetched (a second if the
    first fails) straight through the engine, as Scrapy's media pipelines fetch
    files: no scheduler, no Redis, nothing to serialise, and the pair stays close
    in time. Concurrent pages of one pattern wait for the same sibling.

    Settings: DATABASE_URL (the store of the shared template cache).
    """

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.templates = TemplateCache(session_factory(crawler.settings.get("DATABASE_URL")))
        self._learning: dict[str, asyncio.Future[Template | None]] = {}

    async def process_item(self, item: CrawledPage) -> CrawledPage:
        exclude: list[HtmlElement] = []
        try:
            if item.decision.page_type in ARTICLE_TYPES:
                exclude = await self._template_blocks(item)
            item.result = extract(item.document, item.decision, exclude)
        except Exception:  # noqa: BLE001 - keep the page's facts even if extraction fails
            logger.exception("extraction failed for %s", item.url)
            self.count(item, "errors/extract")
            item.result = PageResult(item.decision)
        return item

    async def _template_blocks(self, item: CrawledPage) -> list[HtmlElement]:
        doc = item.document
        host, pattern = urlsplit(doc.url or "").hostname or "", url_pattern(doc.url or "")
        template = self.templates.get(host, pattern)
        if template is None and pattern in self._learning:
            template = await self._learning[pattern]
        if template is not None:
            mask = template_mask(doc, template)
            if mask is not None:
                self.count(item, "template/sibling_fetches_saved")
                return mask
            self.count(item, "template/relearned")
            self.templates.forget(host, pattern)
        return await self._learn(item, host, pattern)

    async def _learn(self, item: CrawledPage, host: str, pattern: str) -> list[HtmlElement]:
        doc = item.document
        future: asyncio.Future[Template | None] = asyncio.get_running_loop().create_future()
        self._learning[pattern] = future
        result = None
        try:
            for url in sibling_candidates(doc.url or "", doc.links, limit=2,
                                          identity=self.crawler.spider.canonical):
                self.count(item, "template/sibling_fetches")
                sibling = await self._fetch(url, item.source_id)
                if sibling is not None:
                    result = denoise_with_sibling(doc, sibling)
                    self.templates.put(host, pattern, result.template)
                    break
        finally:
            future.set_result(result.template if result else None)
            del self._learning[pattern]
        return result.exclude if result else []

    async def _fetch(self, url: str, source_id: int | None) -> Document | None:
        """A sibling page, fetched under its source's policy (user agent, delay, headers)."""
        try:
            response = await self.crawler.engine.download_async(
                Request(url, priority=PRIORITY_SIBLING,
                        meta={"sibling": True, "source_id": source_id}))
            if response.status != 200:
                raise ValueError(f"HTTP {response.status}")
            return load_document(response.body, url=response.url,
                                 content_type=response.headers.get("Content-Type", b"").decode(
                                     "latin-1"))
        except Exception as error:  # noqa: BLE001 - a failed sibling only costs denoising
            logger.info("sibling %s unusable (%s); trying the next", url, error)
            return None


class FrontierStage(Stage):
    """Hand the spider what this page links to; the spider decides what to fetch."""

    async def process_item(self, item: CrawledPage) -> CrawledPage:
        spider = self.crawler.spider
        listing = item.result.listing
        records = [r.url for r in listing.records if r.url] if listing else []
        next_page = listing.next_page if listing else None
        # Enqueued before the next stage journals the page, so before its request is
        # acknowledged: a run never looks drained while this page's links are unqueued.
        # A cluster's scheduler sends them to Redis together (plain Scrapy has no batch).
        requests = await spider.follow_up(item, records, next_page, item.document.links)
        with getattr(self.crawler.engine.scheduler, "batch", nullcontext)():
            for request in requests:
                self.crawler.engine.crawl(request)
        if listing:
            self.count(item, "records/found", len(records))
        return item
