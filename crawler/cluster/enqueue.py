"""Putting requests into the shared frontier: the run's seen-set, the queue and the run's
pending count change together, in one atomic script per call, under the run's limits.

A worker killed half-way can then neither lose a request that is marked seen but never
queued, nor queue one its run does not count. One call takes any number of requests of
one run: the links of a list page cost one round trip, not one each.

The limits hold across all workers (`crawler.bounds`): a run's new requests are counted
(its page limit), and the shared queue's requests per domain (its domain queue limit, the
count going down as workers pop them, `crawler.cluster.queue`). A request over either is
not queued; requests already counted in their run (redirects, retries, recovered ones)
always are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from redis import Redis

from crawler.cluster import keys
from crawler.cluster.dupefilter import SEEN_TTL_SECONDS
from crawler.cluster.ledger import RUN_KEY_TTL_SECONDS

# KEYS: seen-set, queue, pending count, admitted count, queued-per-domain hash. ARGV: the
# two TTLs, the run's page limit and domain queue limit (0: none), then five per request:
# fingerprint ('' = never filtered), queue score, encoded request, '1' if new to the run,
# domain. Returns an Outcome per request. An empty queue has no domain counts (a queue
# emptied by hand leaves none behind).
_ENQUEUE = """
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[5]) end
local page_limit, domain_limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local outcomes = {}
for i = 5, #ARGV, 5 do
  local outcome = 1
  local new, domain = ARGV[i + 3] == '1', ARGV[i + 4]
  if ARGV[i] ~= '' then
    outcome = redis.call('SADD', KEYS[1], ARGV[i])
    if outcome == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
  end
  if outcome == 1 and new and domain_limit > 0
      and tonumber(redis.call('HGET', KEYS[5], domain) or '0') >= domain_limit then
    outcome = 3
  end
  if outcome == 1 and new and page_limit > 0 then
    if redis.call('INCR', KEYS[4]) > page_limit then outcome = 2 end
    redis.call('EXPIRE', KEYS[4], ARGV[2])
  end
  if outcome == 1 then
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i + 2])
    redis.call('HINCRBY', KEYS[5], domain, 1)
    if new then
      redis.call('INCR', KEYS[3])
      redis.call('EXPIRE', KEYS[3], ARGV[2])
    end
  end
  outcomes[#outcomes + 1] = outcome
end
return outcomes
"""


class Outcome(IntEnum):
    """What became of a request offered to the frontier."""

    SEEN = 0  # its run had seen it: not queued
    QUEUED = 1
    OVER_PAGE_LIMIT = 2  # its run has queued as many requests as its page limit
    OVER_DOMAIN_LIMIT = 3  # its domain has as many requests queued as the limit


@dataclass(frozen=True)
class Entry:
    """One request as the frontier stores it."""

    run_id: object
    fingerprint: str  # "" for a request that must not be filtered (dont_filter)
    score: int  # the queue's order: lower first, so minus the priority
    encoded: bytes
    new_ticket: bool  # first time queued (not a redirect, retry or recovered request)
    domain: str = ""  # the host it is queued under (`bounded_scheduler.request_domain`)
    page_limit: int = 0  # its run's (0: none)
    domain_limit: int = 0  # requests queued per domain (0: none)


class Frontier:
    """The shared frontier of one spider's crawl runs."""

    def __init__(self, server: Redis, spider: str, queue_key: str) -> None:
        self.spider = spider
        self.queue_key = queue_key
        self._enqueue = server.register_script(_ENQUEUE)

    def add(self, entries: Sequence[Entry]) -> list[Outcome]:
        """Queue requests, one round trip per crawl run among them; per request, what
        became of it."""
        by_run: dict[object, list[int]] = defaultdict(list)
        for at, entry in enumerate(entries):
            by_run[entry.run_id].append(at)
        outcomes = [Outcome.SEEN] * len(entries)
        for run_id, ats in by_run.items():
            for at, outcome in zip(ats, self._add_run(run_id, [entries[at] for at in ats]),
                                   strict=True):
                outcomes[at] = Outcome(outcome)
        return outcomes

    def _add_run(self, run_id: object, entries: list[Entry]) -> list[int]:
        args: list[object] = [SEEN_TTL_SECONDS, RUN_KEY_TTL_SECONDS, entries[0].page_limit,
                              entries[0].domain_limit]
        for entry in entries:
            args += [entry.fingerprint, entry.score, entry.encoded, int(entry.new_ticket),
                     entry.domain]
        return self._enqueue(keys=[keys.seen(self.spider, run_id), self.queue_key,
                                   keys.pending(self.spider, run_id),
                                   keys.admitted(self.spider, run_id),
                                   keys.queued_by_domain(self.spider)], args=args)
