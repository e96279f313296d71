"""Scrapy's scheduler with a bounded queue per domain: a site that links to new pages
faster than they can be fetched (a trap, a huge faceted index) holds at most its source's
DOMAIN_QUEUE_LIMIT requests in the worker's memory; its further new requests are dropped,
counted in `bounds/domain_queue` and logged once per domain. The most requests one domain
had queued is the statistic `scheduler/domain_queue_max`. (The cluster's shared queue keeps
the same limit in Redis, `crawler.cluster.enqueue`.)

Settings: DOMAIN_QUEUE_LIMIT (per source in its `settings`), and Scrapy's SCHEDULER_*.
"""

from __future__ import annotations

from collections import Counter

from scrapy import Request
from scrapy.core.scheduler import Scheduler
from scrapy.utils.httpobj import urlparse_cached


def request_domain(request: Request) -> str:
    """The host a request's queue limit counts it under."""
    return urlparse_cached(request).hostname or ""


class DomainBoundedScheduler(Scheduler):
    """Counts the queued requests per domain; refuses a domain's request at its limit."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.queued: Counter[str] = Counter()

    def enqueue_request(self, request: Request) -> bool:
        domain = request_domain(request)
        spider = self.crawler.spider
        limit = spider.bounds_for(request.meta.get("source_id")).domain_queue
        if limit and self.queued[domain] >= limit:
            spider.kept_out(request.meta, "domain_queue", domain, "%s has %d requests "
                            "queued (DOMAIN_QUEUE_LIMIT): its new requests are dropped",
                            domain, limit)
            return False
        if not super().enqueue_request(request):
            return False
        self.queued[domain] += 1
        self.stats.max_value("scheduler/domain_queue_max", self.queued[domain])
        return True

    def next_request(self) -> Request | None:
        request = super().next_request()
        if request is not None:
            domain = request_domain(request)
            self.queued[domain] -= 1
            if self.queued[domain] <= 0:
                del self.queued[domain]
        return request
