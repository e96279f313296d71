"""Which requests of each crawl run are still to be done, across all workers.

Every request gets a ticket when first scheduled; the run's pending count goes up
then (atomically with the enqueue, in the scheduler) and down when the request is
done (stored, skipped or failed). A request's redirects and retries keep its ticket.
When the count drains to zero the run is over, whichever worker finishes last, and
that worker records it. Per-run statistics are summed in a Redis hash by all workers.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from typing import Any

from redis import Redis

from crawler.cluster import keys

logger = logging.getLogger(__name__)

# Count a ticket down once only: add it to the run's done-set, decrement if it was new.
_COMPLETE_ONCE = """
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
if added == 1 then return redis.call('DECR', KEYS[2]) end
return -1
"""
# Keys of a run's bookkeeping expire if a run is abandoned (e.g. its queue was flushed).
RUN_KEY_TTL_SECONDS = 3 * 24 * 3600


class RunLedger:
    """Tickets, pending counts and statistics of crawl runs, kept in Redis."""

    def __init__(self, server: Redis, spider: str, worker: str) -> None:
        self.server = server
        self.spider = spider
        self.worker = worker
        self._complete = server.register_script(_COMPLETE_ONCE)

    def issue(self, meta: dict[str, Any]) -> bool:
        """Give a new request its ticket; False if it already has one (a redirect, a retry,
        a recovered request), which must not be counted twice."""
        if "ticket" in meta:
            return False
        meta["ticket"] = uuid.uuid4().hex
        return True

    def done(self, meta: Mapping[str, Any]) -> int | None:
        """The request is finished; returns the run's remaining count, or None when this
        ticket was already counted (a killed worker's journal and the recovered request
        may both report it) or has none."""
        ticket = meta.get("ticket")
        if ticket is None:
            return None
        run_id = meta.get("run_id", "adhoc")
        # Count first, forget second: dying in between costs a refetch, never a stuck run.
        remaining = self._complete(keys=[keys.done(self.spider, run_id),
                                         keys.pending(self.spider, run_id)],
                                   args=[ticket, RUN_KEY_TTL_SECONDS])
        self.server.hdel(keys.inflight(self.spider, self.worker), ticket)
        return None if int(remaining) < 0 else int(remaining)

    def count(self, run_id: object, name: str, value: int = 1) -> None:
        key = keys.run_stats(self.spider, run_id)
        with self.server.pipeline() as pipe:
            pipe.hincrby(key, name, value)
            pipe.expire(key, RUN_KEY_TTL_SECONDS)
            pipe.execute()

    def close_run(self, run_id: object) -> dict[str, int]:
        """Collect a drained run's statistics and drop its keys."""
        stats_key = keys.run_stats(self.spider, run_id)
        with self.server.pipeline() as pipe:
            pipe.hgetall(stats_key)
            pipe.delete(stats_key, keys.pending(self.spider, run_id),
                        keys.seen(self.spider, run_id), keys.done(self.spider, run_id))
            raw, _ = pipe.execute()
        return {_text(k): int(v) for k, v in raw.items()}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
