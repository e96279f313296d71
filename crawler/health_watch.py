"""A worker's own crawl health: its database or Redis out of reach for too long, its journal
backlog growing. The persistence stage (`persist_health`) and the cluster scheduler
(`redis_health`) say how their service stands; every HEALTH_CHECK_SECONDS the rules of
pipelines/health.py turn that into conditions, which reading.health_alerts raises once,
logs, sends (in a thread: a slow target never holds the crawl) and stores when the
database takes it. Run-level conditions are the scheduler's (crawler/cluster/health.py).

Settings: HEALTH_ALERT_URLS, HEALTH_CHECK_SECONDS, HEALTH_UNREACHABLE_SECONDS,
HEALTH_JOURNAL_GROWTH_SECONDS, HEALTH_JOURNAL_GROWTH_PAGES, DATABASE_URL.
"""

from __future__ import annotations

import os
import socket
import time
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task, threads
from twisted.internet.defer import Deferred

from crawler import settings as defaults
from crawler.cluster.scheduler import redis_health
from crawler.persistence import persist_health
from models.db import database_url, session_factory
from pipelines.health import (
    DATABASE_UNREACHABLE,
    JOURNAL_BACKLOG,
    REDIS_UNREACHABLE,
    HealthEvent,
    journal_backlog,
    unreachable,
)
from reading.health_alerts import HealthAlerts, targets_from


class HealthWatch:
    """Scrapy extension: evaluates the worker's health rules and reports their changes."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings

        def number(name: str) -> float:
            return settings.getfloat(name, getattr(defaults, name))

        self.every = number("HEALTH_CHECK_SECONDS")
        self.limit = number("HEALTH_UNREACHABLE_SECONDS")
        self.window = number("HEALTH_JOURNAL_GROWTH_SECONDS")
        self.growth = int(number("HEALTH_JOURNAL_GROWTH_PAGES"))
        self.worker = f"{socket.gethostname()}-{os.getpid()}"  # the cluster's name, once known
        self.alerts = HealthAlerts(self.worker, targets_from(settings.get(
            "HEALTH_ALERT_URLS", defaults.HEALTH_ALERT_URLS)),
            session_factory(database_url(settings.get("DATABASE_URL"))))
        self.database_since: float | None = None
        self.redis_since: float | None = None
        self.backlog: list[tuple[float, int]] = []  # (time.monotonic(), pages waiting)
        self._loop: task.LoopingCall | None = None
        self._pass: Deferred[Any] | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HealthWatch:
        watch = cls(crawler)
        crawler.signals.connect(watch.persisting, signal=persist_health)
        crawler.signals.connect(watch.beating, signal=redis_health)
        crawler.signals.connect(watch.opened, signal=signals.spider_opened)
        crawler.signals.connect(watch.closed, signal=signals.spider_closed)
        return watch

    def persisting(self, since: float | None, waiting: int) -> None:
        self.database_since = since
        now = time.monotonic()
        self.backlog.append((now, waiting))
        older = [at for at, _ in self.backlog if now - at >= self.window]
        if len(older) > 1:  # the last sample a window old marks the window's start
            self.backlog = self.backlog[len(older) - 1:]

    def beating(self, worker: str, since: float | None) -> None:
        self.alerts.origin = self.worker = worker
        self.redis_since = since

    def opened(self) -> None:
        self._loop = task.LoopingCall(self.check)
        self._loop.start(self.every, now=False)

    def events(self, now: float) -> list[HealthEvent]:
        """The conditions that hold at `now` (time.monotonic())."""
        return [*unreachable(DATABASE_UNREACHABLE, "the database", self.worker,
                             self.database_since, now, self.limit),
                *unreachable(REDIS_UNREACHABLE, "Redis", self.worker, self.redis_since, now,
                             self.limit),
                *journal_backlog(self.worker, self.backlog, now, self.window, self.growth,
                                 f"{JOURNAL_BACKLOG}:{self.worker}" in self.alerts.open)]

    def check(self) -> None:
        """Evaluate now; report and send in a thread, one pass at a time."""
        if self._pass is not None:
            return
        events = self.events(time.monotonic())
        self._pass = threads.deferToThread(self._report, events)
        self._pass.addBoth(self._done)

    def _report(self, events: list[HealthEvent]) -> None:
        self.alerts.own(events)
        self.alerts.send()

    def _done(self, _: Any) -> None:
        self._pass = None

    async def closed(self) -> None:
        """Messages still due go out, and the worker's conditions end with it."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self._pass is not None:
            await maybe_deferred_to_future(self._pass)
        await maybe_deferred_to_future(threads.deferToThread(self._close))

    def _close(self) -> None:
        self.alerts.send()
        self.alerts.close()
