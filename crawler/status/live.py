"""A worker's running figures, published every STATUS_PUBLISH_SECONDS for `status`.

In a cluster the runs' statistics are already summed in Redis by every settle
(`crawler.cluster.ledger`); what only the worker knows is published as a hash of its own
(`keys.worker_status`, expiring after three intervals, deleted when it stops): pages
stored, pages stored over the last minute per run, its journal backlog. Alone (no
REDIS_URL) the crawl's statistics so far, with the same live figures under `live/…`, are
written on its `crawl_run` row while the run is unfinished (the run's end replaces them
with the final statistics).

Settings: STATUS_PUBLISH_SECONDS (0: off), REDIS_URL, DATABASE_URL.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import time
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from sqlalchemy import update
from sqlalchemy.exc import SQLAlchemyError
from twisted.internet import task, threads
from twisted.internet.defer import Deferred

from crawler import settings as defaults
from crawler.cluster import keys
from crawler.persistence import batch_stored, persist_stage
from models.crawl import CrawlRun
from models.db import session_factory
from models.persist import Written

logger = logging.getLogger(__name__)
RATE_WINDOW_SECONDS = 60.0  # "pages a minute" is counted over the last minute
Sample = tuple[float, Mapping[object, int]]  # (monotonic time, pages stored so far per run)


def per_minute(samples: Sequence[Sample], window: float = RATE_WINDOW_SECONDS
               ) -> dict[object, float]:
    """Pages a minute per run between the oldest sample at most `window` seconds older than
    the newest and the newest; empty with fewer than two such samples."""
    newest_time, newest = samples[-1] if samples else (0.0, {})
    oldest_time, oldest = next(((when, counts) for when, counts in samples
                                if newest_time - when <= window), (newest_time, newest))
    span = newest_time - oldest_time
    if span <= 0:
        return {}
    return {run: (count - oldest.get(run, 0)) * 60.0 / span for run, count in newest.items()}


class LiveProgress:
    """Publishes the worker's figures (see the module's docstring)."""

    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self.distributed = bool(crawler.settings.get("REDIS_URL"))
        self.database_url = crawler.settings.get("DATABASE_URL")
        self.stored: Counter[object] = Counter()
        self.samples: deque[Sample] = deque()
        self.started_at = time.time()
        self.redis: Redis | None = None
        self._loop: task.LoopingCall | None = None
        self._writing: Deferred[Any] | None = None
        self._worker = ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LiveProgress:
        interval = crawler.settings.getfloat("STATUS_PUBLISH_SECONDS",
                                             defaults.STATUS_PUBLISH_SECONDS)
        if interval <= 0:
            raise NotConfigured
        extension = cls(crawler, interval)
        crawler.signals.connect(extension.batch_stored, signal=batch_stored)
        crawler.signals.connect(extension.opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.closed, signal=signals.spider_closed)
        return extension

    def batch_stored(self, batch: list[Written]) -> None:
        self.stored.update(written.run_id for written in batch)

    def opened(self, spider: Spider) -> None:
        if self.distributed:
            self.redis = Redis.from_url(self.crawler.settings.get("REDIS_URL"),
                                        socket_timeout=2, socket_connect_timeout=2)
        self._loop = task.LoopingCall(self.publish)
        self._loop.start(self.interval, now=True)

    def closed(self, spider: Spider) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self.redis is not None and self._worker:
            with contextlib.suppress(RedisError):  # else it expires
                self.redis.delete(keys.worker_status(spider.name, self._worker))

    def publish(self) -> None:
        now = time.monotonic()
        self.samples.append((now, dict(self.stored)))
        while now - self.samples[0][0] > RATE_WINDOW_SECONDS:
            self.samples.popleft()
        rates = per_minute(self.samples)
        stage = persist_stage(self.crawler)
        backlog = stage.waiting if stage is not None else 0
        if self.distributed:
            self._publish_to_redis(rates, backlog)
        else:
            self._publish_to_run(rates, backlog)

    def _publish_to_redis(self, rates: dict[object, float], backlog: int) -> None:
        """The worker's hash; a Redis out of reach skips it (the scheduler logs the outage)."""
        ledger = getattr(self.crawler.spider, "ledger", None)
        if self.redis is None or ledger is None:
            return
        self._worker = ledger.worker
        figures = {"host": socket.gethostname(), "pid": os.getpid(),
                   "started_at": round(self.started_at, 3),
                   "updated_at": round(time.time(), 3), "stored": sum(self.stored.values()),
                   "per_minute": round(sum(rates.values()), 1), "backlog": backlog,
                   "runs": {str(run): round(rate, 1) for run, rate in rates.items()}}
        key = keys.worker_status(self.crawler.spider.name, self._worker)
        try:
            with self.redis.pipeline() as pipe:
                pipe.hset(key, mapping={name: json.dumps(value)
                                        for name, value in figures.items()})
                pipe.expire(key, max(1, int(3 * self.interval)))
                pipe.execute()
        except RedisError as error:
            logger.debug("live figures not published: %s", error)

    def _publish_to_run(self, rates: dict[object, float], backlog: int) -> None:
        """The crawl's statistics so far on its unfinished run row, written in a thread (one
        at a time); a database out of reach skips it (the persistence stage reports it)."""
        run_id = getattr(self.crawler.spider, "run_id", None)
        if run_id is None or self._writing is not None:
            return
        stats = {name: value for name, value in self.crawler.stats.get_stats().items()
                 if isinstance(value, int | float) and not isinstance(value, bool)}
        stats.update({"live/pages_per_minute": round(rates.get(run_id, 0.0), 1),
                      "live/updated_at": round(time.time(), 3), "live/backlog": backlog})
        self._writing = threads.deferToThread(self._write_run, run_id, stats)
        self._writing.addBoth(self._written)

    def _write_run(self, run_id: int, stats: dict[str, Any]) -> None:
        try:
            with session_factory(self.database_url).begin() as session:
                session.execute(update(CrawlRun).where(CrawlRun.id == run_id,
                                                       CrawlRun.finished_at.is_(None))
                                .values(stats=stats))
        except SQLAlchemyError as error:
            logger.debug("live figures not written: %s", error)

    def _written(self, _: object) -> None:
        self._writing = None
