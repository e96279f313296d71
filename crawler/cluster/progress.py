"""What a cluster is doing, read from Redis: the runs in flight with their summed
statistics and pending requests, the shared queue per domain, the workers with their last
heartbeat and the figures they publish (`crawler.status.live`). Read by `python -m crawler
status` and by the metrics (`crawler.metrics`); nothing here writes.

A run is in flight while its live marker exists (`keys.live`: set when its start URLs are
queued, deleted when its last request is done). Its statistics are the hash every worker
adds its counts to at each settle (`crawler.cluster.ledger`), so they trail the workers by
at most a heartbeat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from redis import Redis

from crawler.cluster import keys


@dataclass(frozen=True)
class ClusterRun:
    """A run in flight as Redis knows it."""

    run_id: str
    pending: int | None  # requests queued or in flight (None: not counted yet)
    stats: dict[str, int]


@dataclass(frozen=True)
class ClusterWorker:
    """A worker that beats or published its figures within their expiry."""

    name: str
    last_beat: float | None  # seconds since the epoch; None: no heartbeat key (stopped)
    in_flight: int  # requests it holds
    published: dict[str, object] = field(default_factory=dict)  # its `live` hash, decoded


@dataclass(frozen=True)
class ClusterProgress:
    runs: list[ClusterRun]
    queued: int  # requests in the shared queue
    queued_by_domain: dict[str, int]
    workers: list[ClusterWorker]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _middle(key: bytes | str, prefix: str, suffix: str = "") -> str:
    text = _text(key)
    return text[len(prefix):len(text) - len(suffix)]


def live_runs(server: Redis, spider: str) -> list[str]:
    """The ids of the runs in flight, in numeric order where they are numbers."""
    prefix, suffix = keys.live(spider, ""), ":live"
    prefix = prefix[:-len(suffix)]
    found = {_middle(key, prefix, suffix)
             for key in server.scan_iter(match=keys.live(spider, "*"), count=1000)}
    return sorted(found, key=lambda run: (not run.isdigit(), int(run) if run.isdigit() else 0,
                                          run))


def read_runs(server: Redis, spider: str, run_ids: list[str]) -> list[ClusterRun]:
    """Pending count and summed statistics of each run, in one round trip."""
    with server.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.get(keys.pending(spider, run_id))
            pipe.hgetall(keys.run_stats(spider, run_id))
        answers = pipe.execute()
    return [ClusterRun(run_id, None if pending is None else int(pending),
                       {_text(name): int(value) for name, value in stats.items()})
            for run_id, pending, stats in zip(run_ids, answers[::2], answers[1::2],
                                              strict=True)]


def read_queue(server: Redis, spider: str) -> tuple[int, dict[str, int]]:
    """Requests in the shared queue, in all and per domain, read at one instant (MULTI)."""
    with server.pipeline(transaction=True) as pipe:
        pipe.zcard(keys.queue(spider))
        pipe.hgetall(keys.queued_by_domain(spider))
        total, domains = pipe.execute()
    return int(total), {_text(domain): int(count) for domain, count in domains.items()
                        if int(count) > 0}


def read_workers(server: Redis, spider: str) -> list[ClusterWorker]:
    """Every worker with a heartbeat or published figures, by name."""
    beat_prefix = keys.heartbeat(spider, "")
    status_prefix = keys.worker_status(spider, "")
    names = {_middle(key, beat_prefix)
             for key in server.scan_iter(match=keys.heartbeat(spider, "*"), count=1000)}
    names |= {_middle(key, status_prefix)
              for key in server.scan_iter(match=keys.worker_status(spider, "*"), count=1000)}
    ordered = sorted(names)
    with server.pipeline(transaction=False) as pipe:
        for name in ordered:
            pipe.get(keys.heartbeat(spider, name))
            pipe.hlen(keys.inflight(spider, name))
            pipe.hgetall(keys.worker_status(spider, name))
        answers = pipe.execute()
    workers = []
    for at, name in enumerate(ordered):
        beat, in_flight, published = answers[3 * at:3 * at + 3]
        workers.append(ClusterWorker(name, _beat_time(beat), int(in_flight),
                                     {_text(k): json.loads(v) for k, v in published.items()}))
    return workers


def _beat_time(value: bytes | None) -> float | None:
    """A heartbeat's time; a beat written by an older worker ("1") counts as alive, time
    unknown (0)."""
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        return 0.0


def read_progress(server: Redis, spider: str, run_id: str | None = None) -> ClusterProgress:
    """Everything `status` shows from Redis (one run's only, when `run_id` is given)."""
    runs = [run_id] if run_id is not None else live_runs(server, spider)
    queued, domains = read_queue(server, spider)
    return ClusterProgress(read_runs(server, spider, runs), queued, domains,
                           read_workers(server, spider))
