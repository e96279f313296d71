"""Putting requests into the shared frontier: the run's seen-set, the queue and the run's
pending count change together, in one atomic script per call.

A worker killed half-way can then neither lose a request that is marked seen but never
queued, nor queue one its run does not count. One call takes any number of requests of
one run: the links of a list page cost one round trip, not one each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from redis import Redis

from crawler.cluster import keys
from crawler.cluster.dupefilter import SEEN_TTL_SECONDS
from crawler.cluster.ledger import RUN_KEY_TTL_SECONDS

# KEYS: seen-set, queue, pending count. ARGV: the two TTLs, then four per request:
# fingerprint ('' = never filtered), queue score, encoded request, '1' if new to the run.
# Returns 1 per request queued, 0 per request already seen in the run.
_ENQUEUE = """
local queued = {}
for i = 3, #ARGV, 4 do
  local fresh = 1
  if ARGV[i] ~= '' then
    fresh = redis.call('SADD', KEYS[1], ARGV[i])
    if fresh == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
  end
  if fresh == 1 then
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i + 2])
    if ARGV[i + 3] == '1' then
      redis.call('INCR', KEYS[3])
      redis.call('EXPIRE', KEYS[3], ARGV[2])
    end
  end
  queued[#queued + 1] = fresh
end
return queued
"""


@dataclass(frozen=True)
class Entry:
    """One request as the frontier stores it."""

    run_id: object
    fingerprint: str  # "" for a request that must not be filtered (dont_filter)
    score: int  # the queue's order: lower first, so minus the priority
    encoded: bytes
    new_ticket: bool  # first time queued (not a redirect, retry or recovered request)


class Frontier:
    """The shared frontier of one spider's crawl runs."""

    def __init__(self, server: Redis, spider: str, queue_key: str) -> None:
        self.spider = spider
        self.queue_key = queue_key
        self._enqueue = server.register_script(_ENQUEUE)

    def add(self, entries: Sequence[Entry]) -> list[bool]:
        """Queue requests, one round trip per crawl run among them; per request, False if
        its run had already seen it."""
        by_run: dict[object, list[int]] = defaultdict(list)
        for at, entry in enumerate(entries):
            by_run[entry.run_id].append(at)
        queued = [False] * len(entries)
        for run_id, ats in by_run.items():
            for at, flag in zip(ats, self._add_run(run_id, [entries[at] for at in ats]),
                                strict=True):
                queued[at] = bool(flag)
        return queued

    def _add_run(self, run_id: object, entries: list[Entry]) -> list[int]:
        args: list[object] = [SEEN_TTL_SECONDS, RUN_KEY_TTL_SECONDS]
        for entry in entries:
            args += [entry.fingerprint, entry.score, entry.encoded, int(entry.new_ticket)]
        return self._enqueue(keys=[keys.seen(self.spider, run_id), self.queue_key,
                                   keys.pending(self.spider, run_id)], args=args)
