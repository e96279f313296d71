"""Per-domain politeness across all workers: at most N requests in flight to a domain
and at least D seconds between request starts, whichever machine sends them.

A transfer takes a lease (a member of the domain's sorted set, scored by its expiry)
when it starts and gives it back when the response or error arrives; a lease of a
killed worker simply expires. Times come from Redis' own clock, so machines with
skewed clocks agree.

The lease is taken by the download handler (`crawler.patches.download`) when the transfer
starts, not by a downloader middleware: a middleware runs before Scrapy's per-domain
slot queue, so one worker's queued requests held every lease of a domain while other
workers' requests waited (and polled Redis). Each redirect hop and retry is a transfer
of its own, holding one lease at a time.

Giving a lease back costs no round trip of its own. A lease the worker just gave back
goes straight to its next transfer to that domain, while the lease still outlives the
longest transfer and the domain has no delay to space (the delay is Redis' to keep): one
busy domain's transfers then mostly take no round trip at all. Other returned leases ride
on the worker's next acquisition for that domain, or are sent together within
POLL_SECONDS. Until then they still count, so the limits hold; at worst a slot stays
taken one poll period longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import defaultdict
from time import monotonic

from redis import Redis
from redis.exceptions import RedisError

from crawler.cluster import keys

# Drops the leases given back (ARGV[5..]), then returns 1 and records the new lease if the
# domain has room and its next slot is free.
_ACQUIRE = """
for i = 5, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
local now = redis.call('TIME')
local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
if tonumber(ARGV[3]) > 0 then
  if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[3]) then return 0 end
end
redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
POLL_SECONDS = 0.05
# A lease lives this much longer than the longest transfer; a worker hands a lease on to
# its next transfer only within the first half of that spare time, so it cannot expire
# under a transfer (the other half covers the gap between Redis' clock and ours).
SPARE_SECONDS = 30.0


class DomainLeases:
    """The worker's side of the shared per-domain leases."""

    def __init__(self, server: Redis, concurrency: int, delay: float,
                 transfer_timeout: float) -> None:
        self.server = server
        self.concurrency = concurrency
        self.delay_ms = int(delay * 1000)
        self.lease_ms = int((transfer_timeout + SPARE_SECONDS) * 1000)
        self._acquire = server.register_script(_ACQUIRE)
        self._returned: dict[str, list[str]] = defaultdict(list)
        self._taken_at: dict[str, float] = {}  # lease -> when this worker took it
        self._return_timer: asyncio.TimerHandle | None = None

    async def acquire(self, domain: str, concurrency: int | None = None,
                      delay: float | None = None) -> str:
        """Wait until the domain has room across all workers; the lease taken. A source's
        own concurrency and delay (None: the worker's) hold across the cluster too."""
        delay_ms = self.delay_ms if delay is None else int(delay * 1000)
        lease = None if delay_ms else self._reusable(domain)
        if lease is not None:
            return lease
        lease = uuid.uuid4().hex
        while not self._try_acquire(domain, lease, concurrency or self.concurrency, delay_ms):
            await asyncio.sleep(POLL_SECONDS)
        self._taken_at[lease] = monotonic()
        return lease

    def _try_acquire(self, domain: str, lease: str, concurrency: int, delay_ms: int) -> bool:
        """One attempt; a Redis out of reach (after the connection's retries) is no room:
        the transfer waits for it rather than failing its page."""
        try:
            return bool(self._acquire(keys=[keys.domain_leases(domain),
                                            keys.domain_next_slot(domain)],
                                      args=[concurrency, self.lease_ms, delay_ms, lease,
                                            *self._forget(self._returned.pop(domain, []))]))
        except RedisError:
            return False

    def _reusable(self, domain: str) -> str | None:
        """A lease given back and still young enough to cover one more transfer."""
        returned = self._returned.get(domain)
        if not returned:
            return None
        young_since = monotonic() - SPARE_SECONDS / 2
        for at, lease in enumerate(returned):
            if self._taken_at[lease] > young_since:
                return returned.pop(at)
        return None

    def _forget(self, leases: list[str]) -> list[str]:
        """Leases on their way back to Redis."""
        for lease in leases:
            del self._taken_at[lease]
        return leases

    def give_back(self, domain: str, lease: str) -> None:
        """The transfer is over; the lease leaves with the next acquisition or poll."""
        self._returned[domain].append(lease)
        if self._return_timer is None:
            self._return_timer = asyncio.get_running_loop().call_later(
                POLL_SECONDS, self.return_leases)

    def return_leases(self) -> None:
        """Send the leases given back and not yet carried by an acquisition."""
        if self._return_timer is not None:
            self._return_timer.cancel()
            self._return_timer = None
        returned, self._returned = self._returned, defaultdict(list)
        returned = {domain: leases for domain, leases in returned.items() if leases}
        if returned:
            with self.server.pipeline(transaction=False) as pipe:
                for domain, leases in returned.items():
                    pipe.zrem(keys.domain_leases(domain), *self._forget(leases))
                with contextlib.suppress(RedisError):  # unreturned leases expire by themselves
                    pipe.execute()
