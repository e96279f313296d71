"""scrapy-redis's scheduler with acknowledgements: what a worker takes from the shared
queue is remembered until done, so a worker killed mid-crawl loses nothing.

Each worker keeps a heartbeat key; its in-flight requests sit in a hash, filled
atomically by the queue's pop (`AckPriorityQueue`). A worker
that finds the hash of a worker without a heartbeat claims it (one atomic RENAME,
so only one claimant wins) and pushes those requests back to the queue.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redis.exceptions import ResponseError
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy_redis.scheduler import Scheduler
from twisted.internet import task

from crawler import settings as defaults
from crawler.bounded_scheduler import request_domain
from crawler.cluster import keys
from crawler.cluster.enqueue import Entry, Frontier, Outcome
from crawler.cluster.ledger import RunLedger
from crawler.discovery import DISCOVERY

logger = logging.getLogger(__name__)

class AckScheduler(Scheduler):
    """Shared Redis frontier (scrapy-redis) plus tickets, heartbeats and recovery.

    Settings: CLUSTER_HEARTBEAT_SECONDS, CLUSTER_POP_BATCH, CLUSTER_IDLE_POLL_SECONDS, and
    scrapy-redis's (REDIS_URL, SCHEDULER_QUEUE_CLASS, SCHEDULER_DUPEFILTER_*, …)."""

    heartbeat_seconds: float
    pop_batch: int
    idle_poll_seconds: float
    _batch: list[Request] | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> AckScheduler:
        scheduler = super().from_settings(settings)
        scheduler.heartbeat_seconds = settings.getfloat(
            "CLUSTER_HEARTBEAT_SECONDS", defaults.CLUSTER_HEARTBEAT_SECONDS)
        scheduler.pop_batch = settings.getint("CLUSTER_POP_BATCH", defaults.CLUSTER_POP_BATCH)
        scheduler.idle_poll_seconds = settings.getfloat(
            "CLUSTER_IDLE_POLL_SECONDS", defaults.CLUSTER_IDLE_POLL_SECONDS)
        return scheduler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> AckScheduler:
        scheduler = super().from_crawler(crawler)
        scheduler.crawler = crawler
        return scheduler

    def open(self, spider: Spider) -> None:
        super().open(spider)
        self.worker = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.ledger = RunLedger(self.server, spider.name, self.worker)
        self.queue.inflight_key = keys.inflight(spider.name, self.worker)
        self.queue.pop_batch = self.pop_batch
        self.queue.domains_key = keys.queued_by_domain(spider.name)
        self.frontier = Frontier(self.server, spider.name, self.queue.key)
        spider.ledger = self.ledger
        self._poll_shared_queue()
        self._beat()
        self._heartbeat = task.LoopingCall(self._beat)
        self._heartbeat.start(self.heartbeat_seconds, now=False)

    def close(self, reason: str) -> None:
        if self._heartbeat.running:
            self._heartbeat.stop()
        self.ledger.settle()  # statistics still buffered
        # Without a heartbeat, whatever this worker still held is recovered by the others.
        self.server.delete(keys.heartbeat(self.spider.name, self.worker))
        super().close(reason)

    def _poll_shared_queue(self) -> None:
        """The engine asks its scheduler for work when one of its own requests ends, else
        on its heartbeat, every 5 s: an idle worker missed that long the work the others
        queue. The heartbeat has no setting; the engine reads this attribute when it starts
        it, right after opening the scheduler."""
        self.crawler.engine._SLOT_HEARTBEAT_INTERVAL = self.idle_poll_seconds

    def _beat(self) -> None:
        self.server.set(keys.heartbeat(self.spider.name, self.worker), "1",
                        ex=max(1, int(3 * self.heartbeat_seconds)))
        self.recover()

    def enqueue_request(self, request: Request) -> bool:
        """scrapy-redis's enqueue (seen-set, then queue) plus the run's pending count, in
        one atomic step (`crawler.cluster.enqueue`). Inside `batch()` the request waits
        for the block's end, and a duplicate is then dropped without the engine's
        request_dropped signal."""
        if self._batch is not None:
            self._batch.append(request)
            return True
        return self._add([request])[0]

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Requests enqueued inside go to Redis together when the block ends: one round
        trip per run for all of a page's links."""
        self._batch = []
        try:
            yield
        finally:
            requests, self._batch = self._batch, None
            self._add(requests)

    def _add(self, requests: list[Request]) -> list[bool]:
        entries = [self._entry(request) for request in requests]
        outcomes = self.frontier.add(entries)
        for request, entry, outcome in zip(requests, entries, outcomes, strict=True):
            if outcome == Outcome.QUEUED:
                if self.stats:
                    self.stats.inc_value("scheduler/enqueued/redis")
            elif outcome == Outcome.SEEN:
                self.df.log(request, self.spider)
                if not entry.new_ticket:  # a redirect or retry landing on a page already seen
                    self.spider.request_done(request.meta)
            else:
                self._over_limit(request, entry, outcome)
        return [outcome == Outcome.QUEUED for outcome in outcomes]

    def _over_limit(self, request: Request, entry: Entry, outcome: Outcome) -> None:
        """A new request the run's page limit or its domain's queue limit kept out: counted
        in its run, logged once per run or domain."""
        if outcome == Outcome.OVER_PAGE_LIMIT:
            self.spider.kept_out(request.meta, "max_pages", entry.run_id, "run %s reached its "
                                 "page limit (%d pages) across the cluster", entry.run_id,
                                 entry.page_limit)
        else:
            self.spider.kept_out(request.meta, "domain_queue", entry.domain, "%s has %d "
                                 "requests in the shared queue (DOMAIN_QUEUE_LIMIT): its new "
                                 "requests are dropped", entry.domain, entry.domain_limit)

    def _entry(self, request: Request) -> Entry:
        new_ticket = self.ledger.issue(request.meta)
        fingerprint = "" if request.dont_filter else self.df.request_fingerprint(request)
        bounds = self.spider.bounds_for(request.meta.get("source_id"))
        # a discovery document (a feed, a sitemap) counts against no page limit
        page_limit = 0 if DISCOVERY in request.meta else bounds.max_pages
        return Entry(request.meta.get("run_id", "adhoc"), fingerprint, -request.priority,
                     self.queue._encode_request(request), new_ticket, request_domain(request),
                     page_limit, bounds.domain_queue)

    def recover(self) -> int:
        """Requeue the in-flight requests of workers whose heartbeat has stopped."""
        recovered = 0
        for key in self.server.scan_iter(match=keys.inflight(self.spider.name, "*")):
            name = key.decode() if isinstance(key, bytes) else key
            worker = name.rsplit(":", 1)[-1]
            if self.server.exists(keys.heartbeat(self.spider.name, worker)):
                continue
            claim = f"{name}:claimed-by:{self.worker}"
            try:
                self.server.rename(name, claim)
            except ResponseError:
                continue  # another worker claimed it first
            for encoded in self.server.hvals(claim):
                self.queue.push(self.queue._decode_request(encoded))
                recovered += 1
            self.server.delete(claim)
            logger.warning("recovered %d in-flight requests of stopped worker %s",
                           recovered, worker)
        return recovered
