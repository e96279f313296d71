"""scrapy-redis's priority queue with a reliable pop: taking a request and recording it as
this worker's in-flight work is one atomic step (the RPOPLPUSH pattern), so a worker
killed right after a pop cannot make a request vanish. One pop takes up to `pop_batch`
requests (a round trip per request was a good part of a worker's wait); the ones not
yet handed to the engine wait in the worker, already held, so they are recovered like
any in-flight request if the worker dies.

A pop is downloader-aware, as Scrapy's own default queue (`DownloaderAwarePriorityQueue`)
is: among the `lookahead` highest-priority entries it takes those of the domains this
worker has the fewest requests in flight for, in priority order among equals. A list page
queues its records together at a high priority; popped in strict order they filled the
worker's concurrency with one domain's requests, waiting in its slot for the domain's
delay while the other domains' slots stood empty (docs/BENCHMARKS.md, latency mode).

Each entry is stored as `ticket\\tdomain\\n<scrapy-redis encoded request>`; the ticket names
the request in the worker's in-flight hash, and the domain's count of queued requests
(`crawler.cluster.enqueue`) goes down as the entry is popped, up as a recovered one is
pushed back. (An entry without a domain, queued by an older version, is counted nowhere.)
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable

from scrapy import Request
from scrapy_redis.queue import PriorityQueue

from crawler.bounded_scheduler import request_domain

# Of the ARGV[2] highest-priority entries, pop ARGV[1]: each time the first of those whose
# domain has the fewest requests in flight (ARGV[3..] pairs a domain with its count; a
# taken entry counts for its domain). Hold each under its ticket in the in-flight hash
# (KEYS[2]) and count it out of its domain's queued requests (KEYS[3]).
_POP_AND_HOLD = """
local entries = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #entries == 0 then return entries end
local busy = {}
for i = 3, #ARGV, 2 do busy[ARGV[i]] = tonumber(ARGV[i + 1]) end
local tickets, domains = {}, {}
for i, entry in ipairs(entries) do
  local head = string.match(entry, '^([^\\n]*)\\n')
  local ticket, domain = string.match(head, '^([^\\t]*)\\t(.*)$')
  tickets[i], domains[i] = ticket or head, domain or ''
end
local taken, picked = {}, {}
for _ = 1, math.min(tonumber(ARGV[1]), #entries) do
  local best, least = nil, nil
  for i = 1, #entries do
    local load = busy[domains[i]] or 0
    if not picked[i] and (least == nil or load < least) then best, least = i, load end
  end
  picked[best] = true
  busy[domains[best]] = least + 1
  taken[#taken + 1] = entries[best]
  if domains[best] ~= '' then
    if redis.call('HINCRBY', KEYS[3], domains[best], -1) <= 0 then
      redis.call('HDEL', KEYS[3], domains[best])
    end
  end
  redis.call('HSET', KEYS[2], tickets[best], entries[best])
end
redis.call('ZREM', KEYS[1], unpack(taken))
return taken
"""


class AckPriorityQueue(PriorityQueue):
    """A priority queue whose pops land in `inflight_key` until acknowledged."""

    inflight_key = ""  # set by the scheduler once it knows the worker's name
    pop_batch: int  # set by the scheduler from CLUSTER_POP_BATCH
    lookahead = 1  # strict priority order, unless the scheduler sets CLUSTER_POP_LOOKAHEAD
    domains_key = ""  # the queued-per-domain hash, set by the scheduler

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._pop_and_hold = self.server.register_script(_POP_AND_HOLD)
        self._taken: deque[bytes] = deque()  # held in Redis, not yet handed out
        self.held: dict[str, bytes] = {}  # ticket -> entry taken; the scheduler shares the ledger's
        # the worker's requests in flight per domain (the scheduler's: its downloader's)
        self.in_flight: Callable[[], Counter[str]] = Counter

    def __len__(self) -> int:
        return super().__len__() + len(self._taken)

    def _encode_request(self, request: Request) -> bytes:
        """scrapy-redis' encoding, with the callbacks named directly rather than found by
        Scrapy's `to_dict`, which lists every member of the spider; they are left out of
        `to_dict` for the call itself (nothing else runs meanwhile) rather than on a copy
        (docs/DECISIONS.md, "Queue encoding")."""
        callback, errback = request.callback, request.errback
        request.callback = request.errback = None
        try:
            as_dict = request.to_dict()
        finally:
            request.callback, request.errback = callback, errback
        as_dict["callback"] = self._method_name(callback)
        as_dict["errback"] = self._method_name(errback)
        head = f"{request.meta['ticket']}\t{request_domain(request)}\n".encode()
        return head + self.serializer.dumps(as_dict)

    def _method_name(self, method: object) -> str | None:
        """The name of a spider method, checked as Scrapy checks it."""
        if method is None:
            return None
        name = getattr(method, "__name__", "")
        own = getattr(getattr(self.spider, name, None), "__func__", None)
        if own is None or own is not getattr(method, "__func__", None):
            raise ValueError(f"Function {method} is not an instance method in: {self.spider}")
        return name

    def _decode_request(self, encoded_request: bytes) -> Request:
        return super()._decode_request(encoded_request.split(b"\n", 1)[1])

    def push(self, request: Request) -> None:
        """Put a request back (a stopped worker's, recovered), counted in its domain."""
        super().push(request)
        self.server.hincrby(self.domains_key, request_domain(request), 1)

    def pop(self, timeout: int = 0) -> Request | None:
        if not self._taken:
            busy = [part for pair in self.in_flight().items() for part in pair]
            taken = self._pop_and_hold(
                keys=[self.key, self.inflight_key, self.domains_key],
                args=[self.pop_batch, max(self.lookahead, self.pop_batch), *busy])
            for entry in taken:
                ticket = entry.split(b"\n", 1)[0].split(b"\t", 1)[0]
                self.held[ticket.decode()] = entry
            self._taken.extend(taken)
        return self._decode_request(self._taken.popleft()) if self._taken else None
