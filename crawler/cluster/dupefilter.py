"""A seen-set per crawl run, so recurring crawls neither grow one set forever nor skip
pages a later run must revisit. Long-term 'already stored' lives in PostgreSQL."""

from __future__ import annotations

from scrapy import Request
from scrapy_redis.dupefilter import RFPDupeFilter

from crawler.cluster import keys

# A run's seen-set outlives the run by this much, then Redis drops it.
SEEN_TTL_SECONDS = 3 * 24 * 3600


class RunDupeFilter(RFPDupeFilter):
    """scrapy-redis's fingerprint filter, keyed by the request's `run_id` meta.

    Configured with SCHEDULER_DUPEFILTER_KEY = "%(spider)s", so `self.key` is the
    spider's name and every run's set sits under it.
    """

    def request_seen(self, request: Request) -> bool:
        key = keys.seen(self.key, request.meta.get("run_id", "adhoc"))
        fingerprint = self.request_fingerprint(request)
        with self.server.pipeline() as pipe:
            pipe.sadd(key, fingerprint)
            pipe.expire(key, SEEN_TTL_SECONDS)
            added, _ = pipe.execute()
        return added == 0
