"""The shared queue's metrics, read from Redis when /metrics is scraped (so every worker
and the scheduler report the same figures; a dashboard takes one, e.g. `max`)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from redis import Redis
from redis.exceptions import RedisError

from crawler.cluster.progress import live_runs, read_queue, read_runs

SCRAPE_REDIS_TIMEOUT_SECONDS = 2.0  # a scrape never waits long for a Redis out of reach


class ClusterCollector(Collector):
    """crawler_redis_up, crawler_queue_requests, crawler_runs_in_flight and
    crawler_run_pending_requests{run}; with Redis out of reach only crawler_redis_up (0)."""

    def __init__(self, server: Redis, spider: str) -> None:
        self.server = server
        self.spider = spider

    @classmethod
    def for_url(cls, redis_url: str, spider: str) -> ClusterCollector:
        """A collector on a client of its own, with short timeouts and no retries."""
        return cls(Redis.from_url(redis_url, socket_timeout=SCRAPE_REDIS_TIMEOUT_SECONDS,
                                  socket_connect_timeout=SCRAPE_REDIS_TIMEOUT_SECONDS), spider)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily("crawler_redis_up", "1 when the cluster's Redis answered "
                               "this scrape, else 0")
        try:
            queued, _ = read_queue(self.server, self.spider)
            runs = read_runs(self.server, self.spider, live_runs(self.server, self.spider))
        except RedisError:
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield GaugeMetricFamily("crawler_queue_requests", "Requests waiting in the shared "
                                "queue", value=queued)
        yield GaugeMetricFamily("crawler_runs_in_flight", "Runs not yet drained",
                                value=len(runs))
        pending = GaugeMetricFamily("crawler_run_pending_requests", "A run's requests queued "
                                    "or in flight", labels=["run"])
        for run in runs:
            pending.add_metric([run.run_id], run.pending or 0)
        yield pending
