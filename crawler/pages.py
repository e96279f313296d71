"""The page layer: one fetched page through the extraction package's front door.

decode → classify → (articles: the site template from the shared cache) → extract. The
spider calls `PageReader.read` from its callback and decides what to fetch from the
result; nothing here follows links or writes to the store. A page that fails a step is
logged and kept with the facts it has, never silently lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from lxml.html import HtmlElement
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads

from crawler.database import connect_options
from crawler.items import CrawledPage
from models.db import session_factory
from models.template_cache import TemplateCache
from pipelines import (
    ARTICLE_TYPES,
    Deadline,
    Document,
    NotHtmlError,
    OutOfTimeError,
    PageResult,
    PageTypeDecision,
    Template,
    decide_type,
    denoise_with_sibling,
    extract,
    load_document,
    out_of_time,
    sibling_candidates,
    template_mask,
    url_pattern,
    zone_named,
)

# Siblings jump the queue: a pair compared close in time sees the same template.
PRIORITY_SIBLING = 200
# signal: a page was read (`item`), in `seconds` of CPU time (its budget's clock)
page_read = object()

logger = logging.getLogger(__name__)


class PageReader:
    """Reads pages for the spider, which knows each page's source (its rules and zone), its
    URL identity and the run statistics (`spider.count`).

    The template comes from the shared cache; when a URL pattern has none yet, or a page no
    longer fits it, one same-template sibling is fetched (a second if the first fails)
    straight through the engine, as Scrapy's media pipelines fetch files: no scheduler, no
    Redis, nothing to serialise, and the pair stays close in time. Concurrent pages of one
    pattern wait for the same sibling.

    A page has PAGE_TIME_BUDGET_SECONDS of CPU time, counted while it is being read (not
    while it waits for its sibling): a stage that runs out of it leaves the page with what
    was done, stored all the same, counted in `pages/out_of_time` and logged once. A page
    cut to the bounds of pipelines.bounds is counted in `pages/capped/<cap>`.

    Settings: DATABASE_URL (the store of the shared template cache), PAGE_TIME_BUDGET_SECONDS.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.time_budget = crawler.settings.getfloat("PAGE_TIME_BUDGET_SECONDS")
        self.templates = TemplateCache(session_factory(crawler.settings.get("DATABASE_URL"),
                                                       connect_options(crawler.settings)))
        self._learning: dict[tuple[str, str], asyncio.Future[Template | None]] = {}

    def count(self, item: CrawledPage, name: str, value: int = 1) -> None:
        self.crawler.spider.count(item.meta, name, value)

    async def read(self, item: CrawledPage) -> str | None:
        """Fill the item's document, decision and result; or the reason it was dropped
        (an empty or binary body), counted."""
        started = time.thread_time()
        dropped = self.decode(item)
        if dropped is None:
            deadline = Deadline.after(self._left(started))
            if self.classify(item, deadline):
                await self.extract(item, self._left(started))
            for cap in sorted(item.document.capped):  # what of a huge page was left out
                self.count(item, f"pages/capped/{cap}")
            if item.result.out_of_time:
                self.count(item, "pages/out_of_time")
                logger.warning("page %s ran out of its %s s time budget in %s: stored with "
                               "what was done before", item.url, self.time_budget,
                               item.result.out_of_time)
            self.crawler.signals.send_catch_log(page_read, item=item,
                                                seconds=time.thread_time() - started)
        return dropped

    def _left(self, started: float) -> float | None:
        """CPU seconds of the page's budget left (at least a little, so that a page whose
        budget is spent is cut at its next check); None when there is no budget."""
        if not self.time_budget:
            return None
        return max(self.time_budget - (time.thread_time() - started), 1e-9)

    def decode(self, item: CrawledPage) -> str | None:
        """Decode and parse once, in the page's source's time zone where one is set; a page
        that fails it is dropped with its reason (and a traceback: no page should)."""
        if not item.body.strip():
            self.count(item, "pages/skipped_empty")
            return f"{item.url}: empty body (HTTP {item.status})"
        try:
            item.document = load_document(item.body, url=item.final_url,
                                          content_type=item.content_type,
                                          fetched_at=item.fetched_at,
                                          zone=self._zone(item.source_id))
        except NotHtmlError as error:
            self.count(item, "pages/skipped_binary")
            return f"{item.url}: {error}"
        except Exception as error:  # noqa: BLE001 - a bug must cost one page, not the crawl
            logger.exception("decoding failed for %s", item.url)
            self.count(item, "errors/decode")
            return f"{item.url}: not decoded ({type(error).__name__})"
        item.body = b""  # the tree holds the page now
        return None

    def _zone(self, source_id: int | None) -> ZoneInfo | None:
        name = self.crawler.spider.target_for(source_id).timezone
        return zone_named(name) if name else None

    def classify(self, item: CrawledPage, deadline: Deadline) -> bool:
        """Page type from the source's rules, built-in rules, then the trained classifier;
        whether there is time left to extract the page (else its result is set)."""
        rules = self.crawler.spider.target_for(item.source_id).page_type_rules
        try:
            item.decision = decide_type(item.document, None, rules, deadline)
        except OutOfTimeError as error:
            item.result = out_of_time(error.stage)
            item.decision = item.result.decision
        except Exception:  # noqa: BLE001 - an unclassifiable page is stored as 'other'
            logger.exception("page-type classification failed for %s", item.url)
            self.count(item, "errors/classify")
            item.decision = PageTypeDecision("other", 0.0, "error")
        self.count(item, f"pages/type/{item.decision.page_type}")
        return item.result is None

    async def extract(self, item: CrawledPage, time_left: float | None) -> None:
        """Articles to density extraction (minus the site template), lists to record mining,
        within `time_left` CPU seconds (the wait for a sibling does not count)."""
        exclude: list[HtmlElement] = []
        try:
            if item.decision.page_type in ARTICLE_TYPES:
                exclude = await self._template_blocks(item)
            item.result = extract(item.document, item.decision, exclude,
                                  Deadline.after(time_left))
            self._date_from_feed(item)
        except Exception:  # noqa: BLE001 - keep the page's facts even if extraction fails
            logger.exception("extraction failed for %s", item.url)
            self.count(item, "errors/extract")
            item.result = PageResult(item.decision)

    @staticmethod
    def _date_from_feed(item: CrawledPage) -> None:
        """An article whose page shows no publish time takes the one its feed or sitemap
        gave (kept as written there in `published_raw`)."""
        article = item.result.article
        if article is not None and article.published_at is None and item.listed_at:
            article.published_at, article.published_raw = item.listed_at, item.listed_raw

    async def _template_blocks(self, item: CrawledPage) -> list[HtmlElement]:
        doc = item.document
        key = (urlsplit(doc.url or "").hostname or "", url_pattern(doc.url or ""))
        template = await self._stored_template(key)
        if template is None and key in self._learning:
            template = await self._learning[key]
        if template is not None:
            mask = template_mask(doc, template)
            if mask is not None:
                self.count(item, "template/sibling_fetches_saved")
                return mask
            self.count(item, "template/relearned")
            self.templates.forget(*key)
        return await self._learn(item, key)

    async def _stored_template(self, key: tuple[str, str]) -> Template | None:
        """The pattern's template from memory, or from the store in a thread: a database
        that hangs (a partition) delays the pages of a new pattern, never the reactor, whose
        ticks report the outage and keep the crawl going."""
        if self.templates.remembered(*key):
            return self.templates.get(*key)
        return await maybe_deferred_to_future(threads.deferToThread(self.templates.get, *key))

    async def _learn(self, item: CrawledPage, key: tuple[str, str]) -> list[HtmlElement]:
        """Learn the template of the page's (host, URL pattern) from a sibling; pages of that
        key that arrive meanwhile wait for it. Pages that relearn at once may overlap: the
        newest is the one later pages wait for, and each removes only its own entry."""
        doc = item.document
        future: asyncio.Future[Template | None] = asyncio.get_running_loop().create_future()
        self._learning[key] = future
        result = None
        try:
            for url in sibling_candidates(doc.url or "", doc.links, limit=2,
                                          identity=self.crawler.spider.canonical):
                self.count(item, "template/sibling_fetches")
                sibling = await self._fetch(url, item.source_id)
                if sibling is not None:
                    result = denoise_with_sibling(doc, sibling)
                    self.templates.remember(*key, result.template)
                    threads.deferToThread(self.templates.save, *key, result.template)
                    break
        finally:
            future.set_result(result.template if result else None)
            if self._learning.get(key) is future:
                del self._learning[key]
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
