"""Stories and watches during a crawl: after each batch the persistence stage commits, its
new articles are grouped into stories (reading.stories, so an alert is once per story),
the watches are matched against what it stored and due alerts are sent (reading.watches,
reading.delivery), in a thread of their own so a slow or unreachable target never holds
the crawl or its writes. A failure is a log line and a stat, never an error of the crawl;
undelivered alerts stay in the database for the next pass, crawl or `python -m crawler
alerts deliver`.

Settings: WATCHES_ENABLED; none of it runs without SEARCH_INDEX_ENABLED (a watch matches
the search rows).
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from sqlalchemy.exc import SQLAlchemyError
from twisted.internet import threads
from twisted.internet.defer import Deferred

from crawler import settings as defaults
from crawler.persistence import batch_stored
from models.db import database_url, session_factory
from models.schema import reason
from reading.delivery import deliver_due
from reading.stories import GROUP_LOOKBACK, group_new
from reading.watches import match_new

logger = logging.getLogger(__name__)


class WatchAlerts:
    """Scrapy extension: one matching-and-delivery pass after each stored batch (passes do
    not overlap: a batch stored during a pass is matched by one more pass after it)."""

    def __init__(self, crawler: Crawler) -> None:
        self.stats = crawler.stats
        self.sessions = session_factory(database_url(crawler.settings.get("DATABASE_URL")))
        self._pass: Deferred[Any] | None = None
        self._again = False
        self._failing = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WatchAlerts:
        if not crawler.settings.getbool("WATCHES_ENABLED", defaults.WATCHES_ENABLED):
            raise NotConfigured
        if not crawler.settings.getbool("SEARCH_INDEX_ENABLED", defaults.SEARCH_INDEX_ENABLED):
            logger.info("watches, alerts and stories are off for this crawl: its pages are "
                        "stored without search rows (SEARCH_INDEX_ENABLED); `python -m "
                        "crawler reindex` builds them")
            raise NotConfigured
        extension = cls(crawler)
        crawler.signals.connect(extension.stored, signal=batch_stored)
        crawler.signals.connect(extension.closed, signal=signals.spider_closed)
        return extension

    def stored(self) -> None:
        if self._pass is not None:
            self._again = True
            return
        self._pass = threads.deferToThread(self.run_pass)
        self._pass.addBoth(self._done)

    def _done(self, _: Any) -> None:
        self._pass = None
        if self._again:
            self._again = False
            self.stored()

    def run_pass(self) -> None:
        """Match and deliver in one transaction; errors are logged, once per run of them."""
        try:
            with self.sessions.begin() as session:
                grouped = group_new(session, lookback=GROUP_LOOKBACK)
                raised = match_new(session)
                counts = deliver_due(session)
        except SQLAlchemyError as error:
            if not self._failing:
                logger.warning("watches not matched (%s); retried after the next batch",
                               reason(error))
            self._failing = True
            self.stats.inc_value("alerts/match_errors")
            return
        self._failing = False
        self.stats.inc_value("stories/grouped", grouped)
        for name, value in (("raised", raised), *counts.items()):
            if value:
                self.stats.inc_value(f"alerts/{name}", value)

    async def closed(self) -> None:
        """The last batch's alerts go out before the crawl ends, after the passes in flight
        (a pass that ends may start the one a batch asked for meanwhile)."""
        while self._pass is not None:
            await maybe_deferred_to_future(self._pass)
        await maybe_deferred_to_future(threads.deferToThread(self.run_pass))
