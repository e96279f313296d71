"""scrapy-redis's priority queue with a reliable pop: taking a request and recording it as
this worker's in-flight work is one atomic step (the RPOPLPUSH pattern), so a worker
killed right after a pop cannot make a request vanish.

Each entry is stored as `ticket\\n<scrapy-redis encoded request>`; the ticket names the
request in the worker's in-flight hash.
"""

from __future__ import annotations

from scrapy import Request
from scrapy_redis.queue import PriorityQueue

# Pop the highest-priority entry and hold it under its ticket in the in-flight hash.
_POP_AND_HOLD = """
local entry = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
if not entry then return false end
redis.call('ZREM', KEYS[1], entry)
local ticket = string.match(entry, '^([^\\n]*)\\n')
redis.call('HSET', KEYS[2], ticket, entry)
return entry
"""


class AckPriorityQueue(PriorityQueue):
    """A priority queue whose pops land in `inflight_key` until acknowledged."""

    inflight_key = ""  # set by the scheduler once it knows the worker's name

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._pop_and_hold = self.server.register_script(_POP_AND_HOLD)

    def _encode_request(self, request: Request) -> bytes:
        return request.meta["ticket"].encode() + b"\n" + super()._encode_request(request)

    def _decode_request(self, encoded_request: bytes) -> Request:
        return super()._decode_request(encoded_request.split(b"\n", 1)[1])

    def pop(self, timeout: int = 0) -> Request | None:
        entry = self._pop_and_hold(keys=[self.key, self.inflight_key])
        return self._decode_request(entry) if entry else None
