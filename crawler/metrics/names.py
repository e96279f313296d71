"""Every metric the crawl exposes, with its labels. `source` is the source's name ("" for a
crawl of bare start URLs), `run` the crawl run's id. Each process has its own registry.

Histogram buckets are seconds: a page's extraction takes milliseconds of CPU and at most
PAGE_TIME_BUDGET_SECONDS; a batch of PERSIST_BATCH_SIZE pages commits in a fraction of a
second, longer while the database is slow (measured figures: docs/BENCHMARKS.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram

EXTRACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0)
STORE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
RUN = ("source", "run")


@dataclass(frozen=True)
class WorkerMetrics:
    """A crawl worker's counters and histograms (what it reads at scrape time is
    `crawler.metrics.worker.WorkerState`'s, the cluster's `crawler.metrics.cluster`'s)."""

    pages_read: Counter
    pages_stored: Counter
    errors: Counter
    extraction_seconds: Histogram
    store_seconds: Histogram

    @classmethod
    def create(cls, registry: CollectorRegistry) -> WorkerMetrics:
        return cls(
            Counter("crawler_pages_read", "Pages read (decoded and classified), by page type",
                    [*RUN, "type"], registry=registry),
            Counter("crawler_pages_stored", "Pages committed to the database, by outcome "
                    "(new, updated, unchanged, not_modified, rejected)", [*RUN, "outcome"],
                    registry=registry),
            Counter("crawler_errors", "Pages that failed, by kind: fetch errors (http_503, "
                    "TimeoutError, DNSLookupError …) and decode, classify, extract",
                    [*RUN, "kind"], registry=registry),
            Histogram("crawler_extraction_seconds", "CPU seconds to read one page (decode, "
                      "classify, extract)", ["source"], buckets=EXTRACTION_BUCKETS,
                      registry=registry),
            Histogram("crawler_store_seconds", "Seconds to commit one batch of pages",
                      buckets=STORE_BUCKETS, registry=registry))


@dataclass(frozen=True)
class SchedulerMetrics:
    runs_started: Counter
    checks: Counter

    @classmethod
    def create(cls, registry: CollectorRegistry) -> SchedulerMetrics:
        return cls(
            Counter("crawler_runs_started", "Runs the scheduler started", ["source"],
                    registry=registry),
            Counter("crawler_schedule_checks", "Checks for due sources, by outcome (ok, "
                    "unavailable: Redis or the database out of reach)", ["outcome"],
                    registry=registry))
