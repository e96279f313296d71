"""A crawl worker's Prometheus metrics, served on METRICS_PORT (0: a free port, logged).

Driven by signals, nothing patched: the spider's `counted` (every run statistic it counts:
pages by type and outcome, errors by kind), the page layer's `page_read` (CPU seconds per
page) and the persistence stage's `batch_stored` (seconds per committed batch). Read when
scraped: the journal backlog, watch alerts (the crawl's `alerts/…` statistics), the queue
(the cluster's from Redis, `crawler.metrics.cluster`; alone, the worker's own scheduler).

A run's series stay in the worker's /metrics until the worker stops (counters must not go
back); Prometheus stops storing them once they stop changing.

Settings: METRICS_PORT, METRICS_HOST, REDIS_URL.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from crawler import settings as defaults
from crawler.items import CrawledPage
from crawler.metrics.cluster import ClusterCollector
from crawler.metrics.names import WorkerMetrics as Metrics
from crawler.metrics.serve import serve
from crawler.pages import page_read
from crawler.persistence import batch_stored, persist_stage
from crawler.spiders.site import counted
from crawler.status.snapshot import OUTCOMES

logger = logging.getLogger(__name__)
ALERT_OUTCOMES = ("raised", "sent", "retried", "failed")


class WorkerState(Collector):
    """What the worker reads when scraped: its journal backlog, its alerts and, alone, its
    scheduler's queue."""

    def __init__(self, crawler: Crawler, own_queue: bool) -> None:
        self.crawler = crawler
        self.own_queue = own_queue

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        stage = persist_stage(self.crawler)
        yield GaugeMetricFamily("crawler_journal_backlog_pages", "Pages journalled and not "
                                "yet committed (grows while the database is out of reach)",
                                value=stage.waiting if stage is not None else 0)
        alerts = CounterMetricFamily("crawler_alerts", "Watch alerts by outcome: raised, "
                                     "sent, retried, failed (given up)", labels=["outcome"])
        stats = self.crawler.stats
        for outcome in ALERT_OUTCOMES:
            alerts.add_metric([outcome], stats.get_value(f"alerts/{outcome}", 0))
        yield alerts
        if self.own_queue:
            engine = getattr(self.crawler, "engine", None)
            scheduler = engine.scheduler if engine is not None else None
            yield GaugeMetricFamily("crawler_queue_requests", "Requests waiting in the queue",
                                    value=len(scheduler) if scheduler is not None else 0)


class WorkerMetrics:
    """The Scrapy extension: metrics from signals, served while the crawl runs."""

    def __init__(self, crawler: Crawler, registry: CollectorRegistry) -> None:
        self.crawler = crawler
        self.metrics = Metrics.create(registry)
        self.run_sources: dict[object, str] = {}
        self._series: dict[tuple[object, str], Any] = {}  # (run, statistic) → its series

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WorkerMetrics:
        port = crawler.settings.get("METRICS_PORT")
        if port in (None, ""):
            raise NotConfigured
        host = crawler.settings.get("METRICS_HOST", defaults.METRICS_HOST)
        registry = CollectorRegistry()
        extension = cls(crawler, registry)
        redis_url = crawler.settings.get("REDIS_URL")
        registry.register(WorkerState(crawler, own_queue=not redis_url))
        if redis_url:
            registry.register(ClusterCollector.for_url(redis_url, crawler.spidercls.name))
        try:
            extension.server = serve(registry, host, int(port), "crawl worker")
        except (OSError, ValueError, OverflowError) as error:
            logger.error("no metrics: cannot serve them on %s:%s (%s); the crawl goes on",
                         host, port, error)
            raise NotConfigured from error
        crawler.signals.connect(extension.counted, signal=counted)
        crawler.signals.connect(extension.page_read, signal=page_read)
        crawler.signals.connect(extension.batch_stored, signal=batch_stored)
        crawler.signals.connect(extension.closed, signal=signals.spider_closed)
        return extension

    def source_of(self, meta: Mapping[str, Any]) -> str:
        """The name of the source of a request's run (learned from the first count that
        carries its source: the pages' stored outcomes carry only the run)."""
        run = meta.get("run_id")
        if "source_id" in meta:
            source_id = meta["source_id"]
            name = ""
            if source_id is not None:
                name = self.crawler.spider.target_for(source_id).name or str(source_id)
            self.run_sources[run] = name
        return self.run_sources.get(run, "")

    def counted(self, meta: Mapping[str, Any], name: str, value: int) -> None:
        """Count a run statistic in its metric, if it has one (the child series of a run and
        statistic is found once, then kept: this runs several times a page)."""
        key = (meta.get("run_id"), name)
        if key not in self._series:
            self._series[key] = self._series_of(meta, name)
        series = self._series[key]
        if series is not None:
            series.inc(value)

    def _series_of(self, meta: Mapping[str, Any], name: str) -> Any:
        group, _, rest = name.partition("/")
        labels = (self.source_of(meta), str(meta.get("run_id", "")))
        if group == "errors":
            return self.metrics.errors.labels(*labels, rest)
        if group == "pages" and rest.startswith("type/"):
            return self.metrics.pages_read.labels(*labels, rest[len("type/"):])
        if group == "pages" and rest in OUTCOMES:
            return self.metrics.pages_stored.labels(*labels, rest)
        return None

    def page_read(self, item: CrawledPage, seconds: float) -> None:
        self.metrics.extraction_seconds.labels(self.source_of(item.meta)).observe(seconds)

    def batch_stored(self, seconds: float) -> None:
        self.metrics.store_seconds.observe(seconds)

    def closed(self) -> None:
        self.server.shutdown()
        self.server.server_close()
