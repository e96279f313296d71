"""Every Redis key the cluster uses, in one place, namespaced by spider name."""

from __future__ import annotations

SPIDER = "site"  # the spider whose runs the scheduler starts and `status` shows


def start_urls(spider: str) -> str:
    return f"{spider}:start_urls"


def queue(spider: str) -> str:
    """The shared request queue (scrapy-redis's SCHEDULER_QUEUE_KEY, its default)."""
    return f"{spider}:requests"


def _run(spider: str, run_id: object, part: str) -> str:
    """A key of one crawl run: its own namespace, so a finished run's keys can expire."""
    return f"{spider}:run:{run_id}:{part}"


def seen(spider: str, run_id: object) -> str:
    return _run(spider, run_id, "seen")


def pending(spider: str, run_id: object) -> str:
    return _run(spider, run_id, "pending")


def live(spider: str, run_id: object) -> str:
    """Set when the run starts, deleted when it ends: a run whose marker a Redis restart
    took is a run whose frontier is lost (nothing else ever sets it again)."""
    return _run(spider, run_id, "live")


def done(spider: str, run_id: object) -> str:
    return _run(spider, run_id, "done")


def run_stats(spider: str, run_id: object) -> str:
    return _run(spider, run_id, "stats")


def admitted(spider: str, run_id: object) -> str:
    """How many requests the run has queued, for its page limit."""
    return _run(spider, run_id, "admitted")


def queued_by_domain(spider: str) -> str:
    """A hash: requests in the shared queue per domain, for the domain queue limit."""
    return f"{spider}:queued-by-domain"


def inflight(spider: str, worker: str) -> str:
    return f"{spider}:inflight:{worker}"


def heartbeat(spider: str, worker: str) -> str:
    """A worker's heartbeat: the time of its last beat (seconds since the epoch), expiring
    after three beats."""
    return f"{spider}:worker:{worker}"


def worker_status(spider: str, worker: str) -> str:
    """A hash of a worker's running figures (`crawler.status.live`)."""
    return f"{spider}:worker-status:{worker}"


def workers(spider: str) -> str:
    """A hash: each worker's last heartbeat (Unix time); a worker that closes leaves it, one
    killed stays, which is how the scheduler sees that a heartbeat stopped."""
    return f"{spider}:workers"


def worker_starts(spider: str) -> str:
    """A hash: when each worker in `workers` started (Unix time), so that the scheduler tells
    a worker started after a silent one stopped (its stand-in) from one that ran alongside."""
    return f"{spider}:worker-starts"


def domain_leases(domain: str) -> str:
    return f"politeness:{domain}:leases"


def domain_next_slot(domain: str) -> str:
    return f"politeness:{domain}:next"
