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
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from redis import Redis
from redis.exceptions import RedisError

from crawler.cluster import keys

logger = logging.getLogger(__name__)

# Settle finished requests in one atomic step: add the buffered statistics to their runs'
# hashes, then count each ticket down once only (added to its run's done-set, the pending
# count decremented if it was new) and forget it from the worker's in-flight hash. A run
# without its live marker lost its frontier: nothing of it is counted (-2), so it never
# looks drained.
# KEYS: in-flight hash, a stats hash per count, then (done-set, pending, live) per ticket.
# ARGV: TTL, number of counts, a (field, value) pair per count, then the tickets.
_SETTLE = """
local ttl, counts = ARGV[1], tonumber(ARGV[2])
for i = 1, counts do
  redis.call('HINCRBY', KEYS[1 + i], ARGV[1 + 2 * i], ARGV[2 + 2 * i])
  redis.call('EXPIRE', KEYS[1 + i], ttl)
end
local remaining = {}
for j = 1, (#KEYS - 1 - counts) / 3 do
  local done, pending = KEYS[counts + 3 * j - 1], KEYS[counts + 3 * j]
  local live = KEYS[counts + 3 * j + 1]
  local ticket = ARGV[2 + 2 * counts + j]
  remaining[j] = -1
  if redis.call('EXPIRE', live, ttl) == 0 then
    remaining[j] = -2
  elseif redis.call('SADD', done, ticket) == 1 then
    remaining[j] = redis.call('DECR', pending)
  end
  redis.call('EXPIRE', done, ttl)
  redis.call('HDEL', KEYS[1], ticket)
end
return remaining
"""
# Keys of a run's bookkeeping expire if a run is abandoned (e.g. its queue was flushed).
RUN_KEY_TTL_SECONDS = 3 * 24 * 3600


class RunLedger:
    """Tickets, pending counts and statistics of crawl runs, kept in Redis.

    Statistics are buffered in the worker and travel with the next `settle`, ahead of
    its count-downs: a run's hash is complete when its count drains, and a page costs
    no round trip per counter (a killed worker's unsent counts belong to requests it
    never finished, which are fetched and counted again). A settle Redis cannot take
    (an outage longer than the connection's retries) stays buffered for the next one.

    `held` maps the ticket of every request this worker took from the queue and has not
    settled to its queue entry: what the worker re-asserts after Redis restarts."""

    def __init__(self, server: Redis, spider: str, worker: str) -> None:
        self.server = server
        self.spider = spider
        self.worker = worker
        self._settle = server.register_script(_SETTLE)
        self._counts: Counter[tuple[object, str]] = Counter()
        self._unsettled: list[tuple[object, str]] = []
        self.held: dict[str, bytes] = {}
        self.pending_seen: dict[object, int] = {}  # each run's pending count, last read
        self.lost: set[object] = set()  # runs whose frontier a Redis restart lost: never drained

    def issue(self, meta: dict[str, Any]) -> bool:
        """Give a new request its ticket; False if it already has one (a redirect, a retry,
        a recovered request), which must not be counted twice."""
        if "ticket" in meta:
            return False
        meta["ticket"] = uuid.uuid4().hex
        return True

    def count(self, run_id: object, name: str, value: int = 1) -> None:
        """Add to a run's statistics (sent with the next settle)."""
        self._counts[(run_id, name)] += value

    def settle(self, metas: Sequence[Mapping[str, Any]] = ()) -> list[object]:
        """These requests are finished: one round trip for them and any settle still
        buffered. Returns the runs whose last request this was (drained). A ticket already
        counted (a killed worker's journal and the recovered request may both report it)
        counts nothing."""
        tickets = self._unsettled + [(meta.get("run_id", "adhoc"), meta["ticket"])
                                     for meta in metas if meta.get("ticket") is not None]
        if not tickets and not self._counts:
            return []
        counts, self._counts = self._counts, Counter()
        keys_ = [keys.inflight(self.spider, self.worker)]
        keys_ += [keys.run_stats(self.spider, run_id) for run_id, _ in counts]
        args: list[object] = [RUN_KEY_TTL_SECONDS, len(counts)]
        for (_, name), value in counts.items():
            args += [name, value]
        for run_id, ticket in tickets:
            keys_ += [keys.done(self.spider, run_id), keys.pending(self.spider, run_id),
                      keys.live(self.spider, run_id)]
            args.append(ticket)
        try:
            remaining = self._settle(keys=keys_, args=args)
        except RedisError:
            self._counts.update(counts)
            self._unsettled = tickets
            return []
        self._unsettled = []
        drained = []
        for (run_id, ticket), left in zip(tickets, remaining, strict=True):
            self.held.pop(ticket, None)
            if int(left) >= 0:
                self.pending_seen[run_id] = int(left)
            if int(left) == 0 and run_id not in self.lost:
                drained.append(run_id)
        return drained

    @property
    def unsettled(self) -> int:
        """Finished requests not yet told to Redis."""
        return len(self._unsettled)

    def close_run(self, run_id: object) -> dict[str, int]:
        """Collect a drained run's statistics and drop its keys."""
        stats_key = keys.run_stats(self.spider, run_id)
        with self.server.pipeline() as pipe:
            pipe.hgetall(stats_key)
            pipe.delete(stats_key, keys.pending(self.spider, run_id),
                        keys.seen(self.spider, run_id), keys.done(self.spider, run_id),
                        keys.admitted(self.spider, run_id), keys.live(self.spider, run_id))
            raw, _ = pipe.execute()
        return {_text(k): int(v) for k, v in raw.items()}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
