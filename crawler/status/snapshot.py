"""One look at the crawl: the runs in flight, the shared queue and the workers.

With Redis (REDIS_URL) a run in flight is one whose live marker exists; its statistics are
the cluster's sums (`crawler.cluster.progress`), its rate the sum of its workers' published
rates. Without Redis (single-process crawls), or for a run Redis does not know, it is an
unfinished `crawl_run` row, with the statistics its crawl writes there every
STATUS_PUBLISH_SECONDS (`crawler.status.live`). An unfinished row that was not updated for
STATUS_STALE_SECONDS (a crawl killed before it could record its end) is counted as stale,
not shown, unless asked for by id.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from redis import Redis
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from crawler.cluster.progress import ClusterProgress, ClusterWorker, read_progress
from models.crawl import CrawlRun, Source

# pages/<outcome> of a stored page (crawler/persistence.py); the rest of pages/… are types,
# caps and skips
OUTCOMES = ("new", "updated", "unchanged", "not_modified", "rejected")


@dataclass(frozen=True)
class RunView:
    """A run as `status` shows it."""

    run_id: int | str
    source: str | None = None
    status: str = "running"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    pages_by_type: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    per_minute: float | None = None  # pages stored over the last minute
    pending: int | None = None  # requests queued or in flight (cluster)
    updated_seconds_ago: float | None = None  # since its figures were last written


@dataclass(frozen=True)
class WorkerView:
    name: str
    alive: bool  # its heartbeat key exists
    last_beat_seconds_ago: float | None
    in_flight: int
    stored: int | None = None  # pages it stored since it started
    per_minute: float | None = None
    backlog: int | None = None  # pages journalled, not yet committed


@dataclass(frozen=True)
class Snapshot:
    taken_at: datetime
    mode: str  # "cluster" (Redis) or "database"
    runs: list[RunView]
    stale_runs: int = 0
    queued: int | None = None  # requests in the shared queue (cluster)
    queued_by_domain: dict[str, int] = field(default_factory=dict)
    workers: list[WorkerView] = field(default_factory=list)


def split_stats(stats: dict[str, Any]) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """A run's statistics as (pages per type, pages per outcome, errors per kind)."""
    types, outcomes, errors = {}, {}, {}
    for name, value in stats.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        group, _, rest = name.partition("/")
        if group == "pages" and rest.startswith("type/"):
            types[rest[len("type/"):]] = int(value)
        elif group == "pages" and rest in OUTCOMES:
            outcomes[rest] = int(value)
        elif group == "errors":
            errors[rest] = int(value)
    return types, outcomes, errors


def _seconds_between(later: datetime, earlier: datetime | None) -> float | None:
    if earlier is None:
        return None
    if earlier.tzinfo is None:
        earlier = earlier.replace(tzinfo=UTC)
    return (later - earlier).total_seconds()


def _from_row(run: CrawlRun, source: str | None, now: datetime) -> RunView:
    """A run from its `crawl_run` row: final statistics, or those its crawl wrote so far."""
    stats = run.stats or {}
    types, outcomes, errors = split_stats(stats)
    updated = stats.get("live/updated_at")
    ago = (now.timestamp() - float(updated) if isinstance(updated, int | float)
           else _seconds_between(now, run.started_at))
    rate = stats.get("live/pages_per_minute") if run.finished_at is None else None
    return RunView(run.id, source, run.status, run.started_at, run.finished_at, types,
                   outcomes, errors, rate, None, ago if run.finished_at is None else None)


def _worker_view(worker: ClusterWorker, now: float) -> WorkerView:
    published = worker.published

    def number(name: str) -> Any:
        value = published.get(name)
        return value if isinstance(value, int | float) else None

    return WorkerView(worker.name, worker.last_beat is not None,
                      now - worker.last_beat if worker.last_beat else None, worker.in_flight,
                      number("stored"), number("per_minute"), number("backlog"))


def take_snapshot(sessions: sessionmaker[Session], server: Redis | None, spider: str,
                  run_id: int | None = None, stale_seconds: float = 60.0) -> Snapshot:
    """The runs in flight (or the run `run_id`, finished or not), with the cluster's queue
    and workers when `server` is given."""
    now = datetime.now(UTC)
    query = select(CrawlRun, Source.name).outerjoin(Source, Source.id == CrawlRun.source_id)
    query = query.where(CrawlRun.id == run_id) if run_id is not None else \
        query.where(CrawlRun.finished_at.is_(None))
    with sessions() as session:
        rows = {run.id: _from_row(run, name, now)
                for run, name in session.execute(query.order_by(CrawlRun.id))}
    if server is None:
        return _database_snapshot(now, rows, run_id, stale_seconds)
    cluster = read_progress(server, spider, None if run_id is None else str(run_id))
    return _cluster_snapshot(now, rows, cluster, run_id, stale_seconds)


def _database_snapshot(now: datetime, rows: dict[int, RunView], run_id: int | None,
                       stale_seconds: float) -> Snapshot:
    shown = [run for run in rows.values() if run_id is not None or not _stale(run, stale_seconds)]
    return Snapshot(now, "database", shown, len(rows) - len(shown))


def _stale(run: RunView, stale_seconds: float) -> bool:
    return run.finished_at is None and (run.updated_seconds_ago or 0) > stale_seconds


def _cluster_snapshot(now: datetime, rows: dict[int, RunView], cluster: ClusterProgress,
                      run_id: int | None, stale_seconds: float) -> Snapshot:
    """Runs live in Redis with the cluster's figures; unfinished rows Redis does not know
    (single-process crawls) as their rows say."""
    rates: dict[str, float] = {}
    for worker in cluster.workers:
        runs = worker.published.get("runs")
        for run, rate in (runs.items() if isinstance(runs, dict) else ()):
            rates[run] = rates.get(run, 0.0) + float(rate)
    views: dict[int | str, RunView] = {}
    for live in cluster.runs:
        if live.pending is None and not live.stats:
            continue  # asked for by id, and Redis knows nothing of it
        key: int | str = int(live.run_id) if live.run_id.isdigit() else live.run_id
        row = rows.get(key) if isinstance(key, int) else None
        types, outcomes, errors = split_stats(live.stats)
        views[key] = RunView(key, row.source if row else None, "running",
                             row.started_at if row else None, None, types, outcomes, errors,
                             rates.get(live.run_id, 0.0), live.pending, 0.0)
    stale = 0
    for key, row in rows.items():
        if key in views:
            continue
        if run_id is None and _stale(row, stale_seconds):
            stale += 1
        else:
            views[key] = row
    clock = time.time()
    ordered = sorted(views.values(), key=lambda run: (isinstance(run.run_id, str),
                                                      str(run.run_id).zfill(20)))
    return Snapshot(now, "cluster", ordered, stale, cluster.queued, cluster.queued_by_domain,
                    [_worker_view(worker, clock) for worker in cluster.workers])
