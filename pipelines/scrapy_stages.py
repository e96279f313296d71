"""Thin Scrapy item pipelines: decode → classify → extract → frontier.

Each stage calls one pure function from this package and records what happened
in the crawl stats; persistence is in `scrapy_persist`. A page that fails a
stage is logged and kept with the facts it has, never silently lost.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem

from crawler.items import CrawledPage
from pipelines.document import NotHtmlError, load_document
from pipelines.pagetype import SiteRule
from pipelines.process import PageResult, decide_type, extract
from pipelines.results import PageTypeDecision

logger = logging.getLogger(__name__)


class Stage:
    """Common wiring: the crawler (for stats, settings, the spider) and a from_crawler."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Stage:
        return cls(crawler)


class DecodeStage(Stage):
    """Decode and parse once; binary bodies are dropped with a warning."""

    def process_item(self, item: CrawledPage) -> CrawledPage:
        try:
            item.document = load_document(item.body, url=item.final_url,
                                          content_type=item.content_type,
                                          fetched_at=item.fetched_at)
        except NotHtmlError as error:
            self.stats.inc_value("pages/skipped_binary")
            raise DropItem(f"{item.url}: {error}") from error
        item.encoding = item.document.encoding
        item.body = b""  # the tree holds the page now
        return item


class ClassifyStage(Stage):
    """Page type from per-site rules, built-in rules, then the trained classifier."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._rules: tuple[SiteRule, ...] | None = None

    def site_rules(self) -> tuple[SiteRule, ...]:
        if self._rules is None:
            target = getattr(self.crawler.spider, "target", None)
            raw: Any = target.page_type_rules if target else ()
            self._rules = tuple(SiteRule.from_json(rule) for rule in raw)
        return self._rules

    def process_item(self, item: CrawledPage) -> CrawledPage:
        try:
            item.decision = decide_type(item.document, None, self.site_rules())
        except Exception:  # noqa: BLE001 - an unclassifiable page is stored as 'other'
            logger.exception("page-type classification failed for %s", item.url)
            self.stats.inc_value("errors/classify")
            item.decision = PageTypeDecision("other", 0.0, "error")
        self.stats.inc_value(f"pages/type/{item.decision.page_type}")
        return item


class ExtractStage(Stage):
    """Articles to density extraction, lists to record mining."""

    def process_item(self, item: CrawledPage) -> CrawledPage:
        try:
            item.result = extract(item.document, item.decision)
        except Exception:  # noqa: BLE001 - keep the page's facts even if extraction fails
            logger.exception("extraction failed for %s", item.url)
            self.stats.inc_value("errors/extract")
            item.result = PageResult(item.decision)
        return item


class FrontierStage(Stage):
    """Hand the spider what this page links to; the spider decides what to fetch."""

    def process_item(self, item: CrawledPage) -> CrawledPage:
        spider = self.crawler.spider
        listing = item.result.listing
        records = [r.url for r in listing.records if r.url] if listing else []
        next_page = listing.next_page if listing else None
        for request in spider.follow_up(item, records, next_page, item.document.links):
            self.crawler.engine.crawl(request)
        if listing:
            self.stats.inc_value("records/found", len(records))
        return item
