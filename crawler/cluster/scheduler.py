"""scrapy-redis's scheduler with acknowledgements: what a worker takes from the shared
queue is remembered until done, so a worker killed mid-crawl loses nothing.

Each worker keeps a heartbeat key; its in-flight requests sit in a hash, filled
atomically by the queue's pop (`AckPriorityQueue`). A worker
that finds the hash of a worker without a heartbeat claims it (one atomic RENAME,
so only one claimant wins) and pushes those requests back to the queue.

Redis may restart under the workers. Commands ride out a short restart on the connection's
retries (`crawler.cluster.connection`); a longer outage is logged once, requests the worker
could not queue wait in it, and the heartbeat and the engine's polling go on. Each beat
reads Redis' run id: after a restart the worker re-asserts its heartbeat and its in-flight
hash (puts back what it holds, requeues what Redis says it holds but it never received),
and no worker recovers a peer until Redis has been up for CLUSTER_RECOVERY_GRACE_HEARTBEATS
beats, so that live peers re-assert theirs first. A restart that lost a run's pending count
(Redis without persistence) lost that run's frontier: the run ends as `frontier_lost`,
with what is known of the loss (`run_frontier_lost`).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redis.exceptions import RedisError, ResponseError
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy_redis.scheduler import Scheduler
from twisted.internet import task

from crawler import settings as defaults
from crawler.bounded_scheduler import request_domain
from crawler.cluster import keys
from crawler.cluster.connection import with_retries
from crawler.cluster.enqueue import Entry, Frontier, Outcome
from crawler.cluster.health import forget
from crawler.cluster.ledger import RunLedger
from crawler.discovery import DISCOVERY

logger = logging.getLogger(__name__)

run_frontier_lost = object()  # signal: (run_id, stats) of a run whose Redis frontier is gone
# signal at each heartbeat: (worker, since) where `since` is when Redis went out of reach
# (time.monotonic()), None while it answers
redis_health = object()


class AckScheduler(Scheduler):
    """Shared Redis frontier (scrapy-redis) plus tickets, heartbeats and recovery.

    Settings: CLUSTER_HEARTBEAT_SECONDS, CLUSTER_POP_BATCH, CLUSTER_POP_LOOKAHEAD,
    CLUSTER_IDLE_POLL_SECONDS, CLUSTER_RECOVERY_GRACE_HEARTBEATS, the REDIS_* retries, and
    scrapy-redis's (REDIS_URL, SCHEDULER_QUEUE_CLASS, SCHEDULER_DUPEFILTER_*, …)."""

    heartbeat_seconds: float
    pop_batch: int
    pop_lookahead: int
    idle_poll_seconds: float
    grace_heartbeats: int
    _batch: list[Request] | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> AckScheduler:
        scheduler = super().from_settings(with_retries(settings))
        scheduler.grace_heartbeats = settings.getint(
            "CLUSTER_RECOVERY_GRACE_HEARTBEATS", defaults.CLUSTER_RECOVERY_GRACE_HEARTBEATS)
        scheduler.heartbeat_seconds = settings.getfloat(
            "CLUSTER_HEARTBEAT_SECONDS", defaults.CLUSTER_HEARTBEAT_SECONDS)
        scheduler.pop_batch = settings.getint("CLUSTER_POP_BATCH", defaults.CLUSTER_POP_BATCH)
        scheduler.pop_lookahead = settings.getint("CLUSTER_POP_LOOKAHEAD",
                                                  defaults.CLUSTER_POP_LOOKAHEAD)
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
        self._started = time.time()
        self.ledger = RunLedger(self.server, spider.name, self.worker)
        self.queue.inflight_key = keys.inflight(spider.name, self.worker)
        self.queue.pop_batch, self.queue.lookahead = self.pop_batch, self.pop_lookahead
        self.queue.in_flight = self._in_flight
        self.queue.held = self.ledger.held
        self.queue.domains_key = keys.queued_by_domain(spider.name)
        self.frontier = Frontier(self.server, spider.name, self.queue.key)
        self._unsent: list[tuple[Request, Entry]] = []  # not queued yet: Redis was out of reach
        self._runs: set[object] = set()  # runs this worker took requests of
        self._redis_run_id: str | None = None
        self._down_since: float | None = None
        spider.ledger = self.ledger
        self._poll_shared_queue()
        self._beat()
        self._heartbeat = task.LoopingCall(self._beat)
        self._heartbeat.start(self.heartbeat_seconds, now=False)

    def close(self, reason: str) -> None:
        if self._heartbeat.running:
            self._heartbeat.stop()
        try:
            self._send_unsent()
            self.ledger.settle()  # statistics and settles still buffered
            # Without a heartbeat, whatever this worker still held is recovered by the others.
            self.server.delete(keys.heartbeat(self.spider.name, self.worker))
            forget(self.server, self.spider.name, [self.worker])  # a clean stop: no alert
        except RedisError as error:
            self._outage(error)
        if self._unsent or self.ledger.unsettled:
            logger.error("Redis out of reach at close: %d requests never queued and %d finished "
                         "requests never counted; their runs cannot drain",
                         len(self._unsent), self.ledger.unsettled)
        super().close(reason)

    def _in_flight(self) -> Counter[str]:
        """This worker's requests in its downloader, per domain: what the queue's pop
        spreads its choice by."""
        return Counter(map(request_domain, self.crawler.engine.downloader.active))

    def _poll_shared_queue(self) -> None:
        """The engine asks its scheduler for work when one of its own requests ends, else
        on its heartbeat, every 5 s: an idle worker missed that long the work the others
        queue. The heartbeat has no setting; the engine reads this attribute when it starts
        it, right after opening the scheduler."""
        self.crawler.engine._SLOT_HEARTBEAT_INTERVAL = self.idle_poll_seconds

    def _beat(self) -> None:
        """Renew the heartbeat (its key, and its time in the workers' hash), send what waits,
        recover stopped peers; a Redis out of reach is logged once per outage, and the next
        beat tries again. Each beat tells `redis_health` how Redis stands."""
        try:
            self._check_restart()
            with self.server.pipeline(transaction=False) as pipe:
                pipe.set(keys.heartbeat(self.spider.name, self.worker), f"{time.time():.3f}",
                         ex=max(1, int(3 * self.heartbeat_seconds)))
                pipe.hset(keys.workers(self.spider.name), self.worker, time.time())
                pipe.hsetnx(keys.worker_starts(self.spider.name), self.worker, self._started)
                pipe.execute()
            self._send_unsent()
            self.spider.requests_done(())  # settles buffered during an outage
            self._watch_runs()
            # Asked again: a beat that a restart cut in two must not judge its peers by the
            # old Redis' uptime against the new one's keys.
            if self._check_restart() >= self.grace_heartbeats * self.heartbeat_seconds:
                self.recover()
        except RedisError as error:
            self._outage(error)
        else:
            self._reachable()
        self.crawler.signals.send_catch_log(redis_health, worker=self.worker,
                                            since=self._down_since)

    def _check_restart(self) -> int:
        """Redis' uptime in seconds; after a restart (a new run id) re-assert what this
        worker holds and look for runs whose frontier the restart lost."""
        info = self.server.info("server")
        run_id, uptime = info["run_id"], int(info["uptime_in_seconds"])
        if self._redis_run_id not in (None, run_id):
            logger.warning("Redis restarted (up %d s); re-asserting %d in-flight requests",
                           uptime, len(self.ledger.held))
            self._reassert()
            self._find_lost_runs()
        self._redis_run_id = run_id
        return uptime

    def _reassert(self) -> None:
        """Make the in-flight hash say what this worker holds: what it holds is put back
        (a Redis without persistence forgot it), and what Redis says it holds but it never
        received (a pop whose answer the restart cut off) goes back to the queue."""
        inflight = keys.inflight(self.spider.name, self.worker)
        stray = [(ticket, entry) for ticket, entry in self.server.hgetall(inflight).items()
                 if ticket.decode() not in self.ledger.held]
        for _, entry in stray:
            self.queue.push(self.queue._decode_request(entry))
        with self.server.pipeline() as pipe:
            if stray:
                pipe.hdel(inflight, *[ticket for ticket, _ in stray])
            if self.ledger.held:
                pipe.hset(inflight, mapping=self.ledger.held)
            pipe.execute()
        if stray:
            logger.warning("requeued %d requests Redis held for this worker but never handed "
                           "to it", len(stray))

    def _watch_runs(self) -> None:
        """Read the pending counts of the runs this worker took part in (the last count is
        what a lost frontier held); a run whose live marker is gone between restarts ended."""
        runs = sorted(self._runs - self.ledger.lost, key=str)
        if not runs:
            return
        with self.server.pipeline(transaction=False) as pipe:
            for run_id in runs:
                pipe.exists(keys.live(self.spider.name, run_id))
                pipe.get(keys.pending(self.spider.name, run_id))
            answers = pipe.execute()
        for run_id, live, count in zip(runs, answers[::2], answers[1::2], strict=True):
            if not live:
                self._runs.discard(run_id)
            elif count is not None:
                self.ledger.pending_seen[run_id] = int(count)

    def _find_lost_runs(self) -> None:
        """A run this worker took part in whose live marker the restart took lost its
        frontier: its end is recorded by the `run_frontier_lost` receivers."""
        for run_id in sorted(self._runs - self.ledger.lost, key=str):
            if self.server.exists(keys.live(self.spider.name, run_id)):
                continue
            self.ledger.lost.add(run_id)
            held = sum(1 for entry in self.ledger.held.values()
                       if self.queue._decode_request(entry).meta.get("run_id") == run_id)
            stats = {"frontier/lost": 1, "frontier/held_at_loss": held,
                     "frontier/pending_at_loss": self.ledger.pending_seen.get(run_id, -1)}
            self.crawler.signals.send_catch_log(run_frontier_lost, run_id=run_id, stats=stats)

    def _outage(self, error: RedisError) -> None:
        if self._down_since is None:
            self._down_since = time.monotonic()
            logger.warning("Redis out of reach (%s); this worker keeps what it cannot send "
                           "and retries every %g s", error, self.heartbeat_seconds)

    def _reachable(self) -> None:
        if self._down_since is not None:
            logger.warning("Redis reachable again after %.0f s",
                           time.monotonic() - self._down_since)
            self._down_since = None

    def enqueue_request(self, request: Request) -> bool:
        """scrapy-redis's enqueue (seen-set, then queue) plus the run's pending count, in
        one atomic step (`crawler.cluster.enqueue`). Inside `batch()` the request waits
        for the block's end, and a duplicate is then dropped without the engine's
        request_dropped signal."""
        if self._batch is not None:
            self._batch.append(request)
            return True
        return self._add([request])[0]

    def next_request(self) -> Request | None:
        """The next request of the shared queue; none while Redis is out of reach."""
        try:
            self._send_unsent()
            request = super().next_request()
        except RedisError as error:
            self._outage(error)
            return None
        run_id = request and request.meta.get("run_id", "adhoc")
        if request is not None and run_id not in self._runs:
            self._runs.add(run_id)
            try:
                self._watch_runs()  # its pending count known from the start
            except RedisError as error:
                self._outage(error)
        return request

    def has_pending_requests(self) -> bool:
        """A Redis out of reach may still hold work: the worker waits for it."""
        try:
            return bool(self._unsent) or super().has_pending_requests()
        except RedisError as error:
            self._outage(error)
            return True

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
        """Queue requests; those of a run whose frontier was lost are dropped (counted), and
        those Redis cannot take now wait in the worker for the next attempt."""
        wanted = [request.meta.get("run_id", "adhoc") not in self.ledger.lost
                  for request in requests]
        if self.stats and not all(wanted):
            self.stats.inc_value("frontier/dropped_after_loss", wanted.count(False))
        pairs = [(request, self._entry(request))
                 for request, keep in zip(requests, wanted, strict=True) if keep]
        try:
            queued = iter(self._send(pairs))
        except RedisError as error:
            self._outage(error)
            self._unsent += pairs
            queued = iter([True] * len(pairs))
        return [keep and next(queued) for keep in wanted]

    def _send_unsent(self) -> None:
        if self._unsent:
            pairs, self._unsent = self._unsent, []
            try:
                self._send(pairs)
            except RedisError:
                self._unsent = pairs + self._unsent
                raise

    def _send(self, pairs: list[tuple[Request, Entry]]) -> list[bool]:
        outcomes = self.frontier.add([entry for _, entry in pairs])
        for (request, entry), outcome in zip(pairs, outcomes, strict=True):
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
        """Requeue the in-flight requests of workers whose heartbeat has stopped (never this
        worker's own: it is alive, whatever its key says)."""
        recovered = 0
        for key in self.server.scan_iter(match=keys.inflight(self.spider.name, "*")):
            name = key.decode() if isinstance(key, bytes) else key
            worker = name.rsplit(":", 1)[-1]
            if worker == self.worker or self.server.exists(
                    keys.heartbeat(self.spider.name, worker)):
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
