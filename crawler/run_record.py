"""The crawl run's record in the store, driven by signals: started when the spider opens,
finished when it closes (a crawl alone is its run) or, in a cluster, when the spider sends
`run_drained` for a run whose last request is done, whichever worker settled it, or
`run_frontier_lost` for a run whose Redis frontier a restart lost (status `frontier_lost`).

Settings: DATABASE_URL, REDIS_URL.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from sqlalchemy.exc import SQLAlchemyError

from crawler.cluster.runs import create_run
from crawler.cluster.scheduler import run_frontier_lost
from crawler.database import connect_options
from crawler.sources import adhoc_source
from models.db import session_factory
from models.schema import reason, shown_url
from models.store import finish_run
from pipelines import LOG_CONTEXT

logger = logging.getLogger(__name__)

run_drained = object()  # signal: (run_id, stats) of a cluster run whose last request is done
# The statistics a finished run's log line shows (the stored record keeps them all).
_LOGGED_GROUPS = ("pages", "errors", "robots", "template", "records", "frontier", "bounds",
                  "revisits", "comments", "versions", "finish_reason")


class RunRecord:
    """Starts the spider's run (a `crawl_run` row, its id on the spider as `run_id`) and
    finishes each run with its statistics."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.database_url = crawler.settings.get("DATABASE_URL")
        self.options = connect_options(crawler.settings)  # a cut-off worker frees the run row
        self.distributed = bool(crawler.settings.get("REDIS_URL"))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RunRecord:
        record = cls(crawler)
        crawler.signals.connect(record.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(record.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(record.finish, signal=run_drained)
        crawler.signals.connect(record.lose, signal=run_frontier_lost)
        return record

    def spider_opened(self, spider: Spider) -> None:
        """Record the run of the crawl the spider was asked for (none for a bare worker). In
        a cluster an ad-hoc crawl becomes a stored source first, so that workers on other
        machines read its limits by id. A database out of reach: the crawl goes on
        without a run record, its items journalled until the database returns."""
        target = getattr(spider, "target", None)
        if target is None:
            return
        if self.distributed and target.source_id is None:
            target = replace(target, source_id=adhoc_source(target, self.database_url))
            spider.use_target(target)
        try:
            spider.run_id = create_run(session_factory(self.database_url, self.options),
                                       spider.name, target.source_id)
            if not self.distributed:  # the crawl is the run: every line is the run's
                LOG_CONTEXT.update(run=spider.run_id, source=target.name)
        except SQLAlchemyError as error:
            logger.warning("the database %s is unreachable at start (%s): crawling without a "
                           "run record; items are journalled until it returns",
                           shown_url(self.database_url), reason(error))

    def spider_closed(self, spider: Spider, reason: str) -> None:
        """Alone, the crawl is the run: it ends with the spider."""
        run_id = getattr(spider, "run_id", None)
        if not self.distributed and run_id is not None:
            stats = {key: value if isinstance(value, int | float | str) else str(value)
                     for key, value in self.crawler.stats.get_stats().items()}
            self.finish(run_id, {**stats, "finish_reason": reason})

    def finish(self, run_id: int, stats: dict[str, Any]) -> None:
        """Log the run's main figures and store all of them with its end."""
        logged = {key: value for key, value in sorted(stats.items())
                  if key.split("/")[0] in _LOGGED_GROUPS}
        logger.info("crawl run %s finished: %s", run_id, json.dumps(logged),
                    extra={"run": run_id})
        try:
            with session_factory(self.database_url, self.options).begin() as session:
                finish_run(session, run_id, "finished", stats)
        except SQLAlchemyError as error:
            logger.warning("could not record the end of crawl run %s: %s", run_id, reason(error))

    def lose(self, run_id: int, stats: dict[str, int]) -> None:
        """A run whose pending count vanished with a Redis restart: unless it had ended, it
        ends now as `frontier_lost`, with what this worker knows of the loss, and the
        worker's `frontier/lost_runs` makes `scrapy crawl` exit non-zero."""
        try:
            with session_factory(self.database_url, self.options).begin() as session:
                lost = finish_run(session, run_id, "frontier_lost",
                                  {**stats, "finish_reason": "frontier_lost"})
        except SQLAlchemyError as error:
            logger.error("crawl run %s lost its Redis frontier; could not record it: %s",
                         run_id, reason(error))
            lost = True
        if lost:
            self.crawler.stats.inc_value("frontier/lost_runs")
            logger.error("crawl run %s lost its Redis frontier (Redis restarted without its "
                         "data): %d requests were pending at this worker's last count, %d held "
                         "by this worker are still fetched and stored, the rest are not crawled",
                         run_id, stats["frontier/pending_at_loss"],
                         stats["frontier/held_at_loss"])
