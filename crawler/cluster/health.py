"""The run-level crawl health the scheduler evaluates at each check: sources whose runs
store nothing new, sources whose latest run mostly failed (from `crawl_run`), and workers
whose heartbeat stopped (from the workers' hash in Redis, `keys.workers`). Facts are read
here; the rules are pipelines/health.py's, the reporting reading/health_alerts.py's.

Settings (crawler/settings.py, the environment first): HEALTH_EMPTY_RUNS,
HEALTH_ERROR_RATE, HEALTH_ERROR_MIN_PAGES, HEALTH_WORKER_SILENT_SECONDS,
HEALTH_WORKER_FORGET_SECONDS.
"""

from __future__ import annotations

import logging
import time

from redis import Redis
from sqlalchemy import select, true
from sqlalchemy.orm import Session

from crawler import settings
from crawler.cluster import keys
from models.crawl import CrawlRun, Source
from pipelines.health import (
    HealthEvent,
    RunFacts,
    empty_runs,
    error_rate,
    stand_ins,
    stopped_workers,
)

logger = logging.getLogger(__name__)


def latest_runs(session: Session, per_source: int) -> dict[str, list[RunFacts]]:
    """Each enabled source's last `per_source` finished runs, newest first: a short walk
    down the (source_id, id) index per source, however many runs the store keeps. On
    PostgreSQL in one round trip (LATERAL); SQLite, in-process, has none to save."""
    finished = (select(CrawlRun.id, CrawlRun.stats).where(CrawlRun.status == "finished")
                .order_by(CrawlRun.id.desc()).limit(per_source))
    enabled = Source.enabled.is_(True)
    if session.get_bind().dialect.name == "postgresql":
        latest = finished.where(CrawlRun.source_id == Source.id).lateral()
        rows = session.execute(select(Source.name, latest.c.id, latest.c.stats)
                               .join(latest, true()).where(enabled)).all()
    else:
        rows = [(name, *run) for source_id, name in session.execute(
                    select(Source.id, Source.name).where(enabled))
                for run in session.execute(finished.where(CrawlRun.source_id == source_id))]
    runs: dict[str, list[RunFacts]] = {}
    for name, run_id, stats in sorted(rows, key=lambda row: (row[0], -row[1])):
        runs.setdefault(name, []).append(RunFacts(run_id, stats or {}))
    return runs


def worker_beats(server: Redis, spider: str, now: float) -> tuple[dict[str, float],
                                                                    dict[str, float]]:
    """Each worker's last heartbeat, and its start; workers silent for
    HEALTH_WORKER_FORGET_SECONDS are forgotten (and so their condition clears)."""
    def floats(key: str) -> dict[str, float]:
        return {(name.decode() if isinstance(name, bytes) else name): float(value)
                for name, value in server.hgetall(key).items()}

    beats, starts = floats(keys.workers(spider)), floats(keys.worker_starts(spider))
    forgotten = [name for name, beat in beats.items()
                 if now - beat >= settings.HEALTH_WORKER_FORGET_SECONDS]
    forget(server, spider, forgotten)
    return ({name: beat for name, beat in beats.items() if name not in forgotten},
            {name: start for name, start in starts.items() if name not in forgotten})


def forget(server: Redis, spider: str, workers: list[str]) -> None:
    """Drop stopped workers from the workers' hashes."""
    if workers:
        with server.pipeline(transaction=False) as pipe:
            pipe.hdel(keys.workers(spider), *workers)
            pipe.hdel(keys.worker_starts(spider), *workers)
            pipe.execute()


def run_health(session: Session, server: Redis, spider: str) -> list[HealthEvent]:
    """The run-level conditions that hold now. A silent worker with a stand-in (back or
    replaced, `stand_ins`) is forgotten, so its condition clears and is not raised again."""
    runs = latest_runs(session, max(1, settings.HEALTH_EMPTY_RUNS))
    now = time.time()
    beats, starts = worker_beats(server, spider, now)
    replaced = stand_ins(beats, starts, now, settings.HEALTH_WORKER_SILENT_SECONDS)
    for worker, stand_in in replaced.items():
        logger.info("worker %s stopped; %s stands in for it", worker, stand_in)
    forget(server, spider, list(replaced))
    return [*empty_runs(runs, settings.HEALTH_EMPTY_RUNS),
            *error_rate(runs, settings.HEALTH_ERROR_RATE, settings.HEALTH_ERROR_MIN_PAGES),
            *stopped_workers({worker: beat for worker, beat in beats.items()
                              if worker not in replaced}, now,
                             settings.HEALTH_WORKER_SILENT_SECONDS)]
