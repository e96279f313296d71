"""The persistence stage: journal every item, write batches to the database off the
reactor thread, ride out outages, and acknowledge each request once its item is
committed (so a killed worker's unacknowledged requests are fetched again)."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import reactor, task, threads
from twisted.internet.defer import Deferred, succeed
from twisted.python.failure import Failure

from crawler import settings as defaults
from crawler.database import connect_options
from crawler.items import CrawledPage
from crawler.revisits import revisit_policy
from models.db import database_url, session_factory
from models.journal import Journal
from models.persist import (
    DEFAULT_JOURNAL_ROOT,
    LOGGED_URL_CHARS,
    SegmentWriteError,
    Written,
    store_journal_root,
    warn_unassigned,
    write_segments,
)
from models.schema import reason
from models.stored import FetchFacts, not_modified_line, stored_line
from pipelines import ARTICLE_TYPES

logger = logging.getLogger(__name__)
# What a revisit that was extracted and written found (one that found the page as stored
# without extraction is counted by the spider).
_REVISIT_OUTCOMES = {"updated": "revisits/changed", "unchanged": "revisits/unchanged"}

# signal: a batch of items was committed to the database; `batch` (list of Written) is what
# it wrote, `seconds` how long since the write began (or the previous batch's commit)
batch_stored = object()
# signal at each tick: (since, waiting): when the database went out of reach
# (time.monotonic(), None while writes succeed) and the pages waiting in the journal
persist_health = object()


class PersistStage:
    """Items reach the journal synchronously and the database in batches; a batch that
    cannot be written stays journalled and is retried, or replayed by the next crawl.

    While writes fail or hang, a health line says for how long and how many pages wait.

    Settings: DATABASE_URL, JOURNAL_DIR, SEARCH_INDEX_ENABLED, PERSIST_BATCH_SIZE,
    PERSIST_FLUSH_SECONDS, PERSIST_RETRY_SECONDS, DATABASE_STALL_SECONDS,
    DATABASE_HEALTH_LOG_SECONDS and the connection's DATABASE_* timeouts (`connect_options`)."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.database_url = database_url(settings.get("DATABASE_URL"))
        self.sessions = session_factory(self.database_url, connect_options(settings))
        self.journal_base = Path(settings.get("JOURNAL_DIR") or DEFAULT_JOURNAL_ROOT)
        self.journal_root = store_journal_root(self.journal_base, self.database_url)
        self.batch_size = settings.getint("PERSIST_BATCH_SIZE", defaults.PERSIST_BATCH_SIZE)
        self.index = settings.getbool("SEARCH_INDEX_ENABLED", defaults.SEARCH_INDEX_ENABLED)
        self.flush_seconds = settings.getfloat("PERSIST_FLUSH_SECONDS",
                                               defaults.PERSIST_FLUSH_SECONDS)
        self.retry_seconds = settings.getfloat("PERSIST_RETRY_SECONDS",
                                               defaults.PERSIST_RETRY_SECONDS)
        self.stall_seconds = settings.getfloat("DATABASE_STALL_SECONDS",
                                               defaults.DATABASE_STALL_SECONDS)
        self.health_log_seconds = settings.getfloat("DATABASE_HEALTH_LOG_SECONDS",
                                                    defaults.DATABASE_HEALTH_LOG_SECONDS)
        self.journal: Journal | None = None
        self._writing: Deferred[Any] | None = None
        self._write_started = 0.0
        self._committed_at = 0.0  # the last batch's commit, or the write's start
        self._retry_at = 0.0
        self._outage_logged = False
        self._failing_since: float | None = None  # first failed write of the current outage
        self._health_logged_at: float | None = None
        self.waiting = 0  # pages journalled and not yet committed
        self._loop: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PersistStage:
        stage = cls(crawler)
        crawler.signals.connect(stage.flush_when_idle, signal=signals.spider_idle)
        return stage

    def open_spider(self) -> None:
        warn_unassigned(self.journal_base, self.database_url)
        self.journal = Journal(self.journal_root)
        adopted = self.journal.adopt_orphans()
        self.waiting += adopted
        if adopted:
            logger.info("adopted %d journalled items left by an earlier crawl", adopted)
        self._loop = task.LoopingCall(self.tick)
        self._loop.start(self.flush_seconds, now=True)

    def process_item(self, item: CrawledPage) -> CrawledPage:
        assert self.journal is not None
        facts = FetchFacts(url=item.url, final_url=item.final_url, status=item.status,
                           fetched_at=item.fetched_at,
                           encoding=item.document.encoding if item.document else None,
                           source_id=item.source_id, crawl_run_id=item.run_id,
                           ticket=item.ticket, revisit=self.revisit_policy(item),
                           etag=item.etag, last_modified=item.last_modified,
                           body_hash=item.body_hash, thread_url=item.thread_url,
                           thread_page=item.thread_page, revisited=item.revisited)
        self.journal.append_line(not_modified_line(facts) if item.not_modified
                                 else stored_line(facts, item.result))
        item.document = None  # release the tree; the journal holds the record
        self.waiting += 1
        if self.journal.open_items >= self.batch_size:
            self.flush()
        return item

    def revisit_policy(self, item: CrawledPage) -> dict[str, float] | None:
        """The schedule policy of a page its source revisits (an article, a thread page, or
        a revisit that found it as stored), journalled with it; None for other pages."""
        revisited = item.not_modified or item.thread_url is not None or (
            item.decision is not None and item.decision.page_type in ARTICLE_TYPES)
        if not revisited:
            return None
        source = self.crawler.spider.target_for(item.source_id).settings
        return revisit_policy(self.crawler.settings, source).json()

    def flush_when_idle(self) -> None:
        """A worker with nothing left to fetch writes what it holds at once, not at the
        next tick: the last pages of a crawl or a burst are stored (and their requests
        acknowledged) as soon as the work runs out. (Signal handlers may not return the
        write's Deferred.)"""
        self.flush()

    def tick(self) -> None:
        """The periodic step: report the database's health (a log line, `persist_health`),
        then flush (not waiting for the write, so that the health is reported while a write
        hangs)."""
        self.report_health()
        self.crawler.signals.send_catch_log(persist_health, since=self.unreachable_since(),
                                            waiting=self.waiting)
        self.flush()

    def unreachable_since(self) -> float | None:
        """When the current outage began (monotonic): the first failed write, or a write
        under way for DATABASE_STALL_SECONDS; None while writes succeed."""
        since = self._failing_since
        if self._writing is not None and time.monotonic() - self._write_started >= \
                self.stall_seconds:
            since = min(since or self._write_started, self._write_started)
        return since

    def report_health(self) -> None:
        """While the database is unreachable, one WARNING every DATABASE_HEALTH_LOG_SECONDS."""
        since = self.unreachable_since()
        now = time.monotonic()
        if since is None or (self._health_logged_at is not None
                             and now - self._health_logged_at < self.health_log_seconds):
            return
        self._health_logged_at = now
        logger.warning("database unreachable for %.0f s, %d pages waiting in the journal",
                       now - since, self.waiting)

    def flush(self) -> Deferred[Any]:
        """Start writing sealed segments in a thread, unless a write is under way or the
        database is down and its retry time has not come."""
        if self.journal is None or self._writing is not None or time.monotonic() < self._retry_at:
            return self._writing or succeed(None)
        segments = self.journal.seal()
        if not segments:
            return succeed(None)
        self._write_started = self._committed_at = time.monotonic()
        self._writing = threads.deferToThread(
            write_segments, self.sessions, segments,
            lambda batch: reactor.callFromThread(self._acknowledge, batch), self.index)
        self._writing.addCallbacks(self._written, self._failed)
        return self._writing

    def _acknowledge(self, batch: list[Written]) -> None:
        """Committed items count in their run's stats (a revisit's outcome, the comments
        and versions it added too); their requests are done."""
        self.waiting -= len(batch)
        spider = self.crawler.spider
        metas = [{"run_id": written.run_id, "ticket": written.ticket} for written in batch]
        for meta, written in zip(metas, batch, strict=True):
            spider.count(meta, f"pages/{written.status}")
            if written.revisited and written.status in _REVISIT_OUTCOMES:
                spider.count(meta, _REVISIT_OUTCOMES[written.status])
            for name, value in written.events.items():
                spider.count(meta, name, value)
        spider.requests_done(metas)
        committed_at, self._committed_at = self._committed_at, time.monotonic()
        self.crawler.signals.send_catch_log(signal=batch_stored, batch=batch,
                                            seconds=self._committed_at - committed_at)

    def _written(self, _: list[Written]) -> None:
        since = self.unreachable_since()
        self._writing = None
        if since is not None:
            logger.info("database reachable again after %.0f s; journalled items written",
                        time.monotonic() - since)
        self._outage_logged = False
        self._failing_since = self._health_logged_at = None

    def _failed(self, failure: Failure) -> None:
        """The database is out of reach (pages it refuses for their data were set aside by
        `write_segments`): the segments stay journalled and are retried."""
        self._failing_since = self.unreachable_since() or time.monotonic()
        self._writing = None
        error = failure.value
        why = (reason(error.cause) if isinstance(error, SegmentWriteError)
               else f"{type(error).__name__}: {str(error)[:LOGGED_URL_CHARS]}")
        self._retry_at = time.monotonic() + self.retry_seconds
        self.stats.inc_value("errors/db_unavailable")
        if not self._outage_logged:
            logger.warning("database unavailable (%s); items stay journalled in %s and are "
                           "retried every %.0fs", why, self.journal_root, self.retry_seconds)
            self._outage_logged = True

    async def close_spider(self) -> None:
        """Wait for the write under way (its health still reported), try once more, and
        report what could not be written."""
        if self._writing is not None:
            await maybe_deferred_to_future(self._writing)
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._retry_at = 0.0
        await maybe_deferred_to_future(self.flush())
        self._close_journal()

    def _close_journal(self) -> None:
        assert self.journal is not None
        left = sorted(self.journal.directory.glob("*.jsonl"))
        self.journal.close()
        if left:
            logger.error("%d journal segments could not be written; they are kept in %s and "
                         "written by the next crawl or `python -m crawler replay-spill`",
                         len(left), self.journal.directory)


def persist_stage(crawler: Crawler) -> PersistStage | None:
    """The crawl's persistence stage (for its journal backlog), once the engine runs."""
    engine = getattr(crawler, "engine", None)
    scraper = getattr(engine, "scraper", None)
    for stage in getattr(getattr(scraper, "itemproc", None), "middlewares", ()):
        if isinstance(stage, PersistStage):
            return stage
    return None
